# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudNotFound
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.floatingip import FloatingIP
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.router import (
    Router, RouterInterface)

RID = 'aaaaaaaa-0000-0000-0000-000000000001'
NET = 'aaaaaaaa-0000-0000-0000-00000000000e'
SUB = 'aaaaaaaa-0000-0000-0000-00000000000b'
PORT = 'aaaaaaaa-0000-0000-0000-00000000000a'


def test_create_with_gateway_by_name_and_fixed_ips(make_ctx, conn, obj):
    conn.network.networks.return_value = [obj(id=NET)]
    conn.network.subnets.return_value = [obj(id=SUB)]
    conn.network.create_router.return_value = obj(id=RID, status='ACTIVE', tags=[])
    ctx = make_ctx('OS::Neutron::Router', {'external_gateway_info': {
        'network': 'public', 'enable_snat': False,
        'external_fixed_ips': [{'subnet': 'public-sub', 'ip_address': '172.24.4.9'}]}})
    assert Router().create(ctx) == RID
    conn.network.create_router.assert_called_once_with(
        name='st-res-abc', admin_state_up=True, external_gateway_info={
            'network_id': NET, 'enable_snat': False,
            'external_fixed_ips': [{'subnet_id': SUB, 'ip_address': '172.24.4.9'}]})
    assert Router().check_create_complete(ctx) is True


def test_gateway_without_snat_leaves_the_key_out(make_ctx, conn, obj):
    conn.network.create_router.return_value = obj(id=RID, status='ACTIVE', tags=[])
    ctx = make_ctx('OS::Neutron::Router', {'external_gateway_info': {'network': NET}})
    Router().create(ctx)
    assert conn.network.create_router.call_args[1]['external_gateway_info'] == {'network_id': NET}
    conn.network.networks.assert_not_called()


def test_update_removes_the_gateway_and_replaces_agents(make_ctx, conn, obj):
    conn.network.routers_hosting_l3_agents.return_value = [obj(id='a1')]
    ctx = make_ctx('OS::Neutron::Router', {'l3_agent_ids': ['a2']}, physical_id=RID,
                   old={'external_gateway_info': {'network': NET}})
    Router().update(ctx)
    conn.network.remove_router_from_agent.assert_called_once_with('a1', RID)
    conn.network.add_router_to_agent.assert_called_once_with('a2', RID)
    conn.network.update_router.assert_called_once_with(RID, external_gateway_info=None)


def test_drift_of_the_gateway(make_ctx):
    ctx = make_ctx('OS::Neutron::Router', {'name': 'r', 'external_gateway_info': {'network': NET}},
                   physical_id=RID)
    live = {'name': 'r', 'admin_state_up': True, 'tags': [],
            'external_gateway_info': {'network_id': NET, 'enable_snat': True}}
    assert Router().drift(ctx, live) == []
    live['external_gateway_info'] = None
    assert Router().drift(ctx, live) == ['external_gateway_info']


def test_interface_reference_id_delete_and_find(make_ctx, conn, obj):
    conn.network.routers.return_value = [obj(id=RID)]
    ctx = make_ctx('OS::Neutron::RouterInterface', {'router': 'r1', 'subnet_id': SUB})
    ref = RouterInterface().create(ctx)
    assert ref == '%s:subnet_id=%s' % (RID, SUB)
    conn.network.add_interface_to_router.assert_called_once_with(RID, SUB, None)
    ctx.physical_id = ref
    conn.network.ports.return_value = [
        obj(id='p1', fixed_ips=[{'subnet_id': SUB}], device_owner='network:router_interface')]
    assert RouterInterface().find(ctx) == ref
    conn.network.ports.assert_called_with(device_id=RID)
    assert RouterInterface().attributes(ctx, RouterInterface().show(ctx)) == {'show': None}
    conn.network.remove_interface_from_router.side_effect = CloudNotFound('gone')
    RouterInterface().delete(ctx)   # already gone is success
    conn.network.remove_interface_from_router.assert_called_once_with(RID, SUB, None)


def test_interface_by_port_and_old_reference_format(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::RouterInterface', {'router': RID, 'port': PORT})
    assert RouterInterface().create(ctx) == '%s:port_id=%s' % (RID, PORT)
    conn.network.add_interface_to_router.assert_called_once_with(RID, None, PORT)
    ctx.physical_id = '%s:%s' % (RID, SUB)   # Heat's pre-Liberty form: a subnet
    RouterInterface().delete(ctx)
    conn.network.remove_interface_from_router.assert_called_once_with(RID, SUB, None)
    conn.network.ports.return_value = []
    ctx.physical_id = None
    assert RouterInterface().find(ctx) is None


def test_prefetch_of_the_gateway_network_serves_the_router_and_floating_ips(make_ctx, conn, obj):
    conn.network.networks.return_value = [obj(id=NET)]
    conn.network.create_router.return_value = obj(id=RID, status='ACTIVE', tags=[])
    early = make_ctx('OS::Neutron::Router', {'external_gateway_info': {'network': 'public'}})
    Router().prefetch(early)
    FloatingIP().prefetch(make_ctx('OS::Neutron::FloatingIP', {'floating_network': 'public'}))
    conn.network.networks.assert_called_once_with(name='public')
    Router().create(make_ctx('OS::Neutron::Router', {'external_gateway_info': {'network': 'public'}}))
    assert conn.network.networks.call_count == 1
    assert conn.network.create_router.call_args[1]['external_gateway_info'] == {'network_id': NET}
    Router().prefetch(make_ctx('OS::Neutron::Router', {}))   # no gateway: nothing to ask
    assert conn.network.networks.call_count == 1
