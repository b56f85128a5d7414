# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Keystone::UserRoleAssignment and GroupRoleAssignment (admin; Heat's
role_assignments.py): grants of roles to a user or a group that the stack
does not own.

Heat keeps no id for them (``get_resource`` gives the resource's name, the
``show`` attribute is null); the record keeps the physical name as the
physical id, so a delete knows there is something to revoke.  The create
makes no request of its own: the grants are made by check_create_complete
(again, harmlessly, after a run that died in between).  The delete revokes
the grants the properties name that Keystone lists; a user or group already
gone has none.

Heat resolves the user (or group) of an update from the properties it had
before, so a changed ``user`` leaves the grants on the old user; here they
move: revoked from the old one, granted to the new one (docs/differences.md).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import ResourceFailure
from ..base import ResourcePlugin
from . import _roles
from ._common import get, lookup

# ctx.data: the id of the user or group the grants were made to
ACTOR_ID = 'actor_id'


class _Assignment(ResourcePlugin):
    actor = None

    validate = staticmethod(_roles.validate_roles)

    def _actor_id(self, ctx, props=None):
        props = ctx.properties if props is None else props
        return lookup(ctx.conn, self.actor, props.get(self.actor))

    def create(self, ctx):
        return ctx.physical_name

    def check_create_complete(self, ctx):
        actor_id = self._actor_id(ctx)
        ctx.data[ACTOR_ID] = actor_id
        _roles.grant(ctx.conn, self.actor, actor_id,
                     _roles.resolved(ctx.conn, ctx.properties.get('roles')))
        return True

    def update(self, ctx):
        old = _roles.resolved(ctx.conn, (ctx.old_properties or {}).get('roles'))
        new = _roles.resolved(ctx.conn, ctx.properties.get('roles'))
        old_actor = ctx.data.get(ACTOR_ID) or self._actor_id(ctx, ctx.old_properties or {})
        actor_id = self._actor_id(ctx)
        if actor_id != old_actor:
            _roles.grant(ctx.conn, self.actor, actor_id, new)
            _roles.revoke(ctx.conn, self.actor, old_actor, old)
        else:
            _roles.change(ctx.conn, self.actor, actor_id, new, old)
        ctx.data[ACTOR_ID] = actor_id

    def delete(self, ctx):
        actor_id = ctx.data.get(ACTOR_ID)
        try:
            if actor_id is None:
                actor_id = self._actor_id(ctx)
            if get(ctx.conn, self.actor, actor_id) is None:
                return          # gone, and its grants with it
            wanted = _roles.resolved(ctx.conn, ctx.properties.get('roles'))
        except ResourceFailure:
            return              # Heat's ignore_not_found: a name that names nothing any more
        _roles.revoke(ctx.conn, self.actor, actor_id, wanted)

    def find(self, ctx):
        return None

    def reference_id(self, ctx):
        return ctx.name

    def show(self, ctx):
        """The grants the properties name that Keystone lists (None: the
        user or group is gone)."""
        actor_id = ctx.data.get(ACTOR_ID) or self._actor_id(ctx)
        if get(ctx.conn, self.actor, actor_id) is None:
            return None
        now = _roles.current(ctx.conn, self.actor, actor_id)
        wanted = _roles.resolved(ctx.conn, ctx.properties.get('roles'))
        return {'roles': [list(a) for a in wanted if a in now], 'wanted': [list(a) for a in wanted]}

    def attributes(self, ctx, live, names=None):
        return {'show': None}      # Heat's: the type has no entity to show

    def drift(self, ctx, live):
        if isinstance(live, dict) and live['roles'] != live['wanted']:
            return ['roles']
        return []


class UserRoleAssignment(_Assignment):
    type_name = 'OS::Keystone::UserRoleAssignment'
    actor = 'user'


class GroupRoleAssignment(_Assignment):
    type_name = 'OS::Keystone::GroupRoleAssignment'
    actor = 'group'
