# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Cinder::VolumeType (admin only by Cinder's default policy).

As Heat's CinderVolumeType: name, description, is_public and the extra specs
(``metadata``; sent in the create body, one request) and, for a private
type, access for ``projects`` (names or ids).  Everything updates in place:
one PUT for name/description/is_public, the extra specs made equal to the
new map, project access adjusted by difference.  A volume type carries no
stack marks (an unscoped extra spec would be matched against the backends'
capabilities by the scheduler), so ``find`` looks it up by its unique name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import ResourcePlugin
from . import _common


def _project_id(ctx, project):
    if _common.is_uuid(project):
        return project
    found = sdk.call(ctx.conn.identity.find_project, project, ignore_missing=True)
    if found is None:
        ctx.fail(_common.not_found('KeystoneProject', project))
    return found.id


class VolumeType(ResourcePlugin):
    type_name = 'OS::Cinder::VolumeType'

    @classmethod
    def validate(cls, given):
        """Heat's CinderVolumeType.validate (``is_public`` waiting on an
        attribute reads as its default, true)."""
        if given.props.get('projects') and given.props.get('is_public'):
            given.fail('Can not specify property "projects" if the volume type is public.',
                       'projects')

    def create(self, ctx):
        p = ctx.properties
        args = {'name': p['name'], 'is_public': p.get('is_public')}
        if p.get('description') is not None:
            args['description'] = p['description']
        if p.get('metadata'):
            args['extra_specs'] = dict((k, str(v)) for k, v in p['metadata'].items())
        vtype = sdk.call(ctx.conn.block_storage.create_type, retry_writes=False, **args)
        ctx.live = _common.raw(vtype)
        # Access is granted by check_create_complete, after the id is committed.
        ctx.data['grant'] = list(p.get('projects') or ())
        return vtype.id

    def check_create_complete(self, ctx):
        pending = ctx.data.get('grant') or []
        while pending:
            sdk.call(ctx.conn.block_storage.add_type_access, ctx.physical_id,
                     _project_id(ctx, pending[0]))
            pending.pop(0)
        ctx.data.pop('grant', None)
        return True

    def find(self, ctx):
        vtype = sdk.call(ctx.conn.block_storage.find_type, ctx.properties['name'],
                         ignore_missing=True)
        return None if vtype is None else vtype.id

    def update(self, ctx):
        p = ctx.properties
        changed = ctx.changed
        bs = ctx.conn.block_storage
        type_id = ctx.physical_id
        args = {}
        for key in ('name', 'description', 'is_public'):
            if key in changed:
                args[key] = p.get(key)
        if args:
            sdk.call(bs.update_type, type_id, **args)
        if 'metadata' in changed:
            current = sdk.call(bs.get_type, type_id).extra_specs or {}
            wanted = dict((k, str(v)) for k, v in (p.get('metadata') or {}).items())
            gone = [k for k in current if k not in wanted]
            if gone:
                sdk.call(bs.delete_type_extra_specs, type_id, gone)
            if wanted:
                sdk.call(bs.update_type_extra_specs, type_id, **wanted)
        # Heat adjusts access only for a private type.
        if 'projects' in changed and not p.get('is_public'):
            current = set(a.get('project_id') for a in self._access(ctx))
            wanted = set(_project_id(ctx, x) for x in (p.get('projects') or ()))
            for project in sorted(current - wanted):
                sdk.call(bs.remove_type_access, type_id, project)
            for project in sorted(wanted - current):
                sdk.call(bs.add_type_access, type_id, project)

    def _access(self, ctx):
        return sdk.call(ctx.conn.block_storage.get_type_access, ctx.physical_id) or []

    def delete(self, ctx):
        if ctx.physical_id is not None:
            sdk.delete_quietly(ctx.conn.block_storage.delete_type, ctx.physical_id,
                               ignore_missing=False)

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        return _common.raw(sdk.get_or_none(ctx.conn.block_storage.get_type, ctx.physical_id))

    def attributes(self, ctx, live, names=None):
        return {'show': live if isinstance(live, dict) else None}

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        p = ctx.properties
        out = []
        if live.get('name') != p.get('name'):
            out.append('name')
        if p.get('description') is not None and live.get('description') != p['description']:
            out.append('description')
        wanted = dict((k, str(v)) for k, v in (p.get('metadata') or {}).items())
        if (live.get('extra_specs') or {}) != wanted:
            out.append('metadata')
        public = live.get('os-volume-type-access:is_public', live.get('is_public'))
        if public is not None and bool(public) != bool(p.get('is_public')):
            out.append('is_public')
        if not p.get('is_public'):
            current = set(a.get('project_id') for a in self._access(ctx))
            if current != set(_project_id(ctx, x) for x in (p.get('projects') or ())):
                out.append('projects')
        return out
