# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Keystone::Domain, Project, Role and Group (admin; Heat's domain.py,
project.py, role.py and group.py).

Every property but a role's domain and a project's parent is updated in
place.  A domain is disabled before it is deleted: Keystone refuses to
delete an enabled one, and Heat 27, which does not disable it, fails the
delete (docs/differences.md).  A project's delete first removes the
``default`` security group Neutron made for it, as Heat's does, so none is
left behind in a project that no longer exists.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudNotFound, ResourceFailure
from .. import sdk
from . import _roles
from ._common import KeystonePlugin, api, item_path


class Domain(KeystonePlugin):
    type_name = 'OS::Keystone::Domain'
    kind = 'domain'
    fields = {'name': 'name', 'description': 'description', 'enabled': 'enabled'}
    drift_props = ('name', 'description', 'enabled')

    def delete(self, ctx):
        if ctx.physical_id is None:
            return
        try:
            api(ctx.conn, 'PATCH', item_path('domain', ctx.physical_id),
                {'domain': {'enabled': False}})
        except CloudNotFound:
            return
        super(Domain, self).delete(ctx)


class Project(KeystonePlugin):
    type_name = 'OS::Keystone::Project'
    kind = 'project'
    fields = {'name': 'name', 'domain': 'domain_id', 'description': 'description',
              'enabled': 'enabled', 'parent': 'parent_id', 'tags': 'tags'}
    refs = {'domain': 'domain', 'parent': 'project'}
    drift_props = ('name', 'description', 'enabled', 'tags', 'domain')

    def find_query(self, ctx):
        return {'name': self.value(ctx, 'name'), 'domain_id': self.value(ctx, 'domain')}

    def delete(self, ctx):
        if ctx.physical_id is None:
            return
        conn = ctx.conn
        if conn.has_service('network'):
            # Neutron made it (listing it makes it, as Heat's own list does)
            for group in sdk.call(lambda: list(conn.network.security_groups(
                    project_id=ctx.physical_id, name='default'))):
                sdk.delete_quietly(conn.network.delete_security_group, group.id)
        super(Project, self).delete(ctx)


class Role(KeystonePlugin):
    type_name = 'OS::Keystone::Role'
    kind = 'role'
    fields = {'name': 'name', 'domain': 'domain_id'}
    refs = {'domain': 'domain'}
    drift_props = ('name',)

    def find_query(self, ctx):
        return {'name': self.value(ctx, 'name'), 'domain_id': self.value(ctx, 'domain')}


class WithRoles(KeystonePlugin):
    """A user or a group, with its ``roles`` (the grants follow the POST that
    made it: check_create_complete makes them, again after a run that died
    in between, Keystone taking a grant twice)."""

    actor = None

    validate = staticmethod(_roles.validate_roles)

    def find_query(self, ctx):
        return {'name': self.value(ctx, 'name'), 'domain_id': self.value(ctx, 'domain')}

    def check_create_complete(self, ctx):
        _roles.grant(ctx.conn, self.actor, ctx.physical_id,
                     _roles.resolved(ctx.conn, ctx.properties.get('roles')))
        return True

    def update(self, ctx):
        super(WithRoles, self).update(ctx)
        if 'roles' in ctx.changed:
            _roles.change(ctx.conn, self.actor, ctx.physical_id,
                          _roles.resolved(ctx.conn, ctx.properties.get('roles')),
                          _roles.resolved(ctx.conn, (ctx.old_properties or {}).get('roles')))

    def drift(self, ctx, live):
        out = super(WithRoles, self).drift(ctx, live)
        if isinstance(live, dict) and ctx.properties.get('roles'):
            try:
                wanted = _roles.resolved(ctx.conn, ctx.properties['roles'])
            except ResourceFailure:
                wanted = None      # a role or scope it names is gone
            if wanted is None or _roles.missing(ctx.conn, self.actor, ctx.physical_id, wanted):
                out.append('roles')
        return sorted(out)


class Group(WithRoles):
    type_name = 'OS::Keystone::Group'
    kind = 'group'
    actor = 'group'
    fields = {'name': 'name', 'domain': 'domain_id', 'description': 'description'}
    refs = {'domain': 'domain'}
    drift_props = ('name', 'description', 'domain')
