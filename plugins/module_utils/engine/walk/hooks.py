# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Environment hooks (breakpoints) across runs.

Heat keeps a hooked resource waiting inside the running action until a
signal ``{unset_hook: <hook>}`` clears it (Resource._break_if_required,
its ``data`` key ``<hook> = "True"``).  Here no process waits: the run
that reaches a hook records it *pending* in the stack's ``hooks`` column,
says so with Heat's event ("CREATE paused until Hook pre-create is
cleared") and ends IN_PROGRESS once every step not behind the hook is
done.  ``clear`` (heat_resource_signal's ``unset_hook``) turns *pending*
into *cleared* with Heat's event ("Hook pre-create is cleared"); the next
run of the same action goes past a cleared hook and marks it *passed*, so
a resource meets its hook once per stack action, as in Heat, even when
the action takes several runs (a later hook elsewhere pauses it again).
The states are dropped when the action ends (finished or failed), so the
next action pauses there again.

Which action meets which hook is Heat's: pre-create only in a stack
CREATE (a resource added by an update is not held), pre-update for every
existing resource an UPDATE walks (changed or not, replaced or not), and
pre-delete only in a stack DELETE (not for a resource an update removes
or replaces).  post-create holds a resource made by a stack CREATE once it
is COMPLETE (its dependents wait), post-update one updated in place by an
UPDATE; the run after it finds the resource done (kept) and holds it
again until the hook is cleared.  post-delete is not held: the row is
gone once deleted, so there is nothing left to hold (a difference).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError
from ...hot.environment import merge_environments
from ...hot.registry_entries import HOOK_TYPES
from ..definition.hook_words import ACTION_OF, cleared_reason, paused_reason
from ..store.sqlite import now_iso

PENDING, CLEARED, PASSED = 'pending', 'cleared', 'passed'
# the reason of a stack whose run ended with resources held
PAUSED_AT = 'Paused at hooks of: '
TYPE = 'type'


class HookPending(StackersError):
    """A pre-<action> hook of the environment holds this resource."""


class InvalidBreakPointHook(StackersError):
    """Heat's refusal of an ``unset_hook`` it cannot apply."""


def paused(stack):
    """Whether ``stack`` (a store row) ended its last run held at hooks."""
    return bool(stack) and stack.get('status') == 'IN_PROGRESS' and \
        (stack.get('status_reason') or '').startswith(PAUSED_AT)


def registry_of(run):
    """The resource registry whose ``hooks`` the run obeys: its
    definition's, else the one a delete loaded from the record."""
    if run.sd is not None:
        return getattr(run.sd.environment, 'registry', None)
    return getattr(run, 'hook_registry', None)


def stored_registry(definition):
    """The registry of a stored definition's environments (a stack delete
    has no definition to run, but its pre-delete hooks are there)."""
    envs = [e.get('data') or {} for e in (definition or {}).get('environment') or ()]
    if not envs:
        return None
    return merge_environments(envs, files=(definition or {}).get('files') or None).registry


def _action(run):
    action = getattr(run, 'action', None)
    return action or (run.stack or {}).get('action')


def applies(run, name, hook):
    """Whether ``hook`` is set on resource ``name`` for this run's action."""
    if ACTION_OF.get(hook) != _action(run) or run.check_mode:
        return False
    registry = registry_of(run)
    return registry is not None and registry.matches_hook(name, hook)


def hold(run, name, hook, row, type_name, *, recorded_only=False):
    """Raise HookPending when ``hook`` holds resource ``name`` in this run
    (recording it pending, with Heat's event); return when it lets it go
    on: no such hook, another action, or cleared since it paused.
    ``recorded_only``: hold only a resource this action already held (a
    post-* hook met again by the next run, where the resource is kept)."""
    if not applies(run, name, hook):
        return
    going = []

    def change(hooks):
        entry = dict(hooks.get(name) or {})
        if recorded_only and hook not in entry:
            going.append(True)
            return hooks
        if entry.get(hook) in (CLEARED, PASSED):
            entry[hook] = PASSED
            going.append(True)
        else:
            entry[hook] = PENDING
            entry[TYPE] = type_name
        hooks[name] = entry
        return hooks
    run.store.change_hooks(run.stack['id'], change)
    if going:
        return
    action, status = (row.action, row.status) if row is not None else ('INIT', 'COMPLETE')
    run.log.resource(_Shown(name, type_name, row), action, status, paused_reason(hook))
    raise HookPending('resource "%s" is paused by its %s hook' % (name, hook), resource=name)


class _Shown(object):
    """What an event shows of a resource that may have no row yet."""

    def __init__(self, name, type_name, row):
        self.name = name
        self.type = type_name
        self.physical_id = row.physical_id if row is not None else None


def pending(hooks, name):
    """The hooks pending on resource ``name`` (``hooks``: a stack's column)."""
    entry = (hooks or {}).get(name) or {}
    return sorted(h for h, state in entry.items() if h != TYPE and state == PENDING)


def check_clear(stack, name, hook, row=None):
    """Heat's refusals of ``{unset_hook: hook}`` on resource ``name`` of
    ``stack`` (its store row), in Heat's order; nothing is written."""
    described = _described(stack, name, row)
    if hook not in HOOK_TYPES:
        raise InvalidBreakPointHook('Invalid hook type "%s" for %s' % (hook, described))
    if hook not in pending(stack.get('hooks'), name):
        raise InvalidBreakPointHook('The "%s" hook is not defined on %s' % (hook, described))


def clear(store, stack, name, hook, row=None):
    """Clear ``hook`` pending on resource ``name`` of ``stack`` (its store
    row), as Heat's signal ``{unset_hook: hook}`` does: Heat's refusals,
    then its event.  Answers the event."""
    if hook not in HOOK_TYPES:
        check_clear(stack, name, hook, row)
    found = []

    def change(hooks):
        entry = dict(hooks.get(name) or {})
        if entry.get(hook) == PENDING:
            entry[hook] = CLEARED
            hooks[name] = entry
            found.append(entry.get(TYPE))
        return hooks
    now = store.change_hooks(stack['id'], change)
    if not found:
        check_clear(dict(stack, hooks=now), name, hook, row)
    action, status = (row.action, row.status) if row is not None else ('INIT', 'COMPLETE')
    event = {'resource_name': name, 'resource_type': row.type if row is not None else found[0],
             'physical_resource_id': (row.physical_id if row is not None else None) or '',
             'resource_action': action, 'resource_status': status,
             'resource_status_reason': cleared_reason(hook)}
    return _stored_event(store, stack, event)


def _described(stack, name, row):
    """Heat's ``str(resource)``: class, name, [physical id], its stack."""
    kind = row.type if row is not None else ((stack.get('hooks') or {}).get(name) or {}).get(TYPE)
    kind = (kind or 'Resource').split('::')[-1]
    physical = ' [%s]' % row.physical_id if row is not None and row.physical_id else ''
    return '%s "%s"%s Stack "%s" [%s]' % (kind, name, physical, stack['name'], stack['id'])


def _stored_event(store, stack, event):
    event = store.add_event(stack['id'], dict(event, event_time=now_iso()))
    event.pop('stack_id', None)
    event.pop('seq', None)
    return event


def forget(store, stack_id):
    """Drop the hook states of a stack and of its nested stacks: their
    action ended, so the next one meets every hook again."""
    store.update_stack(stack_id, hooks=None)
    for child in store.children(stack_id):
        forget(store, child['id'])
