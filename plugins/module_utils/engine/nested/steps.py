# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The steps of nested stacks in the parent's walk (see stacks.py):
``attach`` adds them to a converge's (deps, work), ``attach_deletes`` to
any walk deleting rows of template resources, and ``record_failures``,
after the walk, records the nested stacks that failed and the failures of
their parent resources, in Heat's words.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import uuid
from typing import Any, Dict, List, Optional, Tuple

from ...errors import NestedStackFailure
from ...hot import functions as fns
from ...resources.heat.template_resource import NESTED_STACK, SECRET_OUTPUTS, STACK_ID_OUTPUT, stack_arn
from ...resources.heat import (autoscaling_group as autoscaling, group_kinds as groups,
                               remote_stack as stack_resource)
from . import stacks as nesting
from ..walk import hooks
from ..walk.hooks import HookPending
from ..walk.resource_tasks import failure_reason
from ..walk.summary import summarise
from ..definition import heat_data
from ..walk.scheduler import DONE, FAILED, Outcome, once
from ..walk.converge import StepKey, converge_steps, delete_steps
from ..walk.outputs import output_attributes, resolve_outputs
from ..walk.planner import KEEP, decide_desired, desired
from ..store.records import CURRENT, ResourceRow
from ..store.sqlite import now_iso

DIGEST = 'template_digest'


@dataclasses.dataclass
class Nest:
    """A nested stack in this run: its goal (stacks.NestGoal), its parent's
    run and its own (``run``), where its steps are (``path``) and, once
    started, the action it is walking (None: nothing of it changes)."""
    goal: Any
    parent: Any
    run: Any
    path: Tuple[str, ...]
    invocation: Any
    action: Optional[str] = None
    started: bool = False
    removed: Optional[List[str]] = None     # a group's removed names, once written


def _policies(run):
    policies = dict((n, d.deletion_policy) for n, d in run.sd.resources.items())
    for row in run.rows.values():
        policies.setdefault(row.name, row.facts.get('deletion_policy'))
    return policies


def attach_reading(invocation, run, goals):
    """The nested stacks' runs, for reading only (check mode's plan and
    diff): what ``get_attr: [r, resource.x.y]`` reads, and what the plan
    asks of a nested stack's resources."""
    for name, goal in goals.items():
        child = nesting.child_run(invocation, run, goal.stored, goal.sd)
        child.use_definition(goal.sd, goal.graph)
        run.nests[name] = Nest(goal=goal, parent=run, run=child, path=(name,),
                               invocation=invocation)
        attach_reading(invocation, child, goal.children)


def nested_change(run, name, plan_fn):
    """Why a template resource the planner would keep changes anyway (its
    template, or a resource of its stack, changes), or None.  ``plan_fn``
    is check.plan (run, graph) -> (items, diff)."""
    nest = run.nests.get(name)
    if nest is None or nest.goal.stored is None:
        return None
    row = run.current(name)
    if row is not None and row.facts.get(DIGEST) != nest.goal.digest:
        return 'its template changed'
    if nest.goal.deferred:
        return None     # its resources' values wait on the run: the planner's unknowns say it
    items, _diff = plan_fn(nest.run, nest.goal.graph)
    changed = sorted(i['resource_name'] for i in items if i['action'] != KEEP)
    if changed:
        return 'its nested stack changes: %s' % ', '.join(changed)
    return None


# -- converge ---------------------------------------------------------------------

def attach(invocation, run, goals, deps, work, *, path=()):
    """Add the steps of the nested stacks ``goals`` (name -> NestGoal) of
    ``run`` (at ``path``) to its (deps, work), recursively."""
    for name, goal in goals.items():
        child = nesting.child_run(invocation, run, goal.stored, goal.sd)
        child.use_definition(goal.sd, goal.graph)
        if run.adopting is not None:
            # Heat's adopt of a nested stack: its resource's entry is its abandon data
            child.adopting = heat_data.nested_entries(run.adopting, name)
        nest = Nest(goal=goal, parent=run, run=child, path=path + (name,), invocation=invocation)
        run.nests[name] = nest
        cdeps, cwork = converge_steps(child, goal.graph, _policies(child))
        attach(invocation, child, goal.children, cdeps, cwork, path=path + (name,))
        attach_deletes(invocation, child, cdeps, cwork)
        group = goal.names is not None
        if goal.waiting and not group:
            _validated_first(nest, cwork)
        # the parameters each of the stack's own steps reads (its nested
        # stacks' steps read theirs through their own parameter steps)
        waits = {} if group else dict((k.under((name,)), _reads(goal.sd, k) & goal.waiting)
                                      for k in cdeps if not k.path)
        cdeps, cwork = nesting.moved(cdeps, cwork, (name,))
        defn = run.sd.resources[name]
        rkey, skey = StepKey('res', name), StepKey('nest', name)
        if group:
            # a group's stack is written when its turn comes, as Heat's
            deps[skey] = set(deps.get(rkey, ()))
        else:
            deps[skey] = set(StepKey('res', d) for d in defn.depends_on or ()
                             if StepKey('res', d) in deps)
        work[skey] = once(_start, nest)
        pkeys = {}
        for param in sorted(goal.waiting if not group else ()):
            pkey = pkeys[param] = StepKey('param', (name, param))
            deps[pkey] = set([skey]) | set(StepKey('res', d) for d in
                                           fns.dependencies(nesting.param_snippets(defn)[param]))
            work[pkey] = once(_supply, nest, param)
        if group:
            _in_batches(nest, name, cdeps, cwork)
        for k, needs in cdeps.items():
            needs.add(skey)
            needs.update(pkeys[p] for p in waits.get(k, ()))
        deps.update(cdeps)
        work.update(cwork)
        deps[rkey] = set([skey]) | set(cdeps) | set(pkeys.values()) | set(deps.get(rkey, ()))
        work[rkey] = once(_finish, nest)


def _in_batches(nest, name, deps, work):
    """A group's members walked in its batches (groups.batches): each batch
    starts once the one before it ended (and its pause is over)."""
    kept = [m for m in groups.members_of(nest.run.rows.values()) if m['name'] in nest.goal.names]
    batches, pause = groups.batches(nest.parent.sd.resources[name], kept, nest.goal.names,
                                    creating=nest.goal.stored is None)
    here = (name,)
    before = set()
    for index, batch in enumerate(batches):
        if index and pause > 0:
            wait = StepKey('pause', str(index), here)
            deps[wait], work[wait] = set(before), _paused(nest, pause, batches[index - 1])
            before = set([wait])
        for member in batch:
            start = StepKey('nest', member, here)
            if start not in deps:
                start = StepKey('res', member, here)
            if start in deps:
                deps[start].update(before)
        before = set(StepKey('res', member, here) for member in batch
                     if StepKey('res', member, here) in deps)


def _paused(nest, seconds, batch):
    """Heat's pause_time between batches, when the batch before changed
    something (a rerun, or a resize that leaves those members be, does not
    wait)."""
    def step():
        if nest.run.log.changed_resources(batch):
            yield seconds
    return step


def _reads(sd, k):
    """The parameters a (not yet moved) step of a nested stack reads: a
    resource's properties and metadata; a nested stack's property fed to a
    parameter of its own."""
    if k.kind == 'res' and k.name in sd.resources:
        defn = sd.resources[k.name]
        return set(nesting.params_read(defn.properties)) | set(nesting.params_read(defn.metadata))
    if k.kind == 'param' and not k.path:
        inner, param = k.name
        return set(nesting.params_read(nesting.param_snippets(sd.resources[inner]).get(param)))
    return set()


def _validated_first(nest, work):
    """A nested stack whose parameters come during the run: each of its
    resources is validated as a stack create validates it (its values are
    known now) before it starts."""
    for k, factory in list(work.items()):
        if k.kind == 'res' and not k.path and factory is not None and \
                k.name in nest.goal.sd.resources:
            work[k] = _checking(nest, k.name, factory)


def _checking(nest, name, factory):
    def step():
        nest.run.sd.validate_resource(name)
        return (yield from factory())
    return step


def _supply(nest, param):
    parent, name = nest.parent, nest.goal.name
    defn = parent.sd.resources[name]
    value = parent.sd.resolve(nesting.param_snippets(defn)[param], nesting.param_path(defn, param))
    nest.run.sd.parameters.supply(param, value)


def _start(nest):
    """The nested stack's start: a new one's record and its resource's
    CREATE_IN_PROGRESS; a recorded one waits for its first change (or the
    finish) to say its resource is in progress."""
    parent, name, goal = nest.parent, nest.goal.name, nest.goal
    row = parent.current(name)
    defn = parent.sd.resources[name]
    if row is not None and row.type != defn.type and not row.facts.get(NESTED_STACK):
        raise NestedStackFailure('resource "%s": replacing a resource by a nested stack is not '
                                 'supported yet' % name, 'resources.%s: replacing a resource by '
                                 'a nested stack is not supported yet' % name, resource=name)
    if goal.names is not None:
        _write_group(nest, row, defn)
    if nest.run.stack is None:
        top = parent.stack
        action = 'CREATE' if nest.run.adopting is None else 'ADOPT'
        fields = {
            'id': goal.stack_id, 'name': goal.stack_name, 'action': action,
            'status': 'IN_PROGRESS', 'status_reason': 'Stack %s started' % action,
            'created_time': now_iso(), 'salt': top.get('salt'),
            'disable_rollback': top.get('disable_rollback'), 'timeout_mins': top.get('timeout_mins'),
            'parent_id': top['id'], 'parent_resource': name, 'project_id': top.get('project_id')}
        if goal.kind == 'stack':
            fields.update(stack_resource.stack_fields(defn))
        stack = nest.invocation.store.create_stack(fields)
        nest.run.bind_stack(stack)
        _in_progress(nest, action)
    elif nest.run.stack.get('action') == 'CREATE' and nest.run.stack.get('status') != 'COMPLETE':
        _in_progress(nest, 'CREATE')       # a create interrupted or failed: finished now
    else:
        nest.run.log.before_first = lambda: _in_progress(nest, 'UPDATE')
    return None


def _write_group(nest, row, defn):
    """A group's stack written with every value (its requirements are
    done), validated as a stack create; its members are those its goal names."""
    parent, goal = nest.parent, nest.goal
    members = groups.members_of(nest.run.rows.values())
    props = desired(parent, goal.name).props
    template, names, removed = groups.runtime_template(parent.sd, defn, props, row, members,
                                                       names=goal.names)
    sd, graph = nesting.build_child(parent.sd, defn, template, {},
                                    stack=(goal.stack_name, goal.stack_id))
    if list(names) != list(goal.names) or set(graph.nodes) != set(goal.graph.nodes):
        raise NestedStackFailure(
            'resource "%s": its members changed between the validation and the walk (%s, then %s)'
            % (goal.name, ', '.join(goal.names), ', '.join(names)),
            'resources.%s: its members changed between the validation and the walk' % goal.name,
            resource=goal.name)
    nest.run.use_definition(sd, graph)
    nest.removed = removed


def _in_progress(nest, action):
    """Record the nested stack and its resource IN_PROGRESS (once)."""
    if nest.action is not None:
        return
    nest.action = action
    parent, name, goal = nest.parent, nest.goal.name, nest.goal
    nest.run.log.before_first = None
    row = parent.current(name)
    fields = dict(action=action, status='IN_PROGRESS', status_reason='state changed',
                  requires=sorted(parent.seam.requires.get(name, ())))
    if row is None:
        row = ResourceRow(uuid=str(uuid.uuid4()), stack_id=parent.stack['id'], name=name,
                          role=CURRENT, type=parent.sd.resources[name].type,
                          physical_name=goal.stack_name, physical_id=goal.stack_id,
                          data={NESTED_STACK: goal.stack_id}, **fields)
    else:
        row = row.replace(type=parent.sd.resources[name].type,
                          data=dict(row.facts, **{NESTED_STACK: goal.stack_id}), **fields)
    if nest.removed is not None:
        row = row.replace(data=dict(row.facts, **{groups.REMOVED: nest.removed}))
    parent.save(row)
    parent.log.resource(row, action, 'IN_PROGRESS')
    if action == 'UPDATE':
        nest.invocation.store.update_stack(goal.stack_id, action=action, status='IN_PROGRESS',
                                           status_reason='Stack UPDATE started',
                                           updated_time=now_iso())
    nest.run.log.stack(action, 'IN_PROGRESS', 'Stack %s started' % action)


def _known(props):
    return dict((k, v) for k, v in (props or {}).items() if v is not None)


def _finish(nest):
    """The nested stack's end: its resource's properties (all known now)
    weighed as the planner weighs any resource's; when it or its stack
    changed, the outputs (its attributes) and the reference id recorded,
    COMPLETE."""
    parent, name, child = nest.parent, nest.goal.name, nest.run
    nest.run.log.before_first = None
    row = parent.current(name)
    want = desired(parent, name)
    decision = decide_desired(parent, row, want)
    parent.decisions[name] = decision
    digest_changed = row is not None and row.facts.get(DIGEST) != nest.goal.digest
    if nest.action is None and decision.action == KEEP and not digest_changed:
        parent.seam.publish(row)
        return row
    _in_progress(nest, 'UPDATE')
    action = nest.action
    store = nest.invocation.store
    if child.log.changed_resources():
        child.refresh_attributes(output_attributes(child.sd))
    outputs = resolve_outputs(child)
    reason = 'Stack %s completed successfully' % action
    store.update_stack(child.stack['id'], outputs=child.vault.encrypt(outputs), action=action,
                       status='COMPLETE', status_reason=reason)
    child.log.stack(action, 'COMPLETE', reason)
    values = dict((o['output_key'], o.get('output_value')) for o in outputs)
    if nest.goal.kind != 'template':
        reference = child.stack['id']       # a group's, an OS::Heat::Stack's: its stack's id
    else:
        reference = values.get(STACK_ID_OUTPUT) or stack_arn(
            parent.sd.project_id, child.stack['name'], child.stack['id'])
    row = parent.current(name)
    data = dict(row.facts, **{NESTED_STACK: child.stack['id'], DIGEST: nest.goal.digest,
                              'reference_id': reference})
    if nest.removed is not None:
        data[groups.REMOVED] = nest.removed
    if row.type == autoscaling.ASG and not nest.goal.resized:
        size = len(nest.goal.names)
        data[autoscaling.SCALING] = autoscaling.finished_marks(row, want.props, size)
    # outputs holding a secret (a generated password it gives back): digests
    # in the attributes, the values encrypted beside them (nested_outputs)
    masked = dict((k, parent.masker.mask(v)) for k, v in values.items())
    hidden = dict((k, v) for k, v in values.items() if masked[k] != v)
    row = row.replace(action=action, status='COMPLETE', status_reason='state changed',
                      reference_id=str(reference), attrs=masked, data=data,
                      properties=want.masked, metadata=parent.masker.mask(want.metadata),
                      secret_data=parent.vault.encrypt({SECRET_OUTPUTS: hidden}) if hidden else None)
    row = parent.save(row)
    parent.log.resource(row, action, 'COMPLETE')
    parent.seam.publish(row)
    return row


Steps = Tuple[Dict[Any, Any], Dict[Any, Any]]


# -- delete -----------------------------------------------------------------------

def attach_deletes(invocation, run, deps, work):
    """Each step of ``run`` (deps, work) deleting a template resource's
    row gets its nested stack's delete before it, walked in the same
    scheduler; recursively."""
    for k in [k for k in deps if k.kind == 'del' and not k.path]:
        row = run.rows.get(k.name)
        child_id = row.facts.get(NESTED_STACK) if row is not None else None
        stack = invocation.store.stack_by_id(child_id) if child_id else None
        if stack is None:
            continue
        child = nesting.child_run(invocation, run, stack, None)
        # a nested stack's delete is a DELETE of its own: its pre-delete
        # hooks, from the parent's registry, hold (as in Heat)
        child.action = 'DELETE'
        registry = hooks.registry_of(run)
        child.hook_registry = registry.nested((row.name,)) if registry is not None else None
        cdeps, cwork = delete_steps(child, {})
        attach_deletes(invocation, child, cdeps, cwork)
        cdeps, cwork = nesting.moved(cdeps, cwork, (row.uuid,))
        dkey = StepKey('nestdel', row.uuid)
        deps[dkey] = set(deps[k])
        work[dkey] = once(_delete_start, run, row, child)
        for needs in cdeps.values():
            needs.add(dkey)
        deps.update(cdeps)
        work.update(cwork)
        deps[k] = set([dkey]) | set(cdeps)
        work[k] = once(_delete_finish, invocation, run, row, child)
        run.deleting[row.uuid] = child


def _delete_start(run, row, child):
    row = run.save(row.replace(action='DELETE', status='IN_PROGRESS', status_reason='state changed'))
    run.log.resource(row, 'DELETE', 'IN_PROGRESS')
    run.store.update_stack(child.stack['id'], action='DELETE', status='IN_PROGRESS',
                           status_reason='Stack DELETE started')
    child.log.stack('DELETE', 'IN_PROGRESS', 'Stack DELETE started')


def _delete_finish(invocation, run, row, child):
    child.log.stack('DELETE', 'COMPLETE', 'Stack DELETE completed successfully')
    invocation.store.delete_stack(child.stack['id'])
    run.log.resource(row, 'DELETE', 'COMPLETE')
    run.forget(row)


# -- after the walk ---------------------------------------------------------------

def record_failures(run, outcomes, path=()):
    """Record the nested stacks of ``run`` (at ``path``) whose walk failed,
    deepest first, and put their parent resources' failures in
    ``outcomes`` (which the parent's summary then reports)."""
    for name, nest in run.nests.items():
        here = path + (name,)
        record_failures(nest.run, outcomes, here)
        rkey, skey = StepKey('res', name, path), StepKey('nest', name, path)
        if outcomes.get(rkey) is not None and outcomes[rkey].status == DONE:
            continue
        refused = [o for k, o in outcomes.items() if k.kind == 'param' and k.path == path
                   and k.name[0] == name and o.status == FAILED]
        if refused:
            # a parameter refused: the stack cannot be made, as Heat refuses its create
            if nest.run.stack is not None:
                action = nest.action or 'UPDATE'
                text = nest.run.masker.text(str(refused[0].error))
                nest.invocation.store.update_stack(nest.run.stack['id'], action=action,
                                                   status='FAILED', status_reason=text)
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
        dkey = StepKey('del', row_uuid, path)
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
    parent, name = nest.parent, nest.goal.name
    row = parent.current(name)
    reason = failure_reason(error, name)
    if row is None:
        row = ResourceRow(uuid=str(uuid.uuid4()), stack_id=parent.stack['id'], name=name,
                          role=CURRENT, type=parent.sd.resources[name].type, action='CREATE')
    row = parent.save(row.replace(status='FAILED', status_reason=parent.masker.text(reason)))
    parent.log.resource(row, row.action or 'CREATE', 'FAILED', reason)
