# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Keystone::User (admin; Heat's user.py): a user, its groups and its roles.

Every property is updated in place.  The user is made by one POST; its
memberships (one PUT per group) and its grants follow in
check_create_complete.  An update adds the groups the new list adds and
removes those it drops.  Deleting the user ends its memberships and grants
with it (Keystone's own), so the delete is the one DELETE; Heat removes
the user from its groups first, which changes nothing more.  The password
is never read back: a stack check cannot see it drift.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudNotFound, ResourceFailure
from ._common import api, lookup
from .identity import WithRoles


def _groups(ctx, value):
    return [lookup(ctx.conn, 'group', group) for group in value or ()]


def _member(ctx, group, method):
    path = '/groups/%s/users/%s' % (group, ctx.physical_id)
    try:
        api(ctx.conn, method, path)
    except CloudNotFound:
        if method != 'DELETE':
            raise


class User(WithRoles):
    type_name = 'OS::Keystone::User'
    kind = 'user'
    actor = 'user'
    fields = {'name': 'name', 'domain': 'domain_id', 'description': 'description',
              'enabled': 'enabled', 'email': 'email', 'password': 'password',
              'default_project': 'default_project_id'}
    refs = {'domain': 'domain', 'default_project': 'project'}
    drift_props = ('name', 'description', 'enabled', 'email', 'domain', 'default_project')

    def create(self, ctx):
        ident = super(User, self).create(ctx)
        if isinstance(ctx.live, dict):
            ctx.live.pop('password', None)
        return ident

    def check_create_complete(self, ctx):
        for group in _groups(ctx, ctx.properties.get('groups')):
            _member(ctx, group, 'PUT')
        return super(User, self).check_create_complete(ctx)

    def update(self, ctx):
        super(User, self).update(ctx)
        if 'groups' in ctx.changed:
            new = _groups(ctx, ctx.properties.get('groups'))
            old = _groups(ctx, (ctx.old_properties or {}).get('groups'))
            for group in new:
                if group not in old:
                    _member(ctx, group, 'PUT')
            for group in old:
                if group not in new:
                    _member(ctx, group, 'DELETE')

    def drift(self, ctx, live):
        out = super(User, self).drift(ctx, live)
        wanted = ctx.properties.get('groups')
        if isinstance(live, dict) and wanted:
            try:
                wanted = set(_groups(ctx, wanted))
            except ResourceFailure:
                wanted = None      # a group it names is gone
            answer = api(ctx.conn, 'GET', '/users/%s/groups' % ctx.physical_id) or {}
            now = set(g.get('id') for g in answer.get('groups') or ())
            if wanted is None or wanted - now:
                out.append('groups')
        return sorted(out)
