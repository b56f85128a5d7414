# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::SubnetPool and OS::Neutron::AddressScope (Heat's
subnetpool.py and address_scope.py).

A pool's prefixes may only grow (Heat refuses an update that drops one);
Neutron merges adjacent prefixes (10.0.0.0/24 and 10.0.1.0/24 come back as
10.0.0.0/23), so prefixes are compared as the address sets they cover.  An
address scope carries no Neutron tags: ``find`` matches its generated name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ipaddress

from .common import NeutronPlugin, lookup_id, prepare_update
from .raw import raw_update


def covered(prefixes):
    """The prefixes as the smallest list of networks covering the same
    addresses (IPv4 first); a value that is no prefix is kept as it is."""
    nets, other = {4: [], 6: []}, []
    for prefix in prefixes or ():
        try:
            net = ipaddress.ip_network(prefix, strict=False)
        except (TypeError, ValueError):
            other.append(prefix)
            continue
        nets[net.version].append(net)
    return [str(n) for v in (4, 6) for n in ipaddress.collapse_addresses(nets[v])] + sorted(other)


def _bounds_message(key1, value1, key2, value2):
    return 'Illegal prefix bounds: %s=%s, %s=%s.' % (key1, value1, key2, value2)


class SubnetPool(NeutronPlugin):
    type_name = 'OS::Neutron::SubnetPool'
    entity = 'subnet_pool'
    collection = 'subnet_pools'
    drift_keys = {'name': 'name', 'default_quota': 'default_quota',
                  'default_prefixlen': 'default_prefixlen', 'min_prefixlen': 'min_prefixlen',
                  'max_prefixlen': 'max_prefixlen', 'is_default': 'is_default', 'shared': 'shared'}

    @classmethod
    def validate(cls, given):
        """Heat's SubnetPool._validate_prefix_bounds (a bound of 0 is no
        bound, as Heat's truth tests read it)."""
        props = given.props
        low, default, high = (props.get('min_prefixlen'), props.get('default_prefixlen'),
                              props.get('max_prefixlen'))
        if low and high and low > high:
            given.fail(_bounds_message('max_prefixlen', high, 'min_prefixlen', low))
        if default:
            if high and default > high:
                given.fail(_bounds_message('max_prefixlen', high, 'default_prefixlen', default))
            if low and low > default:
                given.fail(_bounds_message('min_prefixlen', low, 'default_prefixlen', default))

    def create_body(self, ctx):
        body = super(SubnetPool, self).create_body(ctx)
        scope = body.pop('address_scope', None)
        if scope:
            body['address_scope_id'] = lookup_id(ctx, 'address_scope', scope)
        return body

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        if 'prefixes' in diff:
            old = (ctx.old_properties or {}).get('prefixes') or []
            new = diff['prefixes'] or []
            if covered(list(old) + list(new)) != covered(new):
                ctx.fail('Property prefixes updated value %s should be superset of existing value %s.'
                         % (sorted(new), sorted(old)), kind='StackValidationFailed')
        if 'address_scope' in diff:
            scope = diff.pop('address_scope')
            diff['address_scope_id'] = lookup_id(ctx, 'address_scope', scope) if scope else None
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        diff = prepare_update(ctx, diff)
        if diff:
            raw_update(ctx.conn, self.entity, ctx.physical_id, diff)

    def drift(self, ctx, live):
        out = super(SubnetPool, self).drift(ctx, live)
        if isinstance(live, dict):
            if covered(ctx.properties.get('prefixes')) != covered(live.get('prefixes')):
                out.append('prefixes')
            scope = ctx.properties.get('address_scope')
            if scope and lookup_id(ctx, 'address_scope', scope) != live.get('address_scope_id'):
                out.append('address_scope')
        return sorted(out)


class AddressScope(NeutronPlugin):
    type_name = 'OS::Neutron::AddressScope'
    entity = 'address_scope'
    collection = 'address_scopes'
    taggable = False
    drift_keys = {'name': 'name', 'shared': 'shared', 'ip_version': 'ip_version'}

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if diff:
            raw_update(ctx.conn, self.entity, ctx.physical_id, diff)
