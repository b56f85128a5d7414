# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server

from .conftest import NET, SRV, Obj, make_ctx


def test_attributes_as_heat(conn):
    conn.network.ports.return_value = [Obj(id='p1', network_id=NET, mac_address='fa:16',
                                           fixed_ips=[{'ip_address': '10.0.0.3', 'subnet_id': 's1'}])]
    conn.network.get_network.return_value = Obj(id=NET, name='private')
    conn.network.get_subnet.return_value = Obj(id='s1', cidr='10.0.0.0/24')
    conn.network.ips.return_value = [Obj(fixed_ip_address='10.0.0.3', floating_ip_address='172.24.4.9')]
    conn.compute.get_server_console_url.side_effect = sdk_exc.BadRequestException('Unavailable console type')
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f', 'name': 'web'}, physical_id=SRV)
    live = {'id': SRV, 'status': 'ACTIVE', 'accessIPv4': '', 'tags': ['t'],
            'metadata': {'a': 'b', 'stackers-stack-id': 'sid'},
            'addresses': {'private': [{'addr': '10.0.0.3', 'version': 4},
                                      {'addr': '172.24.4.9', 'version': 4}]}}
    attrs = Server().attributes(ctx, live)
    assert attrs['name'] == 'web'
    fip, fixed = attrs['addresses']['private']
    assert fip == {'addr': '172.24.4.9', 'version': [4], 'OS-EXT-IPS-MAC:mac_addr': 'fa:16',
                   'OS-EXT-IPS:type': 'floating', 'port': None}
    assert fixed['port'] == 'p1' and fixed['subnets'] == [{'id': 's1', 'cidr': '10.0.0.0/24'}]
    assert fixed['network'] == {'id': NET, 'name': 'private'}
    assert attrs['addresses'][NET] == attrs['addresses']['private']
    assert attrs['networks'] == {'private': ['10.0.0.3', '172.24.4.9'], NET: ['10.0.0.3', '172.24.4.9']}
    assert attrs['first_address'] == '10.0.0.3'
    assert attrs['tags'] == ['t'] and attrs['show']['metadata'] == {'a': 'b'}
    # console URLs: nothing asked until read, then Heat's error text
    conn.compute.get_server_console_url.assert_not_called()
    urls = json.loads(json.dumps(attrs['console_urls']))
    assert sorted(urls) == sorted(['novnc', 'xvpvnc', 'spice-html5', 'rdp-html5', 'serial', 'webmks'])
    assert urls['novnc'].startswith('Cannot get console url: ')


def test_attributes_of_a_missing_server(conn):
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'}, physical_id=SRV)
    attrs = Server().attributes(ctx, None)
    assert attrs['addresses'] == '' and attrs['first_address'] == '' and attrs['name'] == 'st-res-abc'


def test_addresses_and_networks_only_when_asked(conn):
    """They cost Neutron requests (ports, networks, subnets, floating IPs):
    the engine asks for the others when a server settles."""
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f', 'name': 'web'}, physical_id=SRV)
    live = {'id': SRV, 'status': 'ACTIVE', 'addresses': {'private': [{'addr': '10.0.0.3', 'version': 4}]},
            'OS-EXT-SRV-ATTR:instance_name': 'instance-1'}
    cheap = set(Server.heat_type().attributes) - {'addresses', 'networks', 'console_urls'}
    attrs = Server().attributes(ctx, live, names=cheap)
    assert 'addresses' not in attrs and 'networks' not in attrs
    assert attrs['first_address'] == '10.0.0.3' and attrs['instance_name'] == 'instance-1'
    assert conn.network.mock_calls == [] and conn.compute.mock_calls == []
    # networks alone: each label's network found by name, as Heat's _extend_networks does
    conn.network.networks.return_value = [Obj(id=NET, name='private')]
    attrs = Server().attributes(ctx, live, names={'networks'})
    assert attrs['networks'] == {'private': ['10.0.0.3'], NET: ['10.0.0.3']}
    assert 'addresses' not in attrs
    conn.network.ports.assert_not_called()
    conn.network.networks.assert_called_once_with(name='private')
