# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Octavia::L7Policy and OS::Octavia::L7Rule.

As Heat's: a policy on its listener (name or id), redirecting to a pool
(name or id, ``redirect_pool_id``) or a URL, or rejecting; a rule made under
its policy's path (``/l7policies/{policy}/rules``), with no name.  Every
property but the parent updates in place.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ._common import OctaviaPlugin, lookup


def _position(body):
    # A Number property: Octavia takes an integer.
    pos = body.get('position')
    if isinstance(pos, float) and pos.is_integer():
        body['position'] = int(pos)
    return body


class L7Policy(OctaviaPlugin):
    type_name = 'OS::Octavia::L7Policy'
    kind = 'l7policy'
    renames = {'listener': ('listener_id', 'listener'),
               'redirect_pool': ('redirect_pool_id', 'pool')}
    drift_fields = ('description', 'admin_state_up', 'action', 'redirect_url', 'position')

    def create_body(self, ctx):
        return _position(super(L7Policy, self).create_body(ctx))

    def update_body(self, ctx):
        return _position(super(L7Policy, self).update_body(ctx))


class L7Rule(OctaviaPlugin):
    type_name = 'OS::Octavia::L7Rule'
    kind = 'rule'
    named = False
    drift_fields = ('admin_state_up', 'type', 'compare_type', 'invert', 'key', 'value')

    def parent(self, ctx):
        if ctx.data.get('l7policy_id'):
            return ctx.data['l7policy_id']
        policy = lookup(ctx, 'l7policy', ctx.properties.get('l7policy'))
        ctx.data['l7policy_id'] = policy
        return policy

    def create_body(self, ctx):
        body = super(L7Rule, self).create_body(ctx)
        body.pop('l7policy', None)
        return body
