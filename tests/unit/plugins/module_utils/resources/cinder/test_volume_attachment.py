# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder import cinder_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

T = 'OS::Cinder::VolumeAttachment'
Attachment = PLUGINS[T]
PROPS = {'instance_uuid': 'srv-1', 'volume_id': 'vol-1', 'mountpoint': '/dev/vdb'}


def _ctx(props=None, **kw):
    props = PROPS if props is None else props
    kw.setdefault('name', 'att')
    return fakes.ctx(T, props, **kw)


def test_create_is_novas_attach_and_the_id_is_novas():
    ctx = _ctx()
    compute, bs = ctx.conn.compute, ctx.conn.block_storage
    compute.create_volume_attachment.return_value = fakes.Obj(id='vol-1')
    assert Attachment().create(ctx) == 'vol-1'
    compute.create_volume_attachment.assert_called_once_with('srv-1', volume='vol-1',
                                                             device='/dev/vdb')
    ctx.physical_id = 'vol-1'
    for status in ('available', 'reserved', 'attaching'):
        bs.get_volume.return_value = fakes.volume(status=status)
        assert Attachment().check_create_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='in-use')
    assert Attachment().check_create_complete(ctx) is True
    assert Attachment().reference_id(ctx) == 'vol-1'
    assert Attachment().attributes(ctx, {}) == {'show': None}


def test_no_mountpoint_lets_nova_choose_and_failures_say_heats_words():
    ctx = _ctx({'instance_uuid': 'srv-1', 'volume_id': 'vol-1'})
    compute = ctx.conn.compute
    compute.create_volume_attachment.side_effect = fakes.http(400, 'bad device')
    with pytest.raises(ResourceFailure, match='^Failed to attach volume vol-1 to server srv-1 - bad device'):
        Attachment().create(ctx)
    assert 'device' not in compute.create_volume_attachment.call_args.kwargs
    ctx.physical_id = 'vol-1'
    ctx.conn.block_storage.get_volume.return_value = fakes.volume(status='error_attaching')
    with pytest.raises(ResourceFailure, match='^Volume attachment failed - Unknown status error_attaching'):
        Attachment().check_create_complete(ctx)


def test_a_transient_attach_failure_is_left_to_the_engine_to_prove_and_retry(monkeypatch):
    """A dropped connection or a 5xx is not turned into Heat's failure: create_proven asks find."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudTransient
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
    monkeypatch.setattr(sdk, 'RETRIES', 0)
    ctx = _ctx()
    ctx.conn.compute.create_volume_attachment.side_effect = fakes.http(503, 'try later')
    with pytest.raises(CloudTransient):
        Attachment().create(ctx)


def test_delete_detaches_and_waits_for_cinder_then_nova():
    ctx = _ctx(physical_id='vol-1')
    compute, bs = ctx.conn.compute, ctx.conn.block_storage
    compute.delete_volume_attachment.side_effect = [fakes.http(409), None]
    Attachment().delete(ctx)                                     # Nova busy: asked again later
    assert Attachment().check_delete_complete(ctx) is False
    server, vol_id = compute.delete_volume_attachment.call_args.args
    assert server.id == 'srv-1' and vol_id == 'vol-1'
    assert compute.delete_volume_attachment.call_args.kwargs == {'ignore_missing': False}
    bs.get_volume.return_value = fakes.volume(status='detaching',
                                              attachments=[{'server_id': 'srv-1'}])
    assert Attachment().check_delete_complete(ctx) is False
    bs.get_volume.return_value = fakes.volume(status='available')
    compute.get_volume_attachment.return_value = fakes.Obj(id='vol-1')   # Nova lags
    assert Attachment().check_delete_complete(ctx) is False
    compute.get_volume_attachment.side_effect = fakes.http(404)
    assert Attachment().check_delete_complete(ctx) is True


def test_delete_of_a_gone_attachment_or_volume_is_success():
    ctx = _ctx(physical_id='vol-1')
    ctx.conn.compute.delete_volume_attachment.side_effect = fakes.http(404)
    ctx.conn.block_storage.get_volume.side_effect = fakes.http(404)
    ctx.conn.compute.get_volume_attachment.side_effect = fakes.http(404)
    Attachment().delete(ctx)
    assert Attachment().check_delete_complete(ctx) is True
    ctx = _ctx()
    Attachment().delete(ctx)
    assert Attachment().check_delete_complete(ctx) is True
    ctx.conn.compute.delete_volume_attachment.assert_not_called()


def test_update_detaches_old_then_attaches_new_and_moves_the_id():
    ctx = _ctx({'instance_uuid': 'srv-2', 'volume_id': 'vol-2'}, physical_id='vol-1')
    ctx.old_properties = PROPS
    ctx.changed = frozenset(['instance_uuid', 'volume_id', 'mountpoint'])
    compute, bs = ctx.conn.compute, ctx.conn.block_storage
    Attachment().update(ctx)
    assert Attachment().check_update_complete(ctx) is False
    assert compute.delete_volume_attachment.call_args.args[1] == 'vol-1'
    bs.get_volume.return_value = fakes.volume(status='available')
    compute.get_volume_attachment.side_effect = fakes.http(404)
    compute.create_volume_attachment.return_value = fakes.Obj(id='vol-2')
    assert Attachment().check_update_complete(ctx) is False
    compute.create_volume_attachment.assert_called_once_with('srv-2', volume='vol-2')
    bs.get_volume.return_value = fakes.volume(status='in-use')
    assert Attachment().check_update_complete(ctx) is True
    assert ctx.physical_id == 'vol-2'


def test_find_show_drift():
    ctx = _ctx(physical_id='vol-1')
    ctx.conn.compute.get_volume_attachment.return_value = fakes.Obj(id='vol-1', device='/dev/vdc')
    assert Attachment().find(ctx) == 'vol-1'
    live = Attachment().show(ctx)
    assert live['device'] == '/dev/vdc'
    assert Attachment().drift(ctx, live) == ['mountpoint']
    ctx.conn.compute.get_volume_attachment.side_effect = fakes.http(404)
    assert Attachment().find(ctx) is None
    with pytest.raises(ResourceFailure):
        Attachment().check(ctx)


def test_a_busy_nova_on_create_is_left_to_the_engine_to_prove_and_retry():
    """Nova's 409 on the attach POST (a volume or server busy a moment) goes up as a conflict:
    create_proven asks find, and sends the POST again when nothing was attached."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.create_attempts import (
        create_proven)
    ctx = _ctx()
    compute = ctx.conn.compute
    compute.create_volume_attachment.side_effect = [fakes.http(409, 'busy'), fakes.Obj(id='vol-1')]
    compute.get_volume_attachment.side_effect = fakes.http(404, 'no attachment')
    assert create_proven(Attachment(), ctx, sleep=lambda s: None) == 'vol-1'
    assert compute.create_volume_attachment.call_count == 2


def test_a_detach_nova_keeps_refusing_fails_with_heats_words():
    """Nova refuses a detach from a suspended server (409) for good: the delete fails after
    BUSY_POLLS looks instead of waiting for the run's timeout."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.cinder import _common
    ctx = _ctx(physical_id='vol-1')
    ctx.conn.compute.delete_volume_attachment.side_effect = fakes.http(409, 'suspended')
    Attachment().delete(ctx)
    with pytest.raises(ResourceFailure, match='^Could not detach attachment vol-1 from server srv-1'):
        while not Attachment().check_delete_complete(ctx):
            pass
    assert ctx.conn.compute.delete_volume_attachment.call_count == _common.BUSY_POLLS
