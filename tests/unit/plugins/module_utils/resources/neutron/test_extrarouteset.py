# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudNotFound, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.extrarouteset import (
    ExtraRouteSet)

RID = 'aaaaaaaa-0000-0000-0000-000000000001'
R1 = {'destination': '10.1.0.0/24', 'nexthop': '10.0.0.5'}
R2 = {'destination': '10.2.0.0/24', 'nexthop': '10.0.0.6'}


def test_create_adds_routes_and_refuses_existing_ones(make_ctx, conn, obj):
    conn.network.get_router.return_value = obj(id=RID, routes=[])
    ctx = make_ctx('OS::Neutron::ExtraRouteSet', {'router': RID, 'routes': [R1]})
    assert ExtraRouteSet().create(ctx) == RID
    conn.network.add_extra_routes_to_router.assert_called_once_with(RID, {'router': {'routes': [R1]}})
    conn.network.get_router.return_value = obj(id=RID, routes=[R1])
    with pytest.raises(ResourceFailure, match=r'The physical resource for \(%s,10.1.0.0/24=10.0.0.5\) exists'
                       % RID):
        ExtraRouteSet().create(ctx)


def test_update_removes_then_adds_the_difference(make_ctx, conn, obj):
    conn.network.get_router.return_value = obj(id=RID, routes=[R1])
    ctx = make_ctx('OS::Neutron::ExtraRouteSet', {'router': RID, 'routes': [R2]}, physical_id=RID,
                   old={'router': RID, 'routes': [R1]})
    ExtraRouteSet().update(ctx)
    conn.network.remove_extra_routes_from_router.assert_called_once_with(RID, {'router': {'routes': [R1]}})
    conn.network.add_extra_routes_to_router.assert_called_once_with(RID, {'router': {'routes': [R2]}})


def test_delete_find_and_show(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::ExtraRouteSet', {'router': RID, 'routes': [R1, R2]}, physical_id=RID)
    conn.network.remove_extra_routes_from_router.side_effect = CloudNotFound('no router')
    ExtraRouteSet().delete(ctx)
    conn.network.get_router.return_value = obj(id=RID, routes=[R2, R1, {'destination': 'x', 'nexthop': 'y'}])
    assert ExtraRouteSet().find(ctx) == RID
    assert ExtraRouteSet().drift(ctx, None) == []
    conn.network.get_router.return_value = obj(id=RID, routes=[R2])
    assert ExtraRouteSet().find(ctx) is None and ExtraRouteSet().show(ctx) is None
    assert ExtraRouteSet().attributes(ctx, {}) == {'show': None}
