# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64

import time

import pytest
from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudNotFound, ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import poll_batch
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server

from .conftest import IMG, NET, SRV, Obj, make_ctx

T = 'OS::Nova::Server'


def _props(**kw):
    props = {'image': IMG, 'flavor': 'm1.tiny', 'networks': [{'network': NET}]}
    props.update(kw)
    return props


def test_create_body(conn):
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny')]
    conn.compute.create_server.return_value = Obj(id=SRV)
    ctx = make_ctx(conn, T, _props(metadata={'a': 1}, user_data='#!/bin/sh', user_data_format='RAW',
                                   key_name='k', security_groups=['default'], tags=['t'],
                                   admin_pass='pw', scheduler_hints={'group': 'g'}))
    assert Server().create(ctx) == SRV
    kw = conn.compute.create_server.call_args[1]
    assert kw['name'] == 'st-res-abc' and kw['flavor_id'] == '1' and kw['image_id'] == IMG
    assert kw['metadata'] == {'a': '1', 'stackers-stack-id': 'sid', 'stackers-resource': 'res'}
    assert base64.b64decode(kw['user_data']) == b'#!/bin/sh'
    assert kw['networks'] == [{'uuid': NET}]
    assert kw['security_groups'] == [{'name': 'default'}]
    assert kw['tags'] == ['t'] and kw['key_name'] == 'k' and kw['admin_password'] == 'pw'
    assert kw['scheduler_hints'] == {'group': 'g'}
    # image by UUID, network by UUID: the flavor list is the only read
    conn.image.images.assert_not_called()
    conn.network.networks.assert_not_called()


def test_create_missing_image_or_no_networks(conn):
    conn.image.images.return_value = []
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny')]
    with pytest.raises(ResourceFailure, match=r'The Image \(nope\) could not be found'):
        Server().create(make_ctx(conn, T, _props(image='nope')))
    with pytest.raises(ResourceFailure, match='nics are required'):
        Server().create(make_ctx(conn, T, _props(networks=[])))
    conn.compute.create_server.assert_not_called()


def test_check_create_complete(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(id=SRV, status='BUILD')
    assert Server().check_create_complete(ctx) is False
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE')
    assert Server().check_create_complete(ctx) is True
    assert ctx.live['id'] == SRV
    conn.compute.get_server.return_value = Obj(id=SRV, status='ERROR',
                                               fault={'message': 'No valid host', 'code': 500})
    with pytest.raises(ResourceFailure) as exc:
        Server().check_create_complete(ctx)
    assert str(exc.value).startswith('Went to status ERROR due to "Message: No valid host, Code: 500"')


def test_delete_polls_until_gone_then_deletes_internal_ports(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV, data={'internal_ports': ['p1']})
    Server().delete(ctx)
    conn.compute.delete_server.assert_called_once_with(SRV, ignore_missing=False)
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE', task_state='deleting')
    assert Server().check_delete_complete(ctx) is False
    conn.network.delete_port.assert_not_called()
    conn.compute.get_server.side_effect = sdk_exc.NotFoundException('gone')
    assert Server().check_delete_complete(ctx) is True
    conn.network.delete_port.assert_called_once_with('p1', ignore_missing=False)
    assert 'internal_ports' not in ctx.data


def test_delete_error_fails_with_fault(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='ERROR', task_state=None,
                                               fault={'code': 500, 'message': 'boom'})
    with pytest.raises(ResourceFailure, match=r'Server s delete failed: \(500\) boom'):
        Server().check_delete_complete(ctx)


def test_delete_already_gone(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.delete_server.side_effect = sdk_exc.NotFoundException('gone')
    Server().delete(ctx)
    assert Server().check_delete_complete(ctx) is True
    conn.compute.get_server.assert_not_called()


def test_suspend_resume(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='ACTIVE')
    Server().suspend(ctx)
    conn.compute.suspend_server.assert_called_once_with(SRV)
    assert Server().check_suspend_complete(ctx) is False
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='SUSPENDED')
    assert Server().check_suspend_complete(ctx) is True
    Server().suspend(ctx)   # already suspended: no second call
    assert conn.compute.suspend_server.call_count == 1
    Server().resume(ctx)
    conn.compute.resume_server.assert_called_once_with(SRV)
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='SHELVED')
    with pytest.raises(ResourceFailure, match='Suspend of server s failed'):
        Server().check_suspend_complete(ctx)


def test_needs_replace_rules(conn):
    ctx = make_ctx(conn, T, _props(image_update_policy='REPLACE'), changed={'image'})
    ctx.old_properties = ctx.properties
    assert Server().needs_replace(ctx) is True
    ctx = make_ctx(conn, T, _props(), changed={'image', 'flavor'})
    ctx.old_properties = ctx.properties
    assert Server().needs_replace(ctx) is False
    ctx = make_ctx(conn, T, _props(user_data='x'), changed={'user_data'})
    ctx.old_properties = ctx.properties
    assert Server().needs_replace(ctx) is True   # default policy REPLACE


def test_needs_replace_failed_checks_the_status(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(status='ACTIVE')
    assert Server().needs_replace_failed(ctx) is False
    conn.compute.get_server.return_value = Obj(status='ERROR')
    assert Server().needs_replace_failed(ctx) is True
    assert Server().needs_replace_failed(make_ctx(conn, T, _props())) is True


def test_find_by_name_and_marks(conn):
    ctx = make_ctx(conn, T, _props())
    mine = Obj(id='s1', name='st-res-abc', metadata={'stackers-stack-id': 'sid', 'stackers-resource': 'res'})
    other = Obj(id='s2', name='st-res-abc', metadata={})
    conn.compute.servers.return_value = [mine, other]
    assert Server().find(ctx) == 's1'


def test_check_and_drift(conn):
    ctx = make_ctx(conn, T, _props(name='n', metadata={'a': 'b'}, tags=['x']), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(status='SHUTOFF')
    with pytest.raises(ResourceFailure, match="'status': expected 'ACTIVE', got 'SHUTOFF'"):
        Server().check(ctx)
    live = {'name': 'n', 'metadata': {'a': 'b', 'stackers-stack-id': 'sid'}, 'tags': ['x'],
            'flavor': {'original_name': 'm1.tiny'}, 'image': {'id': IMG}}
    assert Server().drift(ctx, live) == []
    live.update(name='m', metadata={'a': 'c'}, flavor={'original_name': 'm1.small'})
    assert Server().drift(ctx, live) == ['name', 'metadata', 'flavor']


def test_a_server_gone_while_building_fails_as_novas_404(conn):
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.side_effect = sdk_exc.NotFoundException('gone')
    with pytest.raises(CloudNotFound, match='Instance %s could not be found' % SRV):
        Server().check_create_complete(ctx)


def test_servers_polled_together_share_one_list_call(conn, monkeypatch):
    monkeypatch.setattr(poll_batch, 'MIN_BATCH', 2)
    one = make_ctx(conn, T, _props(), name='one', physical_id='s-1')
    two = make_ctx(conn, T, _props(), name='two', physical_id='s-2')
    three = make_ctx(conn, T, _props(), name='three', physical_id='s-3')
    conn.compute.servers.return_value = [Obj(id='s-1', name=one.physical_name, status='ACTIVE'),
                                         Obj(id='s-2', name=two.physical_name, status='BUILD')]
    conn.compute.get_server.return_value = Obj(id='s-2', status='BUILD')
    assert Server().check_create_complete(two) is False   # alone: its own GET
    time.sleep(poll_batch.JOIN_WINDOW * 1.2)              # the next tick
    conn.compute.get_server.reset_mock()
    conn.compute.get_server.return_value = Obj(id='s-3', status='DELETED', task_state=None)
    assert Server().check_create_complete(one) is True    # two polling: one list
    assert Server().check_create_complete(two) is False   # the same list answers
    assert conn.compute.servers.call_count == 1
    conn.compute.get_server.assert_not_called()
    # the list asked for those two servers by their exact names, deleted ones included
    kwargs = conn.compute.servers.call_args.kwargs
    assert kwargs['name'] == '^(%s)$' % '|'.join(sorted([one.physical_name, two.physical_name]))
    assert kwargs['changes_since'].endswith('Z')
    # not in the (changes-since) list: read by id, here already deleted
    assert Server().check_delete_complete(three) is True
    conn.compute.get_server.assert_called_once_with('s-3')


def test_prefetch_looks_up_what_create_will_and_create_reuses_it(conn):
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny')]
    conn.image.images.return_value = [Obj(id=IMG, name='cirros')]
    conn.compute.create_server.return_value = Obj(id=SRV)
    early = make_ctx(conn, T, {'image': 'cirros', 'flavor': 'm1.tiny'})
    Server().prefetch(early)
    conn.compute.flavors.assert_called_once_with(details=False)
    conn.image.images.assert_called_once_with(name='cirros')
    Server().create(make_ctx(conn, T, _props(image='cirros')))
    assert conn.compute.flavors.call_count == 1 and conn.image.images.call_count == 1
    assert conn.compute.create_server.call_args.kwargs['image_id'] == IMG


def test_a_suspend_refused_a_moment_is_asked_again_and_one_on_its_way_is_not(conn, monkeypatch):
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server as mod
    monkeypatch.setattr(mod.time, 'sleep', lambda s: None)
    ctx = make_ctx(conn, T, _props(), physical_id=SRV)
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='ACTIVE', task_state=None)
    conn.compute.suspend_server.side_effect = [sdk_exc.ConflictException('busy'), None]
    Server().suspend(ctx)
    assert conn.compute.suspend_server.call_count == 2
    # the first request's answer lost: the server is suspending, nothing is asked again
    conn.compute.suspend_server.reset_mock()
    conn.compute.suspend_server.side_effect = sdk_exc.ConflictException('busy')
    conn.compute.get_server.side_effect = [Obj(id=SRV, name='s', status='ACTIVE', task_state=None),
                                           Obj(id=SRV, name='s', status='ACTIVE', task_state='suspending')]
    Server().suspend(ctx)
    assert conn.compute.suspend_server.call_count == 1
    # refused every time: bounded, the refusal stands
    conn.compute.suspend_server.reset_mock()
    conn.compute.get_server.side_effect = None
    conn.compute.get_server.return_value = Obj(id=SRV, name='s', status='ACTIVE', task_state=None)
    with pytest.raises(CloudConflict):
        Server().suspend(ctx)
    assert conn.compute.suspend_server.call_count == mod.TOGGLE_TRIES


def test_heats_internal_ports_come_and_go_with_its_resource_data(conn):
    """Heat keeps the ports it made for a server's subnets as data
    ``internal_ports`` (JSON): an adopted server's delete deletes them, and
    an abandoned one's data gives them back to Heat."""
    ctx = make_ctx(conn, T, _props())
    Server().from_heat_resource_data(ctx, {'internal_ports': '[{"id": "p1"}, {"id": "p2"}]',
                                           'external_ports': '[{"id": "nova-made"}]'})
    assert ctx.data == {'internal_ports': ['p1', 'p2']}
    assert Server().heat_resource_data(ctx) == {'internal_ports': '[{"id": "p1"}, {"id": "p2"}]'}
    empty = make_ctx(conn, T, _props())
    Server().from_heat_resource_data(empty, {})
    assert empty.data == {} and Server().heat_resource_data(empty) == {}
