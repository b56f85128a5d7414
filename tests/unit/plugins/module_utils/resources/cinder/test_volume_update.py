# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder import cinder_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.cinder import _common  # noqa: E402

T = 'OS::Cinder::Volume'
Volume = PLUGINS[T]
ATTACHED = [{'server_id': 'srv-1', 'id': 'vol-1', 'device': '/dev/vdb'}]


def _ctx(old, new, vol, inuse_ok=True, monkeypatch=None):
    ctx = fakes.ctx(T, new, name='vol', physical_name='s-vol-x', physical_id='vol-1')
    ctx.old_properties = fakes.ctx(T, old).properties
    ctx.changed = frozenset(k for k in ctx.properties if ctx.properties[k] != ctx.old_properties[k])
    ctx.conn.block_storage.get_volume.return_value = vol
    monkeypatch.setattr(_common, 'supports_microversion', lambda proxy, v: inuse_ok)
    return ctx


def _poll(ctx, statuses):
    """Run check_update_complete, the volume going through statuses."""
    bs = ctx.conn.block_storage
    for status in statuses:
        bs.get_volume.return_value = fakes.volume(status=status, size=bs.get_volume.return_value.size,
                                                  attachments=[])
        if Volume().check_update_complete(ctx):
            return True
    return False


def test_name_description_metadata_retype_at_once(monkeypatch):
    vol = fakes.volume()
    vol.set_metadata = mock_set = mock.Mock()
    ctx = _ctx({'size': 1, 'name': 'a', 'description': 'x', 'metadata': {'k': 'v'}},
               {'size': 1, 'name': None, 'description': 'y', 'metadata': {'n': 'm'},
                'volume_type': 'fast'}, vol, monkeypatch=monkeypatch)
    Volume().update(ctx)
    bs = ctx.conn.block_storage
    # a removed name falls back to the previous one, as Heat's handle_update
    bs.update_volume.assert_called_once_with('vol-1', name='a', description='y')
    mock_set.assert_called_once_with(bs, metadata={'n': 'm', 'stackers-stack-id': 'sid',
                                                   'stackers-resource': 'vol'}, replace=True)
    bs.retype_volume.assert_called_once_with('vol-1', 'fast', 'never')
    assert ctx.data['steps'] == []
    assert Volume().check_update_complete(ctx) is True


def test_shrink_fails_as_heat(monkeypatch):
    ctx = _ctx({'size': 2}, {'size': 1}, fakes.volume(size=2), monkeypatch=monkeypatch)
    with pytest.raises(ResourceFailure, match='^Shrinking volume is not supported.$'):
        Volume().update(ctx)


def test_extend_in_use_without_detach(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 2}, fakes.volume(status='in-use', attachments=ATTACHED),
               monkeypatch=monkeypatch)
    Volume().update(ctx)
    assert [s['op'] for s in ctx.data['steps']] == ['extend']
    bs = ctx.conn.block_storage
    assert Volume().check_update_complete(ctx) is False        # extend asked
    bs.extend_volume.assert_called_once_with('vol-1', 2)
    bs.get_volume.return_value = fakes.volume(status='extending', size=1)
    assert Volume().check_update_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='in-use', size=2)
    assert Volume().check_update_complete(ctx) is True
    assert 'steps' not in ctx.data
    ctx.conn.compute.delete_volume_attachment.assert_not_called()


def test_extend_waits_until_ready_and_fails_on_error(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 2}, fakes.volume(status='retyping'), monkeypatch=monkeypatch)
    Volume().update(ctx)
    assert Volume().check_update_complete(ctx) is False
    ctx.conn.block_storage.extend_volume.assert_not_called()
    ctx.conn.block_storage.get_volume.return_value = fakes.volume()
    assert Volume().check_update_complete(ctx) is False
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='error_extending')
    with pytest.raises(ResourceFailure, match='^Volume resize failed - Unknown status error_extending'):
        Volume().check_update_complete(ctx)


def test_old_cinder_extends_attached_volume_by_detach_and_reattach(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 2}, fakes.volume(status='in-use', attachments=ATTACHED),
               inuse_ok=False, monkeypatch=monkeypatch)
    Volume().update(ctx)
    assert [s['op'] for s in ctx.data['steps']] == ['detach', 'extend', 'attach']
    assert ctx.data['steps'][-1]['device'] == '/dev/vdb'


def test_read_only_on_attached_volume_detaches_sets_and_reattaches(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 1, 'read_only': True},
               fakes.volume(status='in-use', attachments=ATTACHED), monkeypatch=monkeypatch)
    Volume().update(ctx)
    assert [s['op'] for s in ctx.data['steps']] == ['detach', 'readonly', 'attach']
    bs, compute = ctx.conn.block_storage, ctx.conn.compute
    assert Volume().check_update_complete(ctx) is False        # detach asked
    server, vol_id = compute.delete_volume_attachment.call_args.args
    assert server.id == 'srv-1' and vol_id == 'vol-1'
    bs.get_volume.return_value = fakes.volume(status='detaching', attachments=ATTACHED)
    assert Volume().check_update_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='available')
    compute.get_volume_attachment.side_effect = fakes.http(404)
    compute.create_volume_attachment.return_value = fakes.Obj(id='vol-1')
    assert Volume().check_update_complete(ctx) is False        # readonly set, attach asked
    assert bs.set_volume_readonly.call_args.args == ('vol-1', True)
    compute.create_volume_attachment.assert_called_once_with('srv-1', volume='vol-1',
                                                             device='/dev/vdb')
    bs.get_volume.return_value = fakes.volume(status='attaching')
    assert Volume().check_update_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='in-use')
    assert Volume().check_update_complete(ctx) is True


def test_read_only_on_detached_volume_is_one_call(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 1, 'read_only': False}, fakes.volume(),
               monkeypatch=monkeypatch)
    Volume().update(ctx)
    assert Volume().check_update_complete(ctx) is True
    assert ctx.conn.block_storage.set_volume_readonly.call_args.args == ('vol-1', False)


def test_restore_from_new_backup(monkeypatch):
    ctx = _ctx({'size': 1}, {'size': 1, 'backup_id': 'bk-2'}, fakes.volume(),
               monkeypatch=monkeypatch)
    Volume().update(ctx)
    bs = ctx.conn.block_storage
    assert Volume().check_update_complete(ctx) is False
    bs.restore_backup.assert_called_once_with('bk-2', 'vol-1')
    bs.get_volume.return_value = fakes.volume(status='restoring-backup')
    assert Volume().check_update_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='error_restoring')
    with pytest.raises(ResourceFailure, match='^Volume backup restore failed'):
        Volume().check_update_complete(ctx)
