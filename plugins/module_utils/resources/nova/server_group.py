# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::ServerGroup: a scheduling policy group.

Heat sends ``policy`` (the first of ``policies``) and ``rules`` when Nova
speaks microversion 2.64, the SDK's version for server groups.  Nova has no
metadata on server groups, so the physical name is the only mark: find()
searches by it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import ResourcePlugin
from .common import as_dict


class ServerGroup(ResourcePlugin):
    type_name = 'OS::Nova::ServerGroup'

    @staticmethod
    def _name(ctx):
        return ctx.properties.get('name') or ctx.physical_name

    def create(self, ctx):
        policies = ctx.properties.get('policies') or ['anti-affinity']
        attrs = {'name': self._name(ctx), 'policy': policies[0]}
        if ctx.properties.get('rules'):
            attrs['rules'] = _rules(ctx.properties['rules'])
        group = sdk.call(ctx.conn.compute.create_server_group, retry_writes=False, **attrs)
        ctx.live = as_dict(group)
        return group.id

    def delete(self, ctx):
        if ctx.physical_id:
            sdk.delete_quietly(ctx.conn.compute.delete_server_group, ctx.physical_id,
                               ignore_missing=False)

    def find(self, ctx):
        name = self._name(ctx)
        found = [g for g in sdk.call(lambda: list(ctx.conn.compute.server_groups()))
                 if g.name == name]
        return found[0].id if len(found) == 1 else None

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        return as_dict(sdk.get_or_none(ctx.conn.compute.get_server_group, ctx.physical_id))

    def needs_replace_failed(self, ctx):
        # Heat: a failed group that still exists is kept
        if not ctx.physical_id:
            return True
        return self.show(ctx) is None

    def attributes(self, ctx, live, names=None):
        return {'show': live}


def _rules(rules):
    # Nova wants an integer max_server_per_host (the schema says Number)
    out = dict(rules)
    value = out.get('max_server_per_host')
    if isinstance(value, float) and value.is_integer():
        out['max_server_per_host'] = int(value)
    if value is None:
        out.pop('max_server_per_host', None)
    return out
