# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Octavia::Pool, OS::Octavia::PoolMember and OS::Octavia::HealthMonitor.

As Heat's: a pool on a listener or a load balancer (name or id), its
session persistence sent without its empty keys (on create and update, and
an update sends no None values at all); a member made under its pool's path
(``/pools/{pool}/members``) with its subnet by name or id and no name of its
own; a health monitor on its pool.  The pool's ``members`` attribute is read
at each use (Heat's CACHE_NONE): members come and go after the pool is made.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...hot.type_checks import unspecified
from ._common import OctaviaPlugin


def _persistence(body):
    sp = body.get('session_persistence')
    if isinstance(sp, dict):
        body['session_persistence'] = dict((k, v) for k, v in sp.items() if v is not None)
    return body


class Pool(OctaviaPlugin):
    type_name = 'OS::Octavia::Pool'
    kind = 'pool'
    renames = {'listener': ('listener_id', 'listener'),
               'loadbalancer': ('loadbalancer_id', 'loadbalancer')}
    drift_fields = ('description', 'admin_state_up', 'lb_algorithm', 'tls_enabled')
    uncached_attributes = ('members',)

    # -- validate (Heat's Pool.validate) -----------------------------------------
    @classmethod
    def validate(cls, given):
        props = given.props
        if props['listener'] is None and props['loadbalancer'] is None:
            given.fail(unspecified('listener', 'loadbalancer'))
        sp = props['session_persistence']
        if not isinstance(sp, dict):
            return
        # A cookie name given as null reads as '': none for APP_COOKIE, and
        # allowed beside SOURCE_IP.
        cookie = sp.get('cookie_name')
        if sp.get('type') == 'APP_COOKIE' and not cookie:
            given.fail('Property cookie_name is required when session_persistence type is set '
                       'to APP_COOKIE.', 'session_persistence', 'cookie_name')
        if sp.get('type') == 'SOURCE_IP' and cookie:
            given.fail('Property cookie_name must NOT be specified when session_persistence '
                       'type is set to SOURCE_IP.', 'session_persistence', 'cookie_name')

    def create_body(self, ctx):
        return _persistence(super(Pool, self).create_body(ctx))

    def update_body(self, ctx):
        body = super(Pool, self).update_body(ctx)
        return _persistence(dict((k, v) for k, v in body.items() if v is not None))


class PoolMember(OctaviaPlugin):
    type_name = 'OS::Octavia::PoolMember'
    kind = 'member'
    named = False
    renames = {'subnet': ('subnet_id', 'subnet')}
    drift_fields = ('weight', 'admin_state_up')
    parent_ref = ('pool', 'pool')

    def delete(self, ctx):
        # Heat deletes a member only while its pool property has a value.
        if self.parent(ctx):
            super(PoolMember, self).delete(ctx)

    def check_delete_complete(self, ctx):
        return super(PoolMember, self).check_delete_complete(ctx) if self.parent(ctx) else True


class HealthMonitor(OctaviaPlugin):
    type_name = 'OS::Octavia::HealthMonitor'
    kind = 'healthmonitor'
    named = False
    renames = {'pool': ('pool_id', 'pool')}
    drift_fields = ('admin_state_up', 'delay', 'max_retries', 'timeout', 'expected_codes',
                    'http_method', 'url_path')
