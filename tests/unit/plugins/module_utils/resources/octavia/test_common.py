# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""octavia/_common.py: Heat's OctaviaBase waits and 409 retries, lookups, marks."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (  # noqa: E402
    CloudError, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.octavia import (  # noqa: E402
    _common)

T = 'OS::Octavia::Listener'
Listener = PLUGINS[T]
LB = fakes.LB_ID
PROPS = {'loadbalancer': LB, 'protocol': 'HTTP', 'protocol_port': 80}


def _created(props=None, **kw):
    ctx = fakes.ctx(T, props or PROPS, **kw)
    ctx.physical_id = Listener().create(ctx)
    return ctx


def _active(props=None, **kw):
    ctx = _created(props, **kw)
    while not Listener().check_create_complete(ctx):
        pass
    return ctx


def test_create_waits_for_active_and_marks_the_object():
    ctx = _created()
    assert ctx.physical_id is not None and ctx.live['provisioning_status'] == 'PENDING_CREATE'
    assert ctx.data == {}
    (path, body), = fakes.sent(ctx.conn, 'POST')
    assert path == '/lbaas/listeners'
    assert body == {'listener': {
        'loadbalancer_id': LB, 'protocol': 'HTTP', 'protocol_port': 80, 'name': 's-res-abc',
        'admin_state_up': True, 'description': '', 'connection_limit': -1,
        'tags': ['stackers-stack-id=sid', 'stackers-resource=res']}}
    # the marks are hidden from what the plugin shows
    assert ctx.live['tags'] == []
    assert Listener().check_create_complete(ctx) is False
    assert Listener().check_create_complete(ctx) is True


def test_a_create_refused_while_the_lb_is_immutable_is_made_again_at_the_next_poll():
    ctx = fakes.ctx(T, PROPS)
    ctx.conn.fake.refuse[('POST', '/lbaas/listeners')] = 2
    assert Listener().create(ctx) is None
    assert _common.PENDING_CREATE in ctx.data
    assert Listener().check_create_complete(ctx) is False
    assert ctx.physical_id is None
    assert Listener().check_create_complete(ctx) is False   # made; PENDING_CREATE shown
    assert ctx.physical_id is not None and _common.PENDING_CREATE not in ctx.data
    assert Listener().check_create_complete(ctx) is True
    assert len(fakes.sent(ctx.conn, 'POST')) == 3


def test_error_status_fails_as_heat_says():
    ctx = _created()
    ctx.conn.fake.status_after['/lbaas/listeners/%s' % ctx.physical_id] = 'ERROR'
    with pytest.raises(ResourceFailure, match='Went to status ERROR due to "Unknown"'):
        Listener().check_create_complete(ctx)


def test_other_errors_are_not_retried():
    ctx = fakes.ctx(T, PROPS)
    ctx.conn.load_balancer.post.side_effect = None
    ctx.conn.load_balancer.post.return_value = fakes.Answer(400, {'faultstring': 'bad'})
    with pytest.raises(CloudError):
        Listener().create(ctx)


def test_update_sends_the_diff_and_retries_on_409():
    ctx = _active()
    ctx.properties = fakes.ctx(T, dict(PROPS, connection_limit=10, name='web')).properties
    ctx.changed = frozenset(['connection_limit', 'name'])
    ctx.conn.fake.refuse[('PUT', '/lbaas/listeners')] = 1
    Listener().update(ctx)
    assert ctx.data[_common.PENDING_UPDATE] == {'connection_limit': 10, 'name': 'web'}
    assert Listener().check_update_complete(ctx) is False   # PUT made now, PENDING_UPDATE
    assert _common.PENDING_UPDATE not in ctx.data
    assert Listener().check_update_complete(ctx) is True
    puts = fakes.sent(ctx.conn, 'PUT')
    assert puts == [('/lbaas/listeners/%s' % ctx.physical_id,
                     {'listener': {'connection_limit': 10, 'name': 'web'}})] * 2


def test_delete_waits_until_gone_and_gone_already_is_success():
    ctx = _active()
    Listener().delete(ctx)
    assert Listener().check_delete_complete(ctx) is False    # PENDING_DELETE
    assert Listener().check_delete_complete(ctx) is True     # shown DELETED
    assert len(fakes.sent(ctx.conn, 'DELETE')) == 1
    # again: Octavia no longer knows it
    Listener().delete(ctx)
    assert Listener().check_delete_complete(ctx) is True
    assert Listener().show(ctx) is None


def test_delete_refused_while_immutable_is_called_again():
    ctx = _active()
    ctx.conn.fake.refuse[('DELETE', '/lbaas/listeners')] = 2
    Listener().delete(ctx)
    assert ctx.data[_common.PENDING_DELETE] is True
    assert Listener().check_delete_complete(ctx) is False    # refused again, still ACTIVE
    assert Listener().check_delete_complete(ctx) is False    # deleted: PENDING_DELETE
    assert Listener().check_delete_complete(ctx) is True     # shown DELETED
    assert len(fakes.sent(ctx.conn, 'DELETE')) == 3


def test_delete_of_nothing_makes_no_call():
    ctx = fakes.ctx(T, PROPS)
    Listener().delete(ctx)
    assert Listener().check_delete_complete(ctx) is True
    assert fakes.sent(ctx.conn, 'DELETE') == []


def test_find_by_the_stack_marks():
    ctx = _created()
    other = fakes.ctx(T, PROPS, name='other', conn=ctx.conn)
    assert Listener().find(other) is None
    again = fakes.ctx(T, PROPS, conn=ctx.conn)
    assert Listener().find(again) == ctx.physical_id


def test_names_are_looked_up_once_and_missing_ones_fail():
    c = fakes.conn()
    lb = fakes.ctx('OS::Octavia::LoadBalancer', {'vip_subnet': fakes.SUBNET_ID}, conn=c)
    lb_id = PLUGINS['OS::Octavia::LoadBalancer']().create(lb)
    ctx = fakes.ctx(T, dict(PROPS, loadbalancer='s-res-abc'), conn=c)
    Listener().create(ctx)
    assert fakes.sent(c, 'POST')[1][1]['listener']['loadbalancer_id'] == lb_id
    missing = fakes.ctx(T, dict(PROPS, loadbalancer='nope'), conn=c)
    with pytest.raises(ResourceFailure, match=r'The LoadBalancer \(nope\) could not be found'):
        Listener().create(missing)


def test_attributes_are_the_fields_of_the_object():
    ctx = _created()
    live = Listener().show(ctx)
    attrs = Listener().attributes(ctx, live)
    assert set(attrs) == {'loadbalancers', 'default_pool_id', 'show'}
    assert attrs['show'] == live
    assert Listener().attributes(ctx, None)['show'] is None


def test_drift_names_what_differs():
    ctx = _created()
    live = dict(Listener().show(ctx), connection_limit=5, name='renamed')
    assert Listener().drift(ctx, live) == ['connection_limit', 'name']
    assert Listener().drift(ctx, Listener().show(ctx)) == []


def test_check_suspend_resume_are_heats_no_ops():
    ctx = _created()
    Listener().check(ctx)          # the object is there: passes whatever its status
    assert ctx.live is not None
    calls = len(ctx.conn.load_balancer.mock_calls)
    assert Listener().suspend(ctx) is None and Listener().resume(ctx) is None
    assert len(ctx.conn.load_balancer.mock_calls) == calls
