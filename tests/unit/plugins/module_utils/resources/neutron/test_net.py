# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudConflict, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.net import (
    Net, ProviderNet)

UUID = 'aaaaaaaa-0000-0000-0000-000000000001'
QOS = 'aaaaaaaa-0000-0000-0000-00000000000f'


def test_create_posts_heat_body_then_marks(make_ctx, conn, obj, marks):
    conn.network.qos_policies.return_value = [obj(id=QOS)]
    conn.network.create_network.return_value = obj(id=UUID, status='ACTIVE', tags=[])
    ctx = make_ctx('OS::Neutron::Net', {'tags': ['u'], 'value_specs': {'mtu': 1400}, 'qos_policy': 'gold'})
    assert Net().create(ctx) == UUID
    conn.network.create_network.assert_called_once_with(
        name='st-res-abc', admin_state_up=True, shared=False, mtu=1400, qos_policy_id=QOS)
    res, tags = conn.network.set_tags.call_args[0]
    assert res.id == UUID and tags == ['u'] + marks
    assert ctx.live['tags'] == ['u'] + marks
    # the create's answer is already ACTIVE: no GET
    assert Net().check_create_complete(ctx) is True
    conn.network.get_network.assert_not_called()
    assert Net().create_later(ctx) is None      # the marks went with the user's tags


def test_marks_without_user_tags_wait_for_create_later(make_ctx, conn, obj, marks):
    conn.network.create_network.return_value = obj(id=UUID, status='ACTIVE', tags=[])
    ctx = make_ctx('OS::Neutron::Net', {})
    assert Net().create(ctx) == UUID
    conn.network.set_tags.assert_not_called()
    later = Net().create_later(ctx)
    later()
    res, tags = conn.network.set_tags.call_args[0]
    assert res.id == UUID and tags == marks


def test_check_create_complete_polls_a_building_network(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Net', physical_id=UUID)
    ctx.live = {'status': 'BUILD'}
    conn.network.get_network.return_value = obj(id=UUID, status='BUILD')
    assert Net().check_create_complete(ctx) is False
    conn.network.get_network.return_value = obj(id=UUID, status='ERROR')
    with pytest.raises(ResourceFailure, match='ERROR'):
        Net().check_create_complete(ctx)


def test_dhcp_agents_replaced_conflicts_ignored(make_ctx, conn, obj):
    conn.network.create_network.return_value = obj(id=UUID, status='ACTIVE', tags=[])
    conn.network.network_hosting_dhcp_agents.return_value = [obj(id='old')]
    conn.network.add_dhcp_agent_to_network.side_effect = CloudConflict('already')
    ctx = make_ctx('OS::Neutron::Net', {'dhcp_agent_ids': ['new']})
    Net().create(ctx)
    conn.network.add_dhcp_agent_to_network.assert_called_once_with('new', UUID)
    conn.network.remove_dhcp_agent_from_network.assert_called_once_with('old', UUID)


def test_update_sends_the_diff_tags_by_their_own_call(make_ctx, conn, marks):
    ctx = make_ctx('OS::Neutron::Net', {'name': None, 'tags': ['b'], 'value_specs': {'mtu': 1300}},
                   physical_id=UUID,
                   old={'name': 'x', 'tags': ['a'], 'value_specs': {'mtu': 1400}, 'qos_policy': QOS})
    Net().update(ctx)
    conn.network.update_network.assert_called_once_with(
        UUID, name='st-res-abc', mtu=1300, qos_policy_id=None)
    res, tags = conn.network.set_tags.call_args[0]
    assert res.id == UUID and tags == ['b'] + marks


def test_drift_reports_changed_live_values_not_marks(make_ctx, marks):
    ctx = make_ctx('OS::Neutron::Net', {'tags': ['a'], 'admin_state_up': True}, physical_id=UUID)
    live = {'name': 'st-res-abc', 'admin_state_up': False, 'tags': ['a'] + marks}
    assert Net().drift(ctx, live) == ['admin_state_up']
    live.update(admin_state_up=True, tags=marks)
    assert Net().drift(ctx, live) == ['tags']


def test_provider_net_uses_provider_keys(make_ctx, conn, obj):
    conn.network.create_network.return_value = obj(id=UUID, status='ACTIVE', tags=[])
    ctx = make_ctx('OS::Neutron::ProviderNet', {'network_type': 'vlan', 'physical_network': 'phys',
                                                'segmentation_id': '101', 'router_external': True})
    ProviderNet().create(ctx)
    conn.network.create_network.assert_called_once_with(**{
        'name': 'st-res-abc', 'admin_state_up': True, 'shared': True,
        'provider:network_type': 'vlan', 'provider:physical_network': 'phys',
        'provider:segmentation_id': '101', 'router:external': True})
    upd = make_ctx('OS::Neutron::ProviderNet', {'network_type': 'vlan', 'segmentation_id': '102'},
                   physical_id=UUID, old={'network_type': 'vlan', 'segmentation_id': '101'})
    ProviderNet().update(upd)
    conn.network.update_network.assert_called_once_with(UUID, **{'provider:segmentation_id': '102'})
    live = {'name': 'st-res-abc', 'provider:network_type': 'vlan', 'provider:segmentation_id': 101,
            'shared': True, 'admin_state_up': True, 'router:external': False, 'tags': []}
    assert ProviderNet().drift(upd, live) == ['segmentation_id']
