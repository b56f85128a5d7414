# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The work of one resource in a run, as scheduler generators.

Each generator yields the seconds until its next look while the cloud is
still busy (poll_delay) and returns when the resource is done.  Every transition is
committed and recorded as a Heat event before the next cloud call: the
row (with its intended physical name) before the create call, the physical
id the moment create returns it, the status when it settles.

What a create owes once its object is usable (the plugin's create_later:
the stack marks of a Neutron object) is done after the resource is COMPLETE
and its dependents are let start (the scheduler's RELEASE): each such call
was a round trip on the stack's critical path.  Until it is done the row
says so (planner.UNFINISHED), so a run killed in between, or a failure of
that call, is finished by the next run's update of the resource.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
import time
import uuid

from ..errors import CloudConflict, CloudError, CloudNotFound, ResourceFailure, StackersError
from ..resources.base import physical_name
from ..resources.sdk import translate, warm
from .planner import CREATE, KEEP, REPLACE, UNFINISHED, UPDATE
from .scheduler import RELEASE


class HookPending(StackersError):
    """A pre-<action> hook of the environment holds this resource."""


def failure_reason(exc, name):
    """Heat's resource_status_reason for a failure: ``Kind: resources.<name>: msg``."""
    if not isinstance(exc, StackersError):
        mapped = translate(exc)
        exc = mapped if mapped is not None else exc
    if isinstance(exc, CloudNotFound):
        kind = 'NotFound'
    elif isinstance(exc, CloudConflict):
        kind = 'Conflict'
    elif isinstance(exc, CloudError):
        kind = 'BadRequest' if exc.status == 400 else 'Error'
    elif isinstance(exc, ResourceFailure):
        kind = 'ResourceInError'
    elif isinstance(exc, StackersError):
        kind = type(exc).__name__
    else:
        kind = 'InternalError'   # a bug: still recorded, never lost
    return '%s: resources.%s: %s' % (kind, name, exc)


def _hooked(run, name, hook):
    registry = getattr(run.sd.environment, 'registry', None) if run.sd is not None else None
    return registry is not None and hook in registry.hooks(name)


def apply_resource(run, name):
    """Create, update, replace or keep one desired resource."""
    defn = run.sd.resources[name]
    plugin = run.plugin(defn.type, name)
    row = run.current(name)
    inputs = run.decision_inputs(name)
    props, masked, metadata = inputs['props'], inputs['masked'], inputs['metadata']
    external_id = inputs['external_id']
    decision = run.decide(name, row, inputs)
    run.decisions[name] = decision
    if decision.action == KEEP:
        facts = _delete_facts(run, name, row.get('data'))
        if facts != (row.get('data') or {}):
            row = run.save(dict(row, data=facts))
        run.publish(row)
        return decision
    hook = 'pre-create' if decision.action == CREATE else 'pre-update'
    if _hooked(run, name, hook):
        run.event(row or {'name': name, 'type': defn.type},
                  'CREATE' if decision.action == CREATE else 'UPDATE', 'IN_PROGRESS',
                  'Paused until Hook %s is cleared' % hook)
        raise HookPending('resource "%s" is paused by its %s hook' % (name, hook), resource=name)
    requires = sorted(run.requires.get(name, ()))
    if decision.action == CREATE:
        resume = row if decision.reason == 'resume' else None
        if row is not None and resume is None:
            run.forget(row)    # a record of something that no longer exists
        yield_from = _create(run, defn, plugin, props, masked, metadata, requires, 'current',
                             resume=resume, external_id=external_id)
    elif decision.action == UPDATE:
        yield_from = _update(run, row, plugin, props, masked, metadata, requires, decision)
    else:
        yield_from = _replace(run, defn, row, plugin, props, masked, metadata, requires)
    result = yield from yield_from
    return result if result is not None else decision


def _create(run, defn, plugin, props, masked, metadata, requires, role, resume=None,
            external_id=None):
    name = defn.name
    if resume is not None:
        row = dict(resume, properties=masked, metadata=run.mask(metadata), requires=requires)
    else:
        row = {'uuid': str(uuid.uuid4()), 'stack_id': run.stack['id'], 'name': name,
               'role': role, 'type': defn.type,
               'physical_name': physical_name(run.stack['name'], name,
                                              limit=plugin.physical_name_limit),
               'action': 'CREATE', 'status': 'IN_PROGRESS', 'status_reason': 'state changed',
               'properties': masked, 'metadata': run.mask(metadata), 'requires': requires}
    row = run.save(row)                  # the intended name is on disk before the call
    run.event(row, 'CREATE', 'IN_PROGRESS')
    ctx = _context(run, row, props, action='CREATE')
    try:
        if external_id:
            ctx.physical_id = external_id
            if plugin.show(ctx) is None:
                ctx.fail('The external resource %s does not exist' % external_id)
        elif ctx.physical_id is None:
            if resume is not None:
                ctx.physical_id = plugin.find(ctx)
            if ctx.physical_id is None:
                ctx.physical_id = plugin.create(ctx)
            row = run.save(row, ctx)     # the physical id, the moment it is known
        yield from _poll(run, row, ctx, plugin.check_create_complete, plugin)
        later = plugin.create_later(ctx)
        if later is not None and role != 'current':
            # A replacement ('new') is published by _replace once the roles
            # have moved: no dependent starts before that, so nothing is won
            # by doing this after its COMPLETE.
            later()
            later = None
    except Exception as exc:  # noqa: B902 - recorded as the resource's failure, then re-raised
        _failed(run, row, ctx, 'CREATE', exc)
        raise
    if later is not None:
        ctx.data[UNFINISHED] = True
    row = _complete(run, row, ctx, plugin, 'CREATE')
    if role == 'current':
        run.publish(row)
    if later is not None:
        yield RELEASE
        row = _finish(run, row, ctx, later, 'CREATE')
    return row


def _finish(run, row, ctx, later, action):
    """Run a create's deferred work, then clear the row's UNFINISHED."""
    try:
        later()
    except Exception as exc:  # noqa: B902 - recorded; the flag stays for the next run
        _failed(run, run.rows.get(row['uuid'], row), ctx, action, exc)
        raise
    ctx.data.pop(UNFINISHED, None)
    return run.save_data(row, ctx)


def _context(run, row, *args, **kwargs):
    """The handlers' context, the SDK's proxy of their service made first
    (once per run and service: sdk.warm)."""
    warm(run.conn, row['type'])
    return run.context(row, *args, **kwargs)


def _poll(run, row, ctx, check, plugin):
    data = dict(ctx.data)
    started = time.monotonic()
    # Actions the plugin knows are never done at once (a server's build, a
    # volume's create): the first look waits instead of costing a call.
    if ctx.action in plugin.slow_actions:
        yield poll_delay(0.0, plugin.poll_interval, started)
    while not check(ctx):
        if ctx.data != data:
            data = dict(ctx.data)
            run.save(row, ctx)
        now = time.monotonic()
        yield poll_delay(now - started, plugin.poll_interval, now)


# How long to wait before looking again at a resource still in transition.
# The wait is about a quarter of the time already waited (from FIRST_POLL up
# to the plugin's poll_interval), so a resource is seen done about an eighth
# later than it was on average, at most ~40%: a 3 s build costs about 9
# looks, a 60 s one about 35 at a 2 s poll_interval.  It ends on the nearest
# tick shared by every poll of about the same length (a multiple of a power
# of two seconds not longer than the wait), so resources of a kind building
# side by side are looked at together and one list call answers them all
# (resources/poll_batch.py).
FIRST_POLL = 0.25
POLL_FRACTION = 0.25


def poll_delay(waited, cap, now):
    delay = min(cap, max(FIRST_POLL, waited * POLL_FRACTION))
    if delay <= 0:
        return 0.0
    step = 2.0 ** math.floor(math.log(delay, 2))
    due = round((now + delay) / step) * step
    if due - now < delay / 2:
        due += step
    return due - now


def _delete_facts(run, name, data):
    """``data`` with what deleting the object later needs when the template
    no longer says it (stack delete, a removed resource): its deletion_policy
    and whether it was adopted (external_id), read by converge._policy."""
    data = dict(data or {})
    defn = run.sd.resources.get(name) if run.sd is not None else None
    if defn is None:
        return data
    data.pop('deletion_policy', None)
    if defn.deletion_policy:
        data['deletion_policy'] = defn.deletion_policy
    if defn.external_id is not None:
        data['adopted'] = True
    return data


def _complete(run, row, ctx, plugin, action):
    ctx.data = _delete_facts(run, row['name'], ctx.data)
    row = dict(row, action=action, status='COMPLETE', status_reason='state changed',
               reference_id=plugin.reference_id(ctx),
               attrs=run.cacheable_attributes(plugin, ctx))
    if row['reference_id'] is not None and not isinstance(row['reference_id'], str):
        row['reference_id'] = str(row['reference_id'])
    row = run.save(row, ctx)
    run.event(row, action, 'COMPLETE')
    return row


def _failed(run, row, ctx, action, exc):
    reason = failure_reason(exc, row['name'])
    row = dict(row, action=action, status='FAILED', status_reason=run.masked_text(reason))
    run.save(row, ctx)
    run.event(dict(row, physical_id=ctx.physical_id), action, 'FAILED', reason)
    if isinstance(exc, ResourceFailure) and exc.resource is None:
        exc.resource = row['name']


def _update(run, row, plugin, props, masked, metadata, requires, decision):
    row = run.save(dict(row, action='UPDATE', status='IN_PROGRESS',
                        status_reason='state changed', requires=requires))
    run.event(row, 'UPDATE', 'IN_PROGRESS')
    ctx = _context(run, row, props, action='UPDATE', changed=decision.changed,
                   old_properties=row.get('properties'))
    try:
        if ctx.data.get(UNFINISHED):
            later = plugin.create_later(ctx)
            if later is not None:
                later()
            ctx.data.pop(UNFINISHED)
        if decision.changed:
            plugin.update(ctx)
            yield from _poll(run, row, ctx, plugin.check_update_complete, plugin)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, 'UPDATE', exc)
        raise
    row = _complete(run, dict(row, properties=masked, metadata=run.mask(metadata)), ctx, plugin,
                    'UPDATE')
    run.publish(row)
    return row


def _replace(run, defn, old, plugin, props, masked, metadata, requires):
    """Heat's convergence order: the new one is made, dependents move to it,
    and the old one is deleted by the cleanup step; a type whose new object
    cannot coexist with the old (a unique name) deletes the old first."""
    run.event(old, 'UPDATE', 'IN_PROGRESS', 'Replacing the resource')
    if plugin.replace_deletes_first:
        yield from delete_row(run, old)
        row = yield from _create(run, defn, plugin, props, masked, metadata, requires, 'current')
        return row
    row = yield from _create(run, defn, plugin, props, masked, metadata, requires, 'new')
    run.set_roles([(old['uuid'], 'old'), (row['uuid'], 'current')])
    row = dict(row, role='current')
    run.publish(row)
    return row


def delete_row(run, row, policy=None):
    """Delete what one row stands for (Heat's deletion_policy applied)."""
    plugin = run.plugin(row['type'], row['name'])
    ctx = _context(run, row, action='DELETE')
    if _hooked(run, row['name'], 'pre-delete') and row['role'] == 'current':
        run.event(row, 'DELETE', 'IN_PROGRESS', 'Paused until Hook pre-delete is cleared')
        raise HookPending('resource "%s" is paused by its pre-delete hook' % row['name'],
                          resource=row['name'])
    row = run.save(dict(row, action='DELETE', status='IN_PROGRESS', status_reason='state changed'))
    run.event(row, 'DELETE', 'IN_PROGRESS')
    try:
        if ctx.physical_id is None and row.get('physical_name'):
            ctx.physical_id = plugin.find(ctx)    # a create interrupted before its commit
        if ctx.physical_id is not None and policy not in ('Retain', 'adopted'):
            if policy == 'Snapshot' and plugin.snapshot is not None:
                plugin.snapshot(ctx)
                yield from _poll(run, row, ctx, plugin.check_snapshot_complete, plugin)
            plugin.delete(ctx)
            yield from _poll(run, row, ctx, plugin.check_delete_complete, plugin)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, 'DELETE', exc)
        raise
    run.event(dict(row, physical_id=ctx.physical_id), 'DELETE', 'COMPLETE')
    run.forget(row)


def action_row(run, row, action, start, check):
    """Suspend or resume one resource (Heat's handle_suspend/resume)."""
    plugin = run.plugin(row['type'], row['name'])
    ctx = _context(run, row, action=action)
    row = run.save(dict(row, action=action, status='IN_PROGRESS', status_reason='state changed'))
    run.event(row, action, 'IN_PROGRESS')
    try:
        getattr(plugin, start)(ctx)
        yield from _poll(run, row, ctx, getattr(plugin, check), plugin)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, action, exc)
        raise
    run.save(dict(row, status='COMPLETE'), ctx)
    run.event(row, action, 'COMPLETE')


__all__ = ['apply_resource', 'delete_row', 'action_row', 'HookPending', 'CREATE', 'UPDATE',
           'REPLACE', 'KEEP', 'failure_reason']
