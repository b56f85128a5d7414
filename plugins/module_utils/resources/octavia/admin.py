# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Octavia::Flavor, OS::Octavia::FlavorProfile and OS::Octavia::Quota (admin).

Flavors and flavor profiles have no provisioning status: made, changed and
deleted at the call's answer (gone already is success), every property but
a flavor's profile updated in place; a name set back to nothing becomes the
physical name again, as Heat does.  They carry no tags, so ``find`` looks
for the name.

A quota is the project's limits set by one PUT; its physical id is the
physical name, and deleting it resets the project's quotas to the defaults.
Heat 27 passes the limits to octaviaclient's ``quota_set`` as keywords the
client hands on to the HTTP request, not as the ``quota`` body the API
reads, so its create fails ("Session.request() got an unexpected keyword
argument 'loadbalancer'", seen on the local cloud's Heat); here the body is
sent.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudNotFound
from ...hot.type_checks import unspecified
from .. import sdk
from ._common import PATHS, OctaviaPlugin, api, listed, not_found


class _Instant(OctaviaPlugin):
    """An object that is done when Octavia answers."""

    tagged = False
    slow_actions = ()

    def check_create_complete(self, ctx):
        return True

    def update_body(self, ctx):
        body = super(_Instant, self).update_body(ctx)
        if 'name' in body and body['name'] is None:
            body['name'] = ctx.physical_name
        return body

    def update(self, ctx):
        body = self.update_body(ctx)
        if body:
            api(ctx.conn, 'PUT', self.item(ctx), {self.json_key(): body})

    def check_update_complete(self, ctx):
        return True

    def delete(self, ctx):
        if ctx.physical_id is not None:
            try:
                api(ctx.conn, 'DELETE', self.item(ctx))
            except CloudNotFound:
                pass

    def check_delete_complete(self, ctx):
        return True

    def json_key(self):
        return PATHS[self.kind][1]

    def find(self, ctx):
        found = listed(ctx.conn, self.kind, name=ctx.properties.get('name') or ctx.physical_name)
        return found[0]['id'] if len(found) == 1 else None


class Flavor(_Instant):
    type_name = 'OS::Octavia::Flavor'
    kind = 'flavor'
    renames = {'flavor_profile': ('flavor_profile_id', 'flavorprofile')}
    drift_fields = ('description', 'enabled')


class FlavorProfile(_Instant):
    type_name = 'OS::Octavia::FlavorProfile'
    kind = 'flavorprofile'
    drift_fields = ('flavor_data', 'provider_name')


class Quota(_Instant):
    type_name = 'OS::Octavia::Quota'
    kind = 'quota'
    named = False
    LIMITS = ('healthmonitor', 'listener', 'loadbalancer', 'pool', 'member')

    # -- validate (Heat's OctaviaQuota.validate) -----------------------------------
    @classmethod
    def validate(cls, given):
        # Heat counts every property with a value, the project included; a
        # limit given as null (or an attribute not made yet) reads as 0.
        if sum(1 for value in given.props.values() if value is not None) <= 1:
            given.fail(unspecified(*sorted(cls.LIMITS)))

    def project(self, ctx):
        project = ctx.properties.get('project')
        if ctx.data.get('project_id'):
            return ctx.data['project_id']
        found = sdk.call(ctx.conn.identity.find_project, project, ignore_missing=True)
        if found is None:
            raise not_found('KeystoneProject', project)
        ctx.data['project_id'] = found.id
        return found.id

    def item(self, ctx):
        return '/lbaas/quotas/%s' % self.project(ctx)

    def _set(self, ctx):
        limits = dict((k, ctx.properties.get(k)) for k in self.LIMITS
                      if ctx.properties.get(k) is not None)
        api(ctx.conn, 'PUT', self.item(ctx), {'quota': limits})

    def create(self, ctx):
        self._set(ctx)
        return ctx.physical_name

    def update(self, ctx):
        # Heat sets every limit the new properties give, changed or not.
        self._set(ctx)

    def find(self, ctx):
        return None

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        answer = api(ctx.conn, 'GET', self.item(ctx))
        ctx.live = (answer or {}).get('quota')
        return ctx.live

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        return sorted(k for k in self.LIMITS
                      if ctx.properties.get(k) is not None and live.get(k) != ctx.properties[k])
