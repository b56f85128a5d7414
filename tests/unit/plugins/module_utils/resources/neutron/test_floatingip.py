# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudNotFound
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.floatingip import (
    FloatingIP, FloatingIPAssociation)

FID = 'aaaaaaaa-0000-0000-0000-000000000001'
NET = 'aaaaaaaa-0000-0000-0000-00000000000e'
SUB = 'aaaaaaaa-0000-0000-0000-00000000000b'
PORT = 'aaaaaaaa-0000-0000-0000-00000000000a'
PORT2 = 'aaaaaaaa-0000-0000-0000-00000000000d'


def test_create_by_network_name_with_port(make_ctx, conn, obj, marks):
    conn.network.networks.return_value = [obj(id=NET)]
    conn.network.create_ip.return_value = obj(id=FID, tags=[], port_id=PORT)
    ctx = make_ctx('OS::Neutron::FloatingIP', {'floating_network': 'public', 'port_id': PORT,
                                               'floating_subnet': SUB, 'fixed_ip_address': '10.0.0.5'})
    assert FloatingIP().create(ctx) == FID
    conn.network.create_ip.assert_called_once_with(
        floating_network_id=NET, subnet_id=SUB, port_id=PORT, fixed_ip_address='10.0.0.5')
    conn.network.set_tags.assert_not_called()
    assert FloatingIP().check_create_complete(ctx) is True
    FloatingIP().create_later(ctx)()
    assert conn.network.set_tags.call_args[0][1] == marks


def test_update_moves_the_association_in_place(make_ctx, conn):
    ctx = make_ctx('OS::Neutron::FloatingIP', {'floating_network_id': NET, 'port_id': None}, physical_id=FID,
                   old={'floating_network_id': NET, 'port_id': PORT})
    FloatingIP().update(ctx)
    conn.network.update_ip.assert_called_once_with(FID, port_id=None, fixed_ip_address=None)


def test_attributes_and_drift(make_ctx):
    ctx = make_ctx('OS::Neutron::FloatingIP', {'floating_network': NET}, physical_id=FID)
    live = {'id': FID, 'floating_ip_address': '172.24.4.5', 'router_id': 'r', 'port_id': PORT,
            'floating_network_id': NET, 'fixed_ip_address': '10.0.0.5', 'tenant_id': 't', 'tags': []}
    attrs = FloatingIP().attributes(ctx, live)
    assert attrs['floating_ip_address'] == '172.24.4.5' and attrs['router_id'] == 'r'
    assert FloatingIP().drift(ctx, live) == ['port_id']


def test_association_create_delete_find(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::FloatingIPAssociation', {'floatingip_id': FID, 'port_id': PORT})
    ref = FloatingIPAssociation().create(ctx)
    assert ref == 'st-res-abc'
    conn.network.update_ip.assert_called_once_with(FID, port_id=PORT)
    ctx.physical_id = ref
    assert FloatingIPAssociation().reference_id(ctx) == ref
    conn.network.get_ip.return_value = obj(id=FID, port_id=PORT)
    assert FloatingIPAssociation().find(ctx) == ref
    assert FloatingIPAssociation().attributes(ctx, {}) == {'show': None}
    conn.network.update_ip.reset_mock()
    conn.network.update_ip.side_effect = CloudNotFound('fip gone')
    FloatingIPAssociation().delete(ctx)
    conn.network.update_ip.assert_called_once_with(FID, port_id=None)


def test_association_update_moves_to_another_floating_ip(make_ctx, conn):
    fid2 = 'aaaaaaaa-0000-0000-0000-000000000002'
    ctx = make_ctx('OS::Neutron::FloatingIPAssociation', {'floatingip_id': fid2, 'port_id': PORT2},
                   physical_id='ref', old={'floatingip_id': FID, 'port_id': PORT, 'fixed_ip_address': '10.0.0.5'})
    FloatingIPAssociation().update(ctx)
    assert conn.network.update_ip.call_args_list[0][0] == (FID,)
    assert conn.network.update_ip.call_args_list[0][1] == {'port_id': None}
    # Heat keeps the old fixed address when the new one is unset
    assert conn.network.update_ip.call_args_list[1][0] == (fid2,)
    assert conn.network.update_ip.call_args_list[1][1] == {'port_id': PORT2, 'fixed_ip_address': '10.0.0.5'}


def test_find_takes_the_unmarked_address_of_the_wanted_port(make_ctx, conn, obj):
    """A create whose answer was lost leaves an address with no marks (nor a name): found by the
    port it was given on that network, unless a stack marked it."""
    ctx = make_ctx('OS::Neutron::FloatingIP', {'floating_network': NET, 'port_id': PORT})
    lost = obj(id=FID, tags=[])
    conn.network.ips.side_effect = lambda **q: [] if 'tags' in q else [lost]
    assert FloatingIP().find(ctx) == FID
    assert conn.network.ips.call_args.kwargs == {'port_id': PORT, 'floating_network_id': NET}
    lost.tags = ['stackers-stack-id=another']
    assert FloatingIP().find(ctx) is None
    bare = make_ctx('OS::Neutron::FloatingIP', {'floating_network': NET})     # no port: nothing to go by
    assert FloatingIP().find(bare) is None
