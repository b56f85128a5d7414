# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The phases of a run, in the order the runner calls them:

1. ``validate``: the inputs read (or merged with the stored ones), the
   whole definition validated with every type known, before any cloud
   write, answering a ``Goal``; then ``lock`` takes the stack;
2. ``converge``: the record walked to the definition in parallel (the
   stack marked in progress, the steps of converge.py on the scheduler),
   answering ``Converged``;
3. ``finish``: outputs resolved, the stack's end recorded, the result; or,
   for a failed run that asked for it, the rollback phase (rollback.py),
   which converges again (to the previous definition, or to nothing) and
   finishes that.

``walk`` is the generic walk of a set of steps (delete, suspend, resume
and rollback-to-nothing use it directly).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time
import uuid

from ...resources import registry
from ...errors import ParameterError, StackLocked, StackersError
from ...hot import loader
from ...hot.shown import stack_shown
from ...resources.sdk import note_secret
from ...resources.heat import autoscaling_group as autoscaling
from ..definition import heat_data, inputs as defs
from ..graph import dependencies as _graph
from ..walk import hooks
from ..nested import steps as nested_steps, stacks as nesting
from . import cancel, prefetch
from ..walk.outputs import output_attributes, refresh_steps, resolve_outputs
from .check import drifted, mark_failed_checks, plan as check_plan, stack_check
from .preflight import preflight
from ..walk.converge import converge_steps, lanes
from ..store.records import NEW, OLD
from .request import Converged, Goal
from ..walk.run_state import StackRun
from ..store.owner import lock_ttl, owner_alive
from ..store.secrets import secret_strings
from ..walk.scheduler import Scheduler
from ..walk.summary import summarise
from ..store.sqlite import now_iso
from ..read.view import resource_views, stack_view, with_snapshots


# -- validate ---------------------------------------------------------------------

def validate(invocation, stack):
    """The ``Goal`` of a present stack, validated (``stack``: its stored row
    or None); nothing is written."""
    inputs = _inputs(invocation, stack)
    stack_id = stack['id'] if stack else str(uuid.uuid4())
    try:
        sd, graph = load(invocation.request, inputs, stack_id)
    except ParameterError as exc:
        _missing_hidden(invocation.request, inputs, stack, exc)
        raise
    hidden = defs.hidden_values(sd)
    # the hidden values (the user's, the stored ones an update reuses, the
    # declared defaults) are hidden by the module from all it prints
    for value in secret_strings(hidden.values()):
        note_secret(invocation.conn, value)
    nests = nest_goals(invocation.request, sd, invocation.store, stack['id'] if stack else None)
    preflight(sd, invocation.conn, recorded=lambda: _recorded(invocation, stack))
    return Goal(stack=stack, stack_id=stack_id, inputs=inputs, sd=sd, graph=graph,
                hidden=hidden, nests=nests)


def _recorded(invocation, stack):
    """Names of the resources the record holds (the preflight skips them)."""
    if stack is None:
        return frozenset()
    return frozenset(row.name for row in invocation.store.resources(stack['id']))


def _inputs(invocation, stack):
    request = invocation.request
    given = None
    if request.adopt_data is not None:
        # Heat's adopt: the inputs are the abandon data's own (service.py
        # create_stack), the parameters given merged over its environment's
        given = heat_data.inputs(request.adopt_data)
        given['parameters'].update(request.parameters or {})
        return given
    if request.template is not None:
        environment = defs.with_global_environment(request.environment, request.global_environment_dir)
        given = defs.read_inputs(request.template, environment, request.parameters,
                                 request.files, limits=request.limits, urls=request.files_allowed_urls,
                                 opener=request.url_opener)
    if request.existing and stack is not None and stack.get('definition'):
        given = given or {'parameters': dict(request.parameters or {}),
                          'files': dict(request.files or {})}
        inputs = defs.merge_existing(stack['definition'], given, request.clear_parameters)
        kept = invocation.vault.decrypt(stack['secrets']) if stack.get('secrets') else {}
        for key, value in (kept or {}).items():
            inputs['parameters'].setdefault(key, value)
        return inputs
    if given is None:
        raise StackersError('A template is required to create or update stack "%s" (or use '
                            'existing: true to reuse the stored one)' % request.name)
    return given


def load(request, inputs, stack_id):
    """(StackDefinition, graph) of ``inputs``, validated as a stack create
    is, every resource type supported."""
    sd = defs.build(inputs, request.name, stack_id=stack_id, project_id=request.project_id,
                    checker=request.checker, limits=request.limits,
                    allowed_paths=request.files_allowed_paths, type_rules=registry.type_rule)
    # Heat's max_nested_stack_depth, which the nested definitions inherit
    sd.max_nested_depth = request.max_nested_depth
    # the stack's timeout as Heat keeps it (whole minutes), which an
    # OS::Heat::Delay's longest wait may not exceed; the nested ones inherit it
    sd.timeout_secs = int(request.timeout // 60) * 60 if request.timeout else None
    graph = sd.validate(strict=True, graph_builder=lambda s: _graph.build_graph(s, implicit=True))
    require_supported(sd)
    return sd, graph


def nest_goals(request, sd, store, stack_id):
    """The goals of the nested stacks of ``sd``, within the request's limits."""
    adopting = heat_data.entries(request.adopt_data) if request.adopt_data is not None else None
    return nesting.nest_goals(sd, store, stack_id, max_resources=request.max_resources,
                              region=request.region_name, resize=request.resize,
                              adopting=adopting)


def require_supported(sd):
    """Refuse a definition holding a type the collection cannot run
    (template resources are nested stacks: nested/stacks.py checks theirs)."""
    autoscaling.check_policies(sd)
    for defn in sd.resources.values():
        if not nesting.is_nested(defn):
            registry.require_supported(getattr(defn.type_info, 'plugin', None) or defn.type,
                                       defn.name)


def _missing_hidden(request, inputs, stack, exc):
    """A PATCH update missing a hidden parameter the store did not keep:
    say so, rather than Heat's bare "not provided"."""
    path = getattr(exc, 'path', ())
    if not (request.existing and stack is not None and len(path) > 1
            and path[0] == 'parameters'):
        return
    declared = (loader.load_text(inputs['template']).data or {}).get('parameters') or {}
    decl = declared.get(path[1])
    if isinstance(decl, dict) and str(decl.get('hidden')).lower() == 'true' and \
            path[1] not in (inputs.get('parameters') or {}):
        raise defs.missing_hidden([path[1]], [path[1]])


def diff(invocation, goal):
    """Diff mode outside check mode: the plan's before/after, computed from
    the record before the run changes it (no stack check: no extra reads)."""
    probe = StackRun(invocation.store, invocation.vault, invocation.conn, goal.stack, goal.sd,
                     secret_values=goal.hidden.values(), check_mode=True)
    probe.seam.prepare(goal.graph, probe.rows.values())
    nested_steps.attach_reading(invocation, probe, goal.nests or {})
    _items, changes = check_plan(probe, goal.graph)
    goal.sd.resource_data.clear()   # the run publishes its own rows
    return changes


# -- the lock -----------------------------------------------------------------------

def lock(invocation, create=None):
    """Take the stack's lock for ``invocation.owner`` (waiting up to the
    request's lock_timeout); ``create``: the fields of a stack to create
    locked."""
    deadline = time.time() + float(invocation.request.lock_timeout or 0)
    while True:
        try:
            return invocation.store.lock(invocation.request.name, invocation.owner, lock_ttl(),
                                         alive=owner_alive, create=create)
        except StackLocked:
            if time.time() >= deadline:
                raise
            time.sleep(1.0)


# -- converge -----------------------------------------------------------------------

def converge(invocation, goal, stack, action, *, rollback_of=None):
    """Walk the record of ``stack`` (the locked row) to ``goal``'s
    definition; ``action`` is CREATE or UPDATE, recorded as
    ``rollback_of`` (ROLLBACK) when this converge is a rollback's.  The
    stack's inputs are stored unless it is a rollback.  RESTORE (a
    snapshot's restore, snapshot.py) is an update recorded as RESTORE, as
    Heat's stack restore is."""
    request, store = invocation.request, invocation.store
    run = StackRun(store, invocation.vault, invocation.conn, stack, goal.sd,
                   secret_values=goal.hidden.values())
    run.action_retry_limit = request.action_retry_limit
    run.action = recorded = rollback_of or action
    if action == 'ADOPT':
        run.adopting = heat_data.entries(request.adopt_data)
    before = dict(stack)
    for row in list(run.rows.values()):
        if row.role == NEW:       # an interrupted replacement: delete it
            run.set_roles([(row.uuid, OLD)])
    run.seam.prepare(goal.graph, run.rows.values())
    fields = dict(action=recorded, status='IN_PROGRESS',
                  status_reason='Stack %s started' % recorded,
                  tags=list(request.tags or []) or None,
                  timeout_mins=int(request.timeout // 60) if request.timeout else None)
    if rollback_of is None:
        fields.update(_stored_inputs(invocation, goal, stack))
    # what heat_stack_info shows of the inputs, kept so that it reads no template
    fields['shown'] = _shown(goal)
    if request.project_id and not stack.get('project_id'):
        # the project the stack lives in, for readers that do not authenticate (heat_stack_info)
        fields['project_id'] = request.project_id
    updating = action in ('UPDATE', 'RESTORE')
    run.stack_updated = bool(rollback_of) or (
        updating and not defs.same(before.get('definition'), fields.get('definition')))
    start = _Start(run, fields, stamp=updating)
    if updating and rollback_of is None and _same_inputs(invocation, goal, stack, fields):
        # A rerun that changes nothing leaves no trace (a scheduled job would
        # otherwise grow the events and move updated_time at every run): the
        # stack's UPDATE is recorded only once the run records something.
        run.log.before_first = start
        if stack.get('shown') is None:
            # a record written before runs kept ``shown`` gets it, and nothing else
            store.update_stack(stack['id'], shown=fields['shown'])
    else:
        start()
    if request.converge and rollback_of is None and run.rows:
        # Heat's --converge: the template is compared with the cloud, not the
        # record; what is gone or in error is replaced, what drifted put back
        checked = stack_check(run, request.max_concurrency, quiet=True)
        mark_failed_checks(run, checked)
        run.drifted = drifted(run, checked)
    policies = dict((n, d.deletion_policy) for n, d in goal.sd.resources.items())
    for row in run.rows.values():
        policies.setdefault(row.name, row.facts.get('deletion_policy'))
    deps, work = converge_steps(run, goal.graph, policies)
    nests = goal.nests
    if nests is None:
        nests = nest_goals(request, goal.sd, store, stack['id'])
    nested_steps.attach(invocation, run, nests, deps, work)
    nested_steps.attach_deletes(invocation, run, deps, work)
    refresh_steps(run, goal.graph, deps, work)
    with prefetch.started(run):
        outcomes = schedule(invocation, run, deps, work, cancellable=rollback_of is None)
    nested_steps.record_failures(run, outcomes)
    status, reason = summarise(nesting.outcomes_at(outcomes, ()), recorded, run=run)
    status, reason = cancel.settle(invocation.cancel, recorded, status, reason)
    return Converged(run=run, action=recorded, status=status, reason=reason, before=before,
                     start=None if start.done else start)


class _Start(object):
    """Records a converge's start once: the stack's fields stored (its
    ``updated_time`` stamped then, for an update) and its IN_PROGRESS event."""

    def __init__(self, run, fields, stamp):
        self.run, self.fields, self.stamp = run, fields, stamp
        self.done = False

    def __call__(self):
        if self.done:
            return
        self.done = True
        run = self.run
        run.log.before_first = None
        stack_id = run.stack['id']
        fields = dict(self.fields, updated_time=now_iso() if self.stamp else run.stack.get('updated_time'))
        run.store.update_stack(stack_id, **fields)
        run.stack = run.store.stack_by_id(stack_id)
        run.log.stack(fields['action'], 'IN_PROGRESS', fields['status_reason'])


SETTLED = (('CREATE', 'COMPLETE'), ('UPDATE', 'COMPLETE'), ('RESUME', 'COMPLETE'),
           ('ADOPT', 'COMPLETE'), ('SNAPSHOT', 'COMPLETE'), ('RESTORE', 'COMPLETE'))


def _same_inputs(invocation, goal, stack, fields):
    """Whether an update's stored fields would be what the record holds
    already, on a stack whose last create or update completed."""
    # RESUME_COMPLETE too: a present run on a suspended stack resumes it, and
    # with nothing else changed it ends there, as Heat's stack resume does
    if (stack.get('action'), stack.get('status')) not in SETTLED:
        return False
    if stack.get('hooks') or not defs.same(stack.get('definition'), fields['definition']):
        return False
    if (stack.get('tags') or None) != fields['tags'] or stack.get('timeout_mins') != fields['timeout_mins']:
        return False
    if (stack.get('secrets') is None) != (fields['secrets'] is None):
        return False
    try:
        return stack.get('secrets') is None or invocation.vault.decrypt(stack['secrets']) == goal.hidden
    except StackersError:
        return False


def _stored_inputs(invocation, goal, stack):
    """The stack fields keeping the inputs (hidden values cut out, kept
    encrypted only with a user key) and the previous ones for rollback."""
    hidden = goal.hidden
    fields = {'definition': defs.stored(defs.without_hidden(goal.inputs, hidden))}
    if stack.get('definition') and stack.get('status') == 'COMPLETE':
        fields['previous'] = stack['definition']
    vault = invocation.vault
    fields['secrets'] = vault.encrypt(hidden) if hidden and vault.user_key else None
    return fields


def _shown(goal):
    # goal.hidden holds the defaults of hidden parameters too: those given are the inputs' own
    params = goal.inputs.get('parameters') or {}
    hidden = goal.hidden or {}
    return stack_shown(goal.sd, dict((k, v) for k, v in params.items() if k not in hidden),
                       sorted(k for k in params if k in hidden))


def walk(invocation, run, action, steps, *, started=None):
    """Mark the stack's ``action`` in progress (stored, and its event), run
    ``steps`` (deps, work) and answer (status, reason) as they ended; the
    caller records the end."""
    started = started or 'Stack %s started' % action
    run.action = action
    invocation.store.update_stack(run.stack['id'], action=action, status='IN_PROGRESS',
                                  status_reason=started)
    run.log.stack(action, 'IN_PROGRESS', started)
    deps, work = steps
    nested_steps.attach_deletes(invocation, run, deps, work)
    outcomes = schedule(invocation, run, deps, work)
    nested_steps.record_failures(run, outcomes)
    status, reason = summarise(nesting.outcomes_at(outcomes, ()), action, run=run)
    return cancel.settle(invocation.cancel, action, status, reason)


def schedule(invocation, run, deps, work, *, cancellable=False):
    """The walk of ``deps``/``work`` on the scheduler, its heartbeat renewing
    the lock, halting the walk once the controller is gone and, for a
    ``cancellable`` walk (a create's or an update's), taking a cancel asked
    of this run (cancel.py); the run's cancel token stops it."""
    token = invocation.cancel

    def beat():
        if token is not None:
            token.halt_if_orphaned()
        if run.stack and run.stack.get('lock_owner'):
            invocation.store.refresh_lock(run.stack['id'], run.stack['lock_owner'], lock_ttl())
            if cancellable:
                cancel.look(token, invocation.store, run.stack)
    timeout = invocation.request.timeout
    sched = Scheduler(max_concurrency=invocation.request.max_concurrency,
                      deadline=time.monotonic() + float(timeout) if timeout else None,
                      heartbeat=beat, heartbeat_interval=min(10.0, lock_ttl() / 3),
                      stop=token.stop if token is not None else None)
    return sched.run(deps, work, **lanes(run, deps))


# -- finish ---------------------------------------------------------------------------

def finish(invocation, converged, *, outputs=True):
    """Record how ``converged`` ended (outputs resolved and stored first,
    unless ``outputs`` is False or the run had no definition) and answer
    the run's result."""
    run, store = converged.run, invocation.store
    stack_id = run.stack['id']
    out = None
    if outputs and run.sd is not None:
        if run.log.changed_resources():
            # Something changed: the attributes the outputs read are read again
            # once (those the walk's own steps read already are not).
            uses = output_attributes(run.sd)
            run.refresh_attributes(dict((name, names) for name, names in uses.items()
                                        if name not in run.outputs_read))
        out = resolve_outputs(run)
    if converged.start is not None and not converged.start.done:
        if converged.status == 'COMPLETE' and _same_outputs(run, converged.before, out):
            return {'changed': False, 'stack': stack_view(store.stack_by_id(stack_id), run, out),
                    'resources': resource_views(run), 'events': run.log.events}
        converged.start()
    if out is not None:
        store.update_stack(stack_id, outputs=run.vault.encrypt(out))
    store.update_stack(stack_id, action=converged.action, status=converged.status,
                       status_reason=converged.reason)
    if converged.status != 'IN_PROGRESS':
        hooks.forget(store, stack_id)      # the action ended: its hooks hold again next time
    run.log.stack(converged.action, converged.status, converged.reason)
    stack = store.stack_by_id(stack_id)
    before = converged.before
    changed = run.log.changed_resources() or \
        not defs.same(before.get('definition'), stack.get('definition')) or \
        before.get('outputs') is None or before.get('status') != converged.status
    if not changed and out is not None:
        changed = run.vault.decrypt(before.get('outputs')) != out
    return with_snapshots({'changed': bool(changed),
                           'stack': stack_view(stack, run, out),
                           'resources': resource_views(run),
                           'events': run.log.events}, run)


def _same_outputs(run, before, out):
    if out is None or not before.get('outputs'):
        return out is None and not before.get('outputs')
    try:
        return run.vault.decrypt(before['outputs']) == out
    except StackersError:
        return False
