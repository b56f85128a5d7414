# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Octavia's types: the rules of Heat 27's Listener, Pool, L7Policy, L7Rule
and OctaviaQuota validate() (LoadBalancer, PoolMember, HealthMonitor,
Flavor and FlavorProfile have none).

Heat reads a value given as null, or an attribute not made yet, as the
type's zero ('' or 0), which counts as given; only a value not given at all
(or dropped by HOT 2021-04-16's two-argument ``if``) is None."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import HEADER, rule

LISTENER = 'OS::Octavia::Listener'
POOL = 'OS::Octavia::Pool'
POLICY = 'OS::Octavia::L7Policy'
RULE = 'OS::Octavia::L7Rule'
QUOTA = 'OS::Octavia::Quota'

# A load balancer whose vip_address is an attribute not made yet while Heat
# validates (a string property given it reads as '').
LB = '''
        lb:
          type: OS::Octavia::LoadBalancer
          properties: {vip_subnet: sub}'''
NEVER = '{equals: [1, 2]}'


def hot_2021(cases):
    """The cases in HOT 2021-04-16, whose ``if`` may drop a value."""
    return [case._replace(template=case.template.replace(
        HEADER, 'heat_template_version: 2021-04-16\n')) for case in cases]


def with_parameters(cases, declared):
    """The cases with a ``parameters`` section (``declared``: its lines)."""
    return [case._replace(template=case.template.replace(
        HEADER, HEADER + 'parameters:\n' + declared)) for case in cases]


def _listener(extra):
    return '''
        res:
          type: OS::Octavia::Listener
          properties: {protocol: TERMINATED_HTTPS, protocol_port: 443, loadbalancer: lb%s}
        ''' % extra


def _pool(extra):
    return '''
        res:
          type: OS::Octavia::Pool
          properties: {protocol: HTTP, lb_algorithm: ROUND_ROBIN%s}
        ''' % extra


def _policy(extra):
    return '''
        res:
          type: OS::Octavia::L7Policy
          properties: {listener: l%s}
        ''' % extra


def _rule(extra):
    return '''
        res:
          type: OS::Octavia::L7Rule
          properties: {l7policy: p, compare_type: EQUAL_TO, value: v%s}
        ''' % extra


def _quota(extra):
    return '''
        res:
          type: OS::Octavia::Quota
          properties: {project: demo%s}
        ''' % extra


PROTO_LISTENER = '''
        res:
          type: OS::Octavia::Listener
          properties: {protocol: {get_param: proto}, protocol_port: 443, loadbalancer: lb}
        '''
TLS = 'Property default_tls_container_ref required when protocol is TERMINATED_HTTPS.'
POOL_PARENT = 'At least one of the following properties must be specified: listener, loadbalancer.'
APP_COOKIE = 'Property cookie_name is required when session_persistence type is set to APP_COOKIE.'
SOURCE_IP = ('Property cookie_name must NOT be specified when session_persistence type is set '
             'to SOURCE_IP.')
REJECT = ('Properties redirect_pool and redirect_url are not required when action type is set '
          'to REJECT.')
RULE_KEY = ('Property key is missing. This property should be specified for rules of HEADER '
            'and COOKIE types.')
QUOTA_LIMITS = ('At least one of the following properties must be specified: healthmonitor, '
                'listener, loadbalancer, member, pool.')

CASES = (
    # -- Listener ----------------------------------------------------------------
    rule(LISTENER, 'terminated-https-without-a-tls-ref', _listener(''),
         _listener(', default_tls_container_ref: ref'), TLS)
    + rule(LISTENER, 'tls-ref-from-an-attribute-is-given', _listener(''), LB + _listener(
        ', default_tls_container_ref: {get_attr: [lb, vip_address]}'), TLS)
    + with_parameters(rule(LISTENER, 'protocol-from-a-parameter', PROTO_LISTENER,
                           PROTO_LISTENER, TLS, parameters={'proto': 'TERMINATED_HTTPS'},
                           kept_parameters={'proto': 'HTTPS'}), '  proto: {type: string}\n')
    + hot_2021(rule(LISTENER, 'tls-ref-dropped-by-if-is-not-given',
                    _listener(', default_tls_container_ref: {if: [%s, ref]}' % NEVER),
                    _listener(', default_tls_container_ref: {if: [%s, ref, null]}' % NEVER),
                    TLS))
    # Heat 27 requires the load balancer in the schema (an older Heat's
    # validate took a default_pool instead).
    + rule(LISTENER, 'no-load-balancer', '''
        res:
          type: OS::Octavia::Listener
          properties: {protocol: HTTP, protocol_port: 80, default_pool: p}
        ''', '''
        res:
          type: OS::Octavia::Listener
          properties: {protocol: HTTP, protocol_port: 80, default_pool: p, loadbalancer: lb}
        ''', 'Property loadbalancer not assigned')
    # -- Pool ----------------------------------------------------------------------
    + rule(POOL, 'neither-listener-nor-load-balancer', _pool(''), LB + _pool(
        ', loadbalancer: {get_resource: lb}'), POOL_PARENT)
    + hot_2021(rule(POOL, 'listener-dropped-by-if-is-not-given',
                    _pool(', listener: {if: [%s, l]}' % NEVER),
                    LB + _pool(', listener: {get_attr: [lb, vip_address]}'), POOL_PARENT))
    + rule(POOL, 'app-cookie-without-a-cookie-name',
           _pool(', listener: l, session_persistence: {type: APP_COOKIE}'),
           _pool(', listener: l, session_persistence: {type: APP_COOKIE, cookie_name: c}'),
           APP_COOKIE)
    + rule(POOL, 'app-cookie-name-from-an-attribute-is-empty', LB + _pool(
        ', listener: l, session_persistence: {type: APP_COOKIE, '
        'cookie_name: {get_attr: [lb, vip_address]}}'), LB + _pool(
        ', listener: l, session_persistence: {type: APP_COOKIE, '
        'cookie_name: {get_resource: lb}}'), APP_COOKIE)
    + rule(POOL, 'source-ip-with-a-cookie-name',
           _pool(', listener: l, session_persistence: {type: SOURCE_IP, cookie_name: c}'),
           _pool(', listener: l, session_persistence: {type: SOURCE_IP}'), SOURCE_IP)
    + rule(POOL, 'source-ip-with-an-empty-cookie-name',
           _pool(', listener: l, session_persistence: {type: SOURCE_IP, cookie_name: c}'),
           LB + _pool(', listener: l, session_persistence: {type: SOURCE_IP, '
                      'cookie_name: {get_attr: [lb, vip_address]}}'), SOURCE_IP)
    # -- L7Policy ------------------------------------------------------------------
    + rule(POLICY, 'reject-with-a-redirect',
           _policy(', action: REJECT, redirect_url: "http://x/"'),
           _policy(', action: REJECT'), REJECT)
    + hot_2021(rule(POLICY, 'reject-with-a-null-redirect',
                    _policy(', action: REJECT, redirect_pool: null'),
                    _policy(', action: REJECT, redirect_pool: {if: [%s, p]}' % NEVER), REJECT))
    + rule(POLICY, 'redirect-to-pool-with-a-url',
           _policy(', action: REDIRECT_TO_POOL, redirect_pool: p, redirect_url: "http://x/"'),
           _policy(', action: REDIRECT_TO_POOL, redirect_pool: p'),
           'redirect_url property should only be specified for action with value '
           'REDIRECT_TO_URL.')
    + rule(POLICY, 'redirect-to-pool-without-a-pool',
           _policy(', action: REDIRECT_TO_POOL'), '''
        pool:
          type: OS::Octavia::Pool
          properties: {protocol: HTTP, lb_algorithm: ROUND_ROBIN, listener: l}''' + _policy(', action: REDIRECT_TO_POOL, redirect_pool: {get_resource: pool}'),
           'Property redirect_pool is required when action type is set to REDIRECT_TO_POOL.')
    + rule(POLICY, 'redirect-to-url-with-a-pool',
           _policy(', action: REDIRECT_TO_URL, redirect_url: "http://x/", redirect_pool: p'),
           _policy(', action: REDIRECT_TO_URL, redirect_url: "http://x/"'),
           'redirect_pool property should only be specified for action with value '
           'REDIRECT_TO_POOL.')
    + rule(POLICY, 'redirect-to-url-without-a-url',
           _policy(', action: REDIRECT_TO_URL'),
           _policy(', action: REDIRECT_TO_URL, redirect_url: null'),
           'Property redirect_url is required when action type is set to REDIRECT_TO_URL.')
    + with_parameters(rule(POLICY, 'action-from-a-parameter',
                           _policy(', action: {get_param: action}'),
                           _policy(', action: {get_param: action}'),
                           'Property redirect_url is required when action type is set to '
                           'REDIRECT_TO_URL.', parameters={'action': 'REDIRECT_TO_URL'},
                           kept_parameters={'action': 'REJECT'}), '  action: {type: string}\n')
    # -- L7Rule --------------------------------------------------------------------
    + rule(RULE, 'header-without-a-key', _rule(', type: HEADER'),
           _rule(', type: HEADER, key: X-Kind'), RULE_KEY)
    + rule(RULE, 'only-header-and-cookie-need-a-key', _rule(', type: COOKIE'),
           _rule(', type: PATH'), RULE_KEY)
    + hot_2021(rule(RULE, 'key-dropped-by-if-is-not-given',
                    _rule(', type: COOKIE, key: {if: [%s, k]}' % NEVER),
                    LB + _rule(', type: COOKIE, key: {get_attr: [lb, vip_address]}'), RULE_KEY))
    # -- Quota ---------------------------------------------------------------------
    + rule(QUOTA, 'no-limit', _quota(''), _quota(', pool: 3'), QUOTA_LIMITS)
    + hot_2021(rule(QUOTA, 'a-null-limit-is-given', _quota(', pool: {if: [%s, 3]}' % NEVER),
                    _quota(', pool: null'), QUOTA_LIMITS))
)
