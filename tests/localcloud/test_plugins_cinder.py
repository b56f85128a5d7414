# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The cinder resource plugins against the local cloud's real Cinder and Nova.

Each scenario is a plain function of openstacksdk connections (so it also
runs against an already running cloud while developing); the pytest tests
call them with the session cloud and check that the cloud holds nothing
they made afterwards."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_BUILD = os.path.join(ROOT, '.build')
if _BUILD not in sys.path:
    sys.path.insert(0, _BUILD)

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (  # noqa: E402
    ResourceContext, effective_properties, physical_name)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

TIMEOUT = 120


def _ctx(conn, type_name, name, props, prefix):
    return ResourceContext(conn=conn, stack_id='stack-' + prefix, stack_name=prefix, name=name,
                           type_name=type_name, physical_name=physical_name(prefix, name),
                           properties=effective_properties(type_name, props), action='CREATE')


def _poll(check, ctx, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while not check(ctx):
        assert time.time() < deadline, '%s of %s timed out' % (check.__name__, ctx.name)
        time.sleep(0.3)


def _create(plugin, ctx):
    ctx.physical_id = plugin.create(ctx)
    _poll(plugin.check_create_complete, ctx)
    ctx.action = 'UPDATE'
    return ctx.physical_id


def _update(plugin, ctx, props):
    old = ctx.properties
    ctx.old_properties = old
    ctx.properties = effective_properties(ctx.type_name, props)
    ctx.changed = frozenset(k for k in ctx.properties if ctx.properties.get(k) != old.get(k))
    assert not plugin.needs_replace(ctx)
    assert all(plugin.update_allowed(k) for k in ctx.changed), ctx.changed
    plugin.update(ctx)
    _poll(plugin.check_update_complete, ctx)


def _delete(plugin, ctx):
    ctx.action = 'DELETE'
    plugin.delete(ctx)
    _poll(plugin.check_delete_complete, ctx)


def _server(conn, prefix):
    image = conn.image.find_image('cirros')
    flavor = conn.compute.find_flavor('m1.tiny')
    server = conn.compute.create_server(name=prefix + '-server', image_id=image.id,
                                        flavor_id=flavor.id, networks='none')
    return conn.compute.wait_for_server(server, wait=TIMEOUT)


def leftovers(conn, prefix):
    vols = [v.name for v in conn.block_storage.volumes() if (v.name or '').startswith(prefix)]
    snaps = [s.name for s in conn.block_storage.snapshots() if (s.name or '').startswith(prefix)]
    servers = [s.name for s in conn.compute.servers() if (s.name or '').startswith(prefix)]
    return vols + snaps + servers


def volume_scenario(conn, prefix):
    """Volume: create, attributes, drift, check, find, updates in place,
    snapshot, attach/detach through VolumeAttachment, delete."""
    Volume = PLUGINS['OS::Cinder::Volume']()
    Attachment = PLUGINS['OS::Cinder::VolumeAttachment']()
    vctx = _ctx(conn, 'OS::Cinder::Volume', 'vol', {'size': 1, 'metadata': {'k': 'v'}}, prefix)
    server = None
    try:
        vol_id = _create(Volume, vctx)
        live = Volume.show(vctx)
        attrs = Volume.attributes(vctx, vctx.live)
        assert attrs['size'] == '1' and attrs['status'] == 'available'
        assert attrs['display_name'] == vctx.physical_name
        assert attrs['metadata_values'] == {'k': 'v'} and attrs['metadata'] == '{"k": "v"}'
        assert attrs['bootable'] == 'false' and attrs['snapshot_id'] == 'None', attrs
        assert attrs['attachments_list'] == [] and attrs['multiattach'] == 'False'
        assert Volume.drift(vctx, live) == []
        Volume.check(vctx)
        assert Volume.find(vctx) == vol_id
        # the cloud holds the marks; attributes hide them
        raw = conn.block_storage.get_volume(vol_id)
        assert raw.metadata['stackers-resource'] == 'vol'

        _update(Volume, vctx, {'size': 2, 'name': prefix + '-renamed', 'description': 'd',
                               'metadata': {'k2': 'v2'}})
        live = Volume.show(vctx)
        assert live['size'] == 2 and live['name'] == prefix + '-renamed'
        assert live['metadata'] == {'k2': 'v2'} and live['description'] == 'd'
        assert Volume.drift(vctx, live) == []
        conn.block_storage.update_volume(vol_id, description='changed behind our back')
        assert Volume.drift(vctx, Volume.show(vctx)) == ['description']
        conn.block_storage.update_volume(vol_id, description='d')

        vctx.old_properties, vctx.changed = vctx.properties, frozenset(['size'])
        vctx.properties = dict(vctx.properties, size=1)
        with pytest.raises(ResourceFailure, match='Shrinking volume is not supported'):
            Volume.update(vctx)
        vctx.properties = vctx.old_properties

        # deletion_policy Snapshot keeps a backup, as Heat 27 does: the local cloud runs no cinder-backup
        # service (a backup there goes to error and cannot be deleted), so only unit tests cover it.

        server = _server(conn, prefix)
        actx = _ctx(conn, 'OS::Cinder::VolumeAttachment', 'att',
                    {'instance_uuid': server.id, 'volume_id': vol_id}, prefix)
        att_id = _create(Attachment, actx)
        assert att_id == vol_id     # Nova's attachment id is the volume's
        assert Attachment.reference_id(actx) == att_id
        assert Attachment.find(actx) == att_id
        assert Attachment.attributes(actx, Attachment.show(actx)) == {'show': None}
        Attachment.check(actx)
        vol = conn.block_storage.get_volume(vol_id)
        assert vol.status == 'in-use' and vol.attachments[0]['server_id'] == server.id
        assert Volume.attributes(vctx, Volume.show(vctx))['attachments_list'][0]['server_id'] == server.id

        # an attached volume cannot go
        vctx.action = 'DELETE'
        with pytest.raises(ResourceFailure, match='Volume in use'):
            Volume.delete(vctx)

        # read_only on an attached volume: detach, set, reattach (Heat's way);
        # extend in place while attached (Cinder >= 3.42)
        props = dict(vctx.properties, read_only=True, size=3)
        _update(Volume, vctx, props)
        vol = conn.block_storage.get_volume(vol_id)
        assert vol.status == 'in-use' and vol.size == 3
        assert vol.metadata.get('readonly') == 'True'
        assert Volume.drift(vctx, Volume.show(vctx)) == []

        # attachment update: detach, then attach with the new device
        _update(Attachment, actx, {'instance_uuid': server.id, 'volume_id': vol_id,
                                   'mountpoint': '/dev/vdc'})
        assert actx.physical_id == vol_id
        assert conn.block_storage.get_volume(vol_id).status == 'in-use'

        _delete(Attachment, actx)
        assert conn.block_storage.get_volume(vol_id).status == 'available'
        assert Attachment.show(actx) is None
        _delete(Volume, vctx)
        assert Volume.show(vctx) is None
    finally:
        _cleanup(conn, server, vctx.physical_id)


def _cleanup(conn, server, vol_id):
    """What a failed scenario left: the server first (Nova detaches), then
    the volume and any snapshot of it."""
    if server is not None:
        conn.compute.delete_server(server, ignore_missing=True)
        conn.compute.wait_for_delete(server, wait=TIMEOUT)
    if vol_id is None:
        return
    for snap in conn.block_storage.snapshots(volume_id=vol_id):
        conn.block_storage.delete_snapshot(snap, ignore_missing=True)
        conn.block_storage.wait_for_delete(snap, wait=TIMEOUT)
    vol = conn.block_storage.find_volume(vol_id, ignore_missing=True)
    if vol is not None:
        conn.block_storage.wait_for_status(vol, 'available', failures=['error'], wait=TIMEOUT)
        conn.block_storage.delete_volume(vol, ignore_missing=True)
        conn.block_storage.wait_for_delete(vol, wait=TIMEOUT)


def image_volume_scenario(conn, prefix):
    """A volume from an image named, not id'd; a missing image fails as Heat.
    (The local cloud's Cinder scheduler refuses volumes from images: then the
    failure must carry Cinder's own reason, and the case is an xfail.)"""
    Volume = PLUGINS['OS::Cinder::Volume']()
    bad = _ctx(conn, 'OS::Cinder::Volume', 'bad', {'size': 1, 'image': prefix + '-nope'}, prefix)
    with pytest.raises(ResourceFailure, match=r'The Image \(.*\) could not be found'):
        Volume.create(bad)
    ctx = _ctx(conn, 'OS::Cinder::Volume', 'boot', {'size': 1, 'image': 'cirros',
                                                     'name': prefix + '-boot'}, prefix)
    reason = None
    try:
        try:
            _create(Volume, ctx)
        except ResourceFailure as exc:
            reason = str(exc)
            assert reason.startswith('Went to status error due to "') and 'Unknown' not in reason
        else:
            attrs = Volume.attributes(ctx, Volume.show(ctx))
            assert attrs['bootable'] == 'true' and attrs['display_name'] == prefix + '-boot'
        _delete(Volume, ctx)
    finally:
        if ctx.physical_id:
            conn.block_storage.delete_volume(ctx.physical_id, ignore_missing=True)
    if reason:
        pytest.xfail('local cloud: ' + reason)


def volume_type_scenario(admin, prefix):
    """VolumeType (admin): private with project access, extra specs; updates."""
    VolumeType = PLUGINS['OS::Cinder::VolumeType']()
    ctx = _ctx(admin, 'OS::Cinder::VolumeType', 'vtype',
               {'name': prefix + '-type', 'metadata': {'a': 'b'}, 'is_public': False,
                'projects': ['demo'], 'description': 'one'}, prefix)
    demo = admin.identity.find_project('demo')
    try:
        type_id = _create(VolumeType, ctx)
        live = VolumeType.show(ctx)
        assert live['extra_specs'] == {'a': 'b'} and live['description'] == 'one'
        assert [a['project_id'] for a in admin.block_storage.get_type_access(type_id)] == [demo.id]
        assert VolumeType.drift(ctx, live) == []
        assert VolumeType.find(ctx) == type_id
        assert VolumeType.attributes(ctx, live)['show']['id'] == type_id

        _update(VolumeType, ctx, {'name': prefix + '-type2', 'metadata': {'c': 'd'},
                                  'is_public': False, 'projects': [], 'description': 'two'})
        live = VolumeType.show(ctx)
        assert live['name'] == prefix + '-type2' and live['extra_specs'] == {'c': 'd'}
        assert admin.block_storage.get_type_access(type_id) == []
        assert VolumeType.drift(ctx, live) == []
        _delete(VolumeType, ctx)
        assert VolumeType.show(ctx) is None
    finally:
        if ctx.physical_id:
            admin.block_storage.delete_type(ctx.physical_id, ignore_missing=True)


def _prefix():
    return 'plc-' + uuid.uuid4().hex[:6]


@pytest.fixture(scope='module')
def conns(cloud):
    user, admin = cloud.sdk(), cloud.sdk('localcloud-admin')
    yield user, admin
    user.close()
    admin.close()


def test_volume_and_attachment(conns):
    prefix = _prefix()
    volume_scenario(conns[0], prefix)
    assert leftovers(conns[0], prefix) == []


def test_volume_from_image(conns):
    prefix = _prefix()
    image_volume_scenario(conns[0], prefix)
    assert leftovers(conns[0], prefix) == []


def test_volume_type(conns):
    prefix = _prefix()
    volume_type_scenario(conns[1], prefix)
    assert [t.name for t in conns[1].block_storage.types() if t.name.startswith(prefix)] == []
