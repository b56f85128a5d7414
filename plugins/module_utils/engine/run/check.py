# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Check mode: Heat's ``stack check`` plus the plan of an update.

The check reads every recorded resource from the cloud (in parallel) and
reports CHECK_COMPLETE or CHECK_FAILED with the reason (gone, in error)
and the properties that drifted.  The plan walks the definition in
dependency order with the planner: what a run with the same inputs would
do to each resource.  Nothing is written, no lock is taken.

A converge runs the same check first: what failed it is replaced
(``mark_failed_checks``), what drifted is put back (``drifted``), in place
or by a replacement as the type's update rules say.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import CloudNotFound, StackersError
from ..definition import inputs as defs
from ..graph import dependencies as _graph
from ..nested import steps as nested_steps
from ..walk.converge import StepKey
from ..walk.planner import CREATE, DELETE, KEEP, REPLACE, UPDATE, decide_desired, desired
from ..store.records import CURRENT
from ..walk.resource_tasks import failure_reason
from ..walk.run_state import StackRun
from ..walk.scheduler import Scheduler
from ..read.view import resource_views, stack_view

UNKNOWN = '<known after apply>'
# A drifted property's value before a converge, in the plan's diff: the
# record's value is not what the cloud holds, and the live one is not
# read as a property
DRIFTED = '<drifted in the cloud>'


def _check_one(run, row, results, quiet=False):
    plugin = run.plugin(row.type, row.name)
    ctx = run.context(row, action='CHECK')
    entry = {'resource_name': row.name, 'resource_type': row.type,
             'physical_resource_id': row.physical_id or '', 'drift': []}
    try:
        if row.physical_id is None and row.status != 'COMPLETE':
            ctx.fail('the resource was never created (%s_%s)' % (row.action, row.status))
        plugin.check(ctx)
        live = ctx.live if ctx.live is not None else plugin.show(ctx)
        if live is None:
            raise CloudNotFound('%s %s not found' % (row.type, row.physical_id))
        entry['drift'] = sorted(plugin.drift(ctx, live) or [])
        entry['resource_status'], entry['resource_status_reason'] = 'CHECK_COMPLETE', \
            'state changed'
    except StackersError as exc:
        entry['resource_status'] = 'CHECK_FAILED'
        entry['resource_status_reason'] = failure_reason(exc, row.name)
        entry['gone'] = isinstance(exc, CloudNotFound)
    results[row.name] = entry
    status = entry['resource_status'].split('_')[1]
    if not quiet or status == 'FAILED':
        run.log.resource(row, 'CHECK', status, entry['resource_status_reason'])
    return entry
    yield  # pragma: no cover - a generator the scheduler can run


def stack_check(run, max_concurrency=10, *, quiet=False):
    """name -> check entry for every current row (reads only).  ``quiet``
    (a converge's): only the failures are events; a resource found as it
    should be leaves no trace, as in Heat's ``update --converge``, which
    makes no stack check, so a converge that finds nothing to do changes
    nothing."""
    results = {}
    rows = [r for r in run.rows.values() if r.role == CURRENT]
    work = dict((StepKey('chk', r.uuid), (lambda r=r: _check_one(run, r, results, quiet)))
                for r in rows)
    Scheduler(max_concurrency=max_concurrency).run(dict((k, set()) for k in work), work)
    return results


def mark_failed_checks(run, results):
    """converge: rows that failed their check are replaced by the update
    that follows, as Heat replaces CHECK_FAILED resources."""
    for name, entry in results.items():
        row = run.current(name)
        if row is not None and entry['resource_status'] == 'CHECK_FAILED':
            run.save(row.replace(action='CHECK', status='FAILED',
                                 status_reason=entry['resource_status_reason']))


def drifted(run, results):
    """converge: row uuid -> the property names the check found drifted on
    a resource it found fine (run.drifted: the planner counts them as
    changed, so they are put back as the template says)."""
    out = {}
    for name, entry in results.items():
        row = run.current(name)
        if row is not None and entry['resource_status'] == 'CHECK_COMPLETE' and entry['drift']:
            out[row.uuid] = frozenset(entry['drift'])
    return out


def plan(run, graph, check_results=None, converge=False):
    """Check mode's plan: what a run with the same inputs would do to each
    resource, the planner's decisions in dependency order
    ([{resource_name, resource_type, action, reason}]), and the diff."""
    sd = run.sd
    import networkx as nx   # only check mode walks the graph in order
    order = [n for n in reversed(list(nx.topological_sort(graph))) if not _graph.is_hub(graph, n)]
    unknown, updated = set(), set()
    items, diff = [], []
    if converge and check_results:
        run.drifted = drifted(run, check_results)
    for name in order:
        defn = sd.resources[name]
        row = run.current(name)
        if converge and row is not None and check_results and \
                check_results.get(name, {}).get('resource_status') == 'CHECK_FAILED':
            row = row.replace(action='CHECK', status='FAILED')
        want = desired(run, name, unknown, updated)
        decision = None
        try:
            decision = decide_desired(run, row, want)
            action, reason = decision.action, _reason(decision, row)
            if action == KEEP and name in run.nests:
                reason = nested_steps.nested_change(run, name, plan)
                action, reason = (UPDATE, reason) if reason else (KEEP, _reason(decision, row))
        except StackersError as exc:
            action, reason = 'error', str(exc)
        if action in (CREATE, REPLACE):
            unknown.add(name)
        elif action == UPDATE:
            updated.add(name)
        items.append({'resource_name': name, 'resource_type': defn.type, 'action': action,
                      'reason': reason})
        if action != KEEP:
            after = dict(want.masked)
            for key in want.unknown:
                after[key] = UNKNOWN
            before = None
            if row is not None and action != CREATE:
                before = dict(row.properties or {})
                for key in decision.drifted if decision is not None else ():
                    before[key] = DRIFTED
            diff.append({'resource_name': name, 'resource_type': defn.type, 'action': action,
                         'reason': reason, 'replacement': action == REPLACE,
                         'before': before, 'after': after})
    for row in run.rows.values():
        if row.role != CURRENT or row.name not in sd.resources:
            items.append({'resource_name': row.name, 'resource_type': row.type,
                          'action': DELETE, 'reason': NOT_IN_TEMPLATE})
            diff.append({'resource_name': row.name, 'resource_type': row.type, 'action': DELETE,
                         'reason': NOT_IN_TEMPLATE, 'replacement': False,
                         'before': row.properties, 'after': None})
    return items, diff


NOT_IN_TEMPLATE = 'not in the template'


def _reason(decision, row):
    """Why the plan does what it does to a resource, in words: the
    properties that changed and whether the type's update rules replace it,
    or why a resource with no property change is made, updated or kept."""
    action, why = decision.action, decision.reason
    # what the template changed, then what the cloud changed behind the stack
    changed = '; '.join(part for part in (
        _names('changed', decision.changed - decision.drifted),
        _names('drifted', decision.drifted)) if part)
    if action == KEEP:
        return 'unchanged'
    if action == CREATE:
        if why == 'adopt':
            return 'adopted: its external_id is taken as it is'
        if why == 'resume':
            return 'its create was interrupted: it is taken up where it stopped'
        return 'new' if row is None else 'never created (%s_%s)' % (row.action, row.status)
    if action == UPDATE:
        if changed:
            return '%s; updated in place' % changed
        return 'metadata changed' if why == 'metadata' else why or 'updated'
    if action == REPLACE:
        # the planner's reason says which rule needs the replacement
        return '%s; replaced: %s' % (changed, why) if changed else 'replaced: %s' % why
    return why or action


def _names(what, names):
    return '%s: %s' % (what, ', '.join(sorted(names))) if names else ''


def plan_and_check(invocation, goal):
    """Check mode's answer for ``goal`` (a request.Goal): the stack check
    of the record, the plan and the diff; nothing written."""
    request, stack, vault = invocation.request, goal.stack, invocation.vault
    run = StackRun(invocation.store, vault, invocation.conn, stack, goal.sd,
                   secret_values=goal.hidden.values(), check_mode=True)
    run.stack_updated = stack is not None and not defs.same(stack.get('definition'), defs.stored(
        defs.without_hidden(goal.inputs, goal.hidden)))
    run.seam.prepare(goal.graph, run.rows.values())
    nested_steps.attach_reading(invocation, run, goal.nests or {})
    results = stack_check(run, request.max_concurrency) if stack is not None else {}
    items, diff = plan(run, goal.graph, results, converge=request.converge)
    changed = stack is None or any(i['action'] != KEEP for i in items)
    view = stack_view(stack, run, vault.decrypt(stack['outputs']) if stack and
                      stack.get('outputs') else None)
    if view is not None:
        failed = any(e['resource_status'] == 'CHECK_FAILED' for e in results.values())
        view['stack_status'] = 'CHECK_FAILED' if failed else 'CHECK_COMPLETE'
        view['stack_status_reason'] = ('Stack CHECK failed: %s' % '; '.join(
            e['resource_status_reason'] for e in results.values()
            if e['resource_status'] == 'CHECK_FAILED')) if failed else \
            'Stack CHECK completed successfully'
    result = {'changed': changed, 'stack': view, 'plan': items,
              'check': sorted(results.values(), key=lambda e: e['resource_name']),
              'resources': resource_views(run), 'events': run.log.events}
    if request.diff:
        result['diff'] = diff
    return result
