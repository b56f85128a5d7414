# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``signal(request, conn)``: what heat_resource_signal does, without Ansible.

A signal to an OS::Heat::ScalingPolicy scales its AutoScalingGroup as
Heat's policy does (AutoScalingGroup.adjust): the group's stored
properties and scaling marks decide (resources/heat/scaling.py
plan_adjustment: Heat's refusals, in Heat's order: the group not COMPLETE,
no change of capacity, a scaling in progress, the cooldown), then the stack
runs again from its stored definition with the group at its new size
(``StackRequest.resize``): members go failed first, then oldest; new ones
are made; whatever reads the group follows.  A refused signal changes
nothing and says why (Heat drops it without an event).  Check mode says
what the signal would do.

A signal to a wait's handle (OS::Heat::WaitConditionHandle,
SwiftSignalHandle, the AWS ones) is PUT to the handle's TempURL, as an
agent sends it (resources/heat/_swift_signal.py): the store is only read
(the URL in the handle's row), no lock is taken, so it works while another
run waits on that handle.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import datetime
import json
from typing import Any, Dict, Optional

from ...errors import StackersError, StackNotFound
from ...resources.heat import _swift_signal as swift_signal
from ...resources.heat import scaling
from ...resources.heat.signal_handles import URL as HANDLE_URL
from ...resources.heat.template_resource import NESTED_STACK
from ..walk import hooks
from ..store.owner import new_owner
from . import phases, runner, unhealthy
from ...resources.heat.autoscaling_group import ASG, SCALING
from ...resources.heat.group_kinds import members_of
from ..store.records import CURRENT
from .request import Invocation, StackRequest
from ..store.backends import open_store
from ..read.view import stack_view

POLICY = 'OS::Heat::ScalingPolicy'
HANDLES = ('OS::Heat::WaitConditionHandle', 'OS::Heat::SwiftSignalHandle',
           'AWS::CloudFormation::WaitConditionHandle', 'OS::Heat::UpdateWaitConditionHandle')


@dataclasses.dataclass
class SignalRequest:
    """heat_resource_signal's options (see the module's docs)."""
    stack: str
    resource: str
    _keywords: dataclasses.KW_ONLY
    data: Optional[Dict[str, Any]] = None
    # Heat's mark-unhealthy (unhealthy.py): True, False, or None to signal
    mark_unhealthy: Optional[bool] = None
    reason: Optional[str] = None
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    store_key: Optional[str] = None
    lock_timeout: float = 0
    max_concurrency: int = 10
    check_mode: bool = False
    project_id: Optional[str] = None
    checker: Any = None


def signal(request, conn, now=None):
    store = open_store(request.store_path, request.store_url, conn)
    try:
        stack = store.get_stack(request.stack)
        if stack is None or stack.get('parent_id'):
            raise StackNotFound('Stack "%s" not found' % request.stack)
        if request.mark_unhealthy is not None or _unset_hook(request.data) is not None:
            return _health_or_hook(request, store, stack)
        rows = dict((r.name, r) for r in store.resources(stack['id']) if r.role == CURRENT)
        policy = rows.get(request.resource)
        if policy is None:
            raise StackersError('The Resource (%s) could not be found in stack %s.'
                                % (request.resource, request.stack))
        if policy.type in HANDLES:
            return _signal_handle(request, conn, store, stack, policy)
        if policy.type != POLICY:
            raise StackersError('Resource "%s" (%s) takes no signal here: only %s and the wait '
                                'handles do' % (request.resource, policy.type, POLICY))
        group, adjustment = _adjustment(store, rows, policy, now or _now())
        vault = store.vault(request.store_key)
        outputs = vault.decrypt(stack['outputs']) if stack.get('outputs') else None
        members = _members(store, group)
        told = {'resource': policy.name, 'group': group.name, 'size': scaling.current_size(members)}
        if adjustment.refusal:
            return {'changed': False, 'stack': stack_view(stack, None, outputs),
                    'signal': dict(told, refused=adjustment.refusal)}
        told['new_size'] = adjustment.capacity
        # which members a scale-in removes (failed ones, then the oldest): check mode says it too
        removed = scaling.scale_to(members, adjustment.capacity)[1]
        if removed:
            told['removed'] = removed
        if request.check_mode:
            return {'changed': True, 'stack': stack_view(stack, None, outputs), 'signal': told}
    finally:
        store.close()
    result = _scale(request, conn, stack, group, adjustment, now=now)
    result['signal'] = told
    return result


def _signal_handle(request, conn, store, stack, row):
    """PUT the signal to the handle's TempURL; the stack as the store has it."""
    url = (row.facts or {}).get(HANDLE_URL)
    if not url:
        raise StackersError('Resource "%s" (%s) has no signal URL: %s' % (
            row.name, row.type, 'its signal_transport is NO_SIGNAL' if row.status == 'COMPLETE'
            else 'it is %s_%s' % (row.action, row.status)))
    told = {'resource': row.name, 'handle': row.type}
    if not request.check_mode:
        body = '' if request.data is None else json.dumps(request.data)
        swift_signal.put_signal(conn, url, body.encode('utf-8'))
    vault = store.vault(request.store_key)
    outputs = vault.decrypt(stack['outputs']) if stack.get('outputs') else None
    return {'changed': True, 'stack': stack_view(stack, None, outputs), 'signal': told}


def _unset_hook(data):
    return data.get('unset_hook') if isinstance(data, dict) else None


def _health_or_hook(request, store, stack):
    """``unset_hook`` (hooks.clear) or mark-unhealthy (unhealthy.mark) on
    the resource the request names; the stack as the store has it."""
    located = locate(store, stack, request.resource)
    told = {'resource': request.resource}
    if request.mark_unhealthy is not None:
        changed, events = unhealthy.mark(request, store, stack, located)
        told['mark_unhealthy'] = request.mark_unhealthy
    else:
        hook = _unset_hook(request.data)
        where, name, row = located
        events = [] if request.check_mode else [hooks.clear(store, where, name, hook, row)]
        if request.check_mode:
            hooks.check_clear(where, name, hook, row)
        elif where['id'] != stack['id']:
            events[0]['stack_name'] = where['name']
        changed, told['unset_hook'] = True, hook
    stack = store.stack_by_id(stack['id'])
    vault = store.vault(request.store_key)
    outputs = vault.decrypt(stack['outputs']) if stack.get('outputs') else None
    return {'changed': changed, 'stack': stack_view(stack, None, outputs), 'signal': told,
            'events': events}


def locate(store, stack, path):
    """(stack row, resource name, its current row or None) of ``path``: a
    resource's name, a nested one's ``parent/child`` path (as ``openstack
    stack hook clear`` takes it), or a physical id; a resource that only
    waits at a pre-create hook has no row yet."""
    parts = [p for p in path.split('/') if p]
    where = stack
    for i, name in enumerate(parts):
        rows = [r for r in store.resources(where['id']) if r.role == CURRENT]
        row = next((r for r in rows if r.name == name), None)
        if row is None and len(parts) == 1:
            row = next((r for r in rows if path in (r.physical_id, r.reference_id)), None)
            name = row.name if row is not None else name
        if i == len(parts) - 1:
            if row is not None or name in (where.get('hooks') or {}):
                return where, name, row
            break
        child = row.facts.get(NESTED_STACK) if row is not None else None
        where = store.stack_by_id(child) if child else None
        if where is None:
            break
    raise StackersError('The Resource (%s) could not be found in Stack %s.'
                        % (path, stack['name']))


def _now():
    return datetime.datetime.now(datetime.timezone.utc)


def _members(store, group):
    child = group.facts.get(NESTED_STACK)
    return members_of(store.resources(child)) if child else []


def _adjustment(store, rows, policy, now):
    """(the scaling group, scaling.Adjustment) of a signal to ``policy``."""
    props = policy.properties or {}
    ref = props.get('auto_scaling_group_id')
    group = next((r for r in rows.values()
                  if r.type == ASG and ref in (r.reference_id, r.physical_id)), None)
    if group is None:
        raise StackersError('Alarm %s could not find scaling group named "%s"' % (policy.name, ref))
    gprops = group.properties or {}
    members = _members(store, group)
    adjustment = scaling.plan_adjustment(
        {'name': group.name, 'complete': group.status == 'COMPLETE',
         'min_size': gprops.get('min_size') or 0, 'max_size': gprops.get('max_size'),
         'cooldown': gprops.get('cooldown')},
        {'scaling_adjustment': props.get('scaling_adjustment'),
         'adjustment_type': props.get('adjustment_type') or scaling.CHANGE_IN_CAPACITY,
         'min_adjustment_step': props.get('min_adjustment_step'), 'cooldown': props.get('cooldown')},
        group.facts.get(SCALING) or {}, now, scaling.current_size(members))
    return group, adjustment


def _scale(request, conn, stack, group, adjustment, *, now=None):
    """Run the stack again with the group at its new size, its scaling
    marks written around the run (in progress, then the cooldown)."""
    _marks(request, conn, stack, group.name, lambda marks: adjustment.metadata)
    run_request = StackRequest(
        stack['name'], existing=True, store_path=request.store_path, store_url=request.store_url, store_key=request.store_key,
        lock_timeout=request.lock_timeout, max_concurrency=request.max_concurrency,
        tags=stack.get('tags'), timeout=(stack.get('timeout_mins') or 60) * 60,
        rollback=not stack.get('disable_rollback', 1), project_id=request.project_id,
        checker=request.checker, resize={group.name: adjustment.capacity})
    try:
        result = runner.run(run_request, conn)
    except BaseException:
        _marks(request, conn, stack, group.name, lambda marks: scaling.mark_finished(
            marks, adjustment.cooldown, adjustment.reason, now or _now(), size_changed=False))
        raise
    status = (result.get('stack') or {}).get('stack_status') or ''
    _marks(request, conn, stack, group.name, lambda marks: scaling.mark_finished(
        marks, adjustment.cooldown, adjustment.reason, now or _now(),
        size_changed=status.endswith('COMPLETE')))
    return result


def _marks(request, conn, stack, name, change):
    """Change the group's scaling marks under the stack's lock."""
    store = open_store(request.store_path, request.store_url, conn)
    try:
        lock_only = StackRequest(stack['name'], lock_timeout=request.lock_timeout)
        invocation = Invocation(request=lock_only, conn=None, store=store, vault=None,
                                owner=new_owner())
        phases.lock(invocation)
        try:
            row = next(r for r in store.resources(stack['id']) if r.name == name and r.role == CURRENT)
            data = dict(row.facts)
            data[SCALING] = change(data.get(SCALING) or {})
            store.save_resource(row.replace(data=data), touch=False)
        finally:
            store.unlock(stack['id'], invocation.owner)
    finally:
        store.close()
