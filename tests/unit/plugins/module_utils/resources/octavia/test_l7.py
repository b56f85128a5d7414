# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""octavia/l7.py: L7Policy and L7Rule."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

POLICY = 'OS::Octavia::L7Policy'
RULE = 'OS::Octavia::L7Rule'
Policy, Rule = PLUGINS[POLICY], PLUGINS[RULE]
LISTENER_ID = '44444444-4444-4444-8444-444444444444'
POLICY_ID = '55555555-5555-4555-8555-555555555555'


def test_policy_body():
    ctx = fakes.ctx(POLICY, {'listener': LISTENER_ID, 'action': 'REDIRECT_TO_POOL',
                             'redirect_pool': fakes.POOL_ID, 'position': 1})
    ctx.physical_id = Policy().create(ctx)
    body = fakes.sent(ctx.conn, 'POST')[0][1]['l7policy']
    assert body == {'listener_id': LISTENER_ID, 'action': 'REDIRECT_TO_POOL',
                    'redirect_pool_id': fakes.POOL_ID, 'position': 1, 'name': 's-res-abc',
                    'admin_state_up': True,
                    'tags': ['stackers-stack-id=sid', 'stackers-resource=res']}
    assert isinstance(body['position'], int)
    ctx.properties = dict(ctx.properties, action='REDIRECT_TO_URL', redirect_pool=None,
                          redirect_url='http://x/', position=2.0)
    ctx.changed = frozenset(['action', 'redirect_pool', 'redirect_url', 'position'])
    Policy().update(ctx)
    assert fakes.sent(ctx.conn, 'PUT')[0][1] == {'l7policy': {
        'action': 'REDIRECT_TO_URL', 'redirect_pool_id': None, 'redirect_url': 'http://x/',
        'position': 2}}


@pytest.mark.parametrize('props, refused', [
    ({'action': 'REJECT', 'redirect_url': 'http://x/'},
     ('redirect_url', 'Properties redirect_pool and redirect_url are not required when '
                      'action type is set to REJECT.')),
    ({'action': 'REDIRECT_TO_POOL', 'redirect_pool': 'p', 'redirect_url': 'http://x/'},
     ('redirect_url', 'redirect_url property should only be specified for action with value '
                      'REDIRECT_TO_URL.')),
    ({'action': 'REDIRECT_TO_POOL'},
     ('redirect_pool', 'Property redirect_pool is required when action type is set to '
                       'REDIRECT_TO_POOL.')),
    ({'action': 'REDIRECT_TO_URL', 'redirect_pool': 'p'},
     ('redirect_pool', 'redirect_pool property should only be specified for action with value '
                       'REDIRECT_TO_POOL.')),
    ({'action': 'REDIRECT_TO_URL'},
     ('redirect_url', 'Property redirect_url is required when action type is set to '
                      'REDIRECT_TO_URL.')),
    # null reads as '', which Heat's rules take for a value
    ({'action': 'REJECT', 'redirect_pool': None},
     ('redirect_pool', 'Properties redirect_pool and redirect_url are not required when action '
                       'type is set to REJECT.')),
    ({'action': 'REDIRECT_TO_URL', 'redirect_url': None}, None),
    ({'action': 'REJECT'}, None),
])
def test_policy_validate_is_heats(props, refused):
    found = fakes.refusal(Policy, dict(props, listener='l'))
    assert found == (refused and ((refused[0],), refused[1]))


def test_rule_lives_under_its_policy():
    ctx = fakes.ctx(RULE, {'l7policy': POLICY_ID, 'type': 'PATH', 'compare_type': 'STARTS_WITH',
                           'value': '/api'})
    ctx.physical_id = Rule().create(ctx)
    (path, body), = fakes.sent(ctx.conn, 'POST')
    assert path == '/lbaas/l7policies/%s/rules' % POLICY_ID
    assert body == {'rule': {'type': 'PATH', 'compare_type': 'STARTS_WITH', 'value': '/api',
                             'invert': False, 'admin_state_up': True,
                             'tags': ['stackers-stack-id=sid', 'stackers-resource=res']}}
    while not Rule().check_create_complete(ctx):
        pass
    ctx.properties = dict(ctx.properties, value='/v2')
    ctx.changed = frozenset(['value'])
    Rule().update(ctx)
    assert fakes.sent(ctx.conn, 'PUT') == [
        ('/lbaas/l7policies/%s/rules/%s' % (POLICY_ID, ctx.physical_id), {'rule': {'value': '/v2'}})]
    assert Rule().drift(ctx, Rule().show(ctx)) == []


def test_rule_validate_is_heats():
    props = {'l7policy': 'p', 'type': 'COOKIE', 'compare_type': 'EQUAL_TO', 'value': 'v'}
    assert fakes.refusal(Rule, props) == (
        ('key',), 'Property key is missing. This property should be specified for rules of '
                  'HEADER and COOKIE types.')
    assert fakes.refusal(Rule, dict(props, key='k')) is None
    assert fakes.refusal(Rule, dict(props, key=None)) is None
    assert fakes.refusal(Rule, dict(props, type='PATH')) is None
