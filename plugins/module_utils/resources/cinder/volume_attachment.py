# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Cinder::VolumeAttachment: a volume attached to a server through Nova.

As Heat: create is Nova's os-volume_attachments POST (the physical id is
the id Nova answers, the volume's id), complete when Cinder says in-use;
delete detaches and waits until Cinder says available and Nova no longer
lists it; any property change detaches, then attaches with the new values,
and the new attachment id becomes the physical id (``ctx.physical_id`` is
set when the update completes).  Heat's ``show`` of this type is None (no
entity); ``show(ctx)`` gives Nova's attachment for check and drift.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import ResourcePlugin
from . import _common


class VolumeAttachment(ResourcePlugin):
    type_name = 'OS::Cinder::VolumeAttachment'
    # Nova answers the attach or detach call before Cinder's volume moves.
    slow_actions = ('CREATE', 'DELETE')

    def create(self, ctx):
        p = ctx.properties
        # Nova's 409 (volume or server busy) goes up: sent again (create_proven)
        # once find shows nothing was attached
        return _common.nova_attach(ctx, p['instance_uuid'], p['volume_id'], p.get('mountpoint'),
                                   busy_raises=True)

    def check_create_complete(self, ctx):
        return _common.cinder_attach_done(ctx, ctx.properties['volume_id'])

    def find(self, ctx):
        p = ctx.properties
        att = sdk.get_or_none(ctx.conn.compute.get_volume_attachment, p['instance_uuid'],
                              p['volume_id'])
        return None if att is None else att.id

    def found_is_whole(self, ctx):
        return True    # one POST; a volume is attached to a server once

    # -- update: detach, then attach with the new values -----------------------
    def update(self, ctx):
        old = ctx.old_properties or ctx.properties
        new = ctx.properties
        ctx.data['steps'] = [
            _common.detach_step(old['instance_uuid'], old['volume_id'], ctx.physical_id),
            _common.attach_step(new['instance_uuid'], new['volume_id'], new.get('mountpoint')),
        ]

    def check_update_complete(self, ctx):
        steps = ctx.data.get('steps') or []
        while steps:
            step = steps[0]
            if not _common.run_step(ctx, step):
                return False
            if step['op'] == 'attach':
                ctx.physical_id = step['attachment']
            steps.pop(0)
        ctx.data.pop('steps', None)
        return True

    # -- delete ----------------------------------------------------------------
    def delete(self, ctx):
        if ctx.physical_id is None:
            ctx.data.pop('steps', None)
            return
        old = ctx.properties
        step = _common.detach_step(old['instance_uuid'], old['volume_id'], ctx.physical_id)
        _common.run_step(ctx, step)
        ctx.data['steps'] = [step]

    def check_delete_complete(self, ctx):
        steps = ctx.data.get('steps') or []
        if steps and not _common.run_step(ctx, steps[0]):
            return False
        ctx.data.pop('steps', None)
        return True

    # -- reading ---------------------------------------------------------------
    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        p = ctx.properties
        att = sdk.get_or_none(ctx.conn.compute.get_volume_attachment, p['instance_uuid'],
                              ctx.physical_id)
        return _common.raw(att)

    def attributes(self, ctx, live, names=None):
        return {'show': None}

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        out = []
        mount = ctx.properties.get('mountpoint')
        if mount and live.get('device') not in (None, mount):
            out.append('mountpoint')
        return out
