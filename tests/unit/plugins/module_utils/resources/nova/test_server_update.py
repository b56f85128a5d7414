# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server

from .conftest import IMG, NET, SRV, Obj, make_ctx

T = 'OS::Nova::Server'
BASE = {'image': IMG, 'flavor': '1', 'networks': [{'network': NET}]}


def _ctx(conn, changed, **new):
    ctx = make_ctx(conn, T, dict(BASE, **new), physical_id=SRV, changed=changed)
    ctx.old_properties = make_ctx(conn, T, BASE).properties
    ctx.action = 'UPDATE'
    return ctx


def test_metadata_keeps_marks_tags_name_at_once(conn):
    server = Obj(id=SRV, metadata={'old': '1', 'stackers-stack-id': 'sid', 'stackers-resource': 'res'})
    conn.compute.get_server.return_value = server
    ctx = _ctx(conn, {'metadata', 'tags', 'name'}, metadata={'new': 2}, tags=['t'], name='n2')
    server.set_tags = conn.set_tags
    Server().update(ctx)
    conn.compute.delete_server_metadata.assert_called_once_with(server, ['old'])
    conn.compute.set_server_metadata.assert_called_once_with(
        server, new='2', **{'stackers-stack-id': 'sid', 'stackers-resource': 'res'})
    conn.set_tags.assert_called_once_with(conn.compute, ['t'])
    conn.compute.update_server.assert_called_once_with(SRV, name='n2')
    assert Server().check_update_complete(ctx) is True
    assert conn.compute.get_server.call_count == 1


def test_resize_steps(conn):
    conn.compute.flavors.return_value = [Obj(id='2', name='m1.small')]
    ctx = _ctx(conn, {'flavor'}, flavor='m1.small')
    Server().update(ctx)
    statuses = iter(['ACTIVE',            # resize call (fetch)
                     'RESIZE',            # check_resize
                     'VERIFY_RESIZE',     # check_resize -> done
                     'VERIFY_RESIZE',     # verify_resize -> confirm
                     'ACTIVE'])           # check_verify_resize
    conn.compute.get_server.side_effect = lambda sid: Obj(id=sid, status=next(statuses), task_state=None)
    results = [Server().check_update_complete(ctx) for _i in range(5)]
    assert results == [False, False, False, False, True]
    conn.compute.resize_server.assert_called_once_with(SRV, '2')
    conn.compute.confirm_server_resize.assert_called_once_with(SRV)
    assert 'update_steps' not in ctx.data


def test_resize_failure_wording(conn):
    ctx = _ctx(conn, {'flavor'}, flavor='2')
    conn.compute.flavors.return_value = [Obj(id='2', name='m1.small')]
    Server().update(ctx)
    conn.compute.get_server.return_value = Obj(id=SRV, status='ERROR')
    Server().check_update_complete(ctx)
    with pytest.raises(ResourceFailure, match="Resizing to '2' failed, status 'ERROR'"):
        Server().check_update_complete(ctx)


def test_image_rebuild_preserve_ephemeral_keeps_marks(conn):
    img2 = '99999999-9999-9999-9999-999999999999'
    ctx = _ctx(conn, {'image'}, image=img2, image_update_policy='REBUILD_PRESERVE_EPHEMERAL')
    Server().update(ctx)
    conn.compute.get_server.return_value = Obj(id=SRV, status='REBUILD')
    assert Server().check_update_complete(ctx) is False
    kw = conn.compute.rebuild_server.call_args
    assert kw[0] == (SRV, img2) and kw[1]['preserve_ephemeral'] is True
    assert kw[1]['metadata']['stackers-stack-id'] == 'sid'
    assert Server().check_update_complete(ctx) is False
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE')
    assert Server().check_update_complete(ctx) is True


def test_user_data_rebuild_keeps_image(conn):
    ctx = _ctx(conn, {'user_data'}, user_data='x', user_data_update_policy='REBUILD')
    assert not Server().needs_replace(ctx)
    Server().update(ctx)
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE', image={'id': IMG})
    Server().check_update_complete(ctx)
    assert conn.compute.rebuild_server.call_args[0] == (SRV, IMG)
    assert conn.compute.rebuild_server.call_args[1] == {'user_data': 'eA=='}


def test_network_update_detach_then_attach(conn):
    net2 = '55555555-5555-5555-5555-555555555555'
    conn.compute.server_interfaces.return_value = [Obj(port_id='p1', net_id=NET, fixed_ips=[])]
    ctx = _ctx(conn, {'networks'}, networks=[{'network': net2}])
    ctx.data['internal_ports'] = ['p1']
    Server().update(ctx)
    assert [s['handler'] for s in ctx.data['update_steps']] == ['interface_detach', 'interface_attach']
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE', addresses={})
    conn.network.get_port.return_value = Obj(device_id='', mac_address='m')
    assert Server().check_update_complete(ctx) is False   # detach called
    conn.compute.delete_server_interface.assert_called_once_with('p1', server=SRV, ignore_missing=False)
    assert Server().check_update_complete(ctx) is False   # detach checked; attach next
    conn.network.delete_port.assert_called_once_with('p1', ignore_missing=False)
    assert Server().check_update_complete(ctx) is False   # attach called
    assert conn.compute.create_server_interface.call_args[1] == {'net_id': net2}
    assert Server().check_update_complete(ctx) is True


def test_an_interface_already_on_the_server_is_attached(conn):
    """A run killed after Nova attached the port (or the answer lost): Nova's 409 "Port is still
    in use" for a port on this very server means done; on another server it stands."""
    from openstack import exceptions as sdk_exc
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_update
    ctx = _ctx(conn, {'networks'})
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE', addresses={})
    conn.compute.create_server_interface.side_effect = sdk_exc.ConflictException('Port p2 is still in use.')
    conn.network.get_port.return_value = Obj(id='p2', device_id=SRV)
    assert server_update._interface_attach(ctx, port_id='p2') is True
    conn.network.get_port.return_value = Obj(id='p2', device_id='another-server')
    with pytest.raises(CloudConflict, match='still in use'):
        server_update._interface_attach(ctx, port_id='p2')
    # a free port refused a moment: asked again on the next poll, a bounded number of times
    conn.network.get_port.return_value = Obj(id='p2', device_id='')
    assert server_update._interface_attach(ctx, port_id='p2') is False
    ctx.data[server_update.ATTACH_BUSY] = server_update.BUSY_LIMIT - 1
    with pytest.raises(CloudConflict):
        server_update._interface_attach(ctx, port_id='p2')


def test_an_existing_ports_attach_is_asked_again_after_a_5xx_one_by_network_is_not(conn, monkeypatch):
    from openstack import exceptions as sdk_exc
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudTransient
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_update
    monkeypatch.setattr(sdk.time, 'sleep', lambda s: None)
    ctx = _ctx(conn, {'networks'})
    conn.compute.get_server.return_value = Obj(id=SRV, status='ACTIVE', addresses={})
    failed = sdk_exc.HttpException('injected')
    failed.status_code = 500
    conn.compute.create_server_interface.side_effect = [failed, Obj(port_id='p2')]
    assert server_update._interface_attach(ctx, port_id='p2') is True
    assert conn.compute.create_server_interface.call_count == 2
    conn.compute.create_server_interface.reset_mock()
    conn.compute.create_server_interface.side_effect = [failed, Obj(port_id='p3')]
    with pytest.raises(CloudTransient):
        server_update._interface_attach(ctx, net_id='n2')
    assert conn.compute.create_server_interface.call_count == 1


def test_metadata_refused_a_moment_is_set_again(conn, monkeypatch):
    from openstack import exceptions as sdk_exc
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_update
    monkeypatch.setattr(server_update.time, 'sleep', lambda s: None)
    server = Obj(id=SRV, metadata={'stackers-stack-id': 'sid', 'stackers-resource': 'res'})
    ctx = _ctx(conn, {'metadata'}, metadata={'v': '2'})
    conn.compute.set_server_metadata.side_effect = [sdk_exc.ConflictException('busy'), None]
    server_update.update_metadata(ctx, server, {'v': '2'})
    assert conn.compute.set_server_metadata.call_count == 2
    conn.compute.set_server_metadata.reset_mock()
    conn.compute.set_server_metadata.side_effect = sdk_exc.ConflictException('locked')
    with pytest.raises(CloudConflict):
        server_update.update_metadata(ctx, server, {'v': '2'})
    assert conn.compute.set_server_metadata.call_count == server_update.BUSY_TRIES
