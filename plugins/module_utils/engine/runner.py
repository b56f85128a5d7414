# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``run(request, conn)``: what heat_stack does, without Ansible.

present: validate everything first (no cloud write before the whole
template, its parameters and every type are known good), lock the stack,
converge the record to the definition in parallel, roll back on failure
when asked, resolve the outputs, unlock.  absent: converge to nothing.
suspended: suspend every resource, users first.  Check mode never takes
the lock nor writes: it reads the cloud (stack check) and answers the plan.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import socket
import time
import uuid

from .. import resources as registry
from ..errors import ParameterError, StackLocked, StackNotFound, StackersError, StackTimeout
from ..hot import loader
from . import definition as defs
from . import graph as _graph
from . import prefetch
from .preflight import preflight
from .converge import action_steps, converge_steps, delete_steps
from .resource_tasks import HookPending, failure_reason
from .run_state import StackRun
from .scheduler import DONE, FAILED, TIMED_OUT, Scheduler
from .secrets import Vault
from .store import Store, now_iso
from .view import stack_view, resource_views

LOCK_TTL = 60.0


class StackRequest(object):
    """The options of heat_stack, engine side (see the module's docs)."""

    def __init__(self, name, state='present', template=None, environment=(), parameters=None,
                 files=None, timeout=3600, rollback=False, existing=False, clear_parameters=(),
                 tags=None, max_concurrency=10, store_path=None, store_key=None, lock_timeout=0,
                 converge=False, check_mode=False, diff=False, project_id=None, checker=None):
        self.__dict__.update(locals())
        del self.__dict__['self']


def _owner():
    return '%s:%d:%s' % (socket.gethostname(), os.getpid(), uuid.uuid4().hex[:8])


def owner_alive(owner):
    """False only when the owner ran on this host and its process is gone."""
    try:
        host, pid, _tag = owner.rsplit(':', 2)
        pid = int(pid)
    except (ValueError, AttributeError):
        return True
    if host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A killed run whose parent is gone too may linger as a zombie nobody
    # reaps (a container's init): it holds a pid but runs nothing.
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[-1].split()[0] != 'Z'
    except (OSError, IndexError):
        return True


def run(request, conn):
    store = Store(request.store_path)
    try:
        vault = Vault.for_store(store.path, request.store_key)
        stack = store.get_stack(request.name)
        if request.state == 'absent':
            return _delete(request, conn, store, vault, stack)
        if request.state == 'suspended' and request.template is None:
            if stack is None:
                raise StackNotFound('Stack "%s" not found: nothing to suspend' % request.name)
            return _action(request, conn, store, vault, stack, 'SUSPEND')
        return _present(request, conn, store, vault, stack)
    finally:
        store.close()


# -- present --------------------------------------------------------------------

def _inputs(request, stack, vault):
    given = None
    if request.template is not None:
        given = defs.read_inputs(request.template, request.environment, request.parameters,
                                 request.files)
    if request.existing and stack is not None and stack.get('definition'):
        given = given or {'parameters': dict(request.parameters or {}),
                          'files': dict(request.files or {})}
        inputs = defs.merge_existing(stack['definition'], given, request.clear_parameters)
        kept = vault.decrypt(stack['secrets']) if stack.get('secrets') else {}
        for key, value in (kept or {}).items():
            inputs['parameters'].setdefault(key, value)
        return inputs
    if given is None:
        raise StackersError('A template is required to create or update stack "%s" (or use '
                            'existing: true to reuse the stored one)' % request.name)
    return given


def _load(request, inputs, stack_id):
    sd = defs.build(inputs, request.name, stack_id=stack_id, project_id=request.project_id,
                    checker=request.checker)
    graph = sd.validate(strict=True, graph_builder=lambda s: _graph.build_graph(s, implicit=True))
    for defn in sd.resources.values():
        registry.require_supported(getattr(defn.type_info, 'plugin', None) or defn.type,
                                   defn.name)
    return sd, graph


def _present(request, conn, store, vault, stack):
    inputs = _inputs(request, stack, vault)
    stack_id = stack['id'] if stack else str(uuid.uuid4())
    try:
        sd, graph = _load(request, inputs, stack_id)
    except ParameterError as exc:
        _missing_hidden(request, inputs, stack, exc)
        raise
    preflight(sd, conn)
    hidden = defs.hidden_values(sd)
    if request.check_mode:
        from .check import plan_and_check   # only check mode needs it
        return plan_and_check(request, conn, store, vault, stack, sd, graph, hidden)
    diff = _diff(request, conn, store, vault, stack, sd, graph, hidden) if request.diff else None
    result = _apply(request, conn, store, vault, stack, stack_id, sd, graph, hidden, inputs)
    if diff is not None:
        result['diff'] = diff
    return result


def _diff(request, conn, store, vault, stack, sd, graph, hidden):
    """Diff mode outside check mode: the plan's before/after, computed from
    the record before the run changes it (no stack check: no extra reads)."""
    from .check import plan
    probe = StackRun(store, vault, conn, stack, sd, secret_values=hidden.values(),
                     check_mode=True)
    probe.prepare(graph)
    _items, diff = plan(probe, graph)
    sd.resource_data.clear()   # the run publishes its own rows
    return diff


def _apply(request, conn, store, vault, stack, stack_id, sd, graph, hidden, inputs):
    owner = _owner()
    new = stack is None
    creating = new or (stack['action'] == 'CREATE' and stack['status'] != 'COMPLETE'
                       and not store.resources(stack['id']))
    fields = {'id': stack_id, 'action': 'CREATE', 'status': 'IN_PROGRESS',
              'created_time': now_iso(), 'salt': uuid.uuid4().hex,
              'disable_rollback': 0 if request.rollback else 1}
    stack = _lock(store, request, owner, fields)
    try:
        if stack['action'] == 'SUSPEND' and stack['status'] == 'COMPLETE':
            resumed = _action(request, conn, store, vault, stack, 'RESUME', owner=owner)
            stack = store.stack_by_id(stack_id)
        else:
            resumed = None
        result = _converge(request, conn, store, vault, stack, sd, graph, hidden, inputs,
                           'CREATE' if creating else 'UPDATE')
        if resumed is not None:
            result['events'] = resumed['events'] + result['events']
            result['changed'] = True
        return result
    finally:
        store.unlock(stack_id, owner)


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


def _lock(store, request, owner, create):
    deadline = time.time() + float(request.lock_timeout or 0)
    while True:
        try:
            return store.lock(request.name, owner, LOCK_TTL, alive=owner_alive, create=create)
        except StackLocked:
            if time.time() >= deadline:
                raise
            time.sleep(1.0)


def _deadline(request):
    return time.monotonic() + float(request.timeout) if request.timeout else None


def _converge(request, conn, store, vault, stack, sd, graph, hidden, inputs, action,
              rollback_of=None):
    run_ = StackRun(store, vault, conn, stack, sd, secret_values=hidden.values())
    before = dict(stack)
    for row in list(run_.rows.values()):
        if row['role'] == 'new':       # an interrupted replacement: delete it
            run_.set_roles([(row['uuid'], 'old')])
    run_.prepare(graph)
    stack_fields = dict(action=rollback_of or action, status='IN_PROGRESS',
                        status_reason='Stack %s started' % (rollback_of or action),
                        updated_time=now_iso() if action == 'UPDATE' else stack.get('updated_time'),
                        tags=list(request.tags or []) or None,
                        timeout_mins=int(request.timeout // 60) if request.timeout else None)
    if rollback_of is None:
        stored = defs.stored(defs.without_hidden(inputs, hidden))
        stack_fields['definition'] = stored
        if stack.get('definition') and stack.get('status') == 'COMPLETE':
            stack_fields['previous'] = stack['definition']
        stack_fields['secrets'] = vault.encrypt(hidden) if hidden and vault.user_key else None
    store.update_stack(stack['id'], **stack_fields)
    run_.stack = store.stack_by_id(stack['id'])
    run_.stack_event(stack_fields['action'], 'IN_PROGRESS',
                     'Stack %s started' % stack_fields['action'])
    if request.converge and rollback_of is None and run_.rows:
        from .check import mark_failed_checks, stack_check
        mark_failed_checks(run_, stack_check(run_, request.max_concurrency))
    policies = dict((n, d.deletion_policy) for n, d in sd.resources.items())
    for row in run_.rows.values():
        policies.setdefault(row['name'], (row.get('data') or {}).get('deletion_policy'))
    deps, work = converge_steps(run_, graph, policies)
    with prefetch.started(run_):
        outcomes = _schedule(request, store, run_, deps, work)
    status, reason = _summarise(outcomes, stack_fields['action'])
    if status == 'FAILED' and request.rollback and rollback_of is None:
        return _rollback(request, conn, store, vault, run_, action, reason, hidden)
    return _finish(request, store, run_, stack_fields['action'], status, reason, before, hidden)


def _walk(request, store, run_, action, steps, started=None):
    """Mark the stack's ``action`` in progress (stored, and its event), run
    ``steps`` (deps, work) and answer (status, reason) as they ended; the
    caller records the end."""
    started = started or 'Stack %s started' % action
    store.update_stack(run_.stack['id'], action=action, status='IN_PROGRESS', status_reason=started)
    run_.stack_event(action, 'IN_PROGRESS', started)
    deps, work = steps
    return _summarise(_schedule(request, store, run_, deps, work), action)


def _schedule(request, store, run_, deps, work):
    def beat():
        if run_.stack and run_.stack.get('lock_owner'):
            store.refresh_lock(run_.stack['id'], run_.stack['lock_owner'], LOCK_TTL)
    sched = Scheduler(max_concurrency=request.max_concurrency, deadline=_deadline(request),
                      heartbeat=beat)
    return sched.run(deps, work)


def _summarise(outcomes, action):
    hooks, failures, timed_out = [], [], False
    for key, outcome in sorted(outcomes.items(), key=lambda item: repr(item[0])):
        if outcome.status == FAILED:
            if isinstance(outcome.error, HookPending):
                hooks.append(outcome.error.details.get('resource') or str(key[1]))
            else:
                failures.append((key, outcome.error))
        elif outcome.status == TIMED_OUT:
            timed_out = True
    if failures:
        key, err = failures[0]
        name = getattr(err, 'resource', None) or str(key[1])
        return 'FAILED', 'Resource %s failed: %s' % (action, failure_reason(err, name))
    if timed_out:
        return 'FAILED', 'Timed out'
    if hooks:
        return 'IN_PROGRESS', 'Paused at hooks of: %s' % ', '.join(sorted(hooks))
    if any(o.status != DONE for o in outcomes.values()):
        return 'FAILED', 'Resource %s failed' % action
    return 'COMPLETE', 'Stack %s completed successfully' % action


def _rollback(request, conn, store, vault, run_, action, reason, hidden):
    events = list(run_.events)
    stack = store.stack_by_id(run_.stack['id'])
    run_.stack_event(action, 'FAILED', reason)
    events.append(run_.events[-1])
    previous = stack.get('previous') if action == 'UPDATE' else None
    if previous is None:
        # A failed create rolls back to nothing.
        rb = StackRun(store, vault, conn, stack, None, secret_values=hidden.values())
        status, why = _walk(request, store, rb, 'ROLLBACK', delete_steps(rb, {}), started=reason)
        result = _finish(request, store, rb, 'ROLLBACK', status, why if status != 'COMPLETE'
                         else 'Rollback completed', stack, hidden, outputs=False)
    else:
        params = dict(previous.get('parameters') or {})
        for key, value in hidden.items():
            params.setdefault(key, value)
        previous = dict(previous, parameters=params)
        sd, graph = _load(request, previous, stack['id'])
        result = _converge(request, conn, store, vault, stack, sd, graph, hidden, previous,
                           'UPDATE', rollback_of='ROLLBACK')
        store.update_stack(stack['id'], definition=stack.get('previous'))
    result['events'] = events + result['events']
    result['failed_reason'] = reason
    return result


def _finish(request, store, run_, action, status, reason, before, hidden, outputs=True):
    stack_id = run_.stack['id']
    out = None
    if outputs and run_.sd is not None:
        from .outputs import output_attributes, resolve_outputs
        if any(e['resource_type'] != 'OS::Heat::Stack' for e in run_.events):
            # Something changed: the attributes the outputs read are read again once.
            run_.refresh_attributes(output_attributes(run_.sd))
        out = resolve_outputs(run_)
        store.update_stack(stack_id, outputs=run_.vault.encrypt(out))
    store.update_stack(stack_id, action=action, status=status, status_reason=reason)
    run_.stack_event(action, status, reason)
    stack = store.stack_by_id(stack_id)
    changed = any(e['resource_type'] != 'OS::Heat::Stack' for e in run_.events) or \
        _portable(before.get('definition')) != _portable(stack.get('definition')) or \
        before.get('outputs') is None or before.get('status') != status
    if not changed and out is not None:
        changed = run_.vault.decrypt(before.get('outputs')) != out
    return {'changed': bool(changed),
            'stack': stack_view(stack, run_, out),
            'resources': resource_views(run_),
            'events': run_.events}


def _portable(definition):
    """A stored definition without where its files were read from: the same
    template run from another checkout is the same stack."""
    if not definition:
        return definition
    out = dict(definition)
    out.pop('template_file', None)
    out['environment'] = [e.get('data') for e in out.get('environment') or ()]
    return out


# -- absent / suspend / resume -------------------------------------------------

def _delete(request, conn, store, vault, stack):
    if stack is None:
        return {'changed': False, 'stack': None, 'resources': [], 'events': []}
    if request.check_mode:
        plan = [{'resource_name': r['name'], 'resource_type': r['type'], 'action': 'delete'}
                for r in store.resources(stack['id'])]
        return {'changed': True, 'stack': stack_view(stack, None, None), 'resources': [],
                'events': [], 'plan': plan}
    owner = _owner()
    stack = _lock(store, request, owner, None)
    run_ = StackRun(store, vault, conn, stack, None)
    try:
        status, reason = _walk(request, store, run_, 'DELETE', delete_steps(run_, {}))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        run_.stack_event('DELETE', status, reason)
        view = stack_view(store.stack_by_id(stack['id']), run_, None)
        if status == 'COMPLETE':
            store.delete_stack(stack['id'])
        return {'changed': True, 'stack': view, 'resources': resource_views(run_),
                'events': run_.events}
    finally:
        if store.stack_by_id(stack['id']) is not None:
            store.unlock(stack['id'], owner)


def _action(request, conn, store, vault, stack, action, owner=None):
    done = stack['action'] == action and stack['status'] == 'COMPLETE'
    if request.check_mode or done:
        return {'changed': not done, 'stack': stack_view(stack, None, _outputs(vault, stack)),
                'resources': [], 'events': []}
    own = owner is None
    owner = owner or _owner()
    if own:
        stack = _lock(store, request, owner, None)
    run_ = StackRun(store, vault, conn, stack, None)
    try:
        status, reason = _walk(request, store, run_, action, action_steps(run_, action))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        run_.stack_event(action, status, reason)
        stack = store.stack_by_id(stack['id'])
        return {'changed': True, 'stack': stack_view(stack, run_, _outputs(vault, stack)),
                'resources': resource_views(run_), 'events': run_.events}
    finally:
        if own:
            store.unlock(stack['id'], owner)


def _outputs(vault, stack):
    return vault.decrypt(stack['outputs']) if stack.get('outputs') else None


__all__ = ['StackRequest', 'run', 'owner_alive', 'StackTimeout']
