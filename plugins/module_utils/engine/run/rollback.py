# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rollback phase: what the runner does instead of finishing a failed
run that asked for rollback (Heat's ``disable_rollback: false``).

The failed action's FAILED event is recorded, then:

- a failed create rolls back to nothing: every row is deleted, users first;
- a failed update converges back to the previous definition (template,
  environments and parameters as stored before the update; hidden values
  from this run), recorded as ROLLBACK, and the stored definition becomes
  that previous one again.

A rollback never rolls back: its failure is the stack's ROLLBACK_FAILED.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from . import phases
from ..walk.converge import delete_steps
from .request import Converged, Goal
from ..walk.run_state import StackRun


def roll_back(invocation, goal, failed):
    """The result of rolling back ``failed`` (the Converged of converging to
    ``goal``); its ``failed_reason`` is the failure rolled back."""
    store = invocation.store
    run = failed.run
    if failed.start is not None:
        failed.start()      # an update failing before its first event: its start is recorded first
    stack = store.stack_by_id(run.stack['id'])
    events = list(run.log.events)
    events.append(run.log.stack(failed.action, 'FAILED', failed.reason))
    previous = stack.get('previous') if failed.action in ('UPDATE', 'RESTORE') else None
    if previous is None:
        result = _to_nothing(invocation, goal, stack, failed.reason)
    else:
        result = _to_previous(invocation, goal, stack, previous)
    result['events'] = events + result['events']
    result['failed_reason'] = failed.reason
    # what the failed run's own deletes kept (a resource it removed) first
    kept = list(run.log.snapshots) + list(result.get('snapshots') or ())
    if kept:
        result['snapshots'] = kept
    return result


def _to_nothing(invocation, goal, stack, reason):
    run = StackRun(invocation.store, invocation.vault, invocation.conn, stack, None,
                   secret_values=goal.hidden.values())
    status, why = phases.walk(invocation, run, 'ROLLBACK', delete_steps(run, {}), started=reason)
    converged = Converged(run=run, action='ROLLBACK', status=status,
                          reason=why if status != 'COMPLETE' else 'Rollback completed', before=stack)
    return phases.finish(invocation, converged, outputs=False)


def _to_previous(invocation, goal, stack, previous):
    params = dict(previous.get('parameters') or {})
    for key, value in goal.hidden.items():
        params.setdefault(key, value)
    previous = dict(previous, parameters=params)
    sd, graph = phases.load(invocation.request, previous, stack['id'])
    back = Goal(stack=stack, stack_id=stack['id'], inputs=previous, sd=sd, graph=graph,
                hidden=goal.hidden)
    converged = phases.converge(invocation, back, stack, 'UPDATE', rollback_of='ROLLBACK')
    result = phases.finish(invocation, converged)
    invocation.store.update_stack(stack['id'], definition=stack.get('previous'))
    return result
