# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest
from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.resource_tasks import failure_reason
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_snapshot
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server

from .conftest import IMG, NET, SRV, Obj, make_ctx

T = 'OS::Nova::Server'
SNAP = '44444444-4444-4444-4444-444444444444'


def _ctx(conn, **kw):
    kw.setdefault('physical_id', SRV)
    ctx = make_ctx(conn, T, {'image': IMG, 'flavor': 'm1.tiny', 'networks': [{'network': NET}],
                             'name': 'given-name'}, name='srv', **kw)
    ctx.action = 'DELETE'
    return ctx


def _unavailable():
    exc = sdk_exc.HttpException('busy')
    exc.status_code = 503
    return exc


def test_the_image_is_named_after_the_physical_name_and_its_id_kept(conn):
    ctx = _ctx(conn)
    conn.compute.create_server_image.return_value = Obj(id=SNAP, status='queued')
    assert Server().snapshot(ctx, ('CREATE', 'COMPLETE')) == {'image_id': SNAP}
    # Heat's physical_resource_name(), not the server's name property
    conn.compute.create_server_image.assert_called_once_with(SRV, 'st-srv-abc')
    assert ctx.data['image_id'] == SNAP
    conn.image.images.assert_not_called()


def test_an_sdk_answering_the_id_is_understood(conn):
    ctx = _ctx(conn)
    conn.compute.create_server_image.return_value = SNAP
    assert Server().snapshot(ctx, ('UPDATE', 'COMPLETE')) == {'image_id': SNAP}


@pytest.mark.parametrize('state', [('CREATE', 'FAILED'), ('UPDATE', 'FAILED'), ('CHECK', 'FAILED'),
                                   ('SUSPEND', 'FAILED'), ('DELETE', 'FAILED')])
def test_a_server_failed_before_the_delete_gets_no_image_as_heat(conn, state):
    ctx = _ctx(conn)
    assert Server().snapshot(ctx, state) is None
    conn.compute.create_server_image.assert_not_called()
    assert 'image_id' not in ctx.data


@pytest.mark.parametrize('state', [('CREATE', 'COMPLETE'), ('UPDATE', 'COMPLETE'),
                                   ('SUSPEND', 'COMPLETE'), ('RESUME', 'COMPLETE'),
                                   ('CHECK', 'COMPLETE')])
def test_a_server_not_failed_gets_its_image(conn, state):
    ctx = _ctx(conn)
    conn.compute.create_server_image.return_value = Obj(id=SNAP, status='queued')
    assert Server().snapshot(ctx, state) == {'image_id': SNAP}


def test_the_delete_waits_for_an_active_image(conn):
    ctx = _ctx(conn, data={'image_id': SNAP})
    for status in ('queued', 'saving'):
        conn.image.get_image.return_value = Obj(id=SNAP, status=status)
        assert Server().check_snapshot_complete(ctx) is False
    conn.image.get_image.return_value = Obj(id=SNAP, status='active')
    assert Server().check_snapshot_complete(ctx) is True
    conn.image.get_image.assert_called_with(SNAP)


def test_glance_busy_a_moment_is_not_yet(conn, monkeypatch):
    monkeypatch.setattr('ansible_collections.stackers.orchestration.plugins.module_utils.'
                        'resources.sdk.BACKOFF', 0.0)
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.side_effect = _unavailable()
    assert Server().check_snapshot_complete(ctx) is False


@pytest.mark.parametrize('status', ['error', 'deleted', 'killed', 'ERROR'])
def test_an_image_that_will_never_be_active_fails_the_delete_as_heat(conn, status):
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.return_value = Obj(id=SNAP, status=status)
    with pytest.raises(ResourceFailure) as exc:
        Server().check_snapshot_complete(ctx)
    # Heat: raise exception.Error(image.status)
    assert failure_reason(exc.value, 'srv') == 'Error: resources.srv: %s' % status


def test_a_gone_image_fails_the_delete(conn):
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.side_effect = sdk_exc.NotFoundException('No image found')
    with pytest.raises(Exception) as exc:
        Server().check_snapshot_complete(ctx)
    assert failure_reason(exc.value, 'srv').startswith('NotFound: resources.srv: ')


@pytest.mark.parametrize('status', ['queued', 'saving', 'active'])
def test_a_delete_a_killed_run_left_waits_for_its_image_and_makes_no_second(conn, status):
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.return_value = Obj(id=SNAP, status=status)
    assert Server().snapshot(ctx, ('DELETE', 'IN_PROGRESS')) == {'image_id': SNAP}
    conn.compute.create_server_image.assert_not_called()
    conn.image.images.assert_not_called()


def test_a_killed_run_whose_image_id_was_not_committed_finds_its_image(conn):
    ctx = _ctx(conn)
    conn.image.images.return_value = iter([
        Obj(id='other-server', name='st-srv-abc', instance_uuid='elsewhere', status='active'),
        Obj(id='failed-one', name='st-srv-abc', instance_uuid=SRV, status='killed'),
        Obj(id=SNAP, name='st-srv-abc', instance_uuid=SRV, status='saving')])
    assert Server().snapshot(ctx, ('DELETE', 'IN_PROGRESS')) == {'image_id': SNAP}
    conn.image.images.assert_called_once_with(name='st-srv-abc')
    conn.compute.create_server_image.assert_not_called()
    assert ctx.data['image_id'] == SNAP


def test_a_killed_run_that_made_no_image_makes_it(conn):
    ctx = _ctx(conn)
    conn.image.images.return_value = iter([])
    conn.compute.create_server_image.return_value = Obj(id=SNAP, status='queued')
    assert Server().snapshot(ctx, ('DELETE', 'IN_PROGRESS')) == {'image_id': SNAP}


def test_a_failed_delete_waits_for_its_image_on_its_way_but_makes_no_new_one(conn):
    # the image was whole (or still uploading) and the delete failed after it
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.return_value = Obj(id=SNAP, status='active')
    assert Server().snapshot(ctx, ('DELETE', 'FAILED')) == {'image_id': SNAP}
    # the image failed: Heat's next delete makes none of a FAILED server
    ctx = _ctx(conn, data={'image_id': SNAP})
    conn.image.get_image.return_value = Obj(id=SNAP, status='killed')
    assert Server().snapshot(ctx, ('DELETE', 'FAILED')) is None
    conn.image.get_image.side_effect = sdk_exc.NotFoundException('gone')
    assert Server().snapshot(ctx, ('DELETE', 'FAILED')) is None
    conn.compute.create_server_image.assert_not_called()


def test_an_image_id_of_an_older_delete_is_not_reused(conn):
    # kept in the data of a server whose delete failed long ago and that was updated since
    ctx = _ctx(conn, data={'image_id': 'old'})
    conn.compute.create_server_image.return_value = Obj(id=SNAP, status='queued')
    assert Server().snapshot(ctx, ('UPDATE', 'COMPLETE')) == {'image_id': SNAP}
    conn.image.get_image.assert_not_called()


def test_an_answer_lost_after_nova_made_the_image_is_found_again(conn, monkeypatch):
    monkeypatch.setattr('ansible_collections.stackers.orchestration.plugins.module_utils.'
                        'resources.sdk.BACKOFF', 0.0)
    ctx = _ctx(conn)
    # openstacksdk reads the image back from Glance after Nova's answer: that read failed
    conn.compute.create_server_image.side_effect = _unavailable()
    conn.image.images.return_value = iter([Obj(id=SNAP, name='st-srv-abc', instance_uuid=SRV,
                                               status='queued')])
    assert Server().snapshot(ctx, ('CREATE', 'COMPLETE')) == {'image_id': SNAP}
    # one POST: never retried, it could make a second image
    assert conn.compute.create_server_image.call_count == 1
    conn.image.images.return_value = iter([])
    with pytest.raises(Exception, match='busy'):
        Server().snapshot(_ctx(conn), ('CREATE', 'COMPLETE'))


def test_an_image_glance_does_not_show_fails_rather_than_deleting_the_server(conn):
    ctx = _ctx(conn)
    conn.compute.create_server_image.return_value = None
    conn.image.images.return_value = iter([])
    with pytest.raises(ResourceFailure, match='Glance has no image named st-srv-abc'):
        Server().snapshot(ctx, ('CREATE', 'COMPLETE'))


def test_image_name_falls_back_to_the_resource_name():
    assert server_snapshot.image_name(Obj(physical_name=None, name='srv')) == 'srv'


def test_heats_handle_restore_boots_from_the_snapshots_image():
    props = {'flavor': 'm1.tiny', 'image': 'cirros', 'key_name': None,
             'networks': [{'network': 'n', 'port': None}], 'block_device_mapping_v2': None}
    restored = Server().restore_properties(props, {'snapshot_image_id': 'img-1'})
    assert restored == {'flavor': 'm1.tiny', 'image': 'img-1', 'networks': [{'network': 'n'}]}
    assert props['image'] == 'cirros'          # the template's own dict is left alone
    assert Server.heat_snapshot_keys == {'image_id': 'snapshot_image_id'}


def test_heats_handle_delete_snapshot_deletes_the_image_gone_or_not():
    class Images(object):
        deleted = []

        def delete_image(self, image_id, ignore_missing=False):
            self.deleted.append((image_id, ignore_missing))

    class Conn(object):
        image = Images()
    ctx = make_ctx(Conn(), 'OS::Nova::Server', {'flavor': 'f'})
    Server().delete_snapshot(ctx, {'snapshot_image_id': 'img-1'})
    assert Images.deleted == [('img-1', True)]
