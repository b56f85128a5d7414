# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server_group import ServerGroup

from .conftest import Obj, make_ctx


def test_create_sends_first_policy_and_integer_rules(conn):
    conn.compute.create_server_group.return_value = Obj(id='g1', name='st-res-abc')
    ctx = make_ctx(conn, 'OS::Nova::ServerGroup', {'policies': ['affinity'],
                                                   'rules': {'max_server_per_host': 2}})
    assert ServerGroup().create(ctx) == 'g1'
    conn.compute.create_server_group.assert_called_once_with(
        name='st-res-abc', policy='affinity', rules={'max_server_per_host': 2})


def test_default_policy_find_and_failed_rule(conn):
    conn.compute.create_server_group.return_value = Obj(id='g1')
    ctx = make_ctx(conn, 'OS::Nova::ServerGroup', {'name': 'grp'})
    ServerGroup().create(ctx)
    assert conn.compute.create_server_group.call_args[1] == {'name': 'grp', 'policy': 'anti-affinity'}
    conn.compute.server_groups.return_value = [Obj(id='g1', name='grp'), Obj(id='g2', name='x')]
    assert ServerGroup().find(ctx) == 'g1'
    ctx.physical_id = 'g1'
    conn.compute.get_server_group.return_value = Obj(id='g1')
    assert ServerGroup().needs_replace_failed(ctx) is False
    conn.compute.get_server_group.side_effect = sdk_exc.NotFoundException('x')
    assert ServerGroup().needs_replace_failed(ctx) is True
