# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.port import (
    TAGS_IN_POST, Port)

PID = 'aaaaaaaa-0000-0000-0000-000000000001'
NET = 'aaaaaaaa-0000-0000-0000-00000000000e'
SUB = 'aaaaaaaa-0000-0000-0000-00000000000b'
SG = 'aaaaaaaa-0000-0000-0000-00000000000c'


def _port(obj, **kw):
    attrs = dict(id=PID, status='DOWN', tags=[], network_id=NET, fixed_ips=[], mac_address='fa:16:3e:00:00:01')
    attrs.update(kw)
    return obj(**attrs)


def test_create_body_as_heat(make_ctx, conn, obj, marks):
    conn.network.subnets.return_value = [obj(id=SUB)]
    conn.network.security_groups.return_value = [obj(id=SG)]
    conn.network.create_port.return_value = _port(obj)
    ctx = make_ctx('OS::Neutron::Port', {
        'network_id': NET, 'fixed_ips': [{'subnet': 'sub', 'ip_address': '10.0.0.5'}, {'subnet_id': SUB}],
        'security_groups': ['web'], 'allowed_address_pairs': [{'ip_address': '10.0.0.9'}],
        'mac_address': 'fa:16:3e:00:00:01', 'binding:vnic_type': 'direct',
        'value_specs': {'description': 'd'}, 'replacement_policy': 'AUTO', 'tags': ['t']})
    assert Port().create(ctx) == PID
    conn.network.create_port.assert_called_once_with(**{
        'name': 'st-res-abc', 'network_id': NET, 'admin_state_up': True, 'device_id': '', 'device_owner': '',
        'fixed_ips': [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}, {'subnet_id': SUB}],
        'security_groups': [SG], 'allowed_address_pairs': [{'ip_address': '10.0.0.9'}],
        'mac_address': 'fa:16:3e:00:00:01', 'binding:vnic_type': 'direct', 'description': 'd'})
    conn.network.subnets.assert_called_once_with(name='sub')
    assert conn.network.set_tags.call_args[0][1] == ['t'] + marks
    assert Port().check_create_complete(ctx) is True   # DOWN is built, as in Heat
    conn.network.get_port.assert_not_called()
    assert Port().create_later(ctx) is None     # the marks went with the user's tags


def test_marks_alone_come_later(make_ctx, conn, obj, marks):
    conn.network.create_port.return_value = _port(obj)
    ctx = make_ctx('OS::Neutron::Port', {'network': NET})
    assert Port().create(ctx) == PID
    conn.network.set_tags.assert_not_called()
    Port().create_later(ctx)()
    res, tags = conn.network.set_tags.call_args[0]
    assert res.id == PID and tags == marks


def test_tags_in_the_post_when_neutron_takes_them(make_ctx, conn, obj, marks):
    conn.network.extensions.return_value = [obj(alias=TAGS_IN_POST)]
    conn.network.create_port.return_value = _port(obj, tags=marks)
    ctx = make_ctx('OS::Neutron::Port', {'network': NET, 'no_fixed_ips': True})
    Port().create(ctx)
    kwargs = conn.network.create_port.call_args[1]
    assert kwargs['tags'] == marks and kwargs['fixed_ips'] == []
    assert Port().create_later(ctx) is None
    conn.network.set_tags.assert_not_called()


def test_update_in_place(make_ctx, conn, obj):
    conn.network.security_groups.return_value = [obj(id=SG)]
    ctx = make_ctx('OS::Neutron::Port', {'network': NET, 'fixed_ips': [], 'security_groups': None,
                                         'allowed_address_pairs': [], 'name': 'p'},
                   physical_id=PID,
                   old={'network': NET, 'fixed_ips': [{'ip_address': '10.0.0.5'}], 'security_groups': [SG],
                        'allowed_address_pairs': [{'ip_address': '10.0.0.9'}], 'name': 'q'})
    Port().update(ctx)
    # an emptied fixed_ips keeps the addresses (Heat bug 1538473); no groups: back to default
    conn.network.update_port.assert_called_once_with(
        PID, name='p', security_groups=[SG], allowed_address_pairs=[])
    conn.network.security_groups.assert_called_once_with(name='default', project_id='proj')


def test_binding_profile_three_way_merge(make_ctx, conn, obj):
    conn.network.get_port.return_value = obj(id=PID, **{'binding:profile': {'pci_slot': '0000:01', 'a': 1}})
    ctx = make_ctx('OS::Neutron::Port', {'network': NET, 'value_specs': {'binding:profile': {'a': 2}, 'x': 1}},
                   physical_id=PID,
                   old={'network': NET, 'value_specs': {'binding:profile': {'a': 1}, 'x': 1}})
    Port().update(ctx)
    conn.network.update_port.assert_called_once_with(PID, **{'binding:profile': {'pci_slot': '0000:01', 'a': 2}})


def test_replacement_policy_and_prepare_for_replace(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Port', {'network': NET, 'replacement_policy': 'REPLACE_ALWAYS'}, physical_id=PID)
    assert Port().needs_replace(ctx) is True
    conn.network.get_port.return_value = _port(obj, fixed_ips=[{'subnet_id': SUB, 'ip_address': '10.0.0.5'}])
    Port().prepare_for_replace(ctx)
    assert ctx.data['port_fip'] == [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}]
    conn.network.update_port.assert_called_once_with(PID, fixed_ips=[])


def test_attributes_subnets_and_network(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Port', {'network': NET}, physical_id=PID)
    conn.network.get_subnet.return_value = obj(id=SUB, cidr='10.0.0.0/24')
    conn.network.get_network.return_value = obj(id=NET, name='n')
    live = {'id': PID, 'network_id': NET, 'fixed_ips': [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}],
            'mac_address': 'm', 'tags': []}
    attrs = Port().attributes(ctx, live)
    assert attrs['subnets'] == [{'id': SUB, 'cidr': '10.0.0.0/24'}] and attrs['network'] == {'id': NET, 'name': 'n'}
    assert attrs['fixed_ips'] == live['fixed_ips'] and attrs['mac_address'] == 'm'
    assert Port().attributes(ctx, live, names=['mac_address'])['mac_address'] == 'm'
    assert conn.network.get_subnet.call_count == 1
    # Neutron's JSON, as show answers it: raw GETs, no SDK Resource
    assert sorted(c[0][0] for c in conn.network.get.call_args_list) == ['/networks/%s' % NET, '/subnets/%s' % SUB]


def test_drift(make_ctx):
    ctx = make_ctx('OS::Neutron::Port', {'network': NET, 'name': 'p', 'fixed_ips': [{'subnet': SUB}],
                                         'security_groups': [SG]}, physical_id=PID)
    live = {'name': 'p', 'admin_state_up': True, 'device_id': '', 'device_owner': '',
            'binding:vnic_type': 'normal', 'tags': [], 'security_groups': [SG],
            'fixed_ips': [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}]}
    assert Port().drift(ctx, live) == []
    live.update(fixed_ips=[], security_groups=[])
    assert Port().drift(ctx, live) == ['fixed_ips', 'security_groups']


def test_subnets_and_network_cost_requests_only_when_asked(make_ctx, conn):
    ctx = make_ctx('OS::Neutron::Port', {'network': NET}, physical_id=PID)
    live = {'id': PID, 'network_id': NET, 'fixed_ips': [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}],
            'mac_address': 'm', 'tags': []}
    cheap = set(Port.heat_type().attributes) - set(Port().costly_attributes)
    attrs = Port().attributes(ctx, live, names=cheap)
    assert 'subnets' not in attrs and 'network' not in attrs and attrs['network_id'] == NET
    conn.network.get_subnet.assert_not_called()
    conn.network.get_network.assert_not_called()


def test_prefetch_reads_the_extensions_once_for_every_port(make_ctx, conn, obj):
    conn.network.create_port.return_value = _port(obj)
    Port().prefetch(make_ctx('OS::Neutron::Port', {}))
    Port().create(make_ctx('OS::Neutron::Port', {'network': NET}))
    conn.network.extensions.assert_called_once_with()


def test_update_puts_a_drifted_name_and_value_specs_back(make_ctx, conn):
    # a converge: the record equals the template, the changed keys are the drift
    props = {'network': NET, 'name': 'p', 'value_specs': {'description': 'd'}}
    ctx = make_ctx('OS::Neutron::Port', props, physical_id=PID, old=dict(props),
                   changed=['name', 'value_specs'])
    Port().update(ctx)
    conn.network.update_port.assert_called_once_with(PID, name='p', description='d')
