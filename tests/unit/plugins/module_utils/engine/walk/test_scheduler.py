# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import scheduler as walk
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.scheduler import (
    CANCELLED, DONE, DRAIN, FAILED, HALT, INLINE_BATCH, RELEASE, SKIPPED, TIMED_OUT, Scheduler)


class FakeTime(object):
    """The walk's clock, moved only by the walk's own idle sleep: the waits
    between steps cost no real time, and the time they stand for is counted
    exactly (a loaded machine changes nothing)."""

    def __init__(self):
        self.now = 0.0
        self.slept = []

    def clock(self):
        return self.now

    monotonic = clock

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += max(0.0, seconds)


@pytest.fixture
def fake_time(monkeypatch):
    """A FakeTime for the walk: pass ``clock=fake_time.clock``; its idle sleep
    (the scheduler module's ``time.sleep``) moves that clock instead of waiting."""
    fake = FakeTime()
    monkeypatch.setattr(walk, 'time', fake)
    return fake


class Recorder(object):
    """Work generators that record when they start and end (on ``clock``),
    and how many steps run at once."""

    def __init__(self, clock=time.monotonic):
        self.lock = threading.Lock()
        self.clock = clock
        self.start, self.end = {}, {}
        self.running = 0
        self.max_running = 0

    def _enter(self):
        with self.lock:
            self.running += 1
            self.max_running = max(self.max_running, self.running)

    def _leave(self):
        with self.lock:
            self.running -= 1

    def node(self, name, waits=(), busy=0.0, fail=False, result=None):
        def gen():
            self._enter()
            self.start[name] = self.clock()
            time.sleep(busy)
            self._leave()
            for wait in waits:
                yield wait
                self._enter()
                time.sleep(busy)
                self._leave()
            self.end[name] = self.clock()
            if fail:
                raise RuntimeError('%s broke' % name)
            return result
        return gen


def test_independent_nodes_overlap(fake_time):
    rec = Recorder(clock=fake_time.clock)
    deps = {'a': set(), 'b': set(), 'c': set()}
    work = dict((n, rec.node(n, waits=(0.1, 0.1))) for n in deps)
    out = Scheduler(max_concurrency=3, clock=fake_time.clock).run(deps, work)
    assert all(o.status == DONE for o in out.values())
    # the three nodes' two waits ran side by side; one node after another would take 0.6
    assert fake_time.now == pytest.approx(0.2)
    # every one started before any finished
    assert max(rec.start.values()) < min(rec.end.values())


def test_a_node_starts_only_after_its_deps_and_returns_value():
    rec = Recorder()
    deps = {'a': set(), 'b': {'a'}, 'c': {'a', 'b'}, 'd': set()}
    work = dict((n, rec.node(n, waits=(0.02,), result=n.upper())) for n in deps)
    out = Scheduler(max_concurrency=4).run(deps, work)
    assert rec.start['b'] >= rec.end['a']
    assert rec.start['c'] >= rec.end['b']
    assert out['c'].status == DONE and out['c'].value == 'C'
    assert rec.start['d'] < rec.end['a']    # not ordered behind a


def test_failure_skips_only_descendants():
    rec = Recorder()
    deps = {'a': set(), 'b': {'a'}, 'c': {'b'}, 'x': set(), 'y': {'x'}, 'z': {'a', 'x'}}
    work = dict((n, rec.node(n, waits=(0.01,), fail=(n == 'a'))) for n in deps)
    out = Scheduler(max_concurrency=2).run(deps, work)
    assert out['a'].status == FAILED and 'a broke' in str(out['a'].error)
    assert out['b'].status == SKIPPED and out['b'].blocked_by == ['a']
    assert out['c'].status == SKIPPED and out['c'].blocked_by == ['b']
    assert out['z'].status == SKIPPED and out['z'].blocked_by == ['a']
    assert out['x'].status == DONE and out['y'].status == DONE
    assert set(rec.start) == {'a', 'x', 'y'}         # descendants never started


def _releasing(log, name, after=0.2, fail=False):
    """A node that lets its dependents start, then works on for ``after`` seconds."""
    def gen():
        log.append(('start', name))
        yield RELEASE
        log.append(('released', name))
        time.sleep(after)
        log.append(('end', name))
        if fail:
            raise RuntimeError('%s broke late' % name)
        return name
    return gen


def test_release_lets_dependents_start_while_the_node_finishes():
    log = []
    deps = {'a': set(), 'b': {'a'}, 'c': {'b'}}
    work = {'a': _releasing(log, 'a'), 'b': _releasing(log, 'b', after=0.0),
            'c': _releasing(log, 'c', after=0.0)}
    out = Scheduler(max_concurrency=3).run(deps, work)
    assert all(o.status == DONE for o in out.values()) and out['a'].value == 'a'
    # b and c ran to their end while a was still working after its release
    assert log.index(('end', 'c')) < log.index(('end', 'a'))
    assert log.index(('start', 'b')) > log.index(('start', 'a'))
    assert log.count(('start', 'b')) == 1 and log.count(('start', 'c')) == 1


def test_a_failure_after_release_fails_the_node_only():
    log = []
    deps = {'a': set(), 'b': {'a'}}
    work = {'a': _releasing(log, 'a', after=0.05, fail=True), 'b': _releasing(log, 'b', after=0.0)}
    out = Scheduler(max_concurrency=2).run(deps, work)
    assert out['a'].status == FAILED and 'broke late' in str(out['a'].error)
    assert out['b'].status == DONE        # started by the release: not undone


def test_without_release_a_dependent_waits_for_the_end():
    log = []

    def plain():
        log.append(('start', 'a'))
        time.sleep(0.05)
        log.append(('end', 'a'))
        yield 0.0
    deps = {'a': set(), 'b': {'a'}}
    out = Scheduler(max_concurrency=2).run(deps, {'a': plain, 'b': _releasing(log, 'b', after=0.0)})
    assert out['b'].status == DONE
    assert log.index(('start', 'b')) > log.index(('end', 'a'))


def test_max_concurrency_respected():
    rec = Recorder()
    deps = dict(('n%d' % i, set()) for i in range(12))
    work = dict((n, rec.node(n, waits=(0.01, 0.01), busy=0.02)) for n in deps)
    out = Scheduler(max_concurrency=3).run(deps, work)
    assert all(o.status == DONE for o in out.values())
    assert rec.max_running <= 3
    assert rec.max_running >= 2                   # and it did run things in parallel


def test_waiting_nodes_hold_no_thread():
    rec = Recorder()
    deps = dict(('n%d' % i, set()) for i in range(50))
    work = dict((n, rec.node(n, waits=(0.05, 0.05, 0.05))) for n in deps)
    out = Scheduler(max_concurrency=2).run(deps, work)
    assert all(o.status == DONE for o in out.values())
    assert rec.max_running <= 2
    # Nodes waiting between their steps hold no thread: with 2 threads, far more than 2
    # nodes were between their start and their end at one moment (held threads would
    # allow 2 at most).  Counted from the recorded times, not from the wall clock,
    # so a busy machine cannot fail it.
    moments = sorted([(t, 1) for t in rec.start.values()] + [(t, -1) for t in rec.end.values()])
    open_now = most_open = 0
    for _when, step in moments:
        open_now += step
        most_open = max(most_open, open_now)
    assert most_open > 10, most_open


def test_deadline_times_out_waiting_and_unstarted_nodes(fake_time):
    rec = Recorder()
    deps = {'slow': set(), 'after': {'slow'}, 'quick': set()}
    work = {'slow': rec.node('slow', waits=[0.05] * 100),
            'after': rec.node('after'), 'quick': rec.node('quick')}
    out = Scheduler(max_concurrency=2, deadline=0.3, clock=fake_time.clock).run(deps, work)
    # cut at the deadline: 'slow' alone would wait 5 s
    assert fake_time.now == pytest.approx(0.3)
    assert out['quick'].status == DONE
    assert out['slow'].status == TIMED_OUT
    assert out['after'].status == SKIPPED and out['after'].blocked_by == ['slow']
    assert 'after' not in rec.start


def test_past_deadline_nothing_starts():
    rec = Recorder()
    deps = {'a': set(), 'b': set()}
    work = dict((n, rec.node(n)) for n in deps)
    out = Scheduler(deadline=time.monotonic() - 1).run(deps, work)
    assert rec.start == {}
    assert out['a'].status == TIMED_OUT and out['b'].status == TIMED_OUT


def test_a_drain_starts_nothing_new_and_lets_started_nodes_end(fake_time):
    # Heat's stack cancel: the traversal stops, in-progress resources complete
    rec = Recorder(clock=fake_time.clock)
    asked = []

    def slow():
        rec.start['slow'] = fake_time.now
        asked.append(DRAIN)       # the cancel arrives while 'slow' holds the only slot
        for dummy in range(5):
            yield 0.1
        rec.end['slow'] = fake_time.now
    deps = {'slow': set(), 'after': {'slow'}, 'waiting': set(), 'later': {'after'}}
    work = {'slow': slow, 'after': rec.node('after'), 'waiting': rec.node('waiting'),
            'later': rec.node('later')}
    out = Scheduler(max_concurrency=1, clock=fake_time.clock,
                    stop=lambda: asked[-1] if asked else None).run(deps, work)
    assert out['slow'].status == DONE and 'slow' in rec.end     # polled to its end
    assert 'after' not in rec.start and 'waiting' not in rec.start
    assert out['after'].status == CANCELLED and out['waiting'].status == CANCELLED
    assert out['later'].status == SKIPPED and out['later'].blocked_by == ['after']


def test_a_drain_lets_work_left_after_a_release_end():
    rec = Recorder()
    asked = []

    def marked():
        yield RELEASE
        asked.append(DRAIN)
        yield 0
        rec.end['marked'] = True
    deps = {'marked': set(), 'user': {'marked'}, 'other': {'user'}}
    work = {'marked': marked, 'user': rec.node('user', waits=(0.05,)), 'other': rec.node('other')}
    out = Scheduler(stop=lambda: asked[-1] if asked else None).run(deps, work)
    assert out['marked'].status == DONE and out['user'].status == DONE
    assert out['other'].status == CANCELLED and 'other' not in rec.start


def test_a_halt_ends_the_running_steps_only(fake_time):
    # a process asked to end (SIGTERM): waiting nodes are closed, as at a deadline
    rec = Recorder(clock=fake_time.clock)
    asked = []
    deps = {'slow': set(), 'quick': set(), 'after': {'quick'}}

    def quick():
        asked.append(HALT)      # the signal comes during this step, which ends
        rec.end['quick'] = True
        return 'q'
        yield   # pragma: no cover
    work = {'slow': rec.node('slow', waits=[0.1] * 50), 'quick': quick, 'after': rec.node('after')}
    out = Scheduler(max_concurrency=2, clock=fake_time.clock,
                    stop=lambda: asked[-1] if asked else None).run(deps, work)
    assert out['quick'].status == DONE and out['quick'].value == 'q'
    assert out['slow'].status == CANCELLED and 'slow' not in rec.end
    assert out['after'].status == CANCELLED and 'after' not in rec.start
    assert fake_time.now < 1.0


def test_hub_and_none_generators_complete_at_once():
    rec = Recorder()
    deps = {'a': set(), ('hub', 1): {'a'}, 'b': {('hub', 1)}, 'c': {'b'}}
    work = {'a': rec.node('a'), ('hub', 1): None, 'b': lambda: None, 'c': rec.node('c')}
    out = Scheduler().run(deps, work)
    assert all(o.status == DONE for o in out.values())
    assert rec.start['c'] >= rec.end['a']


def test_factory_exception_is_the_node_failure():
    def factory():
        raise ValueError('cannot build')
    deps = {'a': set(), 'b': {'a'}, 'c': set()}
    out = Scheduler().run(deps, {'a': factory, 'b': lambda: iter(()), 'c': lambda: iter(())})
    assert out['a'].status == FAILED and isinstance(out['a'].error, ValueError)
    assert out['b'].status == SKIPPED and out['c'].status == DONE


def test_base_exception_in_a_step_is_caught_as_failure():
    def gen():
        yield 0
        raise KeyboardInterrupt()
    out = Scheduler().run({'a': set()}, {'a': gen})
    assert out['a'].status == FAILED and isinstance(out['a'].error, KeyboardInterrupt)


def test_unknown_dependencies_are_ignored_and_heartbeat_called():
    beats = []

    def gen():
        yield 0.05
        yield 0.05
    out = Scheduler(heartbeat=lambda: beats.append(1), heartbeat_interval=0.02).run(
        {'a': {'not-a-node'}}, {'a': gen})
    assert out['a'].status == DONE
    assert beats


def test_work_left_after_a_release_waits_until_no_node_is_starting():
    # the marks of a created resource are off every path: they wait while
    # another resource's create (its first step) is in flight
    log = []

    def slow_create():
        log.append(('start', 'slow'))
        time.sleep(0.3)
        log.append(('created', 'slow'))
        yield 0.0
        log.append(('end', 'slow'))

    deps = {'a': set(), 'slow': set(), 'b': {'a'}}
    work = {'a': _releasing(log, 'a', after=0.0), 'slow': slow_create,
            'b': _releasing(log, 'b', after=0.0)}
    out = Scheduler(max_concurrency=4).run(deps, work)
    assert all(o.status == DONE for o in out.values())
    assert log.index(('start', 'b')) < log.index(('created', 'slow'))   # dependents go at once
    assert log.index(('released', 'a')) > log.index(('created', 'slow'))


def test_work_left_after_a_release_is_timed_out_at_the_deadline():
    log = []
    deps = {'a': set(), 'slow': set()}

    def slow_create():
        time.sleep(0.3)
        yield 0.0

    work = {'a': _releasing(log, 'a', after=0.0), 'slow': slow_create}
    out = Scheduler(max_concurrency=4, deadline=time.monotonic() + 0.1).run(deps, work)
    assert out['a'].status == TIMED_OUT and ('released', 'a') not in log


def test_local_nodes_take_no_slot_of_the_cloud():
    rec = Recorder()
    # one slot, held by a cloud step for 0.3 s: the local ones run beside it
    deps = {'cloud': set(), 'l1': set(), 'l2': set()}
    work = {'cloud': rec.node('cloud', busy=0.3), 'l1': rec.node('l1', busy=0.01),
            'l2': rec.node('l2', busy=0.01)}
    out = Scheduler(max_concurrency=1).run(deps, work, local={'l1', 'l2'})
    assert all(o.status == DONE for o in out.values())
    assert rec.end['l1'] < rec.end['cloud'] and rec.end['l2'] < rec.end['cloud']


def _behind_many(rec):
    """'sub' is ready once 'net' is done; 300 other nodes of 2 ms each were
    ready before it.  (deps, work, the 300)."""
    deps = {'net': set(), 'sub': {'net'}}
    work = {'net': rec.node('net', busy=0.02), 'sub': rec.node('sub')}
    for i in range(300):
        deps['r%d' % i] = set()
        work['r%d' % i] = rec.node('r%d' % i, busy=0.002)
    return deps, work, set(n for n in deps if n.startswith('r'))


def test_cloud_work_does_not_queue_behind_local_work():
    rec = Recorder()
    deps, work, local = _behind_many(rec)
    out = Scheduler(max_concurrency=2).run(deps, work, local=local)
    assert all(o.status == DONE for o in out.values())
    assert rec.start['sub'] < max(rec.end[n] for n in local)


def test_the_local_lane_is_bounded():
    rec = Recorder()
    deps = dict(('l%d' % i, set()) for i in range(8))
    work = dict((n, rec.node(n, busy=0.02)) for n in deps)
    out = Scheduler(max_concurrency=3).run(deps, work, local=set(deps))
    assert all(o.status == DONE for o in out.values())
    assert 2 <= rec.max_running <= 3     # as wide as the cloud's pool


def test_work_left_after_a_release_stays_in_its_lane():
    holding, a_ran, seen = threading.Event(), threading.Event(), {}

    def cloud():
        yield 0.01              # then holds the only cloud slot until a's work left has run
        holding.set()
        seen['a ran while the slot was held'] = a_ran.wait(10)

    def first():
        holding.wait(10)        # a is made ready once the cloud's slot is held
        yield 0.0

    def local():
        yield RELEASE
        a_ran.set()
    out = Scheduler(max_concurrency=1).run({'z': set(), 'a': {'z'}, 'c': set()},
                                           {'z': first, 'a': local, 'c': cloud},
                                           local={'z', 'a'})
    assert all(o.status == DONE for o in out.values())
    # a's work left ran on the local lane, not once the cloud's slot came free
    assert seen == {'a ran while the slot was held': True}


def test_a_due_poll_whose_lane_is_full_waits_without_spinning():
    """One slot: a node's poll falls due while another node's step holds the
    slot for half a second.  The walk waits for that step to end; it used to
    time its wait out at once and loop, reading the clock hundreds of
    thousands of times (and spending the CPU of a busy loop)."""
    reads = [0]

    def clock():
        reads[0] += 1
        return time.monotonic()

    def holds_the_slot():
        time.sleep(0.5)
        return
        yield

    def polls_once():
        yield 0.01
    out = Scheduler(max_concurrency=1, clock=clock).run(
        {'a': set(), 'b': set()}, {'a': polls_once, 'b': holds_the_slot})
    assert [out['a'].status, out['b'].status] == [DONE, DONE]
    assert reads[0] < 50


def _threads_of(log):
    """node(name, waits): work that records the thread of each of its steps."""
    def node(name, waits=()):
        def gen():
            log.append((name, threading.get_ident()))
            for wait in waits:
                yield wait
                log.append((name, threading.get_ident()))
            return name.upper()
        return gen
    return node


def test_inline_nodes_step_in_the_walks_thread_beside_pooled_ones():
    log = []
    node = _threads_of(log)
    # a chain that crosses the three lanes both ways, and a poll and a release inline
    deps = {'net': set(), 'rand': {'net'}, 'port': {'rand'}, 'none': {'port'},
            'pool_local': {'rand'}, 'later': set()}

    def releases():
        log.append(('later', threading.get_ident()))
        yield RELEASE
        log.append(('later', threading.get_ident()))

    work = {'net': node('net'), 'rand': node('rand', waits=(0.01,)), 'port': node('port'),
            'none': node('none'), 'pool_local': node('pool_local'), 'later': releases}
    out = Scheduler(max_concurrency=2).run(deps, work, local={'pool_local'},
                                           inline={'rand', 'none', 'later'})
    assert all(o.status == DONE for o in out.values())
    assert out['port'].value == 'PORT' and out['rand'].value == 'RAND'
    walk = threading.get_ident()
    threads = {}
    for name, ident in log:
        threads.setdefault(name, set()).add(ident)
    assert threads['rand'] == threads['none'] == threads['later'] == {walk}
    assert walk not in threads['net'] | threads['port'] | threads['pool_local']
    order = [name for name, _ident in log]
    assert order.index('net') < order.index('rand') < order.index('port') < order.index('none')
    assert order.index('rand') < order.index('pool_local')


def test_an_inline_failure_skips_only_its_descendants():
    deps = {'a': set(), 'b': {'a'}, 'c': {'b'}, 'd': set()}

    def broken():
        yield from ()
        raise RuntimeError('a broke')

    def fine():
        yield from ()
        return 'ok'
    out = Scheduler(max_concurrency=2).run(deps, {'a': broken, 'b': fine, 'c': fine, 'd': fine},
                                           inline={'a', 'd'})
    assert out['a'].status == FAILED and str(out['a'].error) == 'a broke'
    assert [out['b'].status, out['c'].status] == [SKIPPED, SKIPPED]
    assert out['b'].blocked_by == ['a'] and out['d'].status == DONE


def test_cloud_work_does_not_queue_behind_inline_work():
    """300 inline steps of 2 ms each are 0.6 s in the walk's thread: the walk
    starts them a batch at a time and starts 'sub' as soon as 'net' ends."""
    rec = Recorder()
    deps, work, inline = _behind_many(rec)
    net_ended = threading.Event()
    net = work['net']

    def net_then_tell():
        yield from net()
        net_ended.set()

    def first_inline():
        net_ended.wait(10)     # the walk's first inline step: 'net' has ended by its end
        return
        yield
    work['net'] = net_then_tell
    work['r0'] = first_inline
    out = Scheduler(max_concurrency=2).run(deps, work, inline=inline)
    assert all(o.status == DONE for o in out.values())
    assert net_ended.is_set()
    # 'sub' started within a batch or two of net's end: queued behind the inline work, it
    # would have started after all 300 of them
    done_before_sub = sum(1 for n in inline if n in rec.end and rec.end[n] <= rec.start['sub'])
    assert done_before_sub < len(inline) - INLINE_BATCH, done_before_sub


def test_past_the_deadline_no_inline_node_starts():
    rec = Recorder()
    deps = {'slow': set(), 'after': {'slow'}, 'poll': set()}
    work = {'slow': rec.node('slow', busy=0.2), 'after': rec.node('after'),
            'poll': rec.node('poll', waits=(5.0,))}
    out = Scheduler(max_concurrency=2, deadline=time.monotonic() + 0.1).run(
        deps, work, inline={'after', 'poll'})
    assert out['slow'].status == DONE and out['poll'].status == TIMED_OUT
    assert out['after'].status == TIMED_OUT and 'after' not in rec.start


def test_inline_polls_due_past_a_spent_batch_are_stepped_at_once(fake_time):
    """40 inline nodes poll once together: the first batch takes 32 of the
    due polls, and the walk came back for the other 8 only after its
    heartbeat interval (it slept 60 s here)."""
    deps = dict(('p%d' % i, set()) for i in range(40))

    def polls_once():
        yield 0.01
    out = Scheduler(max_concurrency=2, heartbeat_interval=60.0, clock=fake_time.clock).run(
        deps, dict((n, polls_once) for n in deps), inline=set(deps))
    assert all(o.status == DONE for o in out.values())
    assert fake_time.now == pytest.approx(0.01)     # slept until the polls were due, no longer


def test_deferred_nodes_wait_while_another_cloud_node_is_in_its_first_step():
    # a router beside a security group on the way to a server: the router
    # starts once the group's request has ended, while the group still polls
    rec = Recorder()
    deps = {'sg': set(), 'router': set(), 'fip': {'router'}}
    work = {'sg': rec.node('sg', waits=(0.3,), busy=0.2), 'router': rec.node('router'),
            'fip': rec.node('fip')}
    out = Scheduler(max_concurrency=4).run(deps, work, defer={'router', 'fip'})
    assert all(o.status == DONE for o in out.values())
    assert rec.start['router'] >= rec.start['sg'] + 0.2
    assert rec.start['fip'] < rec.end['sg']      # not held for the group's poll


def test_deferred_nodes_do_not_hold_each_other():
    # r2 becomes ready while r1 (deferred too) is in its first step: it starts
    rec = Recorder()
    deps = {'r1': set(), 'y': set(), 'r2': {'y'}, 'net': {'r1'}}
    work = dict((n, rec.node(n, busy=0.05)) for n in deps)
    r2_started, seen = threading.Event(), {}
    r2 = work['r2']

    def r1():
        rec.start['r1'] = time.monotonic()
        # r1's first step lasts until r2 starts (held behind r1, r2 would wait 10 s here)
        seen['r2 started during r1'] = r2_started.wait(10)
        rec.end['r1'] = time.monotonic()
        return
        yield

    def r2_tells():
        r2_started.set()
        yield from r2()
    work.update(r1=r1, r2=r2_tells)
    out = Scheduler(max_concurrency=4).run(deps, work, defer={'r1', 'r2', 'y'})
    assert all(o.status == DONE for o in out.values())
    assert seen == {'r2 started during r1': True}
    assert rec.start['net'] >= rec.end['r1']      # deferred work still orders its dependents


def test_an_urgent_node_made_ready_starts_beside_a_deferred_one():
    rec = Recorder()
    deps = {'router': set(), 'net': set(), 'port': {'net'}}
    work = {'router': rec.node('router', busy=0.5), 'net': rec.node('net', busy=0.1),
            'port': rec.node('port', busy=0.1)}
    out = Scheduler(max_concurrency=4).run(deps, work, defer={'router'})
    assert all(o.status == DONE for o in out.values())
    assert rec.start['router'] >= rec.end['net']
    assert rec.start['port'] < rec.end['router']  # the port is not held by the router


def test_deferred_nodes_not_started_by_the_deadline_time_out():
    rec = Recorder()
    deps = {'sg': set(), 'router': set()}
    work = {'sg': rec.node('sg', busy=0.3), 'router': rec.node('router')}
    out = Scheduler(max_concurrency=4, deadline=time.monotonic() + 0.1).run(
        deps, work, defer={'router'})
    assert out['router'].status == TIMED_OUT and 'router' not in rec.start
