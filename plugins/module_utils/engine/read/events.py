# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stack's events as ``openstack stack event list`` shows them, and its
failed leaves as ``openstack stack failures list`` does: read from the
store only (heat_stack_info's engine, with info.py).

Heat's API joins an event's action and status (``CREATE_COMPLETE``), names
the resource twice (``resource_name``, ``logical_resource_id``) and, with
``--nested-depth``, heatclient adds each event's ``stack_name``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError
from ..definition.hook_words import cleared_reason, paused_reason
from ..store.records import CURRENT
from .view import _status

# What ``--sort`` may name (heatclient's list, less ``links``).
SORT_KEYS = ('event_time', 'resource_name', 'logical_resource_id', 'resource_status',
             'resource_status_reason', 'physical_resource_id', 'id')
DEPLOYMENTS = ('OS::Heat::SoftwareDeployment', 'OS::Heat::StructuredDeployment')
DEPLOY_OUTPUTS = ('deploy_stdout', 'deploy_stderr', 'deploy_status_code')


def event_view(event, stack_name=None):
    """One stored event (action and status apart) in Heat's API shape."""
    view = {'id': event.get('id'), 'resource_name': event['resource_name'],
            'logical_resource_id': event['resource_name'],
            'physical_resource_id': event.get('physical_resource_id') or '',
            'resource_status': _status(event.get('resource_action'), event.get('resource_status')),
            'resource_status_reason': event.get('resource_status_reason'),
            'event_time': event.get('event_time')}
    if stack_name is not None:
        view['stack_name'] = stack_name
    return view


def api_events(events):
    """A run's events (as the store keeps them, a nested stack's with its
    ``stack_name``) in Heat's API shape, the same as ``stack_events``'s; one
    already in that shape is kept as it is."""
    return [event_view(e, e.get('stack_name')) if 'resource_action' in e else dict(e)
            for e in events or ()]


def stack_events(store, stack, depth=0, named=None, *, gone=None):
    """The stack's events, its nested stacks' ``depth`` levels down merged
    in, oldest first; with a depth each names its ``stack_name``.

    As Heat lists them, only the nested stacks still there are merged: Heat
    soft-deletes a nested stack, and its event list with a nested depth
    reads live stacks alone.  A follower (follow.py) must print every event
    of a delete, so it gives ``gone``, {stack id: trace} of the stacks of
    the tree that were deleted (the store's ``nested_traces``, and a deleted
    top-level stack's own ``deleted``): a stack there is read from its
    trace, and a deleted nested stack is merged as a live one."""
    gone = gone or {}
    named = depth > 0 if named is None else named
    kept = gone.get(stack['id'])
    events = kept['events'] if kept is not None else store.events(stack['id'])
    own = [event_view(e, stack['name'] if named else None) for e in events]
    if depth <= 0:
        return own
    for child in _children(store, stack, gone):
        own = _merge(own, stack_events(store, child, depth - 1, True, gone=gone), child['parent_resource'],
                     child['name'])
    return own


def _children(store, stack, gone):
    """The nested stacks of ``stack``, live or in ``gone``; each once (a
    Swift reader may see a stack both live and in its trace: the trace is
    the later)."""
    traced = [t['stack'] for t in gone.values() if t['stack'].get('parent_id') == stack['id']]
    # a deleted stack has no live child: not asked (a Swift store would list every stack)
    live = [] if stack['id'] in gone else [c for c in store.children(stack['id']) if c['id'] not in gone]
    return sorted(live + traced, key=lambda c: (c.get('created_time') or '', c['name']))


def _merge(own, nested, holder, child=None):
    """Two oldest-first lists as one.  Times have a second's resolution, so
    a tie is decided by what must come first: a nested stack's events
    happen inside its holder's action, so an event that ends the holder's
    (or the stack's own) action comes after the nested ones of the same
    second; any other goes before them (heatclient sorts by time alone).
    But an action of the nested stack ``child`` (its name) starts inside an
    action of its holder: its IN_PROGRESS event goes before an ending one
    only while the holder's action waits for it (the holder's IN_PROGRESS
    out, no action of ``child`` started since); else it starts a later
    action, as when a fast nested stack is made then deleted in one second."""
    out, i, j = [], 0, 0
    waiting = False
    while i < len(own) and j < len(nested):
        a, b = own[i], nested[j]
        if a['event_time'] < b['event_time'] or (
                a['event_time'] == b['event_time'] and not (
                    _ends(a, holder) and (waiting or not _starts(b, child)))):
            out.append(a)
            i += 1
            if a['resource_name'] == holder:
                waiting = (a.get('resource_status') or '').endswith('IN_PROGRESS')
        else:
            out.append(b)
            j += 1
            waiting = waiting and not _starts(b, child)
    return out + own[i:] + nested[j:]


def _ends(event, holder):
    if (event.get('resource_status') or '').endswith('IN_PROGRESS'):
        return False
    return event['resource_name'] in (holder, event.get('stack_name'))


def _starts(event, child):
    """The event starts an action of nested stack ``child``."""
    return (child is not None and event['resource_name'] == child == event.get('stack_name')
            and (event.get('resource_status') or '').endswith('IN_PROGRESS'))


# heatclient's hook poll: the stack action -> the hook that may hold resources in it
_HOOK_OF = {'CREATE': 'pre-create', 'UPDATE': 'pre-update', 'DELETE': 'pre-delete'}


def pending_hooks(stack, events):
    """heatclient's ``stack hook poll``: the events of the resources held
    at a hook of the stack's action under way (the hook of its status),
    from the action's start, less those whose hook was cleared since.
    ``events``: the stack's, as ``stack_events`` lists them (a nested
    depth includes its nested stacks')."""
    if stack.get('status') != 'IN_PROGRESS':
        raise StackersError('Stack status %s not IN_PROGRESS' % _status(stack.get('action'), stack.get('status')))
    hook = _HOOK_OF.get(stack.get('action'))
    if hook is None:
        raise StackersError('Unexpected stack status %s, only create, update and delete supported'
                            % _status(stack.get('action'), stack.get('status')))
    action = stack['action']
    paused, cleared = paused_reason(hook), cleared_reason(hook)
    started = [i for i, e in enumerate(events)
               if e['resource_status_reason'] == 'Stack %s started' % action
               and e.get('stack_name', stack['name']) == stack['name']]
    pending = {}
    for event in events[started[-1] if started else 0:]:
        key = (event.get('stack_name', stack['name']), event['resource_name'])
        if event['resource_status_reason'] == paused:
            pending[key] = event
        elif event['resource_status_reason'] == cleared:
            pending.pop(key, None)
    return list(pending.values())


def select_events(events, resource=None, marker=None, limit=None, sort=None):
    """Heat's event list options: ``resource`` (only that resource's
    events), ``sort`` (``key[:asc|desc]`` items; ``:desc`` alone is by time),
    then ``marker`` (the events after that id) and ``limit``."""
    if resource is not None:
        events = [e for e in events if e['resource_name'] == resource]
    # Times have a second's resolution: events of one second keep the order
    # they happened in (reversed with the time), which the list is in.
    order = dict((id(e), i) for i, e in enumerate(events))
    for key, reverse in reversed(_sort_keys(sort or ())):
        events = sorted(events, key=lambda e, k=key: (
            e.get(k) is not None, e.get(k) or '', order[id(e)] if k == 'event_time' else 0),
            reverse=reverse)
    if marker:
        ids = [e['id'] for e in events]
        if marker not in ids:
            raise StackersError('No event with id %s among the events asked for (marker)' % marker)
        events = events[ids.index(marker) + 1:]
    if limit is not None:
        if limit < 0:
            raise StackersError('limit must be 0 or more, not %s' % limit)
        events = events[:limit]
    return events


def _sort_keys(sort):
    keys = []
    for item in sort:
        key, _sep, direction = str(item).partition(':')
        key = key or 'event_time'
        direction = (direction or 'asc').lower()
        if key not in SORT_KEYS or direction not in ('asc', 'desc'):
            raise StackersError('Cannot sort events by "%s": use key[:asc|desc] with a key of %s'
                                % (item, ', '.join(SORT_KEYS)))
        keys.append((key, direction == 'desc'))
    return keys


def failures(store, stack):
    """heatclient's ``stack failures list``: for a FAILED stack, each failed
    resource keyed by its dotted path from the stack's name; a failed nested
    stack's resource stands for itself only when none of its own resources
    failed.  A software deployment adds its recorded ``deploy_stdout``,
    ``deploy_stderr`` and ``deploy_status_code``."""
    out = {}
    if stack.get('status') != 'FAILED':
        return out
    _failed_leaves(store, stack, [stack['name']], out)
    return out


def _failed_leaves(store, stack, path, out):
    children = dict((c['parent_resource'], c) for c in store.children(stack['id']))
    appended = False
    rows = sorted(store.resources(stack['id'], roles=(CURRENT,)), key=lambda r: r.seq or 0)
    for row in rows:
        if row.status != 'FAILED':
            continue
        here = path + [row.name]
        child = children.get(row.name)
        if child is None or not _failed_leaves(store, child, here, out):
            item = {'resource_type': row.type, 'physical_resource_id': row.physical_id or '',
                    'status': _status(row.action, row.status), 'status_reason': row.status_reason}
            if row.type in DEPLOYMENTS:
                for key in DEPLOY_OUTPUTS:
                    if key in (row.attrs or {}):
                        item[key] = row.attrs[key]
            out['.'.join(here)] = item
        appended = True
    return appended
