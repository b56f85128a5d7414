# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Walk a dependency graph in parallel, like Heat's convergence engine.

A node starts the moment every node it depends on is done.  A node's work
is a generator: each ``next()`` runs on a bounded thread pool and either
finishes (the node is done), raises (the node failed) or yields a number of
seconds after which it wants to be stepped again (a poll of a building
server), or yields ``RELEASE``: its dependents may start now, and it is
stepped again for what is left of its work (a resource already usable,
whose own marks are still to be set) once the walk is quiet: no node ready
and none in its first step.  That work is off every path, and sent beside
the creates it slowed them down at the cloud (measured: a stack's tag PUTs
made its ports' POSTs three times slower in Neutron).  A waiting node holds no thread, so a hundred servers building at
once cost a timer each, not a parked thread each.

A failure stops only the failed node's descendants (those not started
already by its RELEASE); everything else runs to the end.  Past the deadline nothing new starts and waiting nodes are not
stepped again; steps already running are let finish, so the record they
write stays consistent.  Nodes with no work (``None``) complete at once (the
graph's hub nodes).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import concurrent.futures
import heapq
import itertools
import time

DONE, FAILED, SKIPPED, TIMED_OUT = 'done', 'failed', 'skipped', 'timed_out'


class _Release(object):
    __slots__ = ()

    def __repr__(self):
        return 'RELEASE'


RELEASE = _Release()


class Outcome(object):
    __slots__ = ('status', 'value', 'error', 'blocked_by')

    def __init__(self, status, value=None, error=None, blocked_by=None):
        self.status, self.value, self.error, self.blocked_by = status, value, error, blocked_by

    def __repr__(self):
        return 'Outcome(%s%s)' % (self.status, ', %r' % self.error if self.error else '')


def _step(gen):
    """One step of a node's work: ('wait', seconds) | ('release', None) |
    ('done', value) | ('error', exception)."""
    try:
        delay = next(gen)
    except StopIteration as stop:
        return 'done', stop.value
    except BaseException as exc:  # noqa: B902 - the node failed; its error is reported
        return 'error', exc
    if delay is RELEASE:
        return 'release', None
    return 'wait', float(delay or 0)


class Scheduler(object):
    """``run(deps, work)``: ``deps`` maps every node to the nodes it needs;
    ``work`` maps a node to a zero-argument callable returning its generator
    (or to None: nothing to do).  Returns node -> Outcome."""

    def __init__(self, max_concurrency=10, deadline=None, heartbeat=None,
                 heartbeat_interval=10.0, clock=time.monotonic):
        self.max_concurrency = max(1, int(max_concurrency))
        self.deadline = deadline
        self.heartbeat = heartbeat
        self.heartbeat_interval = heartbeat_interval
        self.clock = clock

    def run(self, deps, work):
        nodes = set(deps)
        deps = dict((node, set(d) & nodes) for node, d in deps.items())
        dependents = dict((node, []) for node in deps)
        for node, needs in deps.items():
            for need in needs:
                dependents[need].append(node)
        waiting_on = dict((node, len(needs)) for node, needs in deps.items())
        outcomes = {}
        # a deque: thousands of nodes are ready at once in a big stack, and a
        # list's pop(0) made taking them quadratic
        ready = collections.deque(sorted((n for n, c in waiting_on.items() if c == 0), key=repr))
        running = {}          # future -> (node, generator)
        timers = []           # heap of (due, tiebreak, node, generator)
        active = set()        # nodes started and not finished
        released = set()      # nodes whose dependents have been let start
        starting = set()      # nodes running their first step
        later = collections.deque()   # (node, generator) released, work left
        counter = itertools.count()
        next_beat = self.clock() + self.heartbeat_interval

        def release(node):
            if node in released:
                return
            released.add(node)
            for child in dependents[node]:
                waiting_on[child] -= 1
                if waiting_on[child] == 0 and child not in outcomes:
                    ready.append(child)

        def finish(node, outcome):
            outcomes[node] = outcome
            active.discard(node)
            if outcome.status == DONE:
                release(node)

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.max_concurrency)
        try:
            while True:
                now = self.clock()
                expired = self.deadline is not None and now >= self.deadline
                # Due polls first: they finish work already begun.
                while timers and timers[0][0] <= now and len(running) < self.max_concurrency:
                    _due, _n, node, gen = heapq.heappop(timers)
                    if expired:
                        gen.close()
                        finish(node, Outcome(TIMED_OUT))
                        continue
                    running[pool.submit(_step, gen)] = (node, gen)
                while ready and not expired and len(running) < self.max_concurrency:
                    node = ready.popleft()
                    factory = work.get(node)
                    if factory is None:
                        finish(node, Outcome(DONE))
                        continue
                    try:
                        gen = factory()
                    except BaseException as exc:  # noqa: B902 - reported as the node's failure
                        finish(node, Outcome(FAILED, error=exc))
                        continue
                    if gen is None:
                        finish(node, Outcome(DONE))
                        continue
                    active.add(node)
                    starting.add(node)
                    running[pool.submit(_step, gen)] = (node, gen)
                while later and not ready and not starting and not expired and \
                        len(running) < self.max_concurrency:
                    node, gen = later.popleft()
                    running[pool.submit(_step, gen)] = (node, gen)
                if expired:
                    waiting = [(node, gen) for _due, _n, node, gen in timers] + list(later)
                    for node, gen in waiting:
                        gen.close()
                        finish(node, Outcome(TIMED_OUT))
                    timers = []
                    later.clear()
                if not running and not timers and not later and (expired or not ready):
                    break
                wait_for = self.heartbeat_interval
                if timers:
                    wait_for = min(wait_for, max(0.0, timers[0][0] - self.clock()))
                if self.deadline is not None:
                    wait_for = min(wait_for, max(0.0, self.deadline - self.clock()))
                if running:
                    done, _pending = concurrent.futures.wait(
                        list(running), timeout=wait_for,
                        return_when=concurrent.futures.FIRST_COMPLETED)
                    for future in done:
                        node, gen = running.pop(future)
                        starting.discard(node)
                        kind, value = future.result()
                        if kind == 'wait':
                            heapq.heappush(timers, (self.clock() + value, next(counter), node, gen))
                        elif kind == 'release':
                            release(node)
                            later.append((node, gen))
                        elif kind == 'done':
                            finish(node, Outcome(DONE, value=value))
                        else:
                            finish(node, Outcome(FAILED, error=value))
                elif timers and not ready:
                    time.sleep(wait_for)
                if self.heartbeat is not None and self.clock() >= next_beat:
                    self.heartbeat()
                    next_beat = self.clock() + self.heartbeat_interval
        finally:
            pool.shutdown(wait=True)
        for node in deps:
            if node not in outcomes:
                blocked = sorted((d for d in deps[node] if outcomes.get(d) is None
                                  or outcomes[d].status != DONE), key=repr)
                outcomes[node] = Outcome(TIMED_OUT if not blocked and self.deadline is not None
                                         and self.clock() >= self.deadline else SKIPPED,
                                         blocked_by=blocked or None)
        return outcomes
