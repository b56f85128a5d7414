# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from unittest import mock

import pytest
from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server
from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.http_fakes import Response

from .conftest import NET, SRV, Obj, make_ctx

# Nova's GET /servers/{id} (a body the local cloud's Nova answered, trimmed):
# nulls it sent are part of Heat's show.
NOVA_BODY = {
    'id': SRV, 'name': 'web', 'status': 'ACTIVE', 'tenant_id': 'proj', 'user_id': 'u',
    'metadata': {'a': 'b', 'stackers-stack-id': 'sid', 'stackers-resource': 'res'},
    'hostId': 'h', 'image': {'id': 'img', 'links': []}, 'flavor': {'id': 'f', 'links': []},
    'created': '2026-01-01T00:00:00Z', 'updated': '2026-01-01T00:00:05Z',
    'addresses': {'private': [{'version': 4, 'addr': '10.0.0.3', 'OS-EXT-IPS:type': 'fixed',
                               'OS-EXT-IPS-MAC:mac_addr': 'fa:16'}]},
    'accessIPv4': '', 'accessIPv6': '', 'links': [], 'OS-DCF:diskConfig': 'MANUAL',
    'progress': 0, 'OS-EXT-AZ:availability_zone': 'nova', 'config_drive': '', 'key_name': None,
    'OS-SRV-USG:launched_at': '2026-01-01T00:00:04.000000', 'OS-SRV-USG:terminated_at': None,
    'OS-EXT-STS:task_state': None, 'OS-EXT-STS:vm_state': 'active', 'OS-EXT-STS:power_state': 1,
    'os-extended-volumes:volumes_attached': [], 'security_groups': [{'name': 'default'}]}


def nova_get(conn, body=None, status=200):
    """conn.compute's GET answering ``body`` as Nova's ``server``; the
    requests seen (url, keywords) listed."""
    seen = []

    def get(url, **kw):
        seen.append((url, kw))
        return Response(status, {'server': body} if status < 400 else
                        {'itemNotFound': {'code': 404, 'message': 'Instance could not be found.'}})
    conn.compute.get.side_effect = get
    return seen


def test_attributes_as_heat(conn):
    conn.network.ports.return_value = [Obj(id='p1', network_id=NET, mac_address='fa:16',
                                           fixed_ips=[{'ip_address': '10.0.0.3', 'subnet_id': 's1'}])]
    conn.network.get_network.return_value = Obj(id=NET, name='private')
    conn.network.get_subnet.return_value = Obj(id='s1', cidr='10.0.0.0/24')
    conn.network.ips.return_value = [Obj(fixed_ip_address='10.0.0.3', floating_ip_address='172.24.4.9')]
    conn.compute.get_server_console_url.side_effect = sdk_exc.BadRequestException('Unavailable console type')
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f', 'name': 'web'}, physical_id=SRV)
    nova_get(conn, NOVA_BODY)
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
    # Heat's _resolve_any_attribute ignores the not-found of _show_resource: None
    assert attrs['show'] is None
    assert conn.compute.mock_calls == []


def test_show_is_novas_own_body_at_heats_microversion(conn):
    """Heat's _show_resource: novaclient's servers.get(id).to_dict() at
    get_max_microversion() (Nova's newest, 2.91 here, capped at 2.96), plus
    os_collect_config."""
    seen = nova_get(conn, NOVA_BODY)
    occ = {'heat': {'stack_id': 'sid'}}
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f', 'name': 'web'}, physical_id=SRV,
                   metadata={'os-collect-config': occ, 'deployments': []})
    # the live object is the SDK's: every field, most of them None
    live = dict((k, None) for k in ('locked', 'description', 'trusted_image_certificates',
                                    'host_status', 'server_groups', 'pinned_availability_zone'))
    live.update(NOVA_BODY, tags=[])
    show = Server().attributes(ctx, live, names={'show'})['show']
    want = dict(NOVA_BODY, metadata={'a': 'b'}, os_collect_config=occ)
    assert show == want                                   # no key Nova did not send, its nulls kept
    assert show['key_name'] is None and show['OS-SRV-USG:terminated_at'] is None
    assert NOVA_BODY['metadata']['stackers-stack-id'] == 'sid'   # the answer is not changed
    # one GET of the server, its microversion asked through keystoneauth (no header written here)
    assert seen == [('/servers/' + SRV, {'raise_exc': False, 'microversion': '2.91'})]
    assert conn.compute.get_server.call_count == 0


def test_show_without_collect_config_metadata_has_an_empty_one(conn):
    nova_get(conn, NOVA_BODY)
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'}, physical_id=SRV)
    show = Server().attributes(ctx, {'id': SRV}, names={'show'})['show']
    assert show['os_collect_config'] == {} and sorted(show) == sorted(list(NOVA_BODY) + ['os_collect_config'])


@pytest.mark.parametrize('newest, asked', [((2, 100), {'microversion': '2.96'}),   # novaclient's cap
                                           ((2, 96), {'microversion': '2.96'}),
                                           ((2, 60), {'microversion': '2.60'}),
                                           (None, {})])                          # no microversions
def test_show_asks_the_microversion_heats_client_speaks(conn, newest, asked):
    seen = nova_get(conn, NOVA_BODY)
    conn.compute.get_endpoint_data.return_value = mock.Mock(max_microversion=newest)
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'}, physical_id=SRV)
    Server().attributes(ctx, {'id': SRV}, names={'show'})
    assert seen == [('/servers/' + SRV, dict(raise_exc=False, **asked))]


def test_show_of_a_server_gone_since_the_live_read_is_none(conn):
    seen = nova_get(conn, status=404)
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f'}, physical_id=SRV)
    assert Server().attributes(ctx, {'id': SRV}, names={'show'})['show'] is None
    assert len(seen) == 1


def test_addresses_and_networks_only_when_asked(conn):
    """They cost Neutron requests (ports, networks, subnets, floating IPs):
    the engine asks for the others when a server settles."""
    ctx = make_ctx(conn, 'OS::Nova::Server', {'flavor': 'f', 'name': 'web'}, physical_id=SRV)
    live = {'id': SRV, 'status': 'ACTIVE', 'addresses': {'private': [{'addr': '10.0.0.3', 'version': 4}]},
            'OS-EXT-SRV-ATTR:instance_name': 'instance-1'}
    cheap = set(Server.heat_type().attributes) - {'addresses', 'networks', 'show', 'console_urls'}
    attrs = Server().attributes(ctx, live, names=cheap)
    assert 'addresses' not in attrs and 'networks' not in attrs and 'show' not in attrs
    assert attrs['first_address'] == '10.0.0.3' and attrs['instance_name'] == 'instance-1'
    assert conn.network.mock_calls == [] and conn.compute.mock_calls == []
    # networks alone: each label's network found by name, as Heat's _extend_networks does
    conn.network.networks.return_value = [Obj(id=NET, name='private')]
    attrs = Server().attributes(ctx, live, names={'networks'})
    assert attrs['networks'] == {'private': ['10.0.0.3'], NET: ['10.0.0.3']}
    assert 'addresses' not in attrs
    conn.network.ports.assert_not_called()
    conn.network.networks.assert_called_once_with(name='private')
