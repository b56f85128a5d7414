# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's stack snapshot and restore without Heat: ``snapshot(request,
conn)``, heat_stack_snapshot's engine.

- ``present`` (``openstack stack snapshot create``, Heat's stack_snapshot):
  under the stack's lock, a snapshot record is stored IN_PROGRESS, the
  stack goes SNAPSHOT_IN_PROGRESS and every resource, dependencies first,
  SNAPSHOT_IN_PROGRESS then SNAPSHOT_COMPLETE (Heat's events); a type that
  can snapshot makes its image or backup (the plugin's ``snapshot``, a
  server's Nova image, a volume's Cinder backup, resources/base.py), whose
  id the record keeps as soon as it is known.  The stack and the snapshot
  end SNAPSHOT_COMPLETE / COMPLETE "Stack SNAPSHOT completed successfully",
  or FAILED with the resource's reason.  The record keeps the stack's
  template, environment, files and parameters (hidden values encrypted, as
  the stack row keeps them).  A COMPLETE snapshot of the same name already
  there is the answer, unchanged.
- ``absent`` (``snapshot delete``, Heat's delete_snapshot): each resource's
  image or backup deleted (the plugin's ``delete_snapshot``), then the
  record.  Heat refuses a snapshot being made; so is one here while a run
  holds the stack (a dead run's IN_PROGRESS snapshot may go).
- ``restored`` (``openstack stack restore``, Heat's restore_data and
  update): the snapshot's inputs, each snapshotted resource's properties
  rewritten by its plugin's ``restore_properties`` (Heat's handle_restore:
  a server boots from the image, a volume gets the backup's ``backup_id``)
  in the template itself, as Heat's add_resource writes them, and the stack
  updated to that, recorded as RESTORE (RESTORE_IN_PROGRESS,
  RESTORE_COMPLETE); what must be recreated is.  A stack already restored
  to it changes nothing.
- Deleting a stack deletes its snapshots' images and backups first
  (``delete_all``, from runner.py), as Heat's stack delete does.

Check mode answers what each would do and writes nothing; a restore's
plan is heat_stack's (and its diff).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import dataclasses
import json
import time
import uuid
from typing import Any, Optional, Sequence

from ...errors import NotSupported, StackersError, StackNotFound
from ...hot import loader
from ...resources import registry
from ...resources.sdk import note_secret
from ..definition import inputs as defs
from ..read.snapshots import find, not_found, snapshot_view
from ..read.view import resource_views, stack_view
from ..store.backends import open_store
from ..store.owner import new_owner, owner_alive
from ..store.secrets import secret_strings
from ..walk.converge import action_steps
from ..walk.resource_tasks import delete_snapshot_data
from ..walk.run_state import StackRun
from ..store.sqlite import now_iso
from . import cancel, phases, rollback
from .check import plan_and_check
from .request import Goal, Invocation, StackRequest

# Heat's max_snapshots_per_stack (heat.conf's default).
MAX_SNAPSHOTS = 32
STATES = ('present', 'absent', 'restored')


@dataclasses.dataclass
class SnapshotRequest:
    """heat_stack_snapshot's options: the ``stack`` and the snapshot's
    ``name`` (or ``snapshot_id``: absent and restored), ``state``; the rest
    as heat_stack's (a restore is its update)."""
    stack: str
    _keywords: dataclasses.KW_ONLY
    name: Optional[str] = None
    snapshot_id: Optional[str] = None
    state: str = 'present'
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    store_key: Optional[str] = None
    timeout: Optional[float] = 3600
    max_concurrency: int = 10
    lock_timeout: float = 0
    check_mode: bool = False
    diff: bool = False
    project_id: Optional[str] = None
    checker: Any = None
    region_name: Optional[str] = None
    files_allowed_paths: Sequence[str] = ()
    max_snapshots: int = MAX_SNAPSHOTS


def snapshot(request, conn):
    """Create, delete or restore one snapshot of ``request.stack``."""
    if request.state not in STATES:
        raise StackersError('state must be one of %s, not %s' % (', '.join(STATES), request.state))
    if request.state == 'present' and not request.name:
        raise StackersError('A snapshot is made with a name')
    if request.name and request.snapshot_id:
        raise StackersError('Give the snapshot\'s name or its id, not both')
    if not request.name and not request.snapshot_id:
        raise StackersError('Name the snapshot (name, or its id)')
    store = open_store(request.store_path, request.store_url, conn)
    try:
        invocation = Invocation(request=_stack_request(request, None), conn=conn, store=store,
                                vault=store.vault(request.store_key), cancel=cancel.CancelToken())
        stack = store.get_stack(request.stack)
        if stack is None or stack.get('parent_id'):
            raise StackNotFound('The Stack (%s) could not be found.' % request.stack)
        if request.state == 'present':
            return create(invocation, stack, request.name, request.max_snapshots)
        found = find(store, stack, request.name, request.snapshot_id)
        if request.state == 'absent':
            return delete(invocation, stack, found)
        if not found:
            raise not_found(request.stack, request.name, request.snapshot_id)
        if len(found) > 1:
            raise StackersError('Stack %s has %d snapshots named %s: give the id of the one to restore (%s)'
                                % (request.stack, len(found), request.name, ', '.join(s['id'] for s in found)))
        invocation.request = _stack_request(request, stack)
        return restore(invocation, stack, found[0])
    finally:
        store.close()


def _stack_request(request, stack):
    """heat_stack's request of the stack's restore: its name, timeout,
    tags and rollback as the stack keeps them (Heat's restore_data)."""
    stack = stack or {}
    minutes = stack.get('timeout_mins')
    return StackRequest(
        request.stack, state='present', store_path=request.store_path, store_url=request.store_url,
        store_key=request.store_key, timeout=minutes * 60 if minutes else request.timeout,
        rollback=not stack.get('disable_rollback', 1), tags=stack.get('tags'),
        max_concurrency=request.max_concurrency, lock_timeout=request.lock_timeout,
        check_mode=request.check_mode, diff=request.diff, project_id=request.project_id,
        checker=request.checker, region_name=request.region_name,
        files_allowed_paths=request.files_allowed_paths)


# -- create -------------------------------------------------------------------------

def create(invocation, stack, name, limit=MAX_SNAPSHOTS):
    """Heat's stack_snapshot, waited for to its end (``limit``: Heat's
    max_snapshots_per_stack, -1: none)."""
    store, request = invocation.store, invocation.request
    done = [s for s in find(store, stack, name) if s['status'] == 'COMPLETE']
    if done:
        return {'changed': False, 'snapshot': snapshot_view(done[-1]),
                'stack': stack_view(stack, None, None)}
    if stack.get('status') == 'IN_PROGRESS':
        raise StackersError('Stack %s already has an action (%s) in progress.'
                            % (stack['name'], stack['action']), kind='ActionInProgress')
    if limit >= 0 and len(store.snapshots(stack['id'])) >= limit:
        raise StackersError('Request limit exceeded: You have reached the maximum snapshots per stack, %d. '
                            'Please delete some snapshots.' % limit)
    if request.check_mode:
        run = StackRun(store, invocation.vault, invocation.conn, stack, None, check_mode=True)
        return {'changed': True, 'snapshot': None, 'stack': stack_view(stack, None, None),
                'plan': _plan(run)}
    invocation.owner = new_owner()
    stack = phases.lock(invocation)
    try:
        if stack.get('status') == 'IN_PROGRESS':
            # a run killed mid-action left it so: Heat's refusal, as for a live one
            raise StackersError('Stack %s already has an action (%s) in progress.'
                                % (stack['name'], stack['action']), kind='ActionInProgress')
        record = {'id': str(uuid.uuid4()), 'stack_id': stack['id'], 'name': name, 'action': 'CREATE',
                  'status': 'IN_PROGRESS', 'status_reason': None, 'creation_time': now_iso(),
                  'inputs': stack.get('definition'), 'secrets': stack.get('secrets')}
        record['data'] = _data(stack, 'IN_PROGRESS')
        store.save_snapshot(record)
        run = StackRun(store, invocation.vault, invocation.conn, stack, None)
        kept = {}

        def keep(entry):
            kept[entry['name']] = entry
            store.save_snapshot(dict(record, data=dict(record['data'], resources=dict(kept))))
        status, reason = phases.walk(invocation, run, 'SNAPSHOT', action_steps(run, 'SNAPSHOT', keep))
        store.update_stack(stack['id'], status=status, status_reason=reason)
        run.log.stack('SNAPSHOT', status, reason)
        stack = store.stack_by_id(stack['id'])
        record = store.save_snapshot(dict(record, status=status, status_reason=reason,
                                          data=dict(_data(stack, status), resources=kept)))
        return {'changed': True, 'snapshot': snapshot_view(record),
                'stack': stack_view(stack, run, None), 'resources': resource_views(run),
                'events': run.log.events}
    finally:
        store.unlock(stack['id'], invocation.owner)


def _plan(run):
    """What a snapshot would make: one entry per resource whose type makes
    an image or a backup."""
    return [{'resource_name': row.name, 'resource_type': row.type, 'action': 'snapshot'}
            for row in run.rows.values() if row.role == 'current' and row.physical_id
            and run.plugin(row.type, row.name).snapshot is not None]


def _data(stack, status):
    """Heat's snapshot data of the stack (its prepare_abandon without the
    resources), no secret: the user environment as Heat's environment show
    answers it, hidden values masked."""
    inputs = stack.get('definition') or {}
    try:
        template = loader.load_text(inputs.get('template') or '', max_size=None).data
    except StackersError:
        template = inputs.get('template')
    shown = (stack.get('shown') or {}).get('environment') or {}
    return {'name': stack['name'], 'id': stack['id'], 'action': 'SNAPSHOT', 'status': status,
            'environment': copy.deepcopy(shown), 'files': dict(inputs.get('files') or {}),
            'template': template, 'resources': {}, 'project_id': stack.get('project_id'),
            'stack_user_project_id': None, 'tags': stack.get('tags') or None}


# -- delete ---------------------------------------------------------------------------

def delete(invocation, stack, found):
    """Heat's delete_snapshot of every snapshot in ``found`` (none: nothing
    to do)."""
    store = invocation.store
    if not found:
        return {'changed': False, 'snapshots': []}
    holder = store.lock_holder(stack['id'])
    making = holder is not None and holder[1] > time.time() and owner_alive(holder[0])
    for snap in found:
        # Heat refuses it; a snapshot a killed run left in progress may go
        if snap['action'] == 'CREATE' and snap['status'] == 'IN_PROGRESS' and making:
            raise NotSupported('Deleting in-progress snapshot')
    views = [snapshot_view(s) for s in found]
    if invocation.request.check_mode:
        return {'changed': True, 'snapshots': views}
    for snap in found:
        store.save_snapshot(dict(snap, action='DELETE', status='IN_PROGRESS',
                                 status_reason='Snapshot delete started'))
        try:
            delete_data(invocation, snap)
        except StackersError as exc:
            store.save_snapshot(dict(snap, action='DELETE', status='FAILED', status_reason=str(exc)))
            raise
        store.delete_snapshot(snap['id'])
    return {'changed': True, 'snapshots': views}


def delete_data(invocation, snap):
    """The images and backups of one snapshot deleted, one resource after
    another, each waited for."""
    deadline = time.monotonic() + float(invocation.request.timeout or 3600)
    for entry in ((snap.get('data') or {}).get('resources') or {}).values():
        if not entry.get('resource_data'):
            # a nested stack (Heat snapshots none of its resources), a type
            # that keeps nothing: Heat's delete_snapshot has nothing to do
            continue
        plugin = registry.require_supported(entry.get('type'), entry.get('name'))()
        for wait in delete_snapshot_data(invocation.conn, plugin, entry):
            if time.monotonic() + wait > deadline:
                raise StackersError('Resource snapshot DELETE failed: %s: Timed out' % entry.get('name'))
            time.sleep(wait)


def delete_all(invocation, stack):
    """Every snapshot of ``stack`` deleted with its images and backups
    (Heat's delete of a stack does so first); a failure fails the stack's
    delete as Heat words it, before any resource is deleted."""
    store = invocation.store
    for snap in store.snapshots(stack['id']):
        try:
            delete_data(invocation, snap)
        except StackersError as exc:
            raise StackersError('Stack %s failed when delete all snapshots: %s.' % (stack['id'], exc))
        store.delete_snapshot(snap['id'])


# -- restore --------------------------------------------------------------------------

def restore(invocation, stack, snap):
    """Heat's stack_restore: the stack updated to the snapshot, recorded as
    RESTORE."""
    if snap['status'] != 'COMPLETE' or snap['action'] != 'CREATE':
        raise NotSupported('Restoring incomplete snapshot')
    goal = _goal(invocation, stack, snap)
    result = None
    if invocation.request.check_mode:
        result = plan_and_check(invocation, goal)
        stored = defs.stored(defs.without_hidden(goal.inputs, goal.hidden))
        result['changed'] = result['changed'] or not phases.same_definition(stack.get('definition'), stored)
    else:
        diff = phases.diff(invocation, goal) if invocation.request.diff else None
        result = _apply(invocation, goal)
        if diff is not None:
            result['diff'] = diff
    result['snapshot'] = snapshot_view(snap)
    return result


def _goal(invocation, stack, snap):
    """The restored stack's Goal: the snapshot's inputs, its hidden values
    decrypted, each snapshotted resource's properties rewritten by its
    plugin (Heat's restore_data)."""
    inputs = copy.deepcopy(snap.get('inputs') or {})
    if not inputs.get('template'):
        raise StackersError('Snapshot %s of stack %s keeps no template: it cannot be restored'
                            % (snap['id'], stack['name']))
    hidden = invocation.vault.decrypt(snap['secrets']) if snap.get('secrets') else {}
    for value in secret_strings((hidden or {}).values()):
        note_secret(invocation.conn, value)
    params = inputs.setdefault('parameters', {})
    for key, value in (hidden or {}).items():
        params.setdefault(key, value)
    sd, _graph = phases.load(invocation.request, inputs, stack['id'])
    inputs['template'] = restored_template(sd, inputs['template'], snap)
    sd, graph = phases.load(invocation.request, inputs, stack['id'])
    nests = phases.nest_goals(invocation.request, sd, invocation.store, stack['id'])
    return Goal(stack=stack, stack_id=stack['id'], inputs=inputs, sd=sd, graph=graph,
                hidden=defs.hidden_values(sd), nests=nests)


def restored_template(sd, text, snap):
    """The template text with each snapshotted resource's ``properties``
    as its plugin's ``restore_properties`` makes them (the resource's
    type as the environment resolves it names the plugin)."""
    entries = (snap.get('data') or {}).get('resources') or {}
    template = loader.load_text(text, max_size=None).data
    resources = template.get('resources') if isinstance(template, dict) else None
    changed = False
    for name, entry in entries.items():
        defn = sd.resources.get(name)
        snippet = resources.get(name) if isinstance(resources, dict) else None
        if defn is None or not isinstance(snippet, dict) or not entry.get('resource_data'):
            continue
        plugin = _plugin_of(defn)
        if plugin is None or plugin.restore_properties is None:
            continue
        snippet['properties'] = plugin.restore_properties(dict(snippet.get('properties') or {}),
                                                          entry['resource_data'])
        changed = True
    return json.dumps(template, sort_keys=True, indent=2, default=str) if changed else text


def _plugin_of(defn):
    type_name = getattr(defn.type_info, 'plugin', None) or defn.type
    found = registry.PLUGINS.get(type_name)
    return found() if found is not None else None


def _apply(invocation, goal):
    """The update to ``goal``, recorded as RESTORE; rolled back as an update
    is when the stack does not disable rollback."""
    store = invocation.store
    invocation.owner = new_owner()
    stack = phases.lock(invocation)
    try:
        if stack.get('status') == 'IN_PROGRESS':
            raise StackersError('Stack %s already has an action (%s) in progress.'
                                % (stack['name'], stack['action']), kind='ActionInProgress')
        goal = dataclasses.replace(goal, stack=stack)
        converged = phases.converge(invocation, goal, stack, 'RESTORE')
        if cancel.rolls_back(invocation, converged):
            return rollback.roll_back(invocation, goal, converged)
        return phases.finish(invocation, converged)
    finally:
        store.unlock(goal.stack_id, invocation.owner)
