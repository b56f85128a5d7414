# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack and its resources as Heat's API shows them (``openstack stack
show`` / ``resource list``), hidden parameter values masked."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...hot.shown import parameters_view
from ..store.records import CURRENT


def _status(action, status):
    if not action:
        return None
    return '%s_%s' % (action, status) if status else action


def stack_view(stack, run, outputs):
    if stack is None:
        return None
    sd = getattr(run, 'sd', None) if run is not None else None
    view = {
        'id': stack['id'], 'stack_name': stack['name'],
        'stack_status': _status(stack.get('action'), stack.get('status')),
        'stack_status_reason': stack.get('status_reason'),
        'creation_time': stack.get('created_time'), 'updated_time': stack.get('updated_time'),
        'tags': stack.get('tags'), 'timeout_mins': stack.get('timeout_mins'),
        'disable_rollback': bool(stack.get('disable_rollback')),
        'outputs': outputs if outputs is not None else [],
    }
    if sd is not None:
        view['description'] = sd.template.description
        view['parameters'] = parameters_view(sd)
    return view


def with_snapshots(result, *runs):
    """``result`` with the ``snapshots`` the runs' deletes kept
    (deletion_policy Snapshot: an image, a backup), when there are any."""
    kept = [entry for run in runs for entry in run.log.snapshots]
    if kept:
        result['snapshots'] = kept
    return result


def resource_views(run):
    return _views([r for r in run.rows.values() if r.role == CURRENT])


def nested_resource_views(store, stack_id, depth):
    """The resources of the stack's nested stacks, ``depth`` levels down,
    as ``openstack stack resource list --nested-depth`` lists them: each
    with the ``parent_resource`` its stack belongs to, and that stack's
    ``stack_name`` and ``stack_id`` (a parent's rows before its children's)."""
    out = []
    if depth <= 0 or not stack_id:
        return out
    for child in store.children(stack_id):
        for view in _views(store.resources(child['id'], roles=(CURRENT,))):
            view.update(parent_resource=child['parent_resource'], stack_name=child['name'],
                        stack_id=child['id'])
            out.append(view)
        out.extend(nested_resource_views(store, child['id'], depth - 1))
    return out


def row_views(rows):
    """Stored resource rows (one stack's current ones) as Heat lists them."""
    return _views(rows)


def _views(rows):
    required_by = {}
    for r in rows:
        for need in r.requires or ():
            required_by.setdefault(need, []).append(r.name)
    out = []
    for row in sorted(rows, key=lambda r: r.name):
        out.append({'resource_name': row.name, 'logical_resource_id': row.name,
                    'resource_type': row.type,
                    'physical_resource_id': row.physical_id or '',
                    'resource_status': _status(row.action, row.status),
                    'resource_status_reason': row.status_reason,
                    'creation_time': row.created_time, 'updated_time': row.updated_time,
                    'required_by': sorted(required_by.get(row.name, ()))})
    return out
