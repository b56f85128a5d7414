# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``run(request, conn)``: what heat_stack does, without Ansible.

present, in phases (phases.py): plan (validate everything first: no cloud
write before the whole template, its parameters and every type are known
good; then lock the stack and decide create or update), converge the
record to the definition in parallel, then finish (outputs, the stack's
end) or, when the run failed and asked for it, roll back (rollback.py).
absent: converge to nothing.  suspended: suspend every resource, users
first.  Check mode never takes the lock nor writes: it reads the cloud
(stack check) and answers the plan.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ..errors import StackNotFound, StackTimeout
from ..resources import transport
from . import hooks, phases, prefetch, rollback
from .collector import spaced_collections
from .converge import action_steps, delete_steps
from .phases import owner_alive
from .request import RunEnv, StackRequest
from .run_state import StackRun
from .store import now_iso
from .stores import open_store
from .view import nested_resource_views, resource_views, stack_view


def run(request, conn):
    # the transport's retries before the first request (Keystone's discovery):
    # base.py sets them on a module's connection, this on an in-process caller's
    transport.set_transport_retries(conn)
    transport.fetch_first_token(conn)
    with spaced_collections():
        return _run(request, conn)


def _run(request, conn):
    store = open_store(request.store_path, request.store_url, conn)
    try:
        env = RunEnv(request=request, conn=conn, store=store,
                     vault=store.vault(request.store_key))
        stack = store.get_stack(request.name)
        if request.state == 'absent':
            return _delete(env, stack)
        if request.state == 'suspended' and request.template is None:
            if stack is None:
                raise StackNotFound('Stack "%s" not found: nothing to suspend' % request.name)
            return _with_nested(env, _action(env, stack, 'SUSPEND'))
        return _with_nested(env, _present(env, stack))
    finally:
        store.close()


def _with_nested(env, result):
    """The nested stacks' resources added to the result's, as the
    request's ``nested_depth`` asks (as recorded: in check mode, before the
    run)."""
    stack = result.get('stack')
    if env.request.nested_depth and stack:
        result['resources'] = list(result['resources']) + nested_resource_views(
            env.store, stack['id'], env.request.nested_depth)
    return result


# -- present --------------------------------------------------------------------

def _present(env, stack):
    planned = phases.plan(env, stack)
    if env.request.check_mode:
        from .check import plan_and_check   # only check mode needs it
        return plan_and_check(env, planned)
    diff = phases.diff(env, planned) if env.request.diff else None
    result = _apply(env, planned)
    if diff is not None:
        result['diff'] = diff
    return result


def _apply(env, planned):
    """Lock, decide create or update, converge, then finish or roll back."""
    store, stack = env.store, planned.stack
    # a create paused at hooks goes on as the same CREATE (its pre-create
    # hooks hold, as Heat's waiting create does)
    creating = stack is None or (stack['action'] == 'CREATE' and stack['status'] != 'COMPLETE'
                                 and (not store.resources(stack['id'])
                                      or hooks.paused(stack)))
    fields = {'id': planned.stack_id, 'action': 'CREATE', 'status': 'IN_PROGRESS',
              'created_time': now_iso(), 'salt': uuid.uuid4().hex,
              'disable_rollback': 0 if env.request.rollback else 1}
    env.owner = phases.new_owner()
    stack = phases.lock(env, create=fields)
    try:
        resumed = None
        # a stack suspended, or left part suspended (a suspend or resume that
        # failed or was killed), is resumed first: present means running
        if stack['action'] == 'SUSPEND' or (stack['action'] == 'RESUME' and
                                            stack['status'] != 'COMPLETE'):
            resumed = _action(env, stack, 'RESUME')
            stack = store.stack_by_id(planned.stack_id)
        outcome = phases.converge(env, planned, stack, 'CREATE' if creating else 'UPDATE')
        if outcome.status == 'FAILED' and env.request.rollback:
            result = rollback.roll_back(env, planned, outcome)
        else:
            result = phases.finish(env, outcome)
        if resumed is not None:
            result['events'] = resumed['events'] + result['events']
            result['changed'] = True
        return result
    finally:
        store.unlock(planned.stack_id, env.owner)


# -- absent / suspend / resume -------------------------------------------------

def _delete(env, stack):
    store = env.store
    if stack is None:
        return {'changed': False, 'stack': None, 'resources': [], 'events': []}
    if env.request.check_mode:
        plan = [{'resource_name': r.name, 'resource_type': r.type, 'action': 'delete'}
                for r in store.resources(stack['id'])]
        return {'changed': True, 'stack': stack_view(stack, None, None), 'resources': [],
                'events': [], 'plan': plan}
    env.owner = phases.new_owner()
    stack = phases.lock(env)
    run_ = StackRun(store, env.vault, env.conn, stack, None)
    run_.hook_registry = hooks.stored_registry(stack.get('definition'))
    try:
        with prefetch.deleting(run_, run_.rows.values()):
            status, reason = phases.walk(env, run_, 'DELETE', delete_steps(run_, {}))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        if status == 'FAILED':
            hooks.forget(store, stack['id'])
        run_.log.stack('DELETE', status, reason)
        view = stack_view(store.stack_by_id(stack['id']), run_, None)
        if status == 'COMPLETE':
            store.delete_stack(stack['id'])
        return {'changed': True, 'stack': view, 'resources': resource_views(run_),
                'events': run_.log.events}
    finally:
        if store.stack_by_id(stack['id']) is not None:
            store.unlock(stack['id'], env.owner)


def _action(env, stack, action):
    """Suspend or resume every resource; takes the lock unless the run
    holds it already (a present run resuming a suspended stack)."""
    store, vault = env.store, env.vault
    done = stack['action'] == action and stack['status'] == 'COMPLETE'
    if env.request.check_mode or done:
        return {'changed': not done, 'stack': stack_view(stack, None, _outputs(vault, stack)),
                'resources': [], 'events': []}
    own = env.owner is None
    if own:
        env.owner = phases.new_owner()
        stack = phases.lock(env)
    run_ = StackRun(store, vault, env.conn, stack, None)
    try:
        status, reason = phases.walk(env, run_, action, action_steps(run_, action))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        run_.log.stack(action, status, reason)
        stack = store.stack_by_id(stack['id'])
        return {'changed': True, 'stack': stack_view(stack, run_, _outputs(vault, stack)),
                'resources': resource_views(run_), 'events': run_.log.events}
    finally:
        if own:
            store.unlock(stack['id'], env.owner)


def _outputs(vault, stack):
    return vault.decrypt(stack['outputs']) if stack.get('outputs') else None


__all__ = ['StackRequest', 'run', 'owner_alive', 'StackTimeout']
