# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Port (Heat's port.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...hot.type_checks import conflict
from .common import (NeutronPlugin, changed_specs, extensions, is_uuid, lookup_id, prepare_update,
                     raw_get, secgroup_ids)

# With this extension Neutron takes a port's tags in the POST body; without
# it (the common case up to 2026.2) it silently drops them.
TAGS_IN_POST = 'tag-ports-during-bulk-creation'


class Port(NeutronPlugin):
    type_name = 'OS::Neutron::Port'
    entity = 'port'
    collection = 'ports'
    has_status = True
    aliases = {'network_id': 'network'}
    drift_keys = {'name': 'name', 'admin_state_up': 'admin_state_up', 'device_id': 'device_id',
                  'device_owner': 'device_owner', 'dns_name': 'dns_name',
                  'port_security_enabled': 'port_security_enabled',
                  'binding:vnic_type': 'binding:vnic_type',
                  'propagate_uplink_status': 'propagate_uplink_status'}
    costly = {'subnets': '_subnets', 'network': '_network'}

    @classmethod
    def validate(cls, given):
        """Heat's Port.validate (value_specs unchecked: see NeutronPlugin)."""
        props = given.props
        if props.get('fixed_ips') and props.get('no_fixed_ips'):
            given.fail(conflict('fixed_ips', 'no_fixed_ips'), 'fixed_ips')

    def props(self, ctx, source=None):
        props = super(Port, self).props(ctx, source)
        if props.get('fixed_ips'):
            fixed = []
            for item in props['fixed_ips']:
                item = dict(item or {})
                legacy = item.pop('subnet_id', None)
                if item.get('subnet') is None and legacy is not None:
                    item['subnet'] = legacy
                fixed.append(item)
            props['fixed_ips'] = fixed
        return props

    def _prepare(self, ctx, body, for_update=False):
        """Heat's _prepare_port_properties on a create body or a prop diff."""
        if not body.pop('no_fixed_ips', False):
            if 'fixed_ips' in body:
                if body['fixed_ips']:
                    fixed = []
                    for item in body['fixed_ips']:
                        entry = dict((k, v) for k, v in item.items() if v is not None)
                        if 'subnet' in entry:
                            entry['subnet_id'] = lookup_id(ctx, 'subnet', entry.pop('subnet'))
                        fixed.append(entry)
                    body['fixed_ips'] = fixed
                else:
                    # an empty list keeps Neutron's allocation (create) and the
                    # assigned addresses (update): Heat bug 1538473
                    del body['fixed_ips']
        else:
            body['fixed_ips'] = []
        if 'allowed_address_pairs' in body:
            pairs = body['allowed_address_pairs']
            if pairs:
                body['allowed_address_pairs'] = [
                    dict((k, v) for k, v in p.items() if not (k == 'mac_address' and v is None))
                    for p in pairs]
            else:
                body['allowed_address_pairs'] = []
        if 'security_groups' in body:
            if body['security_groups'] is not None:
                body['security_groups'] = secgroup_ids(ctx, body['security_groups'])
            elif for_update:
                # back to Neutron's default, as on create
                body['security_groups'] = secgroup_ids(ctx, ['default'])
        body.pop('replacement_policy', None)
        qos = body.pop('qos_policy', None) if not for_update else None
        if qos:
            body['qos_policy_id'] = lookup_id(ctx, 'qos_policy', qos)
        return body

    def create_body(self, ctx):
        body = super(Port, self).create_body(ctx)
        body['network_id'] = lookup_id(ctx, 'network', body.pop('network'))
        return self._prepare(ctx, body)

    # the extensions say whether the marks can go in the POST
    prefetch_properties = ()

    def prefetch(self, ctx):
        extensions(ctx.conn)

    def create(self, ctx):
        body = self.create_body(ctx)
        user_tags = body.pop('tags', None)
        in_post = TAGS_IN_POST in extensions(ctx.conn)
        if in_post:
            body['tags'] = ctx.tags(user_tags)
        obj = self.post(ctx, body)
        ctx.physical_id = obj['id']
        if user_tags and not in_post:
            obj = self.mark(ctx, obj, user_tags)
        ctx.live = obj
        return obj['id']

    def create_later(self, ctx):
        if TAGS_IN_POST in extensions(ctx.conn):
            return None      # the marks went in the POST
        return super(Port, self).create_later(ctx)

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        if 'value_specs' in diff:
            specs = dict(diff.pop('value_specs') or {})
            before = (ctx.old_properties or {}).get('value_specs') or {}
            profile = self._merged_profile(ctx, specs, before)
            specs = changed_specs(ctx, specs)
            if profile is not None:
                specs['binding:profile'] = profile
            diff.update(specs)
        prepare_update(ctx, diff)
        if 'qos_policy' in diff:
            qos = diff.pop('qos_policy')
            diff['qos_policy_id'] = lookup_id(ctx, 'qos_policy', qos) if qos else None
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        self._prepare(ctx, diff, for_update=True)
        if diff:
            sdk.call(ctx.conn.network.update_port, ctx.physical_id, **diff)

    def _merged_profile(self, ctx, specs, before):
        """Heat's three-way merge of binding:profile: keys Neutron (or Nova)
        set, such as an SR-IOV pci_slot, survive a value_specs update; the
        merged profile is always sent.  None when there is nothing to merge."""
        if 'binding:profile' not in specs or not ctx.physical_id:
            return None
        live = self.show(ctx) or {}
        if live.get('binding:profile') is None:
            return None
        old_profile = before.get('binding:profile') or {}
        merged = dict(live['binding:profile'])
        for key, value in (specs['binding:profile'] or {}).items():
            if value != old_profile.get(key):
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
        return merged

    def needs_replace(self, ctx):
        return ctx.properties.get('replacement_policy') == 'REPLACE_ALWAYS'

    def prepare_for_replace(self, ctx):
        """Heat's prepare_for_replace: the old port gives its fixed IPs up
        (kept in ctx.data['port_fip']) so its replacement can take them."""
        if not ctx.physical_id:
            return
        live = self.show(ctx)
        if live is None:
            return
        ctx.data['port_fip'] = live.get('fixed_ips') or []
        sdk.call(ctx.conn.network.update_port, ctx.physical_id, fixed_ips=[])

    # -- attributes ------------------------------------------------------------
    def _subnets(self, ctx, live):
        out = []
        for item in live.get('fixed_ips') or ():
            if item.get('subnet_id'):
                subnet = raw_get(ctx.conn, 'subnet', item['subnet_id'])
                if subnet is None:
                    return None   # Heat logs the failure and answers None
                out.append(subnet)
        return out

    def _network(self, ctx, live):
        if not live.get('network_id'):
            return None
        return raw_get(ctx.conn, 'network', live['network_id'])   # Neutron's JSON, as show

    def drift(self, ctx, live):
        out = super(Port, self).drift(ctx, live)
        if not isinstance(live, dict):
            return out
        props = self.props(ctx)
        # Heat's default '' leaves the owner to whoever binds the port (Nova
        # sets both when a server takes it): only a value the template set
        # is compared.
        out = [p for p in out if not (p in ('device_id', 'device_owner') and not props.get(p))]
        have = [(f.get('subnet_id'), f.get('ip_address')) for f in live.get('fixed_ips') or ()]
        if props.get('no_fixed_ips'):
            if have:
                out.append('no_fixed_ips')
        elif props.get('fixed_ips'):
            for want in props['fixed_ips']:
                subnet, ip = want.get('subnet'), want.get('ip_address')
                if subnet is not None and not is_uuid(subnet):
                    subnet = None   # a name: not compared (no lookup in check mode)
                if not any((subnet is None or s == subnet) and (ip is None or a == ip)
                           for s, a in have):
                    out.append('fixed_ips')
                    break
        groups = props.get('security_groups')
        if groups is not None and all(is_uuid(g) for g in groups) and \
                sorted(groups) != sorted(live.get('security_groups') or []):
            out.append('security_groups')
        pairs = props.get('allowed_address_pairs')
        if pairs is not None:
            want = sorted((p.get('ip_address'), p.get('mac_address') or live.get('mac_address'))
                          for p in pairs)
            got = sorted((p.get('ip_address'), p.get('mac_address'))
                         for p in live.get('allowed_address_pairs') or [])
            if want != got:
                out.append('allowed_address_pairs')
        return out
