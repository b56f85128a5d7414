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
    has_preflight = True

    def preflight(self, conn, properties):
        # Heat's L7Policy.validate (made at stack create, before any write).
        action = properties.get('action')
        if action == 'REJECT' and (properties.get('redirect_pool') is not None
                                   or properties.get('redirect_url') is not None):
            return ('action', 'Properties redirect_pool and redirect_url are not required when '
                              'action type is set to REJECT.')
        for wanted, needed, other, other_action in (
                ('REDIRECT_TO_POOL', 'redirect_pool', 'redirect_url', 'REDIRECT_TO_URL'),
                ('REDIRECT_TO_URL', 'redirect_url', 'redirect_pool', 'REDIRECT_TO_POOL')):
            if action != wanted:
                continue
            if properties.get(other) is not None:
                return (other, '%s property should only be specified for action with value %s.'
                        % (other, other_action))
            if properties.get(needed) is None:
                return (needed, 'Property %s is required when action type is set to %s.'
                        % (needed, wanted))
        return None

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
    has_preflight = True

    def preflight(self, conn, properties):
        # Heat's L7Rule.validate (made at stack create, before any write).
        if properties.get('type') in ('HEADER', 'COOKIE') and properties.get('key') is None:
            return ('key', 'Property key is missing. This property should be specified for '
                           'rules of HEADER and COOKIE types.')
        return None
