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

from ._common import OctaviaPlugin


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

    # -- validate (Heat's L7Policy.validate) ---------------------------------------
    # action -> (the property it needs, the other redirect, the action that one is for)
    _REDIRECTS = {'REDIRECT_TO_POOL': ('redirect_pool', 'redirect_url', 'REDIRECT_TO_URL'),
                  'REDIRECT_TO_URL': ('redirect_url', 'redirect_pool', 'REDIRECT_TO_POOL')}

    @classmethod
    def validate(cls, given):
        # A redirect given as null (or an attribute not made yet) reads as ''
        # in Heat's properties: it counts as given.
        props = given.props
        action = props['action']
        if action == 'REJECT':
            for key in ('redirect_pool', 'redirect_url'):
                if props[key] is not None:
                    given.fail('Properties redirect_pool and redirect_url are not required '
                               'when action type is set to REJECT.', key)
        if action not in cls._REDIRECTS:
            return
        needed, other, other_action = cls._REDIRECTS[action]
        if props[other] is not None:
            given.fail('%s property should only be specified for action with value %s.'
                       % (other, other_action), other)
        if props[needed] is None:
            given.fail('Property %s is required when action type is set to %s.'
                       % (needed, action), needed)

    def create_body(self, ctx):
        return _position(super(L7Policy, self).create_body(ctx))

    def update_body(self, ctx):
        return _position(super(L7Policy, self).update_body(ctx))


class L7Rule(OctaviaPlugin):
    type_name = 'OS::Octavia::L7Rule'
    kind = 'rule'
    named = False
    drift_fields = ('admin_state_up', 'type', 'compare_type', 'invert', 'key', 'value')
    parent_ref = ('l7policy', 'l7policy')

    # -- validate (Heat's L7Rule.validate) -----------------------------------------
    @classmethod
    def validate(cls, given):
        # A key given as null (or an attribute not made yet) reads as '' in
        # Heat's properties: only a key not given at all is refused.
        props = given.props
        if props['type'] in ('HEADER', 'COOKIE') and props['key'] is None:
            given.fail('Property key is missing. This property should be specified for rules '
                       'of HEADER and COOKIE types.', 'key')
