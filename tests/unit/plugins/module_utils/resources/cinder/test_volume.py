# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder import cinder_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudError, ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.cinder import _common, volume as volume_mod  # noqa: E402

T = 'OS::Cinder::Volume'
IMAGE_ID = '3027eb32-3f04-4e8c-9dc8-1f30885b5e0f'
Volume = PLUGINS[T]


def _ctx(props, **kw):
    kw.setdefault('name', 'vol')
    kw.setdefault('physical_name', 's-vol-x')
    return fakes.ctx(T, props, **kw)


def test_create_marks_and_names_and_looks_up_an_image_name_once():
    ctx = _ctx({'size': 1, 'image': 'cirros', 'metadata': {'k': 'v'}})
    bs, image = ctx.conn.block_storage, ctx.conn.image
    image.find_image.return_value = fakes.Obj(id=IMAGE_ID)
    bs.create_volume.return_value = fakes.volume(status='creating')
    assert Volume().create(ctx) == 'vol-1'
    image.find_image.assert_called_once_with('cirros', ignore_missing=True)
    bs.create_volume.assert_called_once_with(
        size=1, name='s-vol-x', image_id=IMAGE_ID,
        metadata={'k': 'v', 'stackers-stack-id': 'sid', 'stackers-resource': 'vol'})


def test_create_uses_an_image_id_and_passes_sources_as_given():
    ctx = _ctx({'image': IMAGE_ID, 'size': 2, 'name': 'mine', 'description': 'd',
                'availability_zone': 'nova', 'volume_type': 'fast', 'scheduler_hints': {'a': 'b'}})
    ctx.conn.block_storage.create_volume.return_value = fakes.volume()
    Volume().create(ctx)
    ctx.conn.image.find_image.assert_not_called()
    kwargs = ctx.conn.block_storage.create_volume.call_args.kwargs
    assert kwargs['image_id'] == IMAGE_ID and kwargs['name'] == 'mine'
    assert kwargs['description'] == 'd' and kwargs['volume_type'] == 'fast'
    assert kwargs['availability_zone'] == 'nova' and kwargs['scheduler_hints'] == {'a': 'b'}


def test_create_from_snapshot_or_volume_without_size():
    ctx = _ctx({'snapshot_id': 'snap-1'})
    ctx.conn.block_storage.create_volume.return_value = fakes.volume()
    Volume().create(ctx)
    kwargs = ctx.conn.block_storage.create_volume.call_args.kwargs
    assert kwargs['snapshot_id'] == 'snap-1' and 'size' not in kwargs
    ctx = _ctx({'source_volid': 'vol-0'})
    ctx.conn.block_storage.create_volume.return_value = fakes.volume()
    Volume().create(ctx)
    assert ctx.conn.block_storage.create_volume.call_args.kwargs['source_volume_id'] == 'vol-0'


def test_missing_image_fails_as_heat():
    ctx = _ctx({'size': 1, 'image': 'nope'})
    ctx.conn.image.find_image.return_value = None
    with pytest.raises(ResourceFailure, match=r'^The Image \(nope\) could not be found\.$'):
        Volume().create(ctx)
    ctx.conn.block_storage.create_volume.assert_not_called()


def test_create_from_backup_restores_then_names():
    ctx = _ctx({'backup_id': 'bk-1', 'description': 'd'})
    bs = ctx.conn.block_storage
    bs.post.return_value.status_code = 202
    bs.post.return_value.json.return_value = {
        'restore': {'backup_id': 'bk-1', 'volume_id': 'vol-9', 'volume_name': 's-vol-x'}}
    assert Volume().create(ctx) == 'vol-9'
    bs.post.assert_called_once_with('/backups/bk-1/restore', json={'restore': {'name': 's-vol-x'}},
                                    raise_exc=False)
    bs.update_volume.assert_called_once_with(
        'vol-9', name='s-vol-x', description='d',
        metadata={'stackers-stack-id': 'sid', 'stackers-resource': 'vol'})
    bs.create_volume.assert_not_called()


def test_create_post_is_not_retried():
    ctx = _ctx({'size': 1})
    ctx.conn.block_storage.create_volume.side_effect = fakes.http(503)
    with pytest.raises(CloudError):
        Volume().create(ctx)
    assert ctx.conn.block_storage.create_volume.call_count == 1


def test_check_create_complete_polls_and_sets_read_only_once_available():
    ctx = _ctx({'size': 1, 'read_only': True}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.get_volume.return_value = fakes.volume(status='creating')
    assert Volume().check_create_complete(ctx) is False
    bs.set_volume_readonly.assert_not_called()
    bs.get_volume.return_value = fakes.volume(status='available')
    assert Volume().check_create_complete(ctx) is True
    assert bs.set_volume_readonly.call_args.args[1] is True
    assert ctx.data['volume_type'] == '__DEFAULT__'
    assert ctx.live['metadata'] == {'readonly': 'True'}     # marks hidden


def test_error_carries_cinders_user_message():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.get_volume.return_value = fakes.volume(status='error')
    bs.get.return_value = mock.Mock(status_code=200, json=lambda: {'messages': [
        {'resource_uuid': 'vol-1', 'created_at': '1', 'user_message': 'old'},
        {'resource_uuid': 'vol-1', 'created_at': '2', 'user_message': 'no valid backend'}]})
    with pytest.raises(ResourceFailure) as exc:
        Volume().check_create_complete(ctx)
    assert str(exc.value) == 'Went to status error due to "no valid backend"'
    assert bs.get.call_args.kwargs['params'] == {'resource_uuid': 'vol-1'}
    bs.get.side_effect = fakes.http(404)
    with pytest.raises(ResourceFailure, match='due to "Unknown"'):
        Volume().check_create_complete(ctx)


def test_unexpected_status_fails_as_heat():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='weird')
    with pytest.raises(ResourceFailure, match='^Volume create failed - Unknown status weird due to "Unknown"$'):
        Volume().check_create_complete(ctx)


def test_attributes_as_heat_resolves_them():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    live = volume_mod.volume_view(fakes.volume(metadata={'k': 'v', 'stackers-stack-id': 'sid'},
                                               attachments=[{'server_id': 'srv'}]))
    attrs = Volume().attributes(ctx, live)
    assert attrs['size'] == '1' and attrs['snapshot_id'] == 'None'
    assert attrs['bootable'] == 'false' and attrs['encrypted'] == 'False'
    assert attrs['multiattach'] == 'False' and attrs['status'] == 'available'
    assert attrs['metadata'] == json.dumps({'k': 'v'}) and attrs['metadata_values'] == {'k': 'v'}
    assert attrs['display_name'] == 's-vol-x' and attrs['display_description'] is None
    assert attrs['attachments'] == str([{'server_id': 'srv'}])
    assert attrs['attachments_list'] == [{'server_id': 'srv'}]
    assert attrs['show']['metadata'] == {'k': 'v'}
    assert set(attrs) == set(Volume.heat_type().attributes)
    assert all(v is None for v in Volume().attributes(ctx, None).values())


def test_find_by_name_and_marks():
    ctx = _ctx({'size': 1})
    ctx.conn.block_storage.volumes.return_value = iter([
        fakes.volume(id='other', metadata={'stackers-stack-id': 'x', 'stackers-resource': 'vol'}),
        fakes.volume(id='mine')])
    assert Volume().find(ctx) == 'mine'
    ctx.conn.block_storage.volumes.assert_called_once_with(name='s-vol-x')


def test_drift():
    ctx = _ctx({'size': 2, 'metadata': {'k': 'v'}, 'read_only': True, 'description': 'd'},
               physical_id='vol-1')
    ctx.data['volume_type'] = '__DEFAULT__'
    live = volume_mod.volume_view(fakes.volume(size=2, description='d', metadata={
        'k': 'v', 'readonly': 'True', 'stackers-stack-id': 'sid'}))
    assert Volume().drift(ctx, live) == []
    live.update(size=3, name='x', description='e', metadata={'readonly': 'False'},
                volume_type='slow')
    assert Volume().drift(ctx, live) == ['name', 'description', 'size', 'metadata',
                                         'volume_type', 'read_only']


def test_check_expects_available_or_in_use():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='in-use')
    Volume().check(ctx)
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='error')
    with pytest.raises(ResourceFailure) as exc:
        Volume().check(ctx)
    assert str(exc.value) == "'status': expected '['available', 'in-use']', got 'error'"


def test_delete_then_poll_until_gone():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    Volume().delete(ctx)
    bs.delete_volume.assert_called_once_with('vol-1', ignore_missing=False)
    bs.get_volume.assert_not_called()          # one request when Cinder accepts
    bs.get_volume.return_value = fakes.volume(status='deleting')
    assert Volume().check_delete_complete(ctx) is False
    bs.get_volume.side_effect = fakes.http(404)
    assert Volume().check_delete_complete(ctx) is True


def test_delete_refused_in_use_says_so_and_gone_is_success():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.delete_volume.side_effect = fakes.http(400)
    bs.get_volume.return_value = fakes.volume(status='in-use')
    with pytest.raises(ResourceFailure, match='^Volume in use$'):
        Volume().delete(ctx)
    bs.get_volume.return_value = fakes.volume(status='deleting')
    Volume().delete(ctx)
    bs.delete_volume.side_effect = fakes.http(404)
    Volume().delete(ctx)
    bs.delete_volume.side_effect = None
    bs.get_volume.side_effect = None
    bs.get_volume.return_value = fakes.volume(status='error_deleting')
    with pytest.raises(ResourceFailure, match='^Went to status error_deleting due to "delete"$'):
        Volume().check_delete_complete(ctx)


def test_snapshot_policy_keeps_a_backup_named_after_the_physical_name():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.create_backup.return_value = fakes.Obj(id='bk-1')
    assert Volume().snapshot(ctx, ('CREATE', 'COMPLETE')) == {'backup_id': 'bk-1'}
    bs.create_backup.assert_called_once_with(volume_id='vol-1', name='s-vol-x')
    bs.create_snapshot.assert_not_called()   # a snapshot would stop the volume's delete
    assert ctx.data['backup_id'] == 'bk-1'
    bs.get_backup.return_value = fakes.Obj(status='creating')
    assert Volume().check_snapshot_complete(ctx) is False
    bs.get_backup.return_value = fakes.Obj(status='available')
    assert Volume().check_snapshot_complete(ctx) is True
    bs.get_backup.return_value = fakes.Obj(status='error')
    with pytest.raises(ResourceFailure, match='Volume backup failed'):
        Volume().check_snapshot_complete(ctx)


@pytest.mark.parametrize('state, backed_up', [
    (('CREATE', 'FAILED'), False), (('UPDATE', 'FAILED'), False),
    # volume_base.handle_snapshot_delete skips only those two
    (('CREATE', 'COMPLETE'), True), (('UPDATE', 'COMPLETE'), True), (('CHECK', 'FAILED'), True),
    (('DELETE', 'FAILED'), True), (('SUSPEND', 'FAILED'), True)])
def test_snapshot_skips_a_volume_whose_create_or_update_failed_as_heat(state, backed_up):
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    ctx.conn.block_storage.create_backup.return_value = fakes.Obj(id='bk-1')
    kept = Volume().snapshot(ctx, state)
    assert (kept == {'backup_id': 'bk-1'}) is backed_up
    assert ctx.conn.block_storage.create_backup.called is backed_up


def test_a_volume_gone_already_gets_no_backup_as_heat():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    ctx.conn.block_storage.create_backup.side_effect = fakes.http(404)
    assert Volume().snapshot(ctx, ('CREATE', 'COMPLETE')) is None
    assert 'backup_id' not in ctx.data


@pytest.mark.parametrize('status', ['creating', 'available'])
def test_a_killed_delete_waits_for_its_backup_and_makes_no_second(status):
    ctx = _ctx({'size': 1}, physical_id='vol-1', data={'backup_id': 'bk-1'})
    bs = ctx.conn.block_storage
    bs.get_backup.return_value = fakes.Obj(id='bk-1', status=status)
    assert Volume().snapshot(ctx, ('DELETE', 'IN_PROGRESS')) == {'backup_id': 'bk-1'}
    bs.get_backup.assert_called_once_with('bk-1')
    bs.create_backup.assert_not_called()


def test_a_killed_delete_finds_a_backup_whose_id_was_not_committed():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.backups.return_value = iter([fakes.Obj(id='other', name='s-vol-x', volume_id='vol-2'),
                                    fakes.Obj(id='bk-1', name='s-vol-x', volume_id='vol-1')])
    bs.get_backup.return_value = fakes.Obj(id='bk-1', status='creating')
    assert Volume().snapshot(ctx, ('DELETE', 'IN_PROGRESS')) == {'backup_id': 'bk-1'}
    bs.backups.assert_called_once_with(name='s-vol-x', volume_id='vol-1')
    bs.create_backup.assert_not_called()
    assert ctx.data['backup_id'] == 'bk-1'


def test_a_failed_backup_of_an_earlier_delete_is_made_again_and_an_old_id_is_not_reused():
    second = fakes.Obj(id='bk-2')
    # an earlier delete's backup went to error: each of Heat's delete attempts makes one
    ctx = _ctx({'size': 1}, physical_id='vol-1', data={'backup_id': 'bk-1'})
    ctx.conn.block_storage.get_backup.return_value = fakes.Obj(id='bk-1', status='error')
    ctx.conn.block_storage.create_backup.return_value = second
    assert Volume().snapshot(ctx, ('DELETE', 'FAILED')) == {'backup_id': 'bk-2'}
    # an id left by a delete long ago (the volume was updated since) is not looked at
    ctx = _ctx({'size': 1}, physical_id='vol-1', data={'backup_id': 'bk-1'})
    ctx.conn.block_storage.create_backup.return_value = second
    assert Volume().snapshot(ctx, ('UPDATE', 'COMPLETE')) == {'backup_id': 'bk-2'}
    ctx.conn.block_storage.get_backup.assert_not_called()


def test_needs_replace_failed_reads_the_volume():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='available')
    assert Volume().needs_replace_failed(ctx) is False
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='error')
    assert Volume().needs_replace_failed(ctx) is True
    ctx.physical_id = None
    assert Volume().needs_replace_failed(ctx) is True


def test_registered():
    assert _common.is_uuid(IMAGE_ID) and not _common.is_uuid('cirros')
    assert _common.is_uuid('3724523d3d1e449f80c51eb5c89af615')


def test_volumes_polled_together_share_a_list_of_the_stacks_volumes_in_transition(monkeypatch):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import poll_batch
    monkeypatch.setattr(poll_batch, 'MIN_BATCH', 2)
    conn = mock.MagicMock()
    one = _ctx({'size': 1}, conn=conn, name='one', physical_id='vol-1')
    two = _ctx({'size': 1}, conn=conn, name='two', physical_id='vol-2')
    bs = conn.block_storage
    # only vol-2 is still creating: vol-1, settled, is out of the filter and read by id
    bs.volumes.return_value = [fakes.volume(id='vol-2', status='creating')]
    bs.get_volume.return_value = fakes.volume(id='vol-1', status='available')
    batch = poll_batch.batch(conn, 'volume')
    batch._ask('vol-2', poll_batch.time.monotonic() - 1, 'sid')      # polling on the last tick
    assert Volume().check_create_complete(one) is True
    assert Volume().check_create_complete(two) is False              # the same list answers
    assert bs.volumes.call_count == 1
    bs.get_volume.assert_called_once_with('vol-1')
    kwargs = bs.volumes.call_args.kwargs
    assert json.loads(kwargs['properties']) == {'stackers-stack-id': 'sid'}
    assert "'creating'" in kwargs['status'] and "'available'" not in kwargs['status']


def test_a_stack_snapshot_forces_the_backup_of_a_volume_in_use_restores_and_deletes_it():
    ctx = _ctx({'size': 1}, physical_id='vol-1')
    bs = ctx.conn.block_storage
    bs.create_backup.return_value = fakes.Obj(id='bk-1')
    assert Volume().snapshot(ctx, ('SNAPSHOT', 'IN_PROGRESS')) == {'backup_id': 'bk-1'}
    bs.create_backup.assert_called_once_with(volume_id='vol-1', name='s-vol-x', force=True)
    assert Volume.heat_snapshot_keys == {'backup_id': 'backup_id'}
    # Heat's handle_restore: the other sources dropped, the backup given
    props = {'size': 2, 'name': 'n', 'image': 'cirros', 'source_volid': None, 'description': None}
    assert Volume().restore_properties(props, {'backup_id': 'bk-1'}) == {'size': 2, 'name': 'n',
                                                                         'backup_id': 'bk-1'}
    gone = _ctx({}, physical_id='vol-1')
    gone.data = {'backup_id': 'bk-1'}
    Volume().delete_snapshot(gone, {'backup_id': 'bk-1'})
    gone.conn.block_storage.delete_backup.assert_called_once_with('bk-1', ignore_missing=True)
    gone.conn.block_storage.get_backup.return_value = fakes.Obj(status='deleting')
    assert Volume().check_delete_snapshot_complete(gone) is False
    gone.conn.block_storage.get_backup.side_effect = fakes.http(404)
    assert Volume().check_delete_snapshot_complete(gone) is True
