# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stack's status and reason from the outcomes of its walk's steps, as
Heat words them (the top stack's and each nested stack's)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from . import hooks
from .hooks import HookPending
from .resource_tasks import failure_reason
from .scheduler import DONE, FAILED, TIMED_OUT


def summarise(outcomes, action, *, run=None):
    """(status, reason) of the stack from its steps' outcomes (keyed by
    converge.StepKey), as Heat words them.  Delete steps are keyed by a
    row's uuid: ``run`` names them by their resource (Heat's reason names
    the resource, never a row)."""
    held, failures, timed_out = [], [], False
    for key, outcome in sorted(outcomes.items(), key=lambda item: repr(item[0])):
        if outcome.status == FAILED:
            if isinstance(outcome.error, HookPending):
                held.append(outcome.error.details.get('resource') or str(key.name))
            else:
                failures.append((key, outcome.error))
        elif outcome.status == TIMED_OUT:
            timed_out = True
    if failures:
        key, err = failures[0]
        name = getattr(err, 'resource', None) or _step_name(key, run)
        return 'FAILED', 'Resource %s failed: %s' % (action, failure_reason(err, name))
    if timed_out:
        return 'FAILED', 'Timed out'
    if held:
        return 'IN_PROGRESS', hooks.PAUSED_AT + ', '.join(sorted(held))
    if any(o.status != DONE for o in outcomes.values()):
        return 'FAILED', 'Resource %s failed' % action
    return 'COMPLETE', 'Stack %s completed successfully' % action


def _step_name(key, run):
    if key.kind == 'param':         # a nested stack's parameter: its resource
        return key.name[0]
    row = run.rows.get(key.name) if run is not None and key.kind != 'res' else None
    return row.name if row is not None else str(key.name)
