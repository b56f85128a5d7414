# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::FloatingIPPortForward (Heat's floatingip.py): a port of a
floating IP forwarded to a port inside.  It lives under its floating IP
(``/floatingips/{fip}/port_forwardings/{id}``), whose id is kept in the
row's data.  Neutron keeps one forwarding per floating IP, protocol and
external port, so ``find`` knows the one an interrupted create made."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound
from .common import NeutronPlugin, is_uuid, lookup_id
from .raw import raw_delete_path, raw_list

# property -> Neutron's field (Heat's renames in handle_create and handle_update)
FIELDS = {'internal_ip_address': 'internal_ip_address', 'internal_port_number': 'internal_port',
          'external_port': 'external_port', 'internal_port': 'internal_port_id', 'protocol': 'protocol'}


class FloatingIPPortForward(NeutronPlugin):
    type_name = 'OS::Neutron::FloatingIPPortForward'
    taggable = False

    def floating_ip(self, ctx):
        """Heat's find_network_ip: the floating IP by id or address."""
        if not ctx.data.get('floating_ip_id'):
            value = ctx.properties.get('floating_ip')
            if is_uuid(value):
                ctx.data['floating_ip_id'] = value
            else:
                found = raw_list(ctx.conn, '/floatingips', 'floatingips', floating_ip_address=value)
                if len(found) != 1:
                    ctx.fail('No FloatingIP found for %s' % value)
                ctx.data['floating_ip_id'] = found[0]['id']
        return ctx.data['floating_ip_id']

    def path(self, ctx, ident=None):
        base = '/floatingips/%s/port_forwardings' % self.floating_ip(ctx)
        return base if ident is None else '%s/%s' % (base, ident)

    def _body(self, ctx, names):
        body = {}
        for prop in names:
            value = ctx.properties.get(prop)
            if prop == 'internal_port':
                value = lookup_id(ctx, 'port', value)
            body[FIELDS[prop]] = value
        return body

    def create(self, ctx):
        body = dict((k, v) for k, v in self._body(ctx, FIELDS).items() if v is not None)
        made = sdk.request_json(ctx.conn.network, 'POST', self.path(ctx), {'port_forwarding': body},
                                retry_writes=False)['port_forwarding']
        ctx.live = made
        return made['id']

    def create_later(self, ctx):
        return None

    def update(self, ctx):
        body = self._body(ctx, [k for k in ctx.changed if k in FIELDS])
        if body:
            sdk.request_json(ctx.conn.network, 'PUT', self.path(ctx, ctx.physical_id),
                             {'port_forwarding': body})

    def delete(self, ctx):
        if ctx.physical_id:
            raw_delete_path(ctx.conn, self.path(ctx, ctx.physical_id))

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        try:
            live = sdk.request_json(ctx.conn.network, 'GET', self.path(ctx, ctx.physical_id))
        except CloudNotFound:
            return None
        ctx.live = live['port_forwarding']
        return ctx.live

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        want = self._body(ctx, FIELDS)
        return sorted(prop for prop, field in FIELDS.items()
                      if want[field] is not None and live.get(field) != want[field])

    def find(self, ctx):
        found = raw_list(ctx.conn, self.path(ctx), 'port_forwardings',
                         protocol=ctx.properties.get('protocol'),
                         external_port=ctx.properties.get('external_port'))
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return True
