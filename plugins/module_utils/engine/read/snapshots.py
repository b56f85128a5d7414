# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stack's snapshots as Heat's API shows them (``openstack stack
snapshot list`` and ``snapshot show``), read from the store alone: no cloud
call, no lock, no write.

Heat's shape (engine/api.py format_snapshot): ``id``, ``name``,
``action``, ``status``, ``status_reason``, ``data`` and ``creation_time``.
``data`` is what Heat keeps of the stack (its prepare_abandon without the
resources: name, id, action, status, environment, files, template,
project_id, stack_user_project_id, tags) with ``resources``, each
resource's snapshot (name, resource_id, type, action, status, metadata,
resource_data: the image or backup it made).  Hidden parameter values
show ``******``: the record keeps them apart, encrypted (store/sqlite.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import dataclasses
import os
from typing import Optional

from ...errors import StackersError, StackNotFound
from ..store.backends import open_store
from ..store.sqlite import default_store_path

# Heat's format_snapshot keys, in its order.
SNAPSHOT_KEYS = ('id', 'name', 'action', 'status', 'status_reason', 'data', 'creation_time')


@dataclasses.dataclass
class SnapshotInfoRequest:
    """heat_stack_snapshot_info's options: ``stack``, and ``name`` or
    ``snapshot_id`` to show one (else every one is listed)."""
    stack: str
    _keywords: dataclasses.KW_ONLY
    name: Optional[str] = None
    snapshot_id: Optional[str] = None
    store_path: Optional[str] = None
    store_url: Optional[str] = None


def snapshot_view(snapshot):
    """One snapshot as Heat's API shows it (a copy: callers may change it)."""
    return dict((key, copy.deepcopy(snapshot.get(key))) for key in SNAPSHOT_KEYS)


def find(store, stack, name=None, snapshot_id=None):
    """The snapshots of ``stack`` with this id, or this name (Heat allows
    two of one name), oldest first."""
    return [s for s in store.snapshots(stack['id'])
            if (snapshot_id is None or s['id'] == snapshot_id) and (name is None or s['name'] == name)]


def not_found(stack_name, name=None, snapshot_id=None):
    """Heat's NotFound of a snapshot, naming what was asked."""
    return StackNotFound('The Snapshot (%s) for Stack (%s) could not be found.'
                         % (snapshot_id or name, stack_name))


def info(request, conn=None):
    """``snapshot list`` (``snapshots``) or ``snapshot show`` (``snapshot``)."""
    path = request.store_url or request.store_path or default_store_path()
    if request.name and request.snapshot_id:
        raise StackersError('Give the snapshot\'s name or its id, not both')
    if not request.store_url and not os.path.exists(path):
        raise _stack_not_found(request.stack, path)
    store = open_store(request.store_path, request.store_url, conn, writable=False)
    try:
        stack = store.get_stack(request.stack)
        if stack is None or stack.get('parent_id'):
            raise _stack_not_found(request.stack, path)
        if not request.name and not request.snapshot_id:
            return {'changed': False, 'snapshots': [snapshot_view(s) for s in store.snapshots(stack['id'])]}
        found = find(store, stack, request.name, request.snapshot_id)
        if not found:
            raise not_found(request.stack, request.name, request.snapshot_id)
        # two of one name: the newest, as a name asks for the last one taken
        return {'changed': False, 'snapshot': snapshot_view(found[-1])}
    finally:
        store.close()


def _stack_not_found(name, path):
    return StackNotFound('The Stack (%s) could not be found in the state store %s: check the '
                         'stack name and store_path or store_url' % (name, path))
