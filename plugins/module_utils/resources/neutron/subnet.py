# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Subnet (Heat's subnet.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import socket

from .. import sdk
from ...hot.type_checks import conflict, unspecified
from .common import NeutronPlugin, lookup_id, prepare_update

_NO_GATEWAY = ('', '~')


def heat_ip(text):
    """oslo's netutils.is_valid_ip, which Heat's gateway_ip rule uses: IPv4
    as inet_aton reads it (short forms and trailing text after a space
    pass), or IPv6 as inet_pton reads it, with a zone of 1 to 15
    characters."""
    if not text:
        return False
    try:
        if ':' not in text:
            socket.inet_aton(text)
            return True
        address, _sep, zone = text.rpartition('%') if '%' in text else (text, '', None)
        if zone is not None and not 1 <= len(zone) <= 15:
            return False
        socket.inet_pton(socket.AF_INET6, address)
        return True
    except (OSError, ValueError):
        return False


def _normalize_gateway(ctx, body, updating=False):
    """Heat's _normalize_gateway_ip: an empty gateway_ip means "no gateway"
    (an explicit null in the request), ``auto`` lets Neutron pick (create
    only)."""
    if 'gateway_ip' not in body:
        return
    if body['gateway_ip'] in _NO_GATEWAY:
        body['gateway_ip'] = None
    elif body['gateway_ip'] == 'auto':
        if updating:
            ctx.fail('The value "auto" for gateway_ip cannot be used to update an existing '
                     'subnet. It is only supported during subnet creation.')
        body.pop('gateway_ip')


class Subnet(NeutronPlugin):
    type_name = 'OS::Neutron::Subnet'
    entity = 'subnet'
    collection = 'subnets'
    aliases = {'network_id': 'network'}
    drift_keys = {'name': 'name', 'enable_dhcp': 'enable_dhcp', 'gateway_ip': 'gateway_ip',
                  'dns_nameservers': 'dns_nameservers', 'allocation_pools': 'allocation_pools',
                  'host_routes': 'host_routes'}

    @classmethod
    def validate(cls, given):
        """Heat's Subnet.validate."""
        props = given.props
        pool, cidr = props.get('subnetpool'), props.get('cidr')
        if pool is not None and cidr:
            given.fail(conflict('subnetpool', 'cidr'), 'subnetpool')
        if pool is None and not cidr:
            given.fail(unspecified('subnetpool', 'cidr'))
        if props.get('prefixlen') and cidr:
            given.fail(conflict('prefixlen', 'cidr'), 'prefixlen')
        ra_mode, address_mode = props.get('ipv6_ra_mode'), props.get('ipv6_address_mode')
        if props.get('ip_version') == 4 and (ra_mode or address_mode):
            given.fail('ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.',
                       'ipv6_ra_mode' if ra_mode else 'ipv6_address_mode')
        if ra_mode and address_mode and ra_mode != address_mode:
            given.fail('When both ipv6_ra_mode and ipv6_address_mode are set, they must be '
                       'equal.', 'ipv6_address_mode')
        gateway = props.get('gateway_ip')
        if gateway and gateway not in ('~', '', 'auto') and not heat_ip(gateway):
            # Heat's message is the repr of a tuple it meant to format
            given.fail(repr(('Gateway IP address "%(gateway)s" is in invalid format.', gateway)),
                       'gateway_ip')

    def create_body(self, ctx):
        props = self.props(ctx)
        body = dict((k, v) for k, v in props.items() if v is not None)
        body.setdefault('name', ctx.physical_name)
        body.update(body.pop('value_specs', None) or {})
        body['network_id'] = lookup_id(ctx, 'network', body.pop('network'))
        segment = body.pop('segment', None)
        if segment:
            body['segment_id'] = lookup_id(ctx, 'segment', segment)
        pool = body.pop('subnetpool', None)
        if pool:
            body['subnetpool_id'] = lookup_id(ctx, 'subnet_pool', pool)
        _normalize_gateway(ctx, body)
        return body

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if 'allocation_pools' in diff and diff['allocation_pools'] is None:
            diff['allocation_pools'] = []
        if diff.get('segment'):
            if (ctx.old_properties or {}).get('segment') is not None:
                ctx.fail('Updating the subnet segment assciation only allowed when the current '
                         'segment_id is None. The subnet is currently associated with segment. '
                         'In this state update')
            diff['segment_id'] = lookup_id(ctx, 'segment', diff.pop('segment'))
        _normalize_gateway(ctx, diff, updating=True)
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            sdk.call(ctx.conn.network.update_subnet, ctx.physical_id, **diff)

    def drift(self, ctx, live):
        out = super(Subnet, self).drift(ctx, live)
        # Neutron keeps its own order of nameservers/pools only when asked;
        # a reordering is not a drift.
        for prop in ('dns_nameservers', 'allocation_pools', 'host_routes'):
            if prop in out and _same_set(ctx.properties.get(prop), (live or {}).get(prop)):
                out.remove(prop)
        if 'gateway_ip' in out and ctx.properties.get('gateway_ip') in ('auto',) + _NO_GATEWAY:
            if ctx.properties.get('gateway_ip') == 'auto' or live.get('gateway_ip') is None:
                out.remove('gateway_ip')
        return out


def _item_key(value):
    return repr(sorted(value.items())) if isinstance(value, dict) else repr(value)


def _same_set(want, have):
    return sorted(map(_item_key, want or [])) == sorted(map(_item_key, have or []))
