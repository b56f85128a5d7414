# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cancelling a running create or update, as Heat's ``openstack stack
cancel [--no-rollback]`` (``stack_cancel_update``) does, from another
process or from the run's own SIGTERM.

The canceller (``cancel``) finds the stack in Heat's cancellable states
(UPDATE_IN_PROGRESS; CREATE_IN_PROGRESS too without rollback: Heat's
``cancel_with_rollback=False``; otherwise Heat's NotSupported, "Cancelling
update when stack is <state> is not supported.") and records a request
addressed to the run holding the stack's lock (the store keeps it beside
the lock: store/sqlite.py, store/swift.py).  No process runs the stack
here between runs, so a stack left in progress by a run that is gone has
nobody to cancel: that is refused, and the next heat_stack run converges it.

The running side holds a ``CancelToken``: its heartbeat (phases.schedule)
reads the stored request into it, and the walk asks it at every turn, in
memory.  A request stops the walk as Heat's stop_traversal does (nothing
new starts, the resources in progress complete); the stack then ends
``<ACTION>_FAILED`` "Stack <ACTION> cancelled" and, for an update asked
with rollback, rolls back to its previous definition whatever its
``rollback`` option (Heat's cancel rolls back regardless of
disable_rollback; with --no-rollback it never does).  A SIGTERM (an AWX
job cancelled, a ``kill``) halts the walk instead: the steps running end
and nothing else is stepped, since the process may soon be killed; the
stack ends FAILED "Stack <ACTION> cancelled", never rolled back, and the
lock is released rather than left to its lease.

A run whose controller died without a signal to pass on halts the same
way at its next heartbeat.  ansible-runner cancels a job (AWX's cancel) by
SIGKILLing ansible-playbook's process group, and ansible-core runs each
task's worker in a session of its own, so the worker and this module live
on with nobody to answer to: the run would go on to its end and a rerun
would wait for its lock.  The token notes the parent of the run's session
leader (the worker, under a local connection; sshd's session process
under SSH) when it is made; a new parent (the worker re-parented) or a
leader gone means the controller is gone.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import dataclasses
import os
import signal as signals
import threading
import time
from typing import Optional

from ...errors import NotSupported, StackersError, StackNotFound, StackTimeout
from ..read.view import stack_view
from ..store.backends import open_store
from ..store.owner import owner_alive
from ..store.sqlite import default_store_path
from ..walk.scheduler import DRAIN, HALT

# Seconds between the canceller's looks at the lock while it waits.
POLL = 1.0


class CancelToken(object):
    """What one run is asked to stop by, kept in memory: set by the
    heartbeat from a stored request (``drain``) or by a signal handler
    (``halt``: only a flag is set there), read by the walk (``stop``)."""

    def __init__(self):
        self.mode = None          # DRAIN or HALT
        self.rollback = False     # a drain asked with rollback
        self.spent = False        # the walk it stopped ended: later walks go on
        self.cancelled = None     # the action the cancel ended (FAILED)
        self._leader_parent = _session_leader_parent()

    def halt_if_orphaned(self):
        """At a heartbeat of any walk: halt, as a SIGTERM would, once the
        controller is gone."""
        if self.mode is None and self.controller_gone():
            self.halt()

    def controller_gone(self):
        """Whether the process this run answers to is gone (see the
        module's docstring); False where that cannot be told."""
        if self._leader_parent is None:
            return False
        return _session_leader_parent(missing=-1) != self._leader_parent

    def drain(self, rollback):
        if self.mode is None:
            self.mode, self.rollback = DRAIN, bool(rollback)

    def halt(self):
        self.mode, self.rollback = HALT, False

    def stop(self):
        """The walk's ``stop``: HALT at any time, DRAIN until the walk it
        was asked of has ended (the rollback after it is not cancelled)."""
        if self.mode == HALT or (self.mode == DRAIN and not self.spent):
            return self.mode
        return None


def look(token, store, stack):
    """At a heartbeat of a cancellable walk: the request stored for this
    run, if any, taken into ``token``."""
    if token is None or token.mode is not None:
        return
    asked = store.cancel_request(stack['id'], stack.get('lock_owner'))
    if asked:
        token.drain(asked.get('rollback'))


def settle(token, action, status, reason):
    """(status, reason) of a walk of ``action`` as the cancel leaves it:
    FAILED "Stack <action> cancelled" unless it had completed anyway."""
    stop = token.stop() if token is not None else None
    if stop is None:
        return status, reason
    if stop == DRAIN:
        token.spent = True
    if status == 'COMPLETE':
        return status, reason
    token.cancelled = action
    return 'FAILED', 'Stack %s cancelled' % action


def rolls_back(invocation, converged):
    """Whether the runner rolls ``converged`` back: a cancel decides it
    (only an update's, only asked with rollback), else the request's
    ``rollback``."""
    if converged.status != 'FAILED':
        return False
    token = invocation.cancel
    if token is not None and token.cancelled:
        return token.mode == DRAIN and token.rollback and converged.action in ('UPDATE', 'RESTORE')
    return bool(invocation.request.rollback)


def _session_leader_parent(missing=None):
    """The parent pid of this process's session leader (Linux's /proc);
    None when this process leads its session (a daemon, Ansible's async
    wrapper: nothing above it to answer to) or /proc cannot say;
    ``missing`` when the leader is gone."""
    try:
        sid = os.getsid(0)
    except OSError:
        return None
    if sid == os.getpid():
        return None
    try:
        with open('/proc/%d/stat' % sid) as f:
            return int(f.read().rsplit(')', 1)[-1].split()[1])
    except FileNotFoundError:
        return missing
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def on_termination(token, which=(signals.SIGTERM, signals.SIGINT)):
    """While the block runs, SIGTERM and SIGINT halt ``token``'s run rather
    than end the process with the stack's lock held until its lease runs
    out.  The first signal puts the previous handlers back, so a second one
    acts as before (the default SIGTERM ends the process at once).  A
    signal the process ignores stays ignored; outside the main thread
    (where Python cannot set a handler) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield token
        return
    previous = {}

    def restore():
        for which_, handler in previous.items():
            signals.signal(which_, handler)
        previous.clear()

    def handler(_signum, _frame):
        token.halt()
        restore()

    for one in which:
        old = signals.getsignal(one)
        if old is signals.SIG_IGN or old is None:
            continue
        previous[one] = old
        signals.signal(one, handler)
    try:
        yield token
    finally:
        restore()


# -- the canceller ---------------------------------------------------------------------

@dataclasses.dataclass
class CancelRequest:
    """The options of heat_stack_cancel: ``rollback`` False is Heat's
    --no-rollback; ``wait`` waits up to ``timeout`` seconds for the run to
    end (heatclient's --wait)."""
    name: str
    _keywords: dataclasses.KW_ONLY
    rollback: bool = True
    wait: bool = True
    timeout: float = 180
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    check_mode: bool = False


def check_cancellable(stack, rollback):
    """Heat's refusal (stack_cancel_update) of a stack not in a state its
    cancel allows."""
    allowed = ('UPDATE',) if rollback else ('CREATE', 'UPDATE')
    if not (stack.get('status') == 'IN_PROGRESS' and stack.get('action') in allowed):
        raise NotSupported('Cancelling update when stack is %s_%s' % (stack.get('action'), stack.get('status')),
                           stack=stack['name'])


def cancel(request, conn=None):
    """Ask the run of stack ``request.name`` to cancel; with ``wait``, the
    stack once that run has ended."""
    if not request.store_url and not os.path.exists(request.store_path or default_store_path()):
        # no store yet holds no stack; opening one would make it (as heat_stack_info, read/info.py)
        raise StackNotFound('The Stack (%s) could not be found.' % request.name)
    store = open_store(request.store_path, request.store_url, conn)
    try:
        stack = store.get_stack(request.name)
        if stack is None:
            raise StackNotFound('The Stack (%s) could not be found.' % request.name)
        check_cancellable(stack, request.rollback)
        holder = _live_holder(store, stack)
        if request.check_mode:
            return {'changed': True, 'stack': stack_view(stack, None, None)}
        if not store.request_cancel(stack['id'], holder, request.rollback):
            # the run ended between the two looks: refused as Heat refuses a stack no longer in progress
            check_cancellable(_fresh(request, conn, store, stack), request.rollback)
            raise StackersError('Stack "%s": its run ended while the cancel was asked' % request.name)
    finally:
        store.close()
    result = {'changed': True, 'cancelled': {'action': stack['action'], 'rollback': bool(request.rollback),
                                             'run': holder}}
    if request.wait:
        _wait(request, conn, stack, holder)
    result['stack'] = stack_view(_fresh(request, conn, None, stack), None, None)
    return result


def _live_holder(store, stack):
    held = store.lock_holder(stack['id'])
    if held is None or held[1] < time.time() or not owner_alive(held[0]):
        state = '%s_%s' % (stack['action'], stack['status'])
        raise StackersError(
            'Stack "%s" is %s but no run holds its lock: the run that left it so is gone, and there is '
            'nothing to cancel. Run heat_stack again to converge it.' % (stack['name'], state),
            stack=stack['name'])
    return held[0]


def _wait(request, conn, stack, holder):
    """Until ``holder`` holds the stack's lock no more (its run has ended,
    rollback included)."""
    deadline = time.monotonic() + float(request.timeout or 0)
    while True:
        store = open_store(request.store_path, request.store_url, conn)
        try:
            held = store.lock_holder(stack['id'])
        finally:
            store.close()
        if held is None or held[0] != holder or not owner_alive(holder):
            return
        if time.monotonic() >= deadline:
            raise StackTimeout('Stack "%s": the cancel was asked, and its run (%s) had not ended %s seconds '
                               'later' % (request.name, holder, request.timeout), stack=request.name)
        time.sleep(POLL)


def _fresh(request, conn, store, stack):
    """The stack as stored now (a Swift store's private copy is read anew)."""
    if store is not None and store.local_writes:
        return store.stack_by_id(stack['id'])
    store = open_store(request.store_path, request.store_url, conn)
    try:
        return store.get_stack(stack['name'])
    finally:
        store.close()
