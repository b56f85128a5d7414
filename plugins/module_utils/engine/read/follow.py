# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One look of ``openstack stack event list --follow``, as heatclient's
``poll_for_events`` follows a stack: the events not printed yet, and
whether the stack's next action has ended.

A follower is a loop of looks (playbooks/events.yml), each a separate
process reading the store, so what it must remember travels in the
``follow`` state each look answers and the next one is given:

- ``stack_id``: the stack, once seen.  Later looks read it by id, so a
  stack deleted since is read from what its delete left (the store's
  ``deleted``, DELETE_COMPLETE, as Heat shows a deleted stack by id), and a
  new stack of the same name is not mistaken for it;
- ``seen``: the ids of the events printed, so each is printed once even
  when nested stacks' events come in between older ones;
- ``acted``, ``ended``: the action followed.  Heat's follower stops at the
  stack's own COMPLETE or FAILED event; here only after an IN_PROGRESS one
  (the stack in progress at the first look, or a later action started): a
  follower started before an update or a delete of a COMPLETE stack prints
  the history, then follows that action to its end.  A stack that is not
  there yet is waited for, and its create is the action followed;
- ``quiet``: looks in a row with no new event on a stack no longer in
  progress; as heatclient falls back to the stack's status after two
  polls with no event, two such looks end the follow without its end event.

``done`` is true once the action has ended and the stack is no longer
IN_PROGRESS (a failed update stays in progress through its rollback).

With a nested depth, a nested stack is deleted (its holder's delete, or an
update that drops or replaces it) before the action followed ends, often
between two looks: its events, the DELETE ones among them, are read from
the trace it left (the store's ``nested_traces``, kept a day) and merged as
a live one's, whether the stack followed is still there or deleted too.
So a follower's history at its first look also lists the nested stacks
deleted in the last day, which Heat's plain event list no longer does.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackNotFound
from .events import stack_events

QUIET_LOOKS = 2


def look(store, request):
    """heat_stack_info's answer with ``follow``: ``events`` (those not
    printed yet, oldest first), ``stack`` (as ``stack list`` shows it, once
    it exists) and ``follow`` (the state to give the next look)."""
    state = dict(request.follow or {})
    seen = list(state.get('seen') or [])
    found = _read(store, request, state.get('stack_id'))
    if found is None:
        state.update(waited=True, done=False)
        return {'changed': False, 'events': [], 'follow': state}
    stack, events = found
    known = set(seen)
    new = [e for e in events if e['id'] not in known]
    status = stack.get('status')
    acted, ended = bool(state.get('acted')), bool(state.get('ended'))
    if state.get('stack_id') is None and not state.get('waited'):
        # the first look: the history is printed; what it tells counts only
        # for an action still under way
        counted, acted = _current_action(events, stack, status)
    else:
        counted = new
    for event in counted:
        if _own(event, stack):
            if event['resource_status'].endswith('IN_PROGRESS'):
                acted, ended = True, False
            elif acted:
                ended = True
    quiet = state.get('quiet', 0) + 1 if not new and status != 'IN_PROGRESS' else 0
    done = acted and status != 'IN_PROGRESS' and (ended or quiet >= QUIET_LOOKS)
    state.update(stack_id=stack['id'], seen=seen + [e['id'] for e in new], acted=acted, ended=ended,
                 quiet=quiet, done=done)
    return {'changed': False, 'stack': _summary(stack), 'events': new, 'follow': state}


def _read(store, request, stack_id):
    """(stack row, its events as listed) of the stack followed, live or as
    its delete left it; None while it does not exist yet."""
    stack = store.get_stack(request.name)
    if stack is not None and (stack.get('parent_id') or stack_id not in (None, stack['id'])):
        stack = None
    depth = request.nested_depth
    if stack is not None:
        return stack, stack_events(store, stack, depth, gone=_gone(store, stack['id'], depth))
    if stack_id is None:
        return None
    record = store.deleted(stack_id)
    if record is None:
        raise StackNotFound('The Stack (%s) %s left the state store %s and nothing of its end is kept '
                            '(moved to another store, or deleted over a day ago)'
                            % (request.name, stack_id, store.path))
    gone = _gone(store, stack_id, depth)
    gone[stack_id] = record
    return record['stack'], stack_events(store, record['stack'], depth, gone=gone)


def _gone(store, stack_id, depth):
    """The traces of the nested stacks deleted in the tree of ``stack_id``
    (read only with a nested depth): their events, a delete's last ones
    among them, are printed although the stacks are no longer there."""
    return store.nested_traces(stack_id) if depth else {}


def _current_action(events, stack, status):
    """(the events of the action under way, whether one is) at a first
    look: from the stack's last IN_PROGRESS event on, when the stack is in
    progress or that event is its last own one."""
    own = [i for i, e in enumerate(events) if _own(e, stack)]
    last = own[-1] if own else None
    starts = [i for i in own if events[i]['resource_status'].endswith('IN_PROGRESS')]
    if status != 'IN_PROGRESS' and (last is None or last not in starts):
        return [], False
    return (events[starts[-1]:] if starts else []), True


def _own(event, stack):
    """The stack's own event (not a resource's, nor a nested stack's)."""
    return (event['resource_name'] == stack['name'] and event.get('physical_resource_id') == stack['id']
            and event.get('stack_name') in (None, stack['name']))


def _summary(stack):
    return {'id': stack['id'], 'stack_name': stack['name'],
            'stack_status': '%s_%s' % (stack.get('action'), stack.get('status')),
            'stack_status_reason': stack.get('status_reason'),
            'creation_time': stack.get('created_time'), 'updated_time': stack.get('updated_time')}
