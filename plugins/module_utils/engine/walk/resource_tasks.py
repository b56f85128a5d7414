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

import dataclasses
import math
import time
import uuid
from typing import Any, List

from ...errors import (CloudConflict, CloudError, CloudNotFound, NestedStackFailure, ResourceFailure,
                       StackersError)
from ...resources.base import ResourceContext, physical_name
from ...resources.sdk import translate, warm
from . import hooks
from .create_attempts import create_proven, in_error, retry_delay, settle
from .hooks import HookPending
from .planner import CREATE, KEEP, REPLACE, UNFINISHED, UPDATE, Desired, decide_desired, desired
from ..store.records import CURRENT, NEW, OLD, ResourceRow
from .scheduler import RELEASE


def failure_reason(exc, name):
    """Heat's resource_status_reason for a failure: ``Kind: resources.<name>: msg``."""
    if isinstance(exc, NestedStackFailure):
        return exc.reason
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
        # A failure Heat words with an exception name of its own (a wait's
        # WaitConditionTimeout), or on another resource (its handle).
        kind = exc.details.get('kind') or 'ResourceInError'
        name = exc.details.get('where') or name
    elif isinstance(exc, StackersError):
        kind = type(exc).__name__
    else:
        kind = 'InternalError'   # a bug: still recorded, never lost
    return '%s: resources.%s: %s' % (kind, name, exc)


def apply_resource(run, name):
    """Create, update, replace or keep one desired resource."""
    defn = run.sd.resources[name]
    row = run.current(name)
    want = desired(run, name)
    decision = decide_desired(run, row, want)
    run.decisions[name] = decision
    if row is not None:
        # Heat holds every existing resource an update walks, changed or not
        hooks.hold(run, name, 'pre-update', row, defn.type)
    elif decision.action == CREATE:
        hooks.hold(run, name, 'pre-create', row, defn.type)
    if decision.action == KEEP:
        # made or updated earlier in this action and held after it (post-*)
        hooks.hold(run, name, 'post-create', row, defn.type, recorded_only=True)
        hooks.hold(run, name, 'post-update', row, defn.type, recorded_only=True)
        facts = _delete_facts(run, name, row.data)
        if facts != row.facts:
            row = run.save(row.replace(data=facts))
        run.seam.publish(row)
        return decision
    step = _Step(run=run, want=want, plugin=run.plugin(defn.type, name),
                 requires=sorted(run.seam.requires.get(name, ())))
    if decision.action == CREATE:
        resume = row if decision.reason == 'resume' else None
        if row is not None and resume is None:
            run.forget(row)    # a record of something that no longer exists
        work = _create(step, CURRENT, resume=resume)
    elif decision.action == UPDATE:
        work = _update(step, row, decision)
    else:
        work = _replace(step, row)
    result = yield from work
    return result if result is not None else decision


@dataclasses.dataclass(frozen=True)
class _Step:
    """One desired resource's step: the run, what the template wants of it,
    its plugin and the names it requires (kept in its row)."""
    run: Any
    want: Desired
    plugin: Any
    requires: List[str]


def _create(step, role, resume=None):
    run, want, plugin = step.run, step.want, step.plugin
    defn = run.sd.resources[want.name]
    if run.adopting is not None and role == CURRENT and resume is None:
        return _adopt(step)     # one read, nothing to wait for
    changes = dict(properties=want.masked, metadata=run.masker.mask(want.metadata),
                   requires=step.requires)
    if resume is not None:
        # (a FAILED create's row too: in progress again)
        row = resume.replace(action='CREATE', status='IN_PROGRESS', status_reason='state changed',
                             **changes)
    else:
        row = ResourceRow(uuid=str(uuid.uuid4()), stack_id=run.stack['id'], name=want.name,
                          role=role, type=defn.type,
                          physical_name=physical_name(run.stack['name'], want.name,
                                                      limit=plugin.physical_name_limit),
                          action='CREATE', status='IN_PROGRESS', status_reason='state changed',
                          **changes)
    row = run.save(row)                  # the intended name is on disk before the call
    run.log.resource(row, 'CREATE', 'IN_PROGRESS')
    ctx = _context(run, row, want.props, action='CREATE')
    made = [row, ctx]       # what _build holds now: a failure is recorded on it
    try:
        if want.external_id:
            ctx.physical_id = want.external_id
            if plugin.show(ctx) is None:
                ctx.fail('The external resource %s does not exist' % want.external_id)
            yield from _poll(run, row, ctx, plugin.check_create_complete)
        else:
            yield from _build(step, made, resume)
            row, ctx = made
        later = plugin.create_later(ctx)
        held = role == CURRENT and hooks.applies(run, want.name, 'post-create')
        if later is not None and (role != CURRENT or held):
            # A replacement ('new') is published by _replace once the roles
            # have moved: no dependent starts before that, so nothing is won
            # by doing this after its COMPLETE.
            later()
            later = None
    except Exception as exc:  # noqa: B902 - recorded as the resource's failure, then re-raised
        _failed(run, made[0], made[1], 'CREATE', exc)
        raise
    if later is not None:
        ctx.data[UNFINISHED] = True
    row = _complete(run, row, ctx, 'CREATE')
    if held:
        hooks.hold(run, want.name, 'post-create', row, row.type)
    if role == CURRENT:
        run.seam.publish(row)
    if later is not None:
        yield RELEASE
        row = _finish(run, row, ctx, later)
    return row


def _adopt(step):
    """Heat's adopt of one resource (resource.py handle_adopt): the physical
    id and the data Heat's abandon data gives it taken as they are, the
    object read once (the plugin's ``show``: it must exist), nothing made,
    changed or waited for: ADOPT_IN_PROGRESS, ADOPT_COMPLETE."""
    run, want, plugin = step.run, step.want, step.plugin
    defn = run.sd.resources[want.name]
    row = ResourceRow(uuid=str(uuid.uuid4()), stack_id=run.stack['id'], name=want.name,
                      role=CURRENT, type=defn.type,
                      physical_name=physical_name(run.stack['name'], want.name,
                                                  limit=plugin.physical_name_limit),
                      action='ADOPT', status='IN_PROGRESS', status_reason='state changed',
                      properties=want.masked, metadata=run.masker.mask(want.metadata),
                      requires=step.requires)
    row = run.save(row)
    run.log.resource(row, 'ADOPT', 'IN_PROGRESS')
    ctx = _context(run, row, want.props, action='ADOPT')
    try:
        if not want.external_id:
            ctx.fail('Resource ID was not provided.', kind='Exception')
        ctx.physical_id = want.external_id
        entry = run.adopting.get(want.name) or {}
        plugin.from_heat_resource_data(ctx, dict(entry.get('resource_data') or {}))
        live = plugin.show(ctx)
        if live is None:
            ctx.fail('The physical resource %s (%s) of the adopt data does not exist'
                     % (want.external_id, defn.type), kind='NotFound')
        if live:
            ctx.live = live     # the attributes are read from it: no second request
    except Exception as exc:  # noqa: B902 - recorded as the resource's failure, then re-raised
        _failed(run, row, ctx, 'ADOPT', exc)
        raise
    row = _complete(run, row, ctx, 'ADOPT')
    run.seam.publish(row)
    return row


def _build(step, made, resume):
    """Make the object (unless the row has it) and wait until it is built.
    One that goes to an error status (ResourceInError) is deleted and made
    again under the same physical name, as Heat's action_retry_limit does:
    CREATE_FAILED, DELETE_IN_PROGRESS, DELETE_COMPLETE, a wait of 2**n
    seconds and up to 2 more, CREATE_IN_PROGRESS.  The row stays FAILED with
    the old object's id until that one is gone, so a run killed meanwhile
    replaces it; once every try is spent, the first failure stands.
    ``made`` is [row, ctx], kept current for the caller."""
    run, plugin = step.run, step.plugin
    row, ctx = made
    first, count = None, 0
    wait = settle(resume)
    if wait:
        yield wait           # the dead run's last request is handled by then
    while True:
        if ctx.physical_id is None:
            if resume is not None:
                ctx.physical_id = plugin.find(ctx)
            if ctx.physical_id is None:
                ctx.physical_id = create_proven(plugin, ctx)
            row = run.save(row, ctx)     # the physical id, the moment it is known
            made[0] = row
        try:
            yield from _poll(run, row, ctx, plugin.check_create_complete)
            return
        except ResourceFailure as exc:
            if not in_error(exc):
                raise
            first, failure = first or exc, exc
            if count >= run.action_retry_limit:
                raise first from None
        count += 1
        row = made[0] = _failed(run, row, ctx, 'CREATE', failure)
        gone = _context(run, row, step.want.props, action='DELETE')
        run.log.resource(row, 'DELETE', 'IN_PROGRESS')
        plugin.delete(gone)
        yield from _poll(run, row, gone, plugin.check_delete_complete)
        run.log.resource(row, 'DELETE', 'COMPLETE')
        yield retry_delay(count)
        row = run.save(row.replace(physical_id=None, data={}, secret_data=None, action='CREATE',
                                   status='IN_PROGRESS', status_reason='state changed'))
        run.log.resource(row, 'CREATE', 'IN_PROGRESS')
        ctx = _context(run, row, step.want.props, action='CREATE')
        made[:] = [row, ctx]
        # a resumed create keeps ``resume``, so it looks again: what the dead
        # run's request made may have appeared since (and may be why ours
        # failed: it holds the port)


def _finish(run, row, ctx, later):
    """Run a create's deferred work, then clear the row's UNFINISHED."""
    try:
        later()
    except Exception as exc:  # noqa: B902 - recorded; the flag stays for the next run
        _failed(run, run.rows.get(row.uuid, row), ctx, 'CREATE', exc)
        raise
    ctx.data.pop(UNFINISHED, None)
    return run.save_data(row, ctx)


def _context(run, row, properties=None, **kwargs):
    """The handlers' context, the SDK's proxy of their service made first
    (once per run and service: sdk.warm)."""
    warm(run.conn, row.type)
    return run.context(row, properties, **kwargs)


def _poll(run, row, ctx, check):
    yield from looks(run.plugin(row.type, row.name), ctx, check, lambda: run.save(row, ctx))


def looks(plugin, ctx, check, on_change=None):
    """Look with ``check(ctx)`` until it answers True, waiting between
    looks as poll_delay says; ``on_change()`` when a look changed
    ``ctx.data`` (a row's poll commits it)."""
    data = dict(ctx.data)
    started = time.monotonic()
    soon = False
    # Actions the plugin knows are never done at once (a server's build, a
    # volume's create): the first look waits instead of costing a call.
    if ctx.action in plugin.slow_actions:
        yield poll_delay(0.0, plugin.poll_interval, started)
    while True:
        looked = time.monotonic()
        ctx.look_soon = False
        if check(ctx):
            return
        if ctx.data != data:
            data = dict(ctx.data)
            if on_change is not None:
                on_change()
        # look_soon: the plugin saw an object made beside this one move.
        # Never two short waits in a row: while a hundred servers end one
        # by one, each still building looks at most twice as often.
        soon = ctx.look_soon and not soon
        waited = 0.0 if soon else looked - started
        yield poll_delay(waited, plugin.poll_interval, time.monotonic(), looked=looked)


# When to look again at a resource still in transition.  The wait is 15% of
# the time already waited (from FIRST_POLL up to the plugin's
# poll_interval), counted from when the last look started, and ends on the
# nearest tick shared by every poll of about the same length (a multiple of
# a power of two seconds not longer than the wait), so resources of a kind
# building side by side are looked at together and one list call answers
# them all (resources/poll_batch.py).  Ticks stay FIRST_POLL or more apart,
# which poll_batch.JOIN_WINDOW relies on.
# - Counted from the look's start, not its answer: counted from the answer,
#   the cloud's answer time would add to every wait, and rounding to the
#   nearest tick would then skip one (a 0.25 s poll looking every 0.5 s).
#   A look still leaves MIN_GAP after the last answer.
# - 15%, not a quarter: builds of a few seconds (servers, on a stack's
#   critical path) are seen about twice as soon after their end, for about
#   twice the looks, and one list call answers the looks of all of them;
#   long builds are seen as late either way.  bench/README.md ("What shaped
#   the engine") has the figures of the unit test's model.
FIRST_POLL = 0.25
POLL_FRACTION = 0.15
MIN_GAP = 0.05


def poll_delay(waited, cap, now, looked=None):
    """Seconds from ``now`` to the next look, ``waited`` seconds into the
    wait; the last look started at ``looked`` (``now`` when not given)."""
    delay = min(cap, max(FIRST_POLL, waited * POLL_FRACTION))
    if delay <= 0:
        return 0.0
    base = now if looked is None else min(looked, now)
    step = 2.0 ** math.floor(math.log(delay, 2))
    due = round((base + delay) / step) * step
    if due - base < delay / 2:
        due += step
    while due - now < MIN_GAP:
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


def _complete(run, row, ctx, action):
    plugin = run.plugin(row.type, row.name)
    ctx.data = _delete_facts(run, row.name, ctx.data)
    reference_id = plugin.reference_id(ctx)
    if reference_id is not None and not isinstance(reference_id, str):
        reference_id = str(reference_id)
    row = row.replace(action=action, status='COMPLETE', status_reason='state changed',
                      reference_id=reference_id, attrs=run.cacheable_attributes(plugin, ctx))
    row = run.save(row, ctx)
    run.log.resource(row, action, 'COMPLETE')
    return row


def _failed(run, row, ctx, action, exc):
    reason = failure_reason(exc, row.name)
    # What was cached of the object before the action is no longer known to
    # be true: the row keeps what the failed action left (a deployment's
    # outputs of the failed run, which ``stack failures list`` shows), or
    # nothing, computed on use.
    attrs = run.cacheable_attributes(run.plugin(row.type, row.name), ctx)
    row = run.save(row.replace(action=action, status='FAILED', status_reason=run.masker.text(reason),
                               attrs=attrs), ctx)
    run.log.resource(row.replace(physical_id=ctx.physical_id), action, 'FAILED', reason)
    if isinstance(exc, ResourceFailure) and exc.resource is None:
        exc.resource = row.name
    return row


def _update(step, row, decision):
    run, want, plugin = step.run, step.want, step.plugin
    row = run.save(row.replace(action='UPDATE', status='IN_PROGRESS',
                               status_reason='state changed', requires=step.requires))
    run.log.resource(row, 'UPDATE', 'IN_PROGRESS')
    ctx = _context(run, row, want.props, action='UPDATE', changed=decision.changed,
                   old_properties=row.properties)
    try:
        if ctx.data.get(UNFINISHED):
            later = plugin.create_later(ctx)
            if later is not None:
                later()
            ctx.data.pop(UNFINISHED)
        if decision.changed:
            plugin.update(ctx)
            yield from _poll(run, row, ctx, plugin.check_update_complete)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, 'UPDATE', exc)
        raise
    row = _complete(run, row.replace(properties=want.masked,
                                     metadata=run.masker.mask(want.metadata)), ctx, 'UPDATE')
    if decision.changed:
        hooks.hold(run, row.name, 'post-update', row, row.type)
    run.seam.publish(row)
    return row


def _replace(step, old):
    """Heat's convergence order: the new one is made, dependents move to it,
    and the old one is deleted by the cleanup step; a type whose new object
    cannot coexist with the old (a unique name) deletes the old first."""
    run = step.run
    run.log.resource(old, 'UPDATE', 'IN_PROGRESS', 'Replacing the resource')
    if step.plugin.replace_deletes_first:
        yield from delete_row(run, old)
        row = yield from _create(step, CURRENT)
        return row
    row = yield from _create(step, NEW)
    run.set_roles([(old.uuid, OLD), (row.uuid, CURRENT)])
    row = row.replace(role=CURRENT)
    run.seam.publish(row)
    return row


def delete_row(run, row, policy=None):
    """Delete what one row stands for (Heat's deletion_policy applied)."""
    plugin = run.plugin(row.type, row.name)
    ctx = _context(run, row, action='DELETE')
    if row.role == CURRENT:
        hooks.hold(run, row.name, 'pre-delete', row, row.type)
    wait = settle(row) if ctx.physical_id is None and row.physical_name else 0.0
    if wait:
        yield wait    # a dead run's create: its request is handled by then
    # Heat's handle_snapshot_delete is given the state before the delete
    # (a FAILED resource gets no snapshot); ('DELETE', 'IN_PROGRESS') is a
    # delete a killed run left, whose snapshot the plugin resumes.
    before = (row.action, row.status)
    row = run.save(row.replace(action='DELETE', status='IN_PROGRESS', status_reason='state changed'))
    run.log.resource(row, 'DELETE', 'IN_PROGRESS')
    try:
        if ctx.physical_id is None and row.physical_name:
            ctx.physical_id = plugin.find(ctx)    # a create interrupted before its commit
        if ctx.physical_id is not None and policy not in ('Retain', 'adopted'):
            if policy == 'Snapshot' and plugin.snapshot is not None:
                yield from _snapshot(run, row, ctx, before)
            plugin.delete(ctx)
            yield from _poll(run, row, ctx, plugin.check_delete_complete)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, 'DELETE', exc)
        raise
    run.log.resource(row.replace(physical_id=ctx.physical_id), 'DELETE', 'COMPLETE')
    run.forget(row)


def _snapshot(run, row, ctx, before):
    """deletion_policy Snapshot: the plugin's snapshot, its id committed
    before the first look (a run killed while it is made resumes it rather
    than making another), waited for, then named in the run's result."""
    plugin = run.plugin(row.type, row.name)
    kept = plugin.snapshot(ctx, before)
    if not kept:
        return
    row = run.save(row, ctx)
    yield from _poll(run, row, ctx, plugin.check_snapshot_complete)
    run.log.kept(row, kept)


# Heat's handlers of suspend and resume: (start, check) on the plugin.
ACTION_HANDLERS = {'SUSPEND': ('suspend', 'check_suspend_complete'),
                   'RESUME': ('resume', 'check_resume_complete')}


def action_row(run, row, action):
    """Suspend or resume one resource (Heat's handle_suspend/resume)."""
    plugin = run.plugin(row.type, row.name)
    start, check = ACTION_HANDLERS[action]
    ctx = _context(run, row, action=action)
    row = run.save(row.replace(action=action, status='IN_PROGRESS', status_reason='state changed'))
    run.log.resource(row, action, 'IN_PROGRESS')
    try:
        getattr(plugin, start)(ctx)
        yield from _poll(run, row, ctx, getattr(plugin, check))
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        _failed(run, row, ctx, action, exc)
        raise
    run.save(row.replace(status='COMPLETE'), ctx)
    run.log.resource(row, action, 'COMPLETE')


# The state a stack snapshot gives a plugin's ``snapshot`` (resources/base.py).
STACK_SNAPSHOT = ('SNAPSHOT', 'IN_PROGRESS')


def snapshot_row(run, row, keep):
    """Heat's SNAPSHOT of one resource (handle_snapshot): the row goes
    SNAPSHOT_IN_PROGRESS, the plugin's snapshot (if the type has one) is
    made from a copy of its data and waited for, and ``keep(entry)`` is
    given the resource's entry of the snapshot's data (Heat's shape: name,
    resource_id, type, action, status, metadata, resource_data) as soon as
    the snapshot's ids are known, and again once it is COMPLETE."""
    plugin = run.plugin(row.type, row.name)
    ctx = _context(run, row, action='SNAPSHOT')
    own = ctx.data
    ctx.data = dict(own)       # the snapshot's ids are the record's, never the row's
    row = run.save(row.replace(action='SNAPSHOT', status='IN_PROGRESS', status_reason='state changed'))
    run.log.resource(row, 'SNAPSHOT', 'IN_PROGRESS')
    entry = {'name': row.name, 'resource_id': row.physical_id, 'type': row.type,
             'action': 'SNAPSHOT', 'status': 'IN_PROGRESS',
             'metadata': row.metadata if row.metadata is not None else {}, 'resource_data': {}}
    try:
        kept = plugin.snapshot(ctx, STACK_SNAPSHOT) if plugin.snapshot is not None and \
            ctx.physical_id is not None else None
        if kept:
            names = plugin.heat_snapshot_keys
            entry['resource_data'] = dict((names.get(k, k), v) for k, v in kept.items())
            keep(dict(entry))      # what to delete, should the run end here
            yield from looks(plugin, ctx, plugin.check_snapshot_complete)
    except Exception as exc:  # noqa: B902 - recorded, then re-raised
        ctx.data = own
        _failed(run, row, ctx, 'SNAPSHOT', exc)
        raise
    row = run.save(row.replace(status='COMPLETE'))
    run.log.resource(row, 'SNAPSHOT', 'COMPLETE')
    keep(dict(entry, status='COMPLETE'))


def delete_snapshot_data(conn, plugin, entry):
    """Heat's delete_snapshot of one resource's entry in a snapshot's data:
    its image or backup deleted and waited for (nothing for a type that
    keeps none)."""
    data = dict(entry.get('resource_data') or {})
    if plugin.delete_snapshot is None or not data:
        return
    ctx = ResourceContext(conn, name=entry.get('name'), type_name=entry.get('type'),
                          physical_id=entry.get('resource_id'), data=data, action='DELETE_SNAPSHOT')
    plugin.delete_snapshot(ctx, data)
    yield from looks(plugin, ctx, plugin.check_delete_snapshot_complete)


__all__ = ['apply_resource', 'delete_row', 'action_row', 'snapshot_row', 'delete_snapshot_data',
           'HookPending', 'CREATE', 'UPDATE', 'REPLACE', 'KEEP', 'failure_reason']
