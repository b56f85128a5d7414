# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The phases of a run: validate (nothing written before the whole definition
is valid), the lock, converge (a Converged, finished by the caller),
and finish."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import phases, runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run.request import Converged, Invocation
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.owner import new_owner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Vault, fernet_key
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackLocked, StackersError)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.value import Value

CHAIN = '''
parameters:
  v: {type: string, default: one}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, output]}}}
outputs:
  out: {value: {get_attr: [b, value]}}
'''


def _invocation(stacks, text, **kw):
    request = stacks.request(text, **kw)
    return Invocation(request=request, conn=None, store=stacks.store(),
                      vault=Vault(fernet_key('k'), user_key=True))


def _create(invocation):
    """Validate, lock and converge a new stack: how the converge ended."""
    goal = phases.validate(invocation, None)
    invocation.owner = new_owner()
    stack = phases.lock(invocation, create={'id': goal.stack_id, 'action': 'CREATE',
                                            'status': 'IN_PROGRESS', 'salt': 's'})
    return phases.converge(invocation, goal, stack, 'CREATE')


def test_validate_answers_the_goal_and_writes_nothing(stacks):
    invocation = _invocation(stacks, CHAIN, parameters={'v': 'two'})
    goal = phases.validate(invocation, None)
    assert goal.stack is None and goal.stack_id
    assert sorted(goal.sd.resources) == ['a', 'b'] and goal.hidden == {}
    assert sorted(goal.graph.nodes) == ['a', 'b']
    assert invocation.store.get_stack('st') is None
    invocation.store.close()


def test_converge_answers_how_it_ended_and_the_caller_finishes(stacks):
    invocation = _invocation(stacks, CHAIN)
    goal = phases.validate(invocation, None)
    invocation.owner = new_owner()
    stack = phases.lock(invocation, create={'id': goal.stack_id, 'action': 'CREATE',
                                            'status': 'IN_PROGRESS', 'salt': 's'})
    converged = phases.converge(invocation, goal, stack, 'CREATE')
    assert isinstance(converged, Converged)
    assert (converged.action, converged.status) == ('CREATE', 'COMPLETE')
    assert converged.reason == 'Stack CREATE completed successfully'
    # the stack's end is finish's to record
    assert invocation.store.get_stack('st')['status'] == 'IN_PROGRESS'
    result = phases.finish(invocation, converged)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE' and result['changed'] is True
    assert [o['output_value'] for o in result['stack']['outputs']] == ['one']
    assert result['events'][-1]['resource_status'] == 'COMPLETE'
    invocation.store.close()


def test_record_only_resources_are_made_in_the_walks_thread(stacks, monkeypatch):
    """With a SQLite store, the steps of resources that exist only in the
    record (and read no cloud object's attribute) run in the thread that
    walks the graph; the others in the scheduler's pools."""
    made = {}
    for cls in (TestResource, Value):
        def create(self, ctx, _create=cls.create):
            made[ctx.name] = threading.get_ident()
            return _create(self, ctx)
        monkeypatch.setattr(cls, 'create', create)
    invocation = _invocation(stacks, CHAIN)
    assert _create(invocation).status == 'COMPLETE'
    assert made == {'a': threading.get_ident(), 'b': threading.get_ident()}
    invocation.store.close()


BESIDE_A_BUILD = '''
resources:
  a: {type: OS::Heat::TestResource}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, output]}}}
  c: {type: OS::Heat::TestResource}
'''


def test_cloud_steps_on_no_way_to_a_build_wait_for_the_others_first_calls(stacks, monkeypatch):
    """c leads to no build: it starts only once a's create, on the way to
    b's build, has ended its first step (both start together otherwise)."""
    made = []

    def create(self, ctx, _create=TestResource.create):
        made.append(('start', ctx.name))
        if ctx.name == 'a':
            time.sleep(0.3)
        made.append(('end', ctx.name))
        return _create(self, ctx)
    monkeypatch.setattr(TestResource, 'create', create)
    monkeypatch.setattr(TestResource, 'record_only', False)    # a cloud object, as a port is
    monkeypatch.setattr(Value, 'slow_actions', ('CREATE',))     # b builds, as a server does
    invocation = _invocation(stacks, BESIDE_A_BUILD)
    assert _create(invocation).status == 'COMPLETE'
    assert made.index(('start', 'c')) > made.index(('end', 'a'))
    invocation.store.close()


class _NoWait(object):
    """phases' ``time`` with a sleep that fails the test: waiting for a lock is
    a sleep there (the time module's other names are the real ones)."""

    def __getattr__(self, name):
        return getattr(time, name)

    def sleep(self, seconds):
        raise AssertionError('waited %ss for the lock' % seconds)


def test_lock_held_by_a_live_run_refuses_at_once(stacks, monkeypatch):
    stacks.run(CHAIN)
    store = stacks.store()
    store.lock('st', 'elsewhere:1:abc', 60)
    monkeypatch.setattr(phases, 'time', _NoWait())
    with pytest.raises(StackLocked, match='locked by another run'):
        stacks.run(CHAIN, parameters={'v': 'two'})
    with pytest.raises(StackLocked):
        stacks.run(name='st', state='absent')
    assert stacks.rows()['a'].properties['value'] == 'one'
    store.close()


def test_lock_timeout_waits_for_the_holder(stacks):
    stacks.run(CHAIN)
    store = stacks.store()
    stack_id = store.lock('st', 'elsewhere:1:abc', 60)['id']
    release = threading.Timer(0.5, lambda: store.unlock(stack_id, 'elsewhere:1:abc'))
    release.start()
    try:
        result = stacks.run(CHAIN, parameters={'v': 'two'}, lock_timeout=10)
    finally:
        release.join()
        store.close()
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert stacks.rows()['a'].properties['value'] == 'two'


def test_dead_owner_lock_taken_over(stacks):
    stacks.run(CHAIN)
    store = stacks.store()
    import socket
    store.lock('st', '%s:%d:dead' % (socket.gethostname(), 2 ** 22 + 12345), 600)
    store.close()
    assert runner.owner_alive('%s:%d:dead' % (socket.gethostname(), 2 ** 22 + 12345)) is False
    result = stacks.run(CHAIN, parameters={'v': 'two'})
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'


def test_template_required_and_errors_before_any_write(stacks):
    with pytest.raises(StackersError, match='template is required'):
        stacks.run(name='st')
    with pytest.raises(StackersError):
        stacks.run('resources:\n  a: {type: OS::Heat::TestResource, properties: '
                   '{value: {get_param: missing}}}\n')
    store = stacks.store()
    try:
        assert store.get_stack('st') is None
    finally:
        store.close()


def test_timeout_fails_the_stack(stacks):
    text = 'resources:\n  slow: {type: OS::Heat::TestResource, properties: {wait_secs: 30}}\n'
    t0 = time.monotonic()
    result = stacks.run(text, timeout=0.3)
    # cut at the stack's 0.3 s, not at the resource's own 30 s: the bound is half of those 30 s,
    # which no load on the machine brings a 0.3 s run to (the walk's deadline reads the real
    # clock: the runner takes no other)
    assert time.monotonic() - t0 < 15
    assert result['stack']['stack_status'] == 'CREATE_FAILED'
    assert result['stack']['stack_status_reason'] == 'Timed out'


UPDATE_HANDLE = '''
parameters:
  v: {type: string, default: one}
resources:
  h: {type: OS::Heat::UpdateWaitConditionHandle}
  val: {type: OS::Heat::Value, properties: {value: {get_param: v}}}
'''


def test_an_update_of_the_stack_replaces_its_update_wait_condition_handle(stacks):
    from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake
    conn, swift, proxy = swift_fake.cloud()
    made = runner.run(stacks.request(UPDATE_HANDLE), conn)
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE'
    first = stacks.rows()['h'].physical_id
    # the same inputs again: kept, nothing written
    proxy.requests[:] = []
    assert runner.run(stacks.request(UPDATE_HANDLE), conn)['changed'] is False
    assert proxy.writes() == []
    # check mode says what an update would do; then the update makes a new handle (a new URL)
    checked = runner.run(stacks.request(UPDATE_HANDLE, parameters={'v': 'two'}, check_mode=True), conn)
    assert dict((p['resource_name'], p['action']) for p in checked['plan'])['h'] == 'replace'
    runner.run(stacks.request(UPDATE_HANDLE, parameters={'v': 'two'}), conn)
    second = stacks.rows()['h'].physical_id
    assert second != first
    sid = made['stack']['id']
    assert swift.objects(sid) == [second]
