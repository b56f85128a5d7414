# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``run(request, conn)``: what heat_stack does, without Ansible.

present, in phases (phases.py): validate (everything first: no cloud
write before the whole template, its parameters and every type are known
good; then lock the stack and decide create or update), converge the
record to the definition in parallel, then finish (outputs, the stack's
end) or, when the run failed and asked for it, roll back (rollback.py);
a cancel (cancel.py) stops the walk and decides the rollback instead.
absent: its snapshots' images and backups deleted (snapshot.py), then
converge to nothing.  abandoned: drop the record, answer Heat's
abandon data (abandon.py).  suspended: suspend every resource, users
first.  Check mode never takes the lock nor writes: it reads the cloud
(stack check) and answers the plan.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ...errors import StackersError, StackNotFound, StackTimeout
from ...resources import transport
from ..walk import hooks
from . import adopt, cancel, phases, prefetch, rollback, snapshot as snapshots
from .abandon import abandon
from .check import plan_and_check
from .collector import spaced_collections
from ..walk.converge import action_steps, delete_steps
from ..store.owner import new_owner, owner_alive
from .request import Invocation, StackRequest
from ..walk.run_state import StackRun
from ..store.sqlite import now_iso
from ..store.backends import open_store
from ..read.view import nested_resource_views, resource_views, stack_view, with_snapshots


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
        invocation = Invocation(request=request, conn=conn, store=store,
                                vault=store.vault(request.store_key),
                                cancel=request.cancel or cancel.CancelToken())
        stack = store.get_stack(request.name)
        if request.state == 'absent':
            return _delete(invocation, stack)
        if request.state == 'abandoned':
            return abandon(invocation, stack)
        if request.adopt_data is not None and request.state == 'present':
            return _with_nested(invocation, adopt.adopt(invocation, stack))
        if request.state == 'suspended' and request.template is None:
            if stack is None:
                raise StackNotFound('Stack "%s" not found: nothing to suspend' % request.name)
            return _with_nested(invocation, _action(invocation, stack, 'SUSPEND'))
        return _with_nested(invocation, _present(invocation, stack))
    finally:
        store.close()


def _with_nested(invocation, result):
    """The nested stacks' resources added to the result's, as the
    request's ``nested_depth`` asks (as recorded: in check mode, before the
    run)."""
    stack = result.get('stack')
    if invocation.request.nested_depth and stack:
        result['resources'] = list(result['resources']) + nested_resource_views(
            invocation.store, stack['id'], invocation.request.nested_depth)
    return result


# -- present --------------------------------------------------------------------

def _present(invocation, stack):
    goal = phases.validate(invocation, stack)
    if invocation.request.check_mode:
        return plan_and_check(invocation, goal)
    diff = phases.diff(invocation, goal) if invocation.request.diff else None
    result = _apply(invocation, goal)
    if diff is not None:
        result['diff'] = diff
    return result


def _apply(invocation, goal):
    """Lock, decide create or update, converge, then finish or roll back."""
    store, stack = invocation.store, goal.stack
    # a create paused at hooks goes on as the same CREATE (its pre-create
    # hooks hold, as Heat's waiting create does)
    creating = stack is None or (stack['action'] == 'CREATE' and stack['status'] != 'COMPLETE'
                                 and (not store.resources(stack['id'])
                                      or hooks.paused(stack)))
    fields = {'id': goal.stack_id, 'action': 'CREATE', 'status': 'IN_PROGRESS',
              'created_time': now_iso(), 'salt': uuid.uuid4().hex,
              'disable_rollback': 0 if invocation.request.rollback else 1,
              'project_id': invocation.request.project_id}
    invocation.owner = new_owner()
    stack = phases.lock(invocation, create=fields)
    try:
        resumed = None
        # a stack suspended, or left part suspended (a suspend or resume that
        # failed or was killed), is resumed first: present means running
        if stack['action'] == 'SUSPEND' or (stack['action'] == 'RESUME' and
                                            stack['status'] != 'COMPLETE'):
            resumed = _action(invocation, stack, 'RESUME')
            stack = store.stack_by_id(goal.stack_id)
        converged = phases.converge(invocation, goal, stack, 'CREATE' if creating else 'UPDATE')
        if cancel.rolls_back(invocation, converged):
            result = rollback.roll_back(invocation, goal, converged)
        else:
            result = phases.finish(invocation, converged)
        if resumed is not None:
            result['events'] = resumed['events'] + result['events']
            result['changed'] = True
        return result
    finally:
        store.unlock(goal.stack_id, invocation.owner)


# -- absent / suspend / resume -------------------------------------------------

def _delete(invocation, stack):
    store = invocation.store
    if stack is None:
        return {'changed': False, 'stack': None, 'resources': [], 'events': []}
    if invocation.request.check_mode:
        plan = [{'resource_name': r.name, 'resource_type': r.type, 'action': 'delete',
                 'reason': 'the stack is deleted'} for r in store.resources(stack['id'])]
        return {'changed': True, 'stack': stack_view(stack, None, None), 'resources': [],
                'events': [], 'plan': plan}
    invocation.owner = new_owner()
    stack = phases.lock(invocation)
    run_ = StackRun(store, invocation.vault, invocation.conn, stack, None)
    run_.hook_registry = hooks.stored_registry(stack.get('definition'))
    try:
        try:
            # Heat deletes the stack's snapshots, their images and backups, with it
            snapshots.delete_all(invocation, stack)
        except StackersError as exc:
            store.update_stack(stack['id'], action='DELETE', status='FAILED', status_reason=str(exc))
            run_.log.stack('DELETE', 'FAILED', str(exc))
            return {'changed': True, 'stack': stack_view(store.stack_by_id(stack['id']), run_, None),
                    'resources': resource_views(run_), 'events': run_.log.events}
        with prefetch.deleting(run_, run_.rows.values()):
            status, reason = phases.walk(invocation, run_, 'DELETE', delete_steps(run_, {}))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        if status == 'FAILED':
            hooks.forget(store, stack['id'])
        run_.log.stack('DELETE', status, reason)
        view = stack_view(store.stack_by_id(stack['id']), run_, None)
        if status == 'COMPLETE':
            store.delete_stack(stack['id'])
        return with_snapshots({'changed': True, 'stack': view, 'resources': resource_views(run_),
                               'events': run_.log.events}, run_)
    finally:
        if store.stack_by_id(stack['id']) is not None:
            store.unlock(stack['id'], invocation.owner)


def _action(invocation, stack, action):
    """Suspend or resume every resource; takes the lock unless the run
    holds it already (a present run resuming a suspended stack)."""
    store, vault = invocation.store, invocation.vault
    done = stack['action'] == action and stack['status'] == 'COMPLETE'
    if invocation.request.check_mode or done:
        return {'changed': not done, 'stack': stack_view(stack, None, _outputs(vault, stack)),
                'resources': [], 'events': []}
    own = invocation.owner is None
    if own:
        invocation.owner = new_owner()
        stack = phases.lock(invocation)
    run_ = StackRun(store, vault, invocation.conn, stack, None)
    try:
        status, reason = phases.walk(invocation, run_, action, action_steps(run_, action))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        run_.log.stack(action, status, reason)
        stack = store.stack_by_id(stack['id'])
        return {'changed': True, 'stack': stack_view(stack, run_, _outputs(vault, stack)),
                'resources': resource_views(run_), 'events': run_.log.events}
    finally:
        if own:
            store.unlock(stack['id'], invocation.owner)


def _outputs(vault, stack):
    return vault.decrypt(stack['outputs']) if stack.get('outputs') else None


__all__ = ['StackRequest', 'run', 'owner_alive', 'StackTimeout']
