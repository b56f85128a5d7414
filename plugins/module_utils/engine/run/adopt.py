# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's stack adopt: a record made from Heat's abandon data
(``request.adopt_data``), the cloud only read.

As Heat's (service.py create_stack with adopt_stack_data, stack.py
``adopt``): the stack's template, environment, files and parameters are
the data's, the stack is walked as a create whose resources each take the
physical id and data the data gives them (resource_tasks._adopt; nested
stacks with their own entries, nested/steps.py), events ``Stack ADOPT
started`` ... ``ADOPT_COMPLETE``.  Ours also reads each object (the
plugin's ``show``) and fails on one that is gone.  A failed adopt leaves
no record (Heat's adopt with rollback does the same: it forgets the stack
and deletes nothing): the cloud and Heat's abandon data are as before, so
the adopt can be run again once the cause is fixed.

Check mode runs the same adopt into a scratch store that is thrown away:
the cloud is read exactly as the adopt reads it (a missing object fails
the check, naming it), and the request's own store is not touched.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import os
import tempfile
import uuid

from ...errors import StackersError
from ..definition import heat_data
from ..store.backends import forget_tree, open_store
from ..store.owner import new_owner
from ..store.sqlite import now_iso
from . import phases


def adopt(invocation, stack):
    """The result of adopting ``invocation.request.adopt_data`` as the stack
    named by the request; ``stack`` is the store's stack of that name."""
    request = invocation.request
    if stack is not None:
        # Heat's create (and so its adopt) refuses a name in use
        raise StackersError('The Stack (%s) already exists.' % request.name)
    heat_data.check(request.adopt_data, request.name)
    goal = phases.validate(invocation, None)
    if request.check_mode:
        _rehearse(invocation, goal)
        return _plan(goal, request.adopt_data)
    return _adopt(invocation, goal)


def _adopt(invocation, goal):
    request = invocation.request
    fields = {'id': goal.stack_id, 'action': 'ADOPT', 'status': 'IN_PROGRESS',
              'created_time': now_iso(), 'salt': uuid.uuid4().hex,
              'disable_rollback': 0 if request.rollback else 1,
              'project_id': request.project_id}
    invocation.owner = new_owner()
    stack = phases.lock(invocation, create=fields)
    kept = False
    try:
        converged = phases.converge(invocation, goal, stack, 'ADOPT')
        if converged.status != 'COMPLETE':
            raise StackersError('Stack %s ADOPT_FAILED: %s (no record was kept; the cloud was '
                                'not changed)' % (request.name, converged.reason))
        result = phases.finish(invocation, converged)
        kept = True
        return result
    finally:
        if kept:
            invocation.store.unlock(goal.stack_id, invocation.owner)
        else:
            forget_tree(invocation.store, goal.stack_id)   # never ours: nothing deleted in the cloud


def _rehearse(invocation, goal):
    """The adopt run into a scratch SQLite store, then dropped: it reads
    every object as the adopt does and raises as the adopt would."""
    with tempfile.TemporaryDirectory(prefix='stackers-adopt-check-') as scratch:
        store = open_store(os.path.join(scratch, 'stacks.sqlite'))
        try:
            _adopt(dataclasses.replace(invocation, store=store, vault=store.vault(None)), goal)
        finally:
            store.close()


def _plan(goal, data):
    """Check mode: what the adopt would take, resource by resource (each
    object was read by the rehearsal)."""
    entries = heat_data.entries(data)
    plan = []
    for name in sorted(goal.sd.resources):
        defn = goal.sd.resources[name]
        physical = heat_data.resource_id(entries, name)
        reason = ('adopted: %s is taken as it is' % physical if physical
                  else 'adopted: its nested stack is taken as it is')
        plan.append({'resource_name': name, 'resource_type': defn.type, 'action': 'create',
                     'reason': reason})
    return {'changed': True, 'stack': None, 'resources': [], 'events': [], 'plan': plan}
