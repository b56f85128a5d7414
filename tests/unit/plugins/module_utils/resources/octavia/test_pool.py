# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""octavia/pool.py: Pool, PoolMember and HealthMonitor."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

POOL = 'OS::Octavia::Pool'
MEMBER = 'OS::Octavia::PoolMember'
HM = 'OS::Octavia::HealthMonitor'
Pool, Member, Monitor = PLUGINS[POOL], PLUGINS[MEMBER], PLUGINS[HM]
POOL_PROPS = {'loadbalancer': fakes.LB_ID, 'lb_algorithm': 'ROUND_ROBIN', 'protocol': 'HTTP',
              'session_persistence': {'type': 'SOURCE_IP'}}


def test_pool_body_drops_empty_persistence_keys():
    ctx = fakes.ctx(POOL, POOL_PROPS)
    ctx.physical_id = Pool().create(ctx)
    body = fakes.sent(ctx.conn, 'POST')[0][1]['pool']
    assert body['session_persistence'] == {'type': 'SOURCE_IP'}
    assert body['loadbalancer_id'] == fakes.LB_ID and 'listener_id' not in body
    assert body['tls_enabled'] is False and body['name'] == 's-res-abc'


def test_pool_update_sends_no_none_values():
    ctx = fakes.ctx(POOL, POOL_PROPS)
    ctx.physical_id = Pool().create(ctx)
    ctx.properties = fakes.ctx(POOL, dict(POOL_PROPS, lb_algorithm='LEAST_CONNECTIONS',
                                          session_persistence=None)).properties
    ctx.changed = frozenset(['lb_algorithm', 'session_persistence', 'name'])
    Pool().update(ctx)
    assert fakes.sent(ctx.conn, 'PUT')[0][1] == {'pool': {'lb_algorithm': 'LEAST_CONNECTIONS'}}


def test_pool_members_are_read_at_each_use():
    assert 'members' in Pool.uncached_attributes


def test_pool_validate_is_heats():
    assert fakes.refusal(Pool, {'lb_algorithm': 'ROUND_ROBIN', 'protocol': 'HTTP'}) == (
        (), 'At least one of the following properties must be specified: listener, loadbalancer.')
    assert fakes.refusal(Pool, {'lb_algorithm': 'ROUND_ROBIN', 'protocol': 'HTTP',
                                'listener': None}) is None
    app = dict(POOL_PROPS, session_persistence={'type': 'APP_COOKIE'})
    assert fakes.refusal(Pool, app) == (
        ('session_persistence', 'cookie_name'),
        'Property cookie_name is required when session_persistence type is set to APP_COOKIE.')
    app['session_persistence']['cookie_name'] = None     # reads as ''
    assert fakes.refusal(Pool, app)[1].startswith('Property cookie_name is required')
    source = dict(POOL_PROPS, session_persistence={'type': 'SOURCE_IP', 'cookie_name': 'c'})
    assert fakes.refusal(Pool, source)[1] == (
        'Property cookie_name must NOT be specified when session_persistence type is set to '
        'SOURCE_IP.')
    source['session_persistence']['cookie_name'] = ''
    assert fakes.refusal(Pool, source) is None
    assert fakes.refusal(Pool, POOL_PROPS) is None


def test_member_lives_under_its_pool_with_the_users_tags_and_the_marks():
    ctx = fakes.ctx(MEMBER, {'pool': fakes.POOL_ID, 'address': '10.0.0.4', 'protocol_port': 80,
                             'subnet': fakes.SUBNET_ID, 'tags': ['web']})
    ctx.physical_id = Member().create(ctx)
    (path, body), = fakes.sent(ctx.conn, 'POST')
    assert path == '/lbaas/pools/%s/members' % fakes.POOL_ID
    assert body == {'member': {
        'address': '10.0.0.4', 'protocol_port': 80, 'subnet_id': fakes.SUBNET_ID, 'weight': 1,
        'admin_state_up': True, 'tags': ['web', 'stackers-stack-id=sid', 'stackers-resource=res']}}
    assert ctx.data['pool_id'] == fakes.POOL_ID
    assert Member().show(ctx)['tags'] == ['web']
    ctx.properties = dict(ctx.properties, tags=['db'], weight=3)
    ctx.changed = frozenset(['tags', 'weight'])
    Member().update(ctx)
    assert fakes.sent(ctx.conn, 'PUT') == [(
        '/lbaas/pools/%s/members/%s' % (fakes.POOL_ID, ctx.physical_id),
        {'member': {'tags': ['db', 'stackers-stack-id=sid', 'stackers-resource=res'],
                    'weight': 3}})]
    assert Member().attributes(ctx, Member().show(ctx))['show']['weight'] == 3


def test_member_delete_uses_the_pool_it_was_made_in():
    ctx = fakes.ctx(MEMBER, {'pool': fakes.POOL_ID, 'address': '10.0.0.4', 'protocol_port': 80})
    ctx.physical_id = Member().create(ctx)
    later = fakes.ctx(MEMBER, {}, conn=ctx.conn, data=dict(ctx.data),
                      physical_id=ctx.physical_id)
    Member().delete(later)
    assert fakes.sent(ctx.conn, 'DELETE') == [
        ('/lbaas/pools/%s/members/%s' % (fakes.POOL_ID, ctx.physical_id), None)]


def test_member_find_under_the_pool():
    ctx = fakes.ctx(MEMBER, {'pool': fakes.POOL_ID, 'address': '10.0.0.4', 'protocol_port': 80})
    ctx.physical_id = Member().create(ctx)
    again = fakes.ctx(MEMBER, {'pool': fakes.POOL_ID, 'address': '10.0.0.4', 'protocol_port': 80},
                      conn=ctx.conn)
    assert Member().find(again) == ctx.physical_id


def test_health_monitor_body_and_pools_attribute():
    ctx = fakes.ctx(HM, {'pool': fakes.POOL_ID, 'type': 'HTTP', 'delay': 5, 'timeout': 3,
                         'max_retries': 3, 'url_path': '/health'})
    ctx.physical_id = Monitor().create(ctx)
    body = fakes.sent(ctx.conn, 'POST')[0][1]['healthmonitor']
    assert body == {'pool_id': fakes.POOL_ID, 'type': 'HTTP', 'delay': 5, 'timeout': 3,
                    'max_retries': 3, 'url_path': '/health', 'admin_state_up': True,
                    'tags': ['stackers-stack-id=sid', 'stackers-resource=res']}
    ctx.conn.fake.objects['/lbaas/healthmonitors/%s' % ctx.physical_id]['pools'] = [
        {'id': fakes.POOL_ID}]
    assert Monitor().attributes(ctx, Monitor().show(ctx))['pools'] == [{'id': fakes.POOL_ID}]
