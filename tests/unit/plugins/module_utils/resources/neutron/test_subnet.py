# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.subnet import Subnet

UUID = 'aaaaaaaa-0000-0000-0000-000000000001'
NET = 'aaaaaaaa-0000-0000-0000-00000000000e'


def test_create_resolves_network_name_and_legacy_network_id(make_ctx, conn, obj):
    conn.network.networks.return_value = [obj(id=NET)]
    conn.network.create_subnet.return_value = obj(id=UUID, tags=[])
    ctx = make_ctx('OS::Neutron::Subnet', {'network': 'private', 'cidr': '10.0.0.0/24', 'gateway_ip': ''})
    assert Subnet().create(ctx) == UUID
    conn.network.create_subnet.assert_called_once_with(
        name='st-res-abc', network_id=NET, cidr='10.0.0.0/24', dns_nameservers=[],
        enable_dhcp=True, ip_version=4, gateway_ip=None)
    assert Subnet().check_create_complete(ctx) is True   # Heat does not poll a subnet
    conn.network.create_subnet.reset_mock()
    ctx = make_ctx('OS::Neutron::Subnet', {'network_id': NET, 'cidr': '10.0.0.0/24', 'gateway_ip': 'auto'})
    Subnet().create(ctx)
    kwargs = conn.network.create_subnet.call_args[1]
    assert kwargs['network_id'] == NET and 'gateway_ip' not in kwargs


def test_update_rules(make_ctx, conn):
    ctx = make_ctx('OS::Neutron::Subnet', {'network': NET, 'cidr': '10.0.0.0/24', 'allocation_pools': None,
                                           'gateway_ip': '~'}, physical_id=UUID,
                   old={'network': NET, 'cidr': '10.0.0.0/24', 'gateway_ip': '10.0.0.1',
                        'allocation_pools': [{'start': '10.0.0.5', 'end': '10.0.0.9'}]})
    Subnet().update(ctx)
    conn.network.update_subnet.assert_called_once_with(UUID, allocation_pools=[], gateway_ip=None)
    ctx = make_ctx('OS::Neutron::Subnet', {'network': NET, 'gateway_ip': 'auto'}, physical_id=UUID,
                   old={'network': NET, 'gateway_ip': '10.0.0.1'})
    with pytest.raises(ResourceFailure, match='"auto" for gateway_ip'):
        Subnet().update(ctx)


def test_segment_update_only_from_none(make_ctx):
    seg = 'aaaaaaaa-0000-0000-0000-00000000000c'
    ctx = make_ctx('OS::Neutron::Subnet', {'network': NET, 'segment': seg}, physical_id=UUID,
                   old={'network': NET, 'segment': 'aaaaaaaa-0000-0000-0000-00000000000d'})
    with pytest.raises(ResourceFailure, match='current segment_id is None'):
        Subnet().update(ctx)


def test_drift_ignores_order_of_nameservers(make_ctx):
    ctx = make_ctx('OS::Neutron::Subnet', {'network': NET, 'name': 's', 'dns_nameservers': ['1.1.1.1', '8.8.8.8']},
                   physical_id=UUID)
    live = {'name': 's', 'enable_dhcp': True, 'dns_nameservers': ['8.8.8.8', '1.1.1.1'], 'tags': []}
    assert Subnet().drift(ctx, live) == []
    live['enable_dhcp'] = False
    assert Subnet().drift(ctx, live) == ['enable_dhcp']
