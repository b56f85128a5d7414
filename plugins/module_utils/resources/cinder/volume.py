# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Cinder::Volume through openstacksdk's block_storage (v3).

As Heat's CinderVolume: created from nothing, an image (name or id), a
snapshot, a volume or a backup (a restore, then the name, description and
marks are set); complete at ``available``, failed at ``error``; read_only
set once available.  Updates in place follow Heat's handle_update
(_volume_update.py).  Delete polls until Cinder no longer knows the volume.
The ``bootable`` Heat attribute is read from the volume; Heat 27 has no
``bootable`` property (nor passes the hidden ``multiattach`` one), so
neither is set here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ...errors import CloudError, CloudNotFound
from .. import poll_batch, sdk
from ..base import TAG_RESOURCE, TAG_STACK, ResourcePlugin, own_metadata
from . import _common
from . import _volume_update

_CREATING = ('creating', 'restoring-backup', 'downloading')
# The row's data key of the backup deletion_policy Snapshot keeps.
BACKUP_KEY = 'backup_id'
# The state a stack snapshot gives ``snapshot`` (resources/base.py).
STACK_SNAPSHOT = ('SNAPSHOT', 'IN_PROGRESS')
# Heat's attributes that are str() of the volume's field of the same name.
_STR_ATTRS = ('availability_zone', 'size', 'snapshot_id', 'volume_type', 'source_volid',
              'status', 'created_at', 'bootable', 'encrypted', 'multiattach')


def volume_view(vol):
    """The volume as Cinder's API shows it, the engine's marks hidden."""
    view = _common.raw(vol)
    if view is None:
        return None
    if isinstance(view.get('bootable'), bool):
        view['bootable'] = 'true' if view['bootable'] else 'false'   # the API's string
    view['metadata'] = own_metadata(view.get('metadata'))
    return view


def _restore_to_new_volume(bs, backup_id, name):
    """The id of the volume Cinder makes from the backup. A raw POST:
    openstacksdk 4.0's restore_backup reads no answer (its Backup.restore
    drops the body), so the new volume's id is only in the response."""
    answer = sdk.request_json(bs, 'POST', '/backups/%s/restore' % backup_id,
                              {'restore': {'name': name}}, retry_writes=False)
    return answer['restore']['volume_id']


def _listed(names):
    """A list of names as Heat's messages print a Python list of strings."""
    return '[%s]' % ', '.join("'%s'" % name for name in names)


class Volume(ResourcePlugin):
    type_name = 'OS::Cinder::Volume'
    # Cinder answers a create or a delete at once and works after it.
    slow_actions = ('CREATE', 'DELETE')

    @staticmethod
    def _name(ctx):
        return ctx.properties.get('name') or ctx.physical_name

    # -- validate (Heat's CinderVolume.validate) -------------------------------
    @classmethod
    def validate(cls, given):
        props = given.props
        if props.get('backup_id'):
            return
        # Heat's translation has made imageRef the image (refusing both when
        # both are given): a given imageRef, even empty, replaces the image.
        image = props.get('imageRef') if props.get('imageRef') is not None else props.get('image')
        # The sources, in the order Heat lists them; a snapshot or a volume
        # alone gives the new volume its size.
        given_sources = (('snapshot_id', props.get('snapshot_id')),
                         ('source_volid', props.get('source_volid')), ('image', image))
        sources = [key for key, value in given_sources if value]
        sized_by_source = [key for key in sources if key in ('snapshot_id', 'source_volid')]
        size = props.get('size')
        if size is None and (len(sized_by_source) != 1 or len(sources) != 1):
            given.fail('If neither "backup_id" nor "size" is provided, one and only one of '
                       '"source_volid", "snapshot_id" must be specified, but currently '
                       'specified options: %s.' % _listed(sources))
        if size and len(sources) > 1:
            given.fail('If "size" is provided, only one of "image", "imageRef", '
                       '"source_volid", "snapshot_id" can be specified, but currently '
                       'specified options: %s.' % _listed(sources), 'size')

    # -- create ----------------------------------------------------------------
    def create(self, ctx):
        p = ctx.properties
        bs = ctx.conn.block_storage
        name = self._name(ctx)
        metadata = ctx.metadata_tags(p.get('metadata'))
        if p.get('backup_id') is not None:
            # Cinder makes a new volume from the backup; Heat then names it.
            volume_id = _restore_to_new_volume(bs, p['backup_id'], name)
            sdk.call(bs.update_volume, volume_id, name=name,
                     description=p.get('description'), metadata=metadata)
            return volume_id
        args = {'size': p.get('size'), 'name': name, 'metadata': metadata,
                'description': p.get('description'),
                'availability_zone': p.get('availability_zone') or None,
                'scheduler_hints': p.get('scheduler_hints') or None,
                'snapshot_id': p.get('snapshot_id'),
                'source_volume_id': p.get('source_volid'),
                'volume_type': p.get('volume_type')}
        image = p.get('image') or p.get('imageRef')
        if image:
            args['image_id'] = _common.find_image_id(ctx, image)
        args = dict((k, v) for k, v in args.items() if v is not None)
        vol = sdk.call(bs.create_volume, retry_writes=False, **args)
        ctx.live = volume_view(vol)
        return vol.id

    def check_create_complete(self, ctx):
        vol = poll_batch.look(ctx, 'volume', ctx.physical_id, poll_batch.volume_key(ctx),
                              existing=True)
        ctx.live = volume_view(vol)
        if vol.status in _CREATING:
            return False
        if vol.status == 'error':
            ctx.in_error(vol.status, _common.fault_reason(ctx, vol.id))
        if vol.status != 'available':
            ctx.unknown_status('Volume create failed', vol.status)
        # What Cinder chose when the template did not say (drift compares it).
        ctx.data['volume_type'] = vol.volume_type
        flag = ctx.properties.get('read_only')
        if flag is not None:
            # Cinder takes the flag only once the volume is available.
            sdk.call(ctx.conn.block_storage.set_volume_readonly, vol, flag)
            ctx.live.setdefault('metadata', {})['readonly'] = str(bool(flag))
        return True

    def find(self, ctx):
        name = self._name(ctx)
        vols = sdk.call(lambda: list(ctx.conn.block_storage.volumes(name=name)))
        for vol in vols:
            meta = vol.metadata or {}
            if (meta.get(TAG_STACK) == str(ctx.stack_id)
                    and meta.get(TAG_RESOURCE) == str(ctx.name)):
                return vol.id
        return None

    def found_is_whole(self, ctx):
        # one POST carrying the name and marks find matches; a restore from a
        # backup is several requests
        return ctx.properties.get('backup_id') is None

    # -- update ----------------------------------------------------------------
    def update(self, ctx):
        _volume_update.start(ctx)

    def check_update_complete(self, ctx):
        return _volume_update.advance(ctx)

    def needs_replace_failed(self, ctx):
        if ctx.physical_id is None:
            return True
        vol = sdk.get_or_none(ctx.conn.block_storage.get_volume, ctx.physical_id)
        return vol is None or vol.status in ('error', 'deleting')

    # -- delete ----------------------------------------------------------------
    def delete(self, ctx):
        if ctx.physical_id is None:
            return
        bs = ctx.conn.block_storage
        try:
            sdk.call(bs.delete_volume, ctx.physical_id, ignore_missing=False)
        except CloudNotFound:
            return
        except CloudError as err:
            if err.status != 400:
                raise
            # Refused: say why as Heat does (it GETs before deleting; here
            # the GET is spent only when Cinder refuses).
            vol = sdk.get_or_none(bs.get_volume, ctx.physical_id)
            if vol is None or vol.status == 'deleting':
                return
            if vol.status == 'in-use':
                ctx.fail('Volume in use')
            raise

    def check_delete_complete(self, ctx):
        if ctx.physical_id is None:
            return True
        vol = poll_batch.look(ctx, 'volume', ctx.physical_id, poll_batch.volume_key(ctx))
        if vol is None:
            return True
        if vol.status.lower() == 'error_deleting':
            ctx.in_error(vol.status, 'delete')
        return False

    # -- deletion_policy Snapshot ---------------------------------------------
    def snapshot(self, ctx, state):
        """deletion_policy Snapshot: Heat 27 keeps a *backup* (volume_base
        _create_backup), which, unlike a snapshot, does not stop the volume's
        delete.  A volume whose create or update failed is not backed up
        (volume_base.handle_snapshot_delete); one gone already neither."""
        if state in (('CREATE', 'FAILED'), ('UPDATE', 'FAILED')):
            return None
        earlier = ctx.data.get(BACKUP_KEY) if state[0] == 'DELETE' else None
        if earlier is None and state == ('DELETE', 'IN_PROGRESS'):
            # a run killed between Cinder's answer and the commit of its id
            earlier = self._backup_of_killed_run(ctx)
        if earlier is not None:
            # An earlier delete's backup, still whole or on its way, is the
            # one kept; one that failed is made again, as every delete
            # attempt of Heat's makes one.
            backup = sdk.get_or_none(ctx.conn.block_storage.get_backup, earlier)
            if backup is not None and backup.status in ('creating', 'available'):
                ctx.data[BACKUP_KEY] = earlier
                return {BACKUP_KEY: earlier}
        # A stack snapshot backs up a volume in use (Heat's handle_snapshot
        # forces it); a delete's volume is detached by then.
        force = {'force': True} if state == STACK_SNAPSHOT else {}
        try:
            backup = sdk.call(ctx.conn.block_storage.create_backup, volume_id=ctx.physical_id,
                              name=ctx.physical_name, retry_writes=False, **force)
        except CloudNotFound:
            return None
        ctx.data[BACKUP_KEY] = backup.id
        return {BACKUP_KEY: backup.id}

    def check_snapshot_complete(self, ctx):
        backup = sdk.call(ctx.conn.block_storage.get_backup, ctx.data[BACKUP_KEY])
        if backup.status == 'creating':
            return False
        if backup.status == 'available':
            return True
        ctx.unknown_status('Volume backup failed', backup.status)

    # -- the stack snapshot: the same backup, restored into the volume --------
    heat_snapshot_keys = {BACKUP_KEY: BACKUP_KEY}

    def restore_properties(self, properties, resource_data):
        """Heat's handle_restore: the properties given a value but the other
        sources (``image``, ``imageRef``, ``source_volid``), and the
        snapshot's backup as ``backup_id`` (an update restores it into the
        volume; a new volume is made from it)."""
        props = dict((k, v) for k, v in properties.items()
                     if k not in ('image', 'imageRef', 'source_volid') and v is not None)
        props[BACKUP_KEY] = resource_data[BACKUP_KEY]
        return props

    def delete_snapshot(self, ctx, resource_data):
        """Heat's handle_delete_snapshot: the backup goes; one gone already
        is no error."""
        if resource_data.get(BACKUP_KEY):
            sdk.call(ctx.conn.block_storage.delete_backup, resource_data[BACKUP_KEY],
                     ignore_missing=True)

    def check_delete_snapshot_complete(self, ctx):
        backup_id = ctx.data.get(BACKUP_KEY)
        return not backup_id or sdk.get_or_none(ctx.conn.block_storage.get_backup, backup_id) is None

    def _backup_of_killed_run(self, ctx):
        """The backup of this volume named after this resource, or None."""
        bs, name = ctx.conn.block_storage, ctx.physical_name
        found = [b for b in sdk.call(lambda: list(bs.backups(name=name, volume_id=ctx.physical_id)))
                 if b.name == name and b.volume_id == ctx.physical_id]
        return found[0].id if found else None

    # -- reading ---------------------------------------------------------------
    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        return volume_view(sdk.get_or_none(ctx.conn.block_storage.get_volume, ctx.physical_id))

    def check(self, ctx):
        vol = sdk.call(ctx.conn.block_storage.get_volume, ctx.physical_id)
        expected = ['available', 'in-use']
        if vol.status not in expected:
            ctx.fail("'status': expected '%s', got '%s'" % (expected, vol.status))

    def attributes(self, ctx, live, names=None):
        if not isinstance(live, dict):
            return dict((n, None) for n in self.heat_type().attributes)
        attrs = dict((n, str(live.get(n))) for n in _STR_ATTRS)
        metadata = own_metadata(live.get('metadata'))
        attrs.update({
            'display_name': live.get('name'),
            'display_description': live.get('description'),
            'metadata': json.dumps(metadata),
            'metadata_values': metadata,
            'attachments': str(live.get('attachments')),
            'attachments_list': live.get('attachments'),
            'show': live,
        })
        return attrs

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        p = ctx.properties
        out = []
        if live.get('name') != self._name(ctx):
            out.append('name')
        if p.get('description') is not None and live.get('description') != p['description']:
            out.append('description')
        if p.get('size') is not None and live.get('size') != p['size']:
            out.append('size')
        metadata = own_metadata(live.get('metadata'))
        readonly = metadata.pop('readonly', None)
        if metadata != dict(p.get('metadata') or {}):
            out.append('metadata')
        wanted_type = p.get('volume_type') or ctx.data.get('volume_type')
        if wanted_type is not None and wanted_type not in (live.get('volume_type'),
                                                           live.get('volume_type_id')):
            out.append('volume_type')
        if p.get('read_only') is not None and (str(readonly).lower() == 'true') != p['read_only']:
            out.append('read_only')
        return out
