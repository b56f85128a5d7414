# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Quota (Heat's quota.py): a project's limits set by one
PUT; the physical id is the physical name, as in Heat.

Heat 27's own bug, not copied: its delete asks Neutron to reset the quotas
of a project whose id is the resource's physical name (no such project: a
404 it ignores), so the project keeps the limits.  Here the delete resets
the project's quotas to the defaults, as Heat's Nova and Octavia quotas do.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound
from ...hot.type_checks import unspecified
from .common import NeutronPlugin
from .raw import raw_delete_path

LIMITS = ('subnet', 'network', 'floatingip', 'security_group_rule', 'security_group', 'router',
          'port', 'subnetpool', 'rbac_policy')


class Quota(NeutronPlugin):
    type_name = 'OS::Neutron::Quota'
    taggable = False

    @classmethod
    def validate(cls, given):
        # Heat counts every property with a value, the project included.
        if sum(1 for value in given.props.values() if value is not None) <= 1:
            given.fail(unspecified(*sorted(LIMITS)))

    def project(self, ctx):
        """Heat's translation: the project by name or id (Keystone)."""
        if not ctx.data.get('project_id'):
            project = ctx.properties.get('project')
            found = sdk.call(ctx.conn.identity.find_project, project, ignore_missing=True)
            if found is None:
                ctx.fail('The KeystoneProject (%s) could not be found.' % project)
            ctx.data['project_id'] = found.id
        return ctx.data['project_id']

    def path(self, ctx):
        return '/quotas/%s' % self.project(ctx)

    def _set(self, ctx):
        # Heat sends every limit the properties give, changed or not.
        limits = dict((k, ctx.properties[k]) for k in LIMITS if ctx.properties.get(k) is not None)
        sdk.request_json(ctx.conn.network, 'PUT', self.path(ctx), {'quota': limits})

    def create(self, ctx):
        self._set(ctx)
        return ctx.physical_name

    def create_later(self, ctx):
        return None

    def update(self, ctx):
        self._set(ctx)

    def delete(self, ctx):
        if ctx.physical_id is not None:
            raw_delete_path(ctx.conn, self.path(ctx))

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        try:
            ctx.live = sdk.request_json(ctx.conn.network, 'GET', self.path(ctx))['quota']
        except CloudNotFound:
            return None
        return ctx.live

    def attributes(self, ctx, live, names=None):
        return {'show': None}   # Heat's show reads an entity the type has none of

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        return sorted(k for k in LIMITS
                      if ctx.properties.get(k) is not None and live.get(k) != ctx.properties[k])

    def find(self, ctx):
        return None
