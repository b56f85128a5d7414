# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's mark-unhealthy (``PATCH .../resources/<r>`` with
``mark_unhealthy``, engine ``resource_mark_unhealthy``) on the record.

``mark_unhealthy: true`` sets the resource CHECK_FAILED with the reason
(Heat's default "state changed by resource_mark_unhealthy api"), unless it
is being deleted, and records Heat's event; the planner replaces a
CHECK_FAILED resource at the next converge, as Heat's ``_needs_update``
does.  ``false`` brings a CHECK_FAILED resource back to CHECK_COMPLETE and
leaves any other alone.  The resource is named by its logical name (a
nested path ``parent/child`` too) or its physical id, as in Heat.  The
change is made under the stack's lock, as Heat takes it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError
from ..store.owner import new_owner
from . import phases
from .request import Invocation, StackRequest
from ..store.sqlite import now_iso

DEFAULT_REASON = 'state changed by resource_mark_unhealthy api'


def mark(request, store, top, located):
    """Apply ``request.mark_unhealthy`` to ``located`` ((stack row, name,
    row) of the resource); answers (changed, events)."""
    stack, name, row = located
    if row is None:
        # Heat's resource exists from the start (INIT); a row-less one here
        # was never created: nothing to be unhealthy
        raise StackersError('The Resource (%s) could not be found in Stack %s.'
                            % (name, stack['name']))
    reason = request.reason or DEFAULT_REASON
    if request.mark_unhealthy:
        wanted = row.action != 'DELETE' and (row.action, row.status) != ('CHECK', 'FAILED') \
            or (row.action, row.status) == ('CHECK', 'FAILED') and row.status_reason != reason
        status = 'FAILED'
    else:
        wanted = (row.action, row.status) == ('CHECK', 'FAILED')
        status = 'COMPLETE'
    if not wanted or request.check_mode:
        return wanted, []
    lock_only = StackRequest(top['name'], lock_timeout=request.lock_timeout)
    invocation = Invocation(request=lock_only, conn=None, store=store, vault=None,
                            owner=new_owner())
    phases.lock(invocation)
    try:
        fresh = next((r for r in store.resources(stack['id']) if r.uuid == row.uuid), row)
        store.save_resource(fresh.replace(action='CHECK', status=status, status_reason=reason))
        event = store.add_event(stack['id'], {
            'resource_name': name, 'resource_type': row.type,
            'physical_resource_id': row.physical_id or '', 'resource_action': 'CHECK',
            'resource_status': status, 'resource_status_reason': reason,
            'event_time': now_iso()})
    finally:
        store.unlock(top['id'], invocation.owner)
    event.pop('stack_id', None)
    event.pop('seq', None)
    if stack['id'] != top['id']:
        event['stack_name'] = stack['name']
    return True, [event]
