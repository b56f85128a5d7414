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
the creates it would slow them down at the cloud (a resource's tag PUTs
beside the ports' POSTs, in Neutron).  A waiting node holds no thread, so
a hundred servers building at once cost a timer each, not a parked thread
each.

A failure stops only the failed node's descendants (those not started
already by its RELEASE); everything else runs to the end.  Past the
deadline nothing new starts and waiting nodes are not stepped again;
steps already running are let finish, so the record they write stays
consistent.  Nodes with no work (``None``) complete at once (the
graph's hub nodes).

``stop`` (a zero-argument callable, asked at every turn of the walk, so it
must be cheap: run/cancel.py answers from memory) cancels the walk as
Heat's ``stack cancel`` stops a traversal: DRAIN starts nothing new and
lets every node already started run to its end (a server's build is
polled until it is done, as Heat's in-progress resources complete
normally); HALT is the deadline's stop, for a process asked to end (its
SIGTERM): waiting nodes are not stepped again, only the steps running now
end.  Nodes the stop kept from starting end CANCELLED.

``max_concurrency`` bounds the steps that call the cloud.  Nodes named
``local`` (resources that exist only in the stack record: OS::Heat::None,
RandomString, Value) make no request of their own: they run on a lane of
their own, as wide, and take no slot.  Sharing the slots, they would queue
in front of the cloud's work: a big stack's subnet would start only after
the thousands of RandomStrings ready before it, and its ports after
those, while the cloud sits idle.  The lane is as wide as the pool
because its steps are short: many end together and the walk takes them
in one wake-up (a narrower lane wakes it more often, for more CPU).

Nodes named ``inline`` (local nodes whose steps can neither call the cloud
nor wait on anything but the stack record's own disk) are stepped in the
walk's own thread, a few at a time between its looks at the rest: a
handoff to a pool thread and back costs more than such a step, and that
cost grows faster than the stack.

Nodes named ``defer`` (cloud steps that lead to no slow build: a router, a
floating IP) start only while no other cloud node is ready or in its first
step: the requests on the way to a server's build go to the cloud first,
and these go while it builds.  They cost the walk nothing when they end
before the builds do; sent beside the others they would slow those at the
cloud (Neutron answers a security group's rule slower beside a router
interface than alone).

bench/README.md ("What shaped the engine") keeps the measurements behind
these choices.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import concurrent.futures
import heapq
import itertools
import queue
import time

DONE, FAILED, SKIPPED, TIMED_OUT = 'done', 'failed', 'skipped', 'timed_out'
CANCELLED = 'cancelled'
# what a walk's ``stop`` answers (see the module's docstring)
DRAIN, HALT = 'drain', 'halt'
# The inline nodes the walk starts before it looks again at the pools' ended
# steps and the timers: a stack's thousands of ready RandomStrings must not
# hold up a port whose dependencies just ended.
INLINE_BATCH = 32
_INLINE = 'inline'   # the lane of inline nodes (the others: True local, False cloud)


class _Release(object):
    __slots__ = ()

    def __repr__(self):
        return 'RELEASE'


RELEASE = _Release()


class Outcome(object):
    """How one node (a step) of the walk ended: ``status`` (DONE, FAILED,
    SKIPPED, TIMED_OUT or CANCELLED), the ``value`` its work returned or its
    ``error``, and for a skipped node the nodes it waited on that did not
    end DONE (``blocked_by``)."""
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


def _take(ended, timeout):
    """What ended within ``timeout`` seconds: the first one waited for, then
    every other already there."""
    try:
        got = [ended.get(timeout=timeout)]
    except queue.Empty:
        return []
    while True:
        try:
            got.append(ended.get_nowait())
        except queue.Empty:
            return got


class Scheduler(object):
    """``run(deps, work, local, inline)``: ``deps`` maps every node to the
    nodes it needs; ``work`` maps a node to a zero-argument callable
    returning its generator (or to None: nothing to do); ``local`` names the
    nodes that run on the local lane, ``inline`` those stepped in the walk's
    own thread.  Returns node -> Outcome."""

    def __init__(self, max_concurrency=10, deadline=None, heartbeat=None,
                 heartbeat_interval=10.0, clock=time.monotonic, *, stop=None):
        self.max_concurrency = max(1, int(max_concurrency))
        self.deadline = deadline
        self.stop = stop
        self.heartbeat = heartbeat
        self.heartbeat_interval = heartbeat_interval
        self.clock = clock

    def run(self, deps, work, local=(), inline=(), defer=()):
        nodes = set(deps)
        inline = frozenset(inline) & nodes
        local = frozenset(local) & nodes
        defer = frozenset(defer) & nodes - local - inline
        deps = dict((node, set(d) & nodes) for node, d in deps.items())
        dependents = dict((node, []) for node in deps)
        for node, needs in deps.items():
            for need in needs:
                dependents[need].append(node)
        waiting_on = dict((node, len(needs)) for node, needs in deps.items())
        outcomes = {}

        def lane_of(node):
            return _INLINE if node in inline else node in local

        # a queue per lane; deques: thousands of nodes are ready at once in a
        # big stack, and a deque takes each in constant time (a list's pop(0)
        # would make taking them quadratic)
        ready = {False: collections.deque(), True: collections.deque(),
                 _INLINE: collections.deque()}
        held = collections.deque()    # ready ``defer`` nodes

        def queue_of(node):
            return held if node in defer else ready[lane_of(node)]

        for node in sorted((n for n, c in waiting_on.items() if c == 0), key=repr):
            queue_of(node).append(node)
        room = {False: self.max_concurrency, True: self.max_concurrency, _INLINE: INLINE_BATCH}
        used = {False: 0, True: 0, _INLINE: 0}
        # Steps ending report to one queue: the walk wakes on the first and takes
        # all that ended with it, and sets no waiter on each running step at
        # every wake-up (as concurrent.futures.wait() would).
        ended = queue.SimpleQueue()   # (node, generator, future) of steps that ended
        timers = []           # heap of (due, tiebreak, node, generator)
        released = set()      # nodes whose dependents have been let start
        starting = set()      # cloud nodes running their first step
        later = collections.deque()   # (node, generator) released, work left
        counter = itertools.count()
        next_beat = self.clock() + self.heartbeat_interval
        stopped = None        # DRAIN or HALT once ``stop`` asked for it
        pools = {False: concurrent.futures.ThreadPoolExecutor(max_workers=self.max_concurrency),
                 True: concurrent.futures.ThreadPoolExecutor(max_workers=self.max_concurrency)}

        def release(node):
            if node in released:
                return
            released.add(node)
            for child in dependents[node]:
                waiting_on[child] -= 1
                if waiting_on[child] == 0 and child not in outcomes:
                    queue_of(child).append(child)

        def finish(node, outcome):
            outcomes[node] = outcome
            if outcome.status == DONE:
                release(node)

        def free(lane):
            return used[lane] < room[lane]

        def after_step(node, gen, kind, value):
            if kind == 'wait':
                heapq.heappush(timers, (self.clock() + value, next(counter), node, gen))
            elif kind == 'release':
                release(node)
                later.append((node, gen))
            elif kind == 'done':
                finish(node, Outcome(DONE, value=value))
            else:
                finish(node, Outcome(FAILED, error=value))

        def step(node, gen):
            lane = lane_of(node)
            used[lane] += 1
            if lane == _INLINE:
                kind, value = _step(gen)
                after_step(node, gen, kind, value)
                return
            future = pools[lane].submit(_step, gen)
            future.add_done_callback(lambda f, n=node, g=gen: ended.put((n, g, f)))

        def start(lane, queue=None):
            queue = ready[lane] if queue is None else queue
            while queue and free(lane):
                node = queue.popleft()
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
                if lane is False:
                    starting.add(node)
                step(node, gen)

        try:
            while True:
                used[_INLINE] = 0     # a new batch of inline steps
                now = self.clock()
                if self.stop is not None and stopped != HALT:
                    stopped = self.stop() or stopped
                expired = (self.deadline is not None and now >= self.deadline) or stopped == HALT
                # Due polls first: they finish work already begun.
                while timers and timers[0][0] <= now and (expired or free(lane_of(timers[0][2]))):
                    _due, _n, node, gen = heapq.heappop(timers)
                    if expired:
                        gen.close()
                        finish(node, Outcome(CANCELLED if stopped == HALT else TIMED_OUT))
                        continue
                    step(node, gen)
                if not expired and not stopped:
                    start(False)
                    start(True)
                    start(_INLINE)
                    if held and not ready[False] and all(n in defer for n in starting):
                        start(False, held)
                # (stopped: the ready nodes never start, and wait for nothing)
                while later and (stopped or not ready[False]) and not starting and not expired and \
                        free(lane_of(later[0][0])):
                    node, gen = later.popleft()
                    step(node, gen)
                if expired:
                    waiting = [(node, gen) for _due, _n, node, gen in timers] + list(later)
                    for node, gen in waiting:
                        gen.close()
                        finish(node, Outcome(CANCELLED if stopped == HALT else TIMED_OUT))
                    timers = []
                    later.clear()
                running = used[False] + used[True]   # submitted, not yet taken from ``ended``
                # A spent batch may leave inline work (ready, a due poll, work
                # left after a release): the walk comes back for it at once.
                more = not expired and not free(_INLINE)
                if not running and not timers and not later and not more and (
                        expired or stopped or not (ready[False] or ready[True] or held)):
                    break
                wait_for = 0.0 if more else self.heartbeat_interval
                if timers and free(lane_of(timers[0][2])):
                    # (a due poll whose lane is full waits for one of its steps
                    # to end: timing out at once, the walk spun on the CPU
                    # until then)
                    wait_for = min(wait_for, max(0.0, timers[0][0] - self.clock()))
                if self.deadline is not None:
                    wait_for = min(wait_for, max(0.0, self.deadline - self.clock()))
                if running:
                    for node, gen, future in _take(ended, wait_for):
                        used[lane_of(node)] -= 1
                        starting.discard(node)
                        kind, value = future.result()
                        after_step(node, gen, kind, value)
                elif timers and not more and (stopped or not (ready[False] or ready[True])):
                    time.sleep(wait_for)
                if self.heartbeat is not None and self.clock() >= next_beat:
                    self.heartbeat()
                    next_beat = self.clock() + self.heartbeat_interval
        finally:
            for pool in pools.values():
                pool.shutdown(wait=True)
        for node in deps:
            if node not in outcomes:
                blocked = sorted((d for d in deps[node] if outcomes.get(d) is None
                                  or outcomes[d].status != DONE), key=repr)
                if not blocked and stopped:
                    status = CANCELLED
                elif not blocked and self.deadline is not None and self.clock() >= self.deadline:
                    status = TIMED_OUT
                else:
                    status = SKIPPED
                outcomes[node] = Outcome(status, blocked_by=blocked or None)
        return outcomes


def once(fn, *args):
    """A scheduler step doing ``fn(*args)`` at once (a generator that never waits)."""
    def step():
        return fn(*args)
        yield    # pragma: no cover - makes this a generator
    return step
