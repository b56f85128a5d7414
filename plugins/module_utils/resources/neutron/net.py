# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Net and OS::Neutron::ProviderNet (Heat's net.py and
provider_net.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudConflict, CloudNotFound
from .common import NeutronPlugin, as_dict, is_uuid, listed, lookup_id, prepare_update


class Net(NeutronPlugin):
    type_name = 'OS::Neutron::Net'
    entity = 'network'
    collection = 'networks'
    has_status = True
    drift_keys = {'name': 'name', 'admin_state_up': 'admin_state_up',
                  'port_security_enabled': 'port_security_enabled', 'dns_domain': 'dns_domain'}
    costly = {'segments': '_segments'}

    def create_body(self, ctx):
        body = super(Net, self).create_body(ctx)
        body.pop('dhcp_agent_ids', None)
        qos = body.pop('qos_policy', None)
        if qos:
            body['qos_policy_id'] = lookup_id(ctx, 'qos_policy', qos)
        return body

    def create(self, ctx):
        ident = super(Net, self).create(ctx)
        agents = ctx.properties.get('dhcp_agent_ids')
        if agents:
            self._replace_dhcp_agents(ctx, agents)
        return ident

    def found_is_whole(self, ctx):
        return not ctx.properties.get('dhcp_agent_ids') and super(Net, self).found_is_whole(ctx)

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if 'dhcp_agent_ids' in diff:
            self._replace_dhcp_agents(ctx, diff.pop('dhcp_agent_ids') or [])
        if 'qos_policy' in diff:
            qos = diff.pop('qos_policy')
            diff['qos_policy_id'] = lookup_id(ctx, 'qos_policy', qos) if qos else None
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            sdk.call(ctx.conn.network.update_network, ctx.physical_id, **diff)

    def _replace_dhcp_agents(self, ctx, wanted):
        net = ctx.conn.network
        old = set(a.id for a in listed(net.network_hosting_dhcp_agents, network=ctx.physical_id))
        new = set(wanted)
        for agent in sorted(new - old):
            try:
                sdk.call(net.add_dhcp_agent_to_network, agent, ctx.physical_id)
            except CloudConflict:
                pass   # already hosting it
        for agent in sorted(old - new):
            try:
                sdk.call(net.remove_dhcp_agent_from_network, agent, ctx.physical_id)
            except (CloudConflict, CloudNotFound):
                pass   # gone, or not scheduled there

    def _segments(self, ctx, live):
        if not ctx.physical_id:
            return None
        segments = [as_dict(s) for s in listed(ctx.conn.network.segments, network_id=ctx.physical_id)]
        # unnamed segments first, as Heat sorts them (tripleo bug 1894920)
        segments.sort(key=lambda s: s.get('name') is not None)
        return segments

    def drift(self, ctx, live):
        out = super(Net, self).drift(ctx, live)
        qos = ctx.properties.get('qos_policy')
        if isinstance(live, dict) and is_uuid(qos) and live.get('qos_policy_id') != qos:
            out.append('qos_policy')
        return out


_PROVIDER = {'network_type': 'provider:network_type',
             'physical_network': 'provider:physical_network',
             'segmentation_id': 'provider:segmentation_id',
             'router_external': 'router:external'}


def _provider_keys(props):
    for prop, key in _PROVIDER.items():
        if prop in props:
            props[key] = props.pop(prop)
    return props


class ProviderNet(Net):
    """Admin only.  Neutron answers segmentation_id as an integer; Heat's
    property is a string, so drift compares them as strings."""

    type_name = 'OS::Neutron::ProviderNet'
    drift_keys = {'name': 'name', 'admin_state_up': 'admin_state_up', 'shared': 'shared',
                  'port_security_enabled': 'port_security_enabled', 'dns_domain': 'dns_domain',
                  'network_type': 'provider:network_type',
                  'physical_network': 'provider:physical_network',
                  'router_external': 'router:external'}

    @classmethod
    def validate(cls, given):
        """Heat's ProviderNet.validate (its message for physical_network
        names flat where it means local, as Heat's does)."""
        props = given.props
        kind = props.get('network_type')
        if props.get('segmentation_id') and kind in ('local', 'flat'):
            given.fail('segmentation_id not allowed for network types: local, flat',
                       'segmentation_id')
        if props.get('physical_network') and kind in ('vxlan', 'gre', 'geneve', 'local'):
            given.fail('physical_network not allowed for network types: vxlan, gre, geneve, '
                       'flat', 'physical_network')

    def create_body(self, ctx):
        body = NeutronPlugin.create_body(self, ctx)
        return _provider_keys(body)

    def create(self, ctx):
        return NeutronPlugin.create(self, ctx)

    def update(self, ctx):
        diff = prepare_update(ctx, _provider_keys(self.prop_diff(ctx)))
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            sdk.call(ctx.conn.network.update_network, ctx.physical_id, **diff)

    def drift(self, ctx, live):
        out = NeutronPlugin.drift(self, ctx, live)
        seg = ctx.properties.get('segmentation_id')
        if isinstance(live, dict) and seg is not None and \
                str(live.get('provider:segmentation_id')) != str(seg):
            out.append('segmentation_id')
        return out
