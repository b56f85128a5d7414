# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::Server's deletion_policy Snapshot, as Heat 27 keeps it
(server_base.handle_snapshot_delete, Server.check_delete_complete), and its
stack snapshot (Server.handle_snapshot, handle_restore,
handle_delete_snapshot): the same image, which a restore boots from.

Nova makes an image of the server (createImage) named after the resource's
physical name; the delete waits until Glance says the image is ``active``
and fails with the image's status when it is not to be (Heat's
``Error: <status>``).  A server whose row was FAILED before the delete gets
no image (Heat: ``state[1] != FAILED``).

The image id is kept in the row's data (``image_id``) before the first
look, so a delete a killed run left goes on waiting for that image instead
of asking Nova for another."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudTransient
from .. import sdk

IMAGE_KEY = 'image_id'
# Heat's resource_data key of a stack snapshot's image.
HEAT_IMAGE_KEY = 'snapshot_image_id'
# Lists of maps whose None entries Heat's handle_restore drops.
_LISTS_OF_MAPS = ('block_device_mapping', 'block_device_mapping_v2', 'networks')
# Glance's states of an image on its way to ``active``: an image of an
# earlier attempt in one of these is the one to wait for.
_ON_ITS_WAY = frozenset(('queued', 'saving', 'uploading', 'importing', 'active'))
# Heat fails on 'error' and 'deleted' (the statuses of Nova's old image
# API); Glance v2 names a failed upload 'killed' and a delayed delete
# 'pending_delete', which never become active either: waiting on them
# would only end at the stack's timeout.
_NEVER_ACTIVE = frozenset(('error', 'deleted', 'killed', 'pending_delete'))


def start(ctx, state):
    """Heat's handle_snapshot_delete: ``{'image_id': id}`` of the image the
    delete waits for, or None when the server gets none."""
    action, status = state
    earlier = ctx.data.get(IMAGE_KEY) if action == 'DELETE' else None
    if earlier is None and state == ('DELETE', 'IN_PROGRESS'):
        # a run killed between Nova's answer and the commit of its id
        earlier = _image_of_killed_run(ctx)
    # An earlier attempt's image is waited for again, unless that attempt
    # failed and its image will never be whole (then Heat's FAILED rule
    # below stands: no new image of a server whose delete failed).
    if earlier is not None and (status != 'FAILED' or _status(ctx, earlier) in _ON_ITS_WAY):
        ctx.data[IMAGE_KEY] = earlier
        return {IMAGE_KEY: earlier}
    if status == 'FAILED' or not ctx.physical_id:
        return None
    # One POST: a retry could make a second image (a lost answer is found
    # again by _image_of_killed_run on the next run).
    try:
        made = sdk.call(ctx.conn.compute.create_server_image, ctx.physical_id,
                        image_name(ctx), retry_writes=False)
    except CloudTransient:
        # openstacksdk reads the image back from Glance after Nova's answer:
        # a fault there (or a lost answer) may hide an image Nova made
        made = _image_of_killed_run(ctx)
        if made is None:
            raise
    # openstacksdk answers the image read back from Glance (None when that
    # read found nothing); older releases answered the id Nova gave.
    image_id = made if isinstance(made, str) else getattr(made, 'id', None)
    if image_id is None:
        image_id = _image_of_killed_run(ctx)
    if image_id is None:
        ctx.fail('Nova accepted the image of server %s but Glance has no image named %s'
                 % (ctx.physical_id, image_name(ctx)))
    ctx.data[IMAGE_KEY] = image_id
    return {IMAGE_KEY: image_id}


def check(ctx):
    """Heat's check_delete_complete before the server's delete: True once
    the image is active."""
    try:
        image = sdk.call(ctx.conn.image.get_image, ctx.data[IMAGE_KEY])
    except CloudTransient:
        return False     # Glance busy a moment: look again, as a server's poll does
    status = (image.status or '').lower()
    if status in _NEVER_ACTIVE:
        ctx.fail(image.status, kind='Error')
    return status == 'active'


def image_name(ctx):
    """Heat names the image after the resource's physical name (not the
    server's ``name`` property)."""
    return ctx.physical_name or ctx.name


def _status(ctx, image_id):
    image = sdk.get_or_none(ctx.conn.image.get_image, image_id)
    return (image.status or '').lower() if image is not None else None


def _image_of_killed_run(ctx):
    """The image Nova made of this server under this resource's image name
    (Nova records the server in the image's ``instance_uuid``), or None."""
    name = image_name(ctx)
    found = [image for image in sdk.call(lambda: list(ctx.conn.image.images(name=name)))
             if image.name == name and getattr(image, 'instance_uuid', None) == ctx.physical_id
             and (image.status or '').lower() in _ON_ITS_WAY]
    return found[0].id if found else None


def restore_properties(properties, resource_data):
    """Heat's handle_restore: the properties given a value, the snapshot's
    image as ``image``, None entries dropped from the lists of maps."""
    props = dict((k, v) for k, v in properties.items() if v is not None)
    for key in _LISTS_OF_MAPS:
        if isinstance(props.get(key), list):
            props[key] = [dict((k, v) for k, v in item.items() if v is not None)
                          if isinstance(item, dict) else item for item in props[key]]
    props['image'] = resource_data[HEAT_IMAGE_KEY]
    return props


def delete_image(ctx, resource_data):
    """Heat's handle_delete_snapshot: the image goes (one gone already is
    no error); Heat does not wait for it."""
    image_id = resource_data.get(HEAT_IMAGE_KEY)
    if image_id:
        sdk.call(ctx.conn.image.delete_image, image_id, ignore_missing=True)
