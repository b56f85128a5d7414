# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.trunk import Trunk

TID = 'aaaaaaaa-0000-0000-0000-000000000001'
P1 = 'aaaaaaaa-0000-0000-0000-00000000000a'
P2 = 'aaaaaaaa-0000-0000-0000-00000000000b'
P3 = 'aaaaaaaa-0000-0000-0000-00000000000c'


def _sp(port, seg):
    return {'port': port, 'segmentation_type': 'vlan', 'segmentation_id': seg}


def test_create_resolves_ports(make_ctx, conn, obj, marks):
    conn.network.ports.return_value = [obj(id=P2)]
    conn.network.create_trunk.return_value = obj(id=TID, status='BUILD', tags=[])
    ctx = make_ctx('OS::Neutron::Trunk', {'port': P1, 'sub_ports': [_sp('child', 100)]})
    assert Trunk().create(ctx) == TID
    conn.network.create_trunk.assert_called_once_with(
        name='st-res-abc', port_id=P1,
        sub_ports=[{'port_id': P2, 'segmentation_type': 'vlan', 'segmentation_id': 100}])
    conn.network.set_tags.assert_not_called()
    Trunk().create_later(ctx)()
    assert conn.network.set_tags.call_args[0][1] == marks
    conn.network.get_trunk.return_value = obj(id=TID, status='ACTIVE')
    assert Trunk().check_create_complete(ctx) is True   # BUILD in the answer: one GET
    conn.network.get_trunk.assert_called_once_with(TID)


def test_update_removes_then_adds_subports(make_ctx, conn):
    ctx = make_ctx('OS::Neutron::Trunk', {'port': P1, 'name': 't', 'sub_ports': [_sp(P2, 100), _sp(P3, 102)]},
                   physical_id=TID, old={'port': P1, 'name': 'u', 'sub_ports': [_sp(P2, 100), _sp(P3, 101)]})
    Trunk().update(ctx)
    conn.network.update_trunk.assert_called_once_with(TID, name='t')
    conn.network.delete_trunk_subports.assert_called_once_with(TID, [{'port_id': P3}])
    conn.network.add_trunk_subports.assert_called_once_with(
        TID, [{'port_id': P3, 'segmentation_type': 'vlan', 'segmentation_id': 102}])


def test_attributes_and_drift(make_ctx):
    ctx = make_ctx('OS::Neutron::Trunk', {'port': P1, 'name': 't', 'sub_ports': [_sp(P2, 100)]}, physical_id=TID)
    live = {'id': TID, 'name': 't', 'port_id': P1, 'tags': [], 'admin_state_up': True,
            'sub_ports': [{'port_id': P2, 'segmentation_type': 'vlan', 'segmentation_id': 100}]}
    assert Trunk().attributes(ctx, live)['port_id'] == P1
    assert Trunk().drift(ctx, live) == []
    assert Trunk().drift(ctx, dict(live, sub_ports=[])) == ['sub_ports']


def test_update_puts_drifted_subports_back_from_the_live_trunk(make_ctx, conn, obj):
    # a converge: sub_ports drifted, the record equal to the template
    props = {'port': P1, 'name': 't', 'sub_ports': [_sp(P2, 100)]}
    ctx = make_ctx('OS::Neutron::Trunk', props, physical_id=TID, old=dict(props), changed=['sub_ports'])
    conn.network.get_trunk.return_value = obj(id=TID, sub_ports=[
        {'port_id': P3, 'segmentation_type': 'vlan', 'segmentation_id': 101}])
    Trunk().update(ctx)
    conn.network.update_trunk.assert_not_called()
    conn.network.delete_trunk_subports.assert_called_once_with(TID, [{'port_id': P3}])
    conn.network.add_trunk_subports.assert_called_once_with(
        TID, [{'port_id': P2, 'segmentation_type': 'vlan', 'segmentation_id': 100}])
