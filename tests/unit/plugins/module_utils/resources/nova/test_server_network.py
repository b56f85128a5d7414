# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_network as sn

from .conftest import NET, Obj, make_ctx

SUB = '44444444-4444-4444-4444-444444444444'


def test_resolve_names_and_uuid_alias(conn):
    conn.network.networks.return_value = [Obj(id=NET, name='private')]
    out = sn.resolve(conn, [{'network': 'private'}, {'uuid': NET, 'fixed_ip': '10.0.0.5'}])
    assert out[0]['network'] == NET and out[1]['network'] == NET and out[1]['fixed_ip'] == '10.0.0.5'
    conn.network.networks.assert_called_once_with(name='private')


def test_build_nics_internal_port_for_subnet(conn):
    conn.network.get_subnet.return_value = Obj(network_id=NET)
    conn.network.create_port.return_value = Obj(id='p1')
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'})
    nets = sn.resolve(conn, [{'subnet': SUB, 'fixed_ip': '10.0.0.9', 'tag': 'eth'}])
    nics = sn.build_nics(ctx, nets, ['11111111-2222-3333-4444-555555555555'])
    assert nics == [{'uuid': NET, 'port': 'p1', 'tag': 'eth'}]
    kw = conn.network.create_port.call_args[1]
    assert kw['name'] == 'res-port-0' and kw['network_id'] == NET
    assert kw['fixed_ips'] == [{'ip_address': '10.0.0.9', 'subnet_id': SUB}]
    assert kw['security_group_ids'] == ['11111111-2222-3333-4444-555555555555']
    assert 'stackers-stack-id=sid' in kw['tags']
    assert ctx.data['internal_ports'] == ['p1']


def test_build_nics_allocate_and_floating_ip(conn):
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'})
    assert sn.build_nics(ctx, sn.resolve(conn, [{'allocate_network': 'auto'}]), []) == 'auto'
    nics = sn.build_nics(ctx, sn.resolve(conn, [{'port': 'aaaaaaaa-0000-0000-0000-000000000000',
                                                 'floating_ip': 'fip'}]), [])
    assert nics == [{'port': 'aaaaaaaa-0000-0000-0000-000000000000'}]
    conn.network.update_ip.assert_called_once_with('fip', port_id='aaaaaaaa-0000-0000-0000-000000000000')


def test_calculate_keeps_matching_and_swaps_the_rest(conn):
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'})
    net2 = '55555555-5555-5555-5555-555555555555'
    ifaces = [{'port_id': 'p1', 'net_id': NET, 'fixed_ips': [{'ip_address': '10.0.0.3', 'subnet_id': SUB}]}]
    old = sn.resolve(conn, [{'network': NET}])
    new = sn.resolve(conn, [{'network': NET}, {'network': net2}])
    remove, add = sn.calculate(ctx, old, new, ifaces, [])
    assert remove == [] and add == [{'port_id': None, 'net_id': net2, 'fip': None}]
    remove, add = sn.calculate(ctx, old, sn.resolve(conn, [{'network': net2}]), ifaces, [])
    assert remove == ['p1'] and add == [{'port_id': None, 'net_id': net2, 'fip': None}]


def test_calculate_allocate_none_detaches_everything(conn):
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'})
    ifaces = [{'port_id': 'p1', 'net_id': NET, 'fixed_ips': []}]
    remove, add = sn.calculate(ctx, [], sn.resolve(conn, [{'allocate_network': 'none'}]), ifaces, [])
    assert remove == ['p1'] and add == []
