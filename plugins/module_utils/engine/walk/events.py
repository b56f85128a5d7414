# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A run's Heat events: recorded in the store as they happen (never in
check mode, nor for a stack not stored yet) and kept in order for the
result, reasons masked."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import uuid

from ..store.sqlite import now_iso

STACK_TYPE = 'OS::Heat::Stack'


class EventLog(object):
    """The events of one run of one stack (``stack``: its store row, or None
    before it exists)."""

    def __init__(self, store, stack, masker, check_mode=False):
        stack = stack or {}
        self.store = store
        self.stack_id = stack.get('id')
        self.stack_name = stack.get('name')
        self.masker = masker
        self.check_mode = check_mode
        self.events = []
        self._lock = threading.Lock()
        # A nested stack's log copies its events to its parent's (the run's
        # result lists them, each with its ``stack_name``, as
        # ``openstack stack event list --nested-depth`` does).
        self.parent = None
        # Called once, before this log's first resource event: a nested
        # stack's parent resource goes IN_PROGRESS when the first of its
        # resources does (an update that touches none of them records nothing).
        self.before_first = None
        self._first = threading.Lock()
        # whether a resource event (its own or a nested stack's) was recorded:
        # not told by the type, an OS::Heat::Stack resource has the stack events'
        self._resource_events = False
        self._changed_names = set()
        # What deletes with deletion_policy Snapshot kept (an image, a
        # backup): the resource's row, and with it the id, is gone once it
        # is deleted, and Heat's DELETE_COMPLETE event does not say it.
        self.snapshots = []

    def resource(self, row, action, status, reason='state changed'):
        """A resource's event (``row``: its ResourceRow)."""
        if self.before_first is not None:
            with self._first:       # every other writer waits until it ran
                hook, self.before_first = self.before_first, None
                if hook is not None:
                    hook()
        return self._record({'resource_name': row.name, 'resource_type': row.type,
                             'physical_resource_id': row.physical_id or '',
                             'resource_action': action, 'resource_status': status,
                             'resource_status_reason': self.masker.text(reason),
                             'event_time': now_iso()}, resource=True)

    def stack(self, action, status, reason):
        """The stack's own event."""
        return self._record({'resource_name': self.stack_name, 'resource_type': STACK_TYPE,
                             'physical_resource_id': self.stack_id or '',
                             'resource_action': action, 'resource_status': status,
                             'resource_status_reason': self.masker.text(reason),
                             'event_time': now_iso()})

    def kept(self, row, kept):
        """A snapshot a delete kept: ``kept`` names it (``{'image_id': id}``)."""
        self.add_snapshot(dict(kept, resource_name=row.name, resource_type=row.type,
                               physical_resource_id=row.physical_id or ''))

    def add_snapshot(self, entry):
        """Keep ``entry`` (a nested stack's, from its log: its
        ``stack_name`` added, as its events have)."""
        with self._lock:
            self.snapshots.append(entry)
        if self.parent is not None:
            self.parent.add_snapshot(dict(entry, stack_name=entry.get('stack_name')
                                          or self.stack_name))

    def changed_resources(self, names=None):
        """True when this run recorded an event of a resource (of one of
        ``names``, when given)."""
        if names is None:
            return self._resource_events
        with self._lock:
            return bool(self._changed_names.intersection(names))

    def _record(self, event, resource=False):
        with self._lock:
            self._resource_events = self._resource_events or resource
            if resource:
                self._changed_names.add(event['resource_name'])
            if not self.check_mode and self.stack_id:
                event = self.store.add_event(self.stack_id, event)
                event.pop('stack_id', None)
                event.pop('seq', None)
            else:       # Heat's API gives every event an id, a stack check's too
                event['id'] = str(uuid.uuid4())
            self.events.append(event)
        if self.parent is not None:
            self.parent.echo(dict(event, stack_name=self.stack_name), resource)
        return event

    def echo(self, event, resource=False):
        """Keep a nested stack's event (already stored with its stack)."""
        with self._lock:
            self.events.append(event)
            self._resource_events = self._resource_events or resource
        if self.parent is not None:
            self.parent.echo(event, resource)
