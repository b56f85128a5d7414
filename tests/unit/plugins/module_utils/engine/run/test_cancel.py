# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cancelling a running create or update (engine/run/cancel.py): the run in a
thread, the canceller another store on the same file, as another process is."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import cancel, runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.scheduler import HALT
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    NotSupported, StackersError, StackNotFound)

# a chain whose updates take a while each: the cancel comes while 'a' updates
SLOW = '''
parameters:
  v: {type: string, default: one}
  secs: {type: number, default: 0}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v},
      action_wait_secs: {create: {get_param: secs}, update: {get_param: secs}}}}
  b: {type: OS::Heat::TestResource, depends_on: a, properties: {value: {get_param: v},
      action_wait_secs: {create: {get_param: secs}, update: {get_param: secs}}}}
  c: {type: OS::Heat::TestResource, depends_on: b, properties: {value: {get_param: v}}}
'''


@pytest.fixture(autouse=True)
def short_lease(monkeypatch):
    # the heartbeat (a third of the lease) reads the request: every 0.1 s here
    monkeypatch.setenv('STACKERS_LOCK_TTL', '0.3')


class Running(object):
    """A run of the engine in a thread (the first process)."""

    def __init__(self, stacks, **kw):
        self.result = self.error = None
        self.request = stacks.request(SLOW, **kw)
        self.thread = threading.Thread(target=self._go)
        self.thread.start()

    def _go(self):
        try:
            self.result = runner.run(self.request, None)
        except Exception as exc:  # noqa: B902 - the test reads it
            self.error = exc

    def join(self):
        self.thread.join(30)
        assert not self.thread.is_alive()
        if self.error is not None:
            raise self.error
        return self.result


def _when(stacks, name, action, status):
    """Waits until the event of ``name`` ``action``_``status`` is stored."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if (name, action, status) in stacks.brief(stacks.stored_events()):
            return
        time.sleep(0.02)
    raise AssertionError('no %s %s_%s' % (name, action, status))


def _cancel(stacks, **kw):
    kw.setdefault('timeout', 30)
    return cancel.cancel(cancel.CancelRequest('st', store_path=stacks.store_path, **kw))


def _values(stacks):
    return dict((name, row.data.get('value')) for name, row in stacks.rows().items())


def _holder(stacks):
    store = stacks.store()
    try:
        return store.lock_holder(store.get_stack('st')['id'])
    finally:
        store.close()


def _started(events, action):
    """The resources whose ``action`` started before the stack's ``action`` ended."""
    upto = events.index(('st', action, 'FAILED'))
    return sorted(n for n, a, s in events[:upto] if a == action and s == 'IN_PROGRESS' and n != 'st')


def test_an_update_cancelled_stops_starting_lets_the_one_in_progress_end_and_rolls_back(stacks):
    stacks.run(SLOW)
    run = Running(stacks, parameters={'v': 'two', 'secs': 0.6})
    _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
    asked = _cancel(stacks)
    result = run.join()
    assert asked['cancelled']['rollback'] is True and asked['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    events = stacks.brief(result['events'])
    # 'a' was in progress: it ended; nothing after it started
    assert ('a', 'UPDATE', 'COMPLETE') in events
    assert _started(events, 'UPDATE') == ['a']
    assert ('st', 'UPDATE', 'FAILED') in events
    assert [e['resource_status_reason'] for e in result['events']
            if e['resource_name'] == 'st' and e['resource_status'] == 'FAILED'] == ['Stack UPDATE cancelled']
    # rolled back to the previous definition, whatever the request's rollback option (Heat's cancel)
    assert result['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    assert result['failed_reason'] == 'Stack UPDATE cancelled'
    assert _values(stacks) == {'a': 'one', 'b': 'one', 'c': 'one'}
    assert _holder(stacks) is None
    # a rerun converges
    again = stacks.run(SLOW, parameters={'v': 'two'})
    assert again['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert _values(stacks) == {'a': 'two', 'b': 'two', 'c': 'two'}


def test_an_update_cancelled_without_rollback_stops_in_update_failed(stacks):
    stacks.run(SLOW)
    run = Running(stacks, parameters={'v': 'two', 'secs': 0.6}, rollback=True)
    _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
    asked = _cancel(stacks, rollback=False)
    result = run.join()
    # no rollback, even though the run asked for one (Heat's --no-rollback)
    assert result['stack']['stack_status'] == 'UPDATE_FAILED'
    assert result['stack']['stack_status_reason'] == 'Stack UPDATE cancelled'
    assert asked['stack']['stack_status'] == 'UPDATE_FAILED'
    assert _started(stacks.brief(result['events']), 'UPDATE') == ['a']
    assert _values(stacks) == {'a': 'two', 'b': 'one', 'c': 'one'}
    assert _holder(stacks) is None
    assert stacks.run(SLOW, parameters={'v': 'two'})['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert _values(stacks) == {'a': 'two', 'b': 'two', 'c': 'two'}


def test_a_create_is_cancelled_only_without_rollback_and_ends_create_failed(stacks):
    run = Running(stacks, parameters={'secs': 0.6}, rollback=True)
    _when(stacks, 'a', 'CREATE', 'IN_PROGRESS')
    with pytest.raises(NotSupported, match=r'^Cancelling update when stack is CREATE_IN_PROGRESS is not '
                                           r'supported\.$'):
        _cancel(stacks)
    _cancel(stacks, rollback=False, wait=False)
    result = run.join()
    assert result['stack']['stack_status'] == 'CREATE_FAILED'
    assert result['stack']['stack_status_reason'] == 'Stack CREATE cancelled'
    assert _started(stacks.brief(result['events']), 'CREATE') == ['a']
    assert sorted(stacks.rows()) == ['a']           # in progress, it was let finish; nothing more made
    assert _holder(stacks) is None
    assert stacks.run(SLOW)['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert sorted(stacks.rows()) == ['a', 'b', 'c']


def test_cancelling_a_stack_not_in_progress_fails_with_heats_message(stacks):
    with pytest.raises(StackNotFound, match=r'The Stack \(st\) could not be found'):
        _cancel(stacks)
    # a store that does not exist holds no stack: asking about one makes no store
    assert not os.path.exists(stacks.store_path)
    stacks.run(SLOW)
    with pytest.raises(NotSupported, match='Cancelling update when stack is CREATE_COMPLETE is not supported'):
        _cancel(stacks, rollback=False)


def test_a_stack_left_in_progress_by_a_run_that_is_gone_has_nothing_to_cancel(stacks):
    stacks.run(SLOW)
    store = stacks.store()
    sid = store.get_stack('st')['id']
    store.update_stack(sid, action='UPDATE', status='IN_PROGRESS')
    with pytest.raises(StackersError, match='no run holds its lock'):
        _cancel(stacks)
    store.lock('st', 'elsewhere:1:x', -1)       # a lease run out
    with pytest.raises(StackersError, match='no run holds its lock'):
        _cancel(stacks)
    store.close()


def test_check_mode_asks_nothing(stacks):
    stacks.run(SLOW)
    run = Running(stacks, parameters={'v': 'two', 'secs': 0.3})
    _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
    seen = cancel.cancel(cancel.CancelRequest('st', store_path=stacks.store_path, check_mode=True))
    assert seen['changed'] and seen['stack']['stack_status'] == 'UPDATE_IN_PROGRESS'
    assert run.join()['stack']['stack_status'] == 'UPDATE_COMPLETE'


def test_a_halt_ends_the_steps_running_and_unlocks_without_rollback(stacks):
    stacks.run(SLOW)
    token = cancel.CancelToken()
    run = Running(stacks, parameters={'v': 'two', 'secs': 5}, rollback=True, cancel=token)
    _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
    began = time.monotonic()
    token.halt()            # what the SIGTERM handler does
    result = run.join()
    assert time.monotonic() - began < 3        # 'a' waits 5 s: not waited for
    assert result['stack']['stack_status'] == 'UPDATE_FAILED'
    assert result['stack']['stack_status_reason'] == 'Stack UPDATE cancelled'
    assert _holder(stacks) is None
    assert stacks.run(SLOW, parameters={'v': 'two'})['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert _values(stacks) == {'a': 'two', 'b': 'two', 'c': 'two'}


def test_on_termination_halts_at_the_first_signal_and_gives_the_second_back():
    token = cancel.CancelToken()
    before = signal.getsignal(signal.SIGTERM)
    with cancel.on_termination(token):
        assert signal.getsignal(signal.SIGTERM) is not before
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        assert token.stop() == HALT
        assert signal.getsignal(signal.SIGTERM) is before
    assert signal.getsignal(signal.SIGTERM) is before


def test_on_termination_keeps_an_ignored_signal_ignored():
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with cancel.on_termination(cancel.CancelToken()):
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)


SCRIPT = '''
import sys
sys.path.insert(0, sys.argv[1])
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import cancel, runner
token = cancel.CancelToken()
request = runner.StackRequest('st', template=sys.argv[2], store_path=sys.argv[3],
                              parameters={'v': 'two', 'secs': 30}, cancel=token)
with cancel.on_termination(token):
    result = runner.run(request, None)
print(result['stack']['stack_status'], result['stack']['stack_status_reason'])
'''


def test_a_process_sent_sigterm_ends_its_run_failed_and_unlocked(stacks):
    stacks.run(SLOW)
    build = os.path.join(os.path.dirname(os.path.abspath(__file__)), *(['..'] * 6), '.build')
    proc = subprocess.Popen([sys.executable, '-c', SCRIPT, os.path.normpath(build), stacks.template(SLOW),
                             stacks.store_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, STACKERS_LOCK_TTL='0.6'))
    _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert out.decode().strip() == 'UPDATE_FAILED Stack UPDATE cancelled'
    assert _holder(stacks) is None


# The controller (ansible-playbook) runs each task's worker in a session of its own, the module in the worker's
# session: here a shell leading a new session, started by a "controller" process, runs SCRIPT.
CONTROLLER = '''
import subprocess, sys, time
subprocess.Popen(['sh', '-c', '"$0" -c "$1" "$2" "$3" "$4" > "$5" 2>&1'] + sys.argv[1:], start_new_session=True)
time.sleep(120)
'''


def _stored_status(stacks):
    store = stacks.store()
    try:
        stack = store.get_stack('st')
        return '%s_%s' % (stack['action'], stack['status']), stack['status_reason']
    finally:
        store.close()


def test_a_run_whose_controller_is_sigkilled_halts_at_its_next_heartbeat_and_unlocks(stacks, tmp_path):
    """ansible-runner cancels a job (AWX's cancel) with a SIGKILL to ansible-playbook's process group; the
    worker and the module, in a session of their own, live on: the run halts as a SIGTERM would."""
    stacks.run(SLOW)
    build = os.path.join(os.path.dirname(os.path.abspath(__file__)), *(['..'] * 6), '.build')
    out = str(tmp_path / 'run.out')
    controller = subprocess.Popen([sys.executable, '-c', CONTROLLER, sys.executable, SCRIPT, os.path.normpath(build),
                                   stacks.template(SLOW), stacks.store_path, out],
                                  env=dict(os.environ, STACKERS_LOCK_TTL='0.6'))
    try:
        _when(stacks, 'a', 'UPDATE', 'IN_PROGRESS')
        assert _stored_status(stacks)[0] == 'UPDATE_IN_PROGRESS'      # alive controller: the run goes on
        controller.kill()
        controller.wait(10)
        deadline = time.monotonic() + 15          # 'a' waits 30 s: the halt, not the end
        while _stored_status(stacks)[0] == 'UPDATE_IN_PROGRESS' and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _stored_status(stacks) == ('UPDATE_FAILED', 'Stack UPDATE cancelled')
        deadline = time.monotonic() + 10
        while _holder(stacks) is not None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _holder(stacks) is None
    finally:
        if controller.poll() is None:
            controller.kill()


def test_a_token_made_by_a_session_leader_watches_nothing(monkeypatch):
    monkeypatch.setattr(os, 'getsid', lambda _pid: os.getpid())
    token = cancel.CancelToken()
    token.halt_if_orphaned()
    assert token.stop() is None and not token.controller_gone()


INNER = '''
parameters:
  v: {type: string}
  secs: {type: number}
resources:
  x: {type: OS::Heat::TestResource, properties: {value: {get_param: v},
      action_wait_secs: {create: {get_param: secs}, update: {get_param: secs}}}}
  y: {type: OS::Heat::TestResource, depends_on: x, properties: {value: {get_param: v}}}
'''
NESTED = '''
parameters:
  v: {type: string, default: one}
  secs: {type: number, default: 0}
resources:
  inner: {type: inner.yaml, properties: {v: {get_param: v}, secs: {get_param: secs}}}
  after: {type: OS::Heat::TestResource, depends_on: inner, properties: {value: {get_param: v}}}
'''


def _nested_values(stacks):
    inner = stacks.children()['inner']['name']
    return (dict((n, r.data.get('value')) for n, r in stacks.rows(inner).items()),
            stacks.rows()['after'].data.get('value'))


@pytest.mark.parametrize('rollback', [True, False])
def test_a_cancel_reaches_into_nested_stacks(stacks, rollback):
    stacks.template(INNER, name='inner.yaml')
    stacks.run(NESTED)
    result = {}
    thread = threading.Thread(target=lambda: result.update(
        stacks.run(NESTED, parameters={'v': 'two', 'secs': 0.6})))
    thread.start()
    inner = stacks.children()['inner']['name']
    deadline = time.monotonic() + 20
    while ('x', 'UPDATE', 'IN_PROGRESS') not in stacks.brief(stacks.stored_events(inner)):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    asked = _cancel(stacks, rollback=rollback)
    thread.join(30)
    assert not thread.is_alive()
    inner_events = stacks.brief(stacks.stored_events(inner))
    assert ('x', 'UPDATE', 'COMPLETE') in inner_events           # in progress: let end
    assert ('y', 'UPDATE', 'IN_PROGRESS') not in inner_events    # nothing new started, nested included
    assert ('after', 'UPDATE', 'IN_PROGRESS') not in stacks.brief(result['events'])
    if rollback:
        assert asked['stack']['stack_status'] == result['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
        assert _nested_values(stacks) == ({'x': 'one', 'y': 'one'}, 'one')
    else:
        assert result['stack']['stack_status'] == 'UPDATE_FAILED'
        assert result['stack']['stack_status_reason'] == 'Stack UPDATE cancelled'
        assert _nested_values(stacks) == ({'x': 'two', 'y': 'one'}, 'one')
    assert _holder(stacks) is None
    again = stacks.run(NESTED, parameters={'v': 'two'})
    assert again['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert _nested_values(stacks) == ({'x': 'two', 'y': 'two'}, 'two')
