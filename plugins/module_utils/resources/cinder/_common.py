# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the cinder plugins share: name-or-id look-ups, the raw API view of
an SDK object, Heat's failure messages, and the attach/detach steps Heat's
Nova and Cinder client plugins poll (a volume attachment, and a volume that
must be detached for a read-only change or a restore)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ...errors import CloudConflict, CloudError, CloudNotFound, CloudTransient
from .. import poll_batch, sdk

_UUID = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$')


def is_uuid(value):
    """A UUID with or without dashes (Keystone ids have none): used as is."""
    return isinstance(value, str) and bool(_UUID.match(value))


def not_found(entity, name):
    """Heat's EntityNotFound message."""
    return 'The %s (%s) could not be found.' % (entity, name)


def raw(obj):
    """The object as the API shows it (API key names), as Heat's ``show``."""
    if obj is None:
        return None
    # (an SDK resource is also a dict, of its SDK names: ask it first)
    if hasattr(obj, 'to_dict'):
        return obj.to_dict(body=True, headers=False, computed=False, original_names=True)
    return dict(obj)


def fault_reason(ctx, resource_id):
    """Why Cinder failed an object: its newest user message (messages API,
    3.5 filters by resource) -- what Heat leaves as "Unknown"."""
    try:
        resp = sdk.call(ctx.conn.block_storage.get, '/messages',
                        params={'resource_uuid': resource_id}, microversion='3.5')
    except CloudError:
        return 'Unknown'
    if getattr(resp, 'status_code', None) != 200:
        return 'Unknown'
    try:
        messages = resp.json().get('messages') or []
    except ValueError:
        return 'Unknown'
    messages = [m for m in messages if m.get('resource_uuid') in (None, resource_id)]
    if not messages:
        return 'Unknown'
    newest = max(messages, key=lambda m: m.get('created_at') or '')
    return newest.get('user_message') or 'Unknown'


def find_image_id(ctx, image):
    if is_uuid(image):
        return image
    found = sdk.call(ctx.conn.image.find_image, image, ignore_missing=True)
    if found is None:
        ctx.fail(not_found('Image', image))
    return found.id


def _server_ref(server_id):
    """A Server object for the SDK's delete_volume_attachment, which otherwise
    spends a GET guessing whether its two ids were given in the right order."""
    try:
        from openstack.compute.v2 import server as _server
    except ImportError:  # pragma: no cover - openstacksdk is a runtime requirement
        return server_id
    return _server.Server(id=server_id)


# -- attach / detach, one poll at a time ----------------------------------------
# A step is a JSON-able dict kept in ctx.data; run_step advances it and
# answers True once it is complete.

def attach_step(server_id, volume_id, device):
    return {'op': 'attach', 'server': server_id, 'volume': volume_id, 'device': device or None,
            'state': 'call'}


def detach_step(server_id, volume_id, attachment_id):
    return {'op': 'detach', 'server': server_id, 'volume': volume_id, 'attachment': attachment_id,
            'state': 'call'}


def nova_attach(ctx, server_id, volume_id, device, busy_raises=False):
    """POST the attachment; its id (Nova's, the volume's id), or None when
    Nova answers 409 (busy: Heat tries again on the next poll).  With
    ``busy_raises`` the 409 goes up instead (a create: the engine asks find
    whether anything was attached before it sends the POST again)."""
    kwargs = {'device': device} if device else {}
    try:
        att = sdk.call(ctx.conn.compute.create_volume_attachment, server_id, volume=volume_id,
                       retry_writes=False, **kwargs)
    except CloudConflict:
        if busy_raises:
            raise
        return None
    except CloudTransient:
        raise   # the engine asks find whether it was made before it asks again (create_proven)
    except CloudError as err:
        ctx.fail('Failed to attach volume %s to server %s - %s' % (volume_id, server_id, err))
    return att.id


def nova_detach(ctx, server_id, attachment_id):
    """DELETE the attachment: True once asked (gone or refused as already
    detached count as done, as in Heat), False on 409 (try again)."""
    try:
        sdk.call(ctx.conn.compute.delete_volume_attachment, _server_ref(server_id), attachment_id,
                 ignore_missing=False)
    except CloudConflict:
        return False
    except CloudNotFound:
        return True
    except CloudError as err:
        if err.status == 400:
            return True
        ctx.fail('Could not detach attachment %s from server %s.' % (attachment_id, server_id))
    return True


def cinder_attach_done(ctx, volume_id):
    vol = poll_batch.look(ctx, 'volume', volume_id, poll_batch.volume_key(ctx), existing=True)
    if vol.status in ('available', 'attaching', 'reserved'):
        return False
    if vol.status != 'in-use':
        ctx.unknown_status('Volume attachment failed', vol.status)
    return True


def cinder_detach_done(ctx, volume_id, server_id):
    vol = poll_batch.look(ctx, 'volume', volume_id, poll_batch.volume_key(ctx))
    if vol is None:
        return True
    servers = [a.get('server_id') for a in (vol.attachments or ()) if 'server_id' in a]
    if server_id and server_id not in servers:
        return True
    if vol.status in ('in-use', 'detaching', 'reserved'):
        return False
    if vol.status not in ('available', 'deleting'):
        ctx.unknown_status('Volume detachment failed', vol.status)
    return True


def nova_detach_done(ctx, server_id, attachment_id):
    """Nova may still list the attachment after Cinder says available; an
    immediate re-attach needs Nova to agree (Heat checks both)."""
    att = sdk.get_or_none(ctx.conn.compute.get_volume_attachment, server_id, attachment_id)
    return att is None


# How many polls in a row Nova may answer an attach or detach 409 (the
# server or volume busy a moment) before the step fails with Heat's words:
# a server that stays unable (a suspended one refuses a detach) must not hold
# the run until its timeout.
BUSY_POLLS = 30


def _busy(ctx, step, message):
    step['busy'] = step.get('busy', 0) + 1
    if step['busy'] >= BUSY_POLLS:
        ctx.fail(message)
    return False


def run_step(ctx, step):
    """Advance one attach/detach step; True when it is complete.  A finished
    attach records the new attachment id in step['attachment']."""
    if step['op'] == 'attach':
        if step['state'] == 'call':
            att_id = nova_attach(ctx, step['server'], step['volume'], step.get('device'))
            if att_id is None:
                return _busy(ctx, step, 'Failed to attach volume %s to server %s - conflict'
                             % (step['volume'], step['server']))
            step['attachment'] = att_id
            step['state'] = 'cinder'
            return False
        return cinder_attach_done(ctx, step['volume'])
    if step['state'] == 'call':
        if nova_detach(ctx, step['server'], step['attachment']):
            step['state'] = 'cinder'
            return False
        return _busy(ctx, step, 'Could not detach attachment %s from server %s.'
                     % (step['attachment'], step['server']))
    if step['state'] == 'cinder':
        if not cinder_detach_done(ctx, step['volume'], step['server']):
            return False
        step['state'] = 'nova'
    return nova_detach_done(ctx, step['server'], step['attachment'])


def supports_microversion(proxy, version):
    """Whether the service accepts ``version`` (discovered once per session)."""
    try:
        from openstack import utils as sdk_utils
    except ImportError:  # pragma: no cover
        return False
    return bool(sdk.call(sdk_utils.supports_microversion, proxy, version))
