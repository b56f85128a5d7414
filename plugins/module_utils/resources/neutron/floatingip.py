# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::FloatingIP and OS::Neutron::FloatingIPAssociation (Heat's
floatingip.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import short_id
from ..base import TAG_STACK
from .common import NeutronPlugin, as_dict, listed, lookup_id


class FloatingIP(NeutronPlugin):
    type_name = 'OS::Neutron::FloatingIP'
    entity = 'ip'
    collection = 'ips'
    aliases = {'floating_network_id': 'floating_network'}
    drift_keys = {'port_id': 'port_id', 'fixed_ip_address': 'fixed_ip_address',
                  'floating_ip_address': 'floating_ip_address'}

    prefetch_properties = (('floating_network',),)

    @classmethod
    def validate(cls, given):
        """Heat's FloatingIP.validate (value_specs unchecked: see
        NeutronPlugin)."""
        props = given.props
        if props.get('port_id') is None and props.get('fixed_ip_address') is not None:
            given.fail('fixed_ip_address cannot be specified without port_id.',
                       'fixed_ip_address')

    def prefetch(self, ctx):
        lookup_id(ctx, 'network', ctx.properties.get('floating_network'))

    def create_body(self, ctx):
        body = super(FloatingIP, self).create_body(ctx)
        body['floating_network_id'] = lookup_id(ctx, 'network', body.pop('floating_network'))
        if 'floating_subnet' in body:
            body['subnet_id'] = lookup_id(ctx, 'subnet', body.pop('floating_subnet'))
        return body

    def find(self, ctx):
        """By the stack marks, else (a create whose answer was lost, or killed
        before the marks were set: a floating IP has no name to find it by)
        the address Neutron gave the wanted port on that network: Neutron
        allows one per fixed IP and network, and the port is this stack's to
        give.  One marked by a stack is never taken."""
        found = super(FloatingIP, self).find(ctx)
        props = ctx.properties
        if found is not None or not props.get('port_id'):
            return found
        query = {'port_id': lookup_id(ctx, 'port', props['port_id']),
                 'floating_network_id': lookup_id(ctx, 'network', props.get('floating_network'))}
        if props.get('fixed_ip_address'):
            query['fixed_ip_address'] = props['fixed_ip_address']
        ips = [ip for ip in listed(ctx.conn.network.ips, **query)
               if not any(str(t).startswith(TAG_STACK + '=') for t in (getattr(ip, 'tags', None) or ()))]
        return ips[0].id if len(ips) == 1 else None

    def update(self, ctx):
        # Heat sends the association only (dns_name/dns_domain changes are
        # accepted and not sent, as in Heat), both keys, unchanged ones too.
        props = ctx.properties
        sdk.call(ctx.conn.network.update_ip, ctx.physical_id,
                 port_id=props.get('port_id'), fixed_ip_address=props.get('fixed_ip_address'))

    def drift(self, ctx, live):
        out = super(FloatingIP, self).drift(ctx, live)
        # no port wanted but the address is associated
        if isinstance(live, dict) and ctx.properties.get('port_id') is None and live.get('port_id'):
            out.append('port_id')
        return out


class FloatingIPAssociation(NeutronPlugin):
    """Heat names an association by its own database id, which means nothing
    outside Heat; here the reference id is the physical name the engine
    committed before the create (stable, unique), so get_resource of it gives
    an opaque id as in Heat."""

    type_name = 'OS::Neutron::FloatingIPAssociation'
    taggable = False

    def _ref(self, ctx):
        return ctx.physical_id or ctx.physical_name or short_id()

    def create(self, ctx):
        props = ctx.properties
        body = {'port_id': props.get('port_id')}
        if props.get('fixed_ip_address') is not None:
            body['fixed_ip_address'] = props['fixed_ip_address']
        obj = sdk.call(ctx.conn.network.update_ip, props.get('floatingip_id'), **body)
        ctx.live = as_dict(obj)
        return self._ref(ctx)

    def update(self, ctx):
        old = ctx.old_properties or ctx.properties
        new = ctx.properties
        changed = ctx.changed
        fip = old.get('floatingip_id')
        if 'floatingip_id' in changed:
            sdk.get_or_none(ctx.conn.network.update_ip, fip, port_id=None)
        fip = (new.get('floatingip_id') if 'floatingip_id' in changed else None) or fip
        port = (new.get('port_id') if 'port_id' in changed else None) or old.get('port_id')
        # Heat falls back to the old address when the new one is unset
        fixed = (new.get('fixed_ip_address') if 'fixed_ip_address' in changed else None) or \
            old.get('fixed_ip_address')
        sdk.call(ctx.conn.network.update_ip, fip, port_id=port, fixed_ip_address=fixed)

    def delete(self, ctx):
        if not ctx.physical_id:
            return
        sdk.get_or_none(ctx.conn.network.update_ip, ctx.properties.get('floatingip_id'), port_id=None)

    def show(self, ctx):
        """The floating IP while it is associated with our port, else None."""
        fip = as_dict(sdk.get_or_none(ctx.conn.network.get_ip, ctx.properties.get('floatingip_id')))
        if fip is None or fip.get('port_id') != ctx.properties.get('port_id'):
            return None
        return fip

    def find(self, ctx):
        return self._ref(ctx) if self.show(ctx) is not None else None

    def found_is_whole(self, ctx):
        return False   # find sees the address, not whether this PUT moved it

    def attributes(self, ctx, live, names=None):
        return {'show': None}   # Heat has no entity to show

    def drift(self, ctx, live):
        fixed = ctx.properties.get('fixed_ip_address')
        if isinstance(live, dict) and fixed and live.get('fixed_ip_address') != fixed:
            return ['fixed_ip_address']
        return []

    def needs_replace_failed(self, ctx):
        return self.show(ctx) is None
