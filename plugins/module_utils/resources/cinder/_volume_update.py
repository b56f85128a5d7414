# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Cinder::Volume's update in place, in Heat's order.

At once: name/description (a removed one falls back to the previous value,
then the physical name, as Heat's handle_update does), metadata (replaced
whole, the engine's marks kept), retype (migration policy never).  Then, one
poll at a time, the steps kept in ``ctx.data['steps']``: detach when the
volume is attached and the change needs it (read_only, a restore, or an
extend on a Cinder older than 3.42), restore from the new backup, extend
(only grow: a smaller size fails as Heat says), the read-only flag, and the
re-attach to the same server and device.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudError
from .. import sdk
from . import _common

# Cinder extends an in-use volume from this microversion on (Heat checks it too).
MICROVERSION_EXTEND_INUSE = '3.42'


def start(ctx):
    p = ctx.properties
    old = ctx.old_properties or {}
    changed = ctx.changed
    bs = ctx.conn.block_storage
    vol_id = ctx.physical_id
    vol = sdk.call(bs.get_volume, vol_id)

    if 'name' in changed or 'description' in changed:
        sdk.call(bs.update_volume, vol_id,
                 name=p.get('name') or old.get('name') or ctx.physical_name,
                 description=p.get('description') or old.get('description'))
    if 'metadata' in changed:
        sdk.call(vol.set_metadata, bs, metadata=ctx.metadata_tags(p.get('metadata')), replace=True)
    if 'volume_type' in changed:
        sdk.call(bs.retype_volume, vol_id, p.get('volume_type'), 'never')

    steps = []
    detach = False
    read_only = p.get('read_only') if 'read_only' in changed else None
    backup = p.get('backup_id') if 'backup_id' in changed else None
    if read_only is not None or backup is not None:
        detach = True
    extend = None
    size = p.get('size')
    if 'size' in changed and size is not None:
        if size < (vol.size or 0):
            ctx.fail('Shrinking volume is not supported.')
        if size > (vol.size or 0):
            inuse = _common.supports_microversion(bs, MICROVERSION_EXTEND_INUSE)
            extend = {'op': 'extend', 'size': size, 'inuse': inuse, 'state': 'ready'}
            detach = detach or not inuse
    reattach = None
    if detach and vol.attachments:
        # Cinder lists one attachment per server; Heat moves the first one.
        first = vol.attachments[0]
        steps.append(_common.detach_step(first.get('server_id'), vol_id, vol_id))
        reattach = _common.attach_step(first.get('server_id'), vol_id, first.get('device'))
    if backup is not None:
        steps.append({'op': 'restore', 'backup': backup, 'state': 'call'})
    if extend:
        steps.append(extend)
    if read_only is not None:
        steps.append({'op': 'readonly', 'flag': bool(read_only)})
    if reattach:
        steps.append(reattach)
    ctx.data['steps'] = steps


def advance(ctx):
    steps = ctx.data.get('steps') or []
    while steps:
        if not _run(ctx, steps[0]):
            ctx.data['steps'] = steps
            return False
        steps.pop(0)
    ctx.data.pop('steps', None)
    return True


def _run(ctx, step):
    op = step['op']
    if op in ('attach', 'detach'):
        return _common.run_step(ctx, step)
    bs = ctx.conn.block_storage
    vol_id = ctx.physical_id
    if op == 'readonly':
        sdk.call(bs.set_volume_readonly, vol_id, step['flag'])
        return True
    if op == 'restore':
        if step['state'] == 'call':
            try:
                # positional: openstacksdk 4.0 calls it volume_id, later releases volume
                sdk.call(bs.restore_backup, step['backup'], vol_id, retry_writes=False)
            except CloudError as err:
                ctx.fail('Failed to restore volume %s from backup %s - %s'
                         % (vol_id, step['backup'], err))
            step['state'] = 'wait'
            return False
        vol = sdk.call(bs.get_volume, vol_id)
        if vol.status == 'restoring-backup':
            return False
        if vol.status != 'available':
            ctx.unknown_status('Volume backup restore failed', vol.status)
        return True
    # extend
    ready = ('available', 'in-use') if step.get('inuse') else ('available',)
    vol = sdk.call(bs.get_volume, vol_id)
    if step['state'] == 'ready':
        if vol.status not in ready:
            return False    # e.g. still retyping or detaching
        try:
            sdk.call(bs.extend_volume, vol_id, step['size'])
        except CloudError as err:
            ctx.fail('Failed to extend volume %s - %s' % (vol_id, err))
        step['state'] = 'extending'
        return False
    if vol.status == 'extending':
        return False
    if vol.status not in ready:
        ctx.unknown_status('Volume resize failed', vol.status)
    return (vol.size or 0) >= step['size']
