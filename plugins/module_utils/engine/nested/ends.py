# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ends of nested stacks in a walk (see nesting.py): ``attach_deletes``
puts a nested stack's delete before its parent resource's row goes, and
``settle``, after the walk, records the nested stacks that failed and the
failures of their parent resources, in Heat's words.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ...errors import NestedStackFailure
from ...resources.heat.template_resource import NESTED_STACK
from ..walk import hooks
from . import stacks as nesting
from ..walk.converge import delete_steps
from ..walk.hooks import HookPending
from ..store.records import CURRENT, ResourceRow
from ..walk.resource_tasks import failure_reason
from ..walk.scheduler import DONE, FAILED, Outcome


# -- delete -----------------------------------------------------------------------

def attach_deletes(env, run, deps, work):
    """Each step of ``run`` (deps, work) deleting a template resource's
    row gets its nested stack's delete before it, walked in the same
    scheduler; recursively."""
    for k in [k for k in deps if k[0] == 'del' and len(k) == 2]:
        row = run.rows.get(k[1])
        child_id = row.facts.get(NESTED_STACK) if row is not None else None
        stack = env.store.stack_by_id(child_id) if child_id else None
        if stack is None:
            continue
        child = nesting.child_run(env, run, stack, None)
        # a nested stack's delete is a DELETE of its own: its pre-delete
        # hooks, from the parent's registry, hold (as in Heat)
        child.action = 'DELETE'
        registry = hooks.registry_of(run)
        child.hook_registry = registry.nested((row.name,)) if registry is not None else None
        cdeps, cwork = delete_steps(child, {})
        attach_deletes(env, child, cdeps, cwork)
        cdeps, cwork = nesting.moved(cdeps, cwork, (row.uuid,))
        dkey = ('nestdel', row.uuid)
        deps[dkey] = set(deps[k])
        work[dkey] = nesting.once(_delete_start, run, row, child)
        for needs in cdeps.values():
            needs.add(dkey)
        deps.update(cdeps)
        work.update(cwork)
        deps[k] = set([dkey]) | set(cdeps)
        work[k] = nesting.once(_delete_finish, env, run, row, child)
        run.deleting[row.uuid] = child


def _delete_start(run, row, child):
    row = run.save(row.replace(action='DELETE', status='IN_PROGRESS', status_reason='state changed'))
    run.log.resource(row, 'DELETE', 'IN_PROGRESS')
    run.store.update_stack(child.stack['id'], action='DELETE', status='IN_PROGRESS',
                           status_reason='Stack DELETE started')
    child.log.stack('DELETE', 'IN_PROGRESS', 'Stack DELETE started')


def _delete_finish(env, run, row, child):
    child.log.stack('DELETE', 'COMPLETE', 'Stack DELETE completed successfully')
    env.store.delete_stack(child.stack['id'])
    run.log.resource(row, 'DELETE', 'COMPLETE')
    run.forget(row)


# -- after the walk ---------------------------------------------------------------

def settle(run, outcomes, path=()):
    """Record the nested stacks of ``run`` (at ``path``) whose walk failed,
    deepest first, and put their parent resources' failures in
    ``outcomes`` (which the parent's summary then reports)."""
    from ..run.phases import summarise    # phases imports this module
    for name, nest in run.nests.items():
        here = path + (name,)
        settle(nest.run, outcomes, here)
        rkey, skey = nesting.key('res', name, path), nesting.key('nest', name, path)
        if outcomes.get(rkey) is not None and outcomes[rkey].status == DONE:
            continue
        refused = [o for k, o in outcomes.items() if k[0] == 'param' and nesting.path_of(k) == path
                   and k[1][0] == name and o.status == FAILED]
        if refused:
            # a parameter refused: the stack cannot be made, as Heat refuses its create
            if nest.run.stack is not None:
                action = nest.action or 'UPDATE'
                text = nest.run.masker.text(str(refused[0].error))
                nest.env.store.update_stack(nest.run.stack['id'], action=action, status='FAILED',
                                            status_reason=text)
                nest.run.log.stack(action, 'FAILED', text)
            _failed_start(nest, refused[0].error)
            outcomes[rkey] = refused[0]
            continue
        started = outcomes.get(skey)
        if started is None or started.status != DONE:
            if started is not None and started.status == FAILED:
                _failed_start(nest, started.error)
                outcomes[rkey] = started
            continue
        action = nest.action or 'UPDATE'
        status, reason = summarise(nesting.outcomes_at(outcomes, here), action, run=nest.run)
        if status == 'IN_PROGRESS':
            # paused at hooks inside: so is its parent resource, named by path
            outcomes[rkey] = Outcome(FAILED, error=_held(name, outcomes, here))
            continue
        if status != 'FAILED':
            continue
        _record_failure(nest.parent, nest.run, name, action, reason)
        outcomes[rkey] = Outcome(FAILED, error=_failure(name, reason))
    for row_uuid, child in run.deleting.items():
        dkey = nesting.key('del', row_uuid, path)
        if outcomes.get(dkey) is None or outcomes[dkey].status == DONE:
            continue
        here = path + (row_uuid,)
        status, reason = summarise(nesting.outcomes_at(outcomes, here), 'DELETE', run=child)
        if status == 'IN_PROGRESS':
            outcomes[dkey] = Outcome(FAILED, error=_held(run.rows.get(row_uuid).name, outcomes, here))
        elif status == 'FAILED':
            row = run.rows.get(row_uuid)
            _record_failure(run, child, row.name, 'DELETE', reason)
            outcomes[dkey] = Outcome(FAILED, error=_failure(row.name, reason))


def _held(name, outcomes, here):
    names = sorted('%s/%s' % (name, o.error.details.get('resource'))
                   for o in nesting.outcomes_at(outcomes, here).values()
                   if isinstance(o.error, HookPending))
    return HookPending('resources held by hooks: %s' % ', '.join(names), resource=', '.join(names))


def _failure(name, child_reason):
    reason = nested_reason(name, child_reason)
    return NestedStackFailure(reason, reason, resource=name)


def nested_reason(name, child_reason):
    """The parent resource's reason for its nested stack's failure, as
    Heat's ResourceFailure words it: ``Error: resources.<name>.<the
    failing resource's path>: message``."""
    parts = [p.strip() for p in child_reason.split(':')]
    if child_reason.startswith('Resource ') and len(parts) >= 4:
        return '%s: resources.%s.%s: %s' % (parts[1], name, parts[2], ': '.join(parts[3:]))
    return 'resources.%s: %s' % (name, child_reason)


def _record_failure(parent, child, name, action, reason):
    if child.stack is not None:
        parent.store.update_stack(child.stack['id'], action=action, status='FAILED',
                                  status_reason=reason)
        child.log.stack(action, 'FAILED', reason)
    row = parent.current(name) if action != 'DELETE' else \
        next((r for r in parent.rows_of(name) if r.facts.get(NESTED_STACK) == child.stack['id']),
             None)
    if row is None:
        return
    text = nested_reason(name, reason)
    row = parent.save(row.replace(action=action, status='FAILED', status_reason=text))
    parent.log.resource(row, action, 'FAILED', text)


def _failed_start(nest, error):
    """A nested stack that could not start (its definition refused once its
    values were known): its resource failed with that reason."""
    parent, name = nest.parent, nest.plan.name
    row = parent.current(name)
    reason = failure_reason(error, name)
    if row is None:
        row = ResourceRow(uuid=str(uuid.uuid4()), stack_id=parent.stack['id'], name=name,
                          role=CURRENT, type=parent.sd.resources[name].type, action='CREATE')
    row = parent.save(row.replace(status='FAILED', status_reason=parent.masker.text(reason)))
    parent.log.resource(row, row.action or 'CREATE', 'FAILED', reason)
