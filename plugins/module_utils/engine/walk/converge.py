# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The step graph of a run, handed to the scheduler.

Every step is keyed by a ``StepKey``.  Converging to a definition (create
or update) has three kinds of steps:

- ``res`` for every desired resource: create, update, replace or keep,
  after what it requires (the template's graph, hubs included);
- ``cleanup``: the old object of a resource replaced in this run is
  deleted once every resource that referred to it has moved on (updated
  to the new one, or deleted);
- ``del`` for every record row the definition no longer wants (removed
  resources, leftovers of an interrupted replacement), after whatever
  used it in the record is gone or updated.

Deleting a stack is converging to nothing; suspend walks the record in
reverse dependency order and resume in order.  ``local_steps`` names the
steps of types that exist only in the record, which the scheduler runs
beside the cloud's, ``inline_steps`` those of them it may run in its
own thread, and ``deferrable_steps`` the cloud steps that may let the
requests leading to a slow build go first.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from typing import Any, NamedTuple, Tuple

from ...resources import registry
from ..graph import dependencies as _graph
from ..store.records import CURRENT, OLD
from .resource_tasks import action_row, apply_resource, delete_row, snapshot_row
from .seam import attribute_references


class StepKey(NamedTuple):
    """The key of one step of a walk: its ``kind``, what it acts on
    (``name``) and which stack it belongs to (``path``: empty for the top
    stack's steps; for a nested stack's, the names of the template
    resources leading to it from the top, or the uuid of the row whose
    delete deletes it).  Keys order as tuples do, kind first.

    The kinds, and what ``name`` holds:

    - ``res``: a resource's name (create, update, replace or keep; a
      nested stack's finish); ``hub``: a hub node of the graph (no work);
    - ``cleanup``: a resource's name (the delete of its replaced object);
    - ``del``: a record row's uuid; ``act``: a resource's name (suspend
      or resume);
    - ``outputs``: a resource's name (its attributes the outputs read,
      read again after the resources that change them: outputs.py);
    - ``nest``: a nested resource's name (its stack's start);
      ``param``: (nested resource's name, parameter name), the parameter
      its stack gets during the run; ``pause``: the index of a group's
      batch (the pause before it); ``nestdel``: a row's uuid (the start of
      its nested stack's delete), see nested/steps.py;
    - ``chk``: a row's uuid (check.py's stack check).
    """
    kind: str
    name: Any
    path: Tuple[str, ...] = ()

    def under(self, prefix):
        """The key of the same step one stack level down, below ``prefix``
        (its path grows at the front)."""
        return StepKey(self.kind, self.name, tuple(prefix) + self.path)

    def in_stack(self):
        """The key as its own stack names it (no path)."""
        return StepKey(self.kind, self.name) if self.path else self


def _used_by(rows):
    """name -> names whose record rows required it."""
    users = {}
    for row in rows:
        for need in row.requires or ():
            users.setdefault(need, set()).add(row.name)
    return users


def _uuids_by_name(rows):
    """name -> uuids of its rows, in one pass over the rows (scanning every
    row for each row would make a big stack's delete quadratic)."""
    found = {}
    for row in rows:
        found.setdefault(row.name, []).append(row.uuid)
    return found


def converge_steps(run, graph, deletion_policies):
    """(deps, work) converging the record to the run's definition."""
    sd = run.sd
    desired = set(sd.resources)
    deps, work = {}, {}
    for node in graph.nodes:
        if _graph.is_hub(graph, node):
            key = StepKey('hub', node)
            work[key] = None
        else:
            key = StepKey('res', node)
            work[key] = (lambda n=node: apply_resource(run, n))
        deps[key] = set(StepKey('hub' if _graph.is_hub(graph, d) else 'res', d)
                        for d in graph.successors(node))
    rows = list(run.rows.values())
    used_by = _used_by(rows)
    uuids = _uuids_by_name(rows)
    new_users = {}
    for name, needs in run.seam.requires.items():
        for need in needs:
            new_users.setdefault(need, set()).add(name)

    def after_users(name):
        """Steps that must finish before an old object of ``name`` goes."""
        out = set()
        for user in used_by.get(name, ()):
            if user in desired:
                out.update((StepKey('res', user), StepKey('cleanup', user)))
            else:
                out.update(StepKey('del', uuid) for uuid in uuids.get(user, ()))
        return out

    for name in desired:
        if run.current(name) is None and not run.rows_of(name):
            continue
        key = StepKey('cleanup', name)
        deps[key] = set([StepKey('res', name)]) | set(StepKey('res', u)
                                                      for u in new_users.get(name, ()))
        deps[key] |= after_users(name) - set([key])
        work[key] = (lambda n=name: _cleanup(run, n, deletion_policies))
    for row in rows:
        if row.role == CURRENT and row.name in desired:
            continue
        key = StepKey('del', row.uuid)
        deps[key] = after_users(row.name) - set([key])
        if row.name in desired:
            deps[key].add(StepKey('res', row.name))
        work[key] = (lambda r=row: delete_row(run, r, _policy(r, deletion_policies)))
    return _closed(deps), work


def _cleanup(run, name, deletion_policies):
    """The deletes of ``name``'s old rows, or None when no replacement left
    one (the usual case: the walk then ends the step in its own thread, with
    no handoff to a pool thread and back)."""
    old = run.rows_of(name, OLD)
    return _delete_rows(run, old, deletion_policies) if old else None


def _delete_rows(run, rows, deletion_policies):
    for row in rows:
        yield from delete_row(run, row, _policy(row, deletion_policies))


def _policy(row, deletion_policies):
    if row.facts.get('adopted'):
        return 'adopted'
    if row.name in deletion_policies:
        return deletion_policies[row.name]
    return row.facts.get('deletion_policy')


def _closed(deps):
    """Drop dependencies on steps that do not exist (nothing to wait for)."""
    return dict((key, set(d for d in needs if d in deps)) for key, needs in deps.items())


def delete_steps(run, deletion_policies):
    """(deps, work) deleting every row of the record, users first."""
    rows = list(run.rows.values())
    used_by = _used_by(rows)
    uuids = _uuids_by_name(rows)
    deps, work = {}, {}
    for row in rows:
        key = StepKey('del', row.uuid)
        deps[key] = set(StepKey('del', uuid) for user in used_by.get(row.name, ())
                        for uuid in uuids.get(user, ()) if uuid != row.uuid)
        work[key] = (lambda r=row: delete_row(run, r, _policy(r, deletion_policies)))
    return _closed(deps), work


def action_steps(run, action, keep=None):
    """Suspend (users first), resume or snapshot (dependencies first) every
    resource; a SNAPSHOT gives each resource's entry to ``keep``."""
    rows = [r for r in run.rows.values() if r.role == CURRENT]
    by_name = dict((r.name, r) for r in rows)
    deps, work = {}, {}
    for row in rows:
        key = StepKey('act', row.name)
        needs = set(StepKey('act', n) for n in row.requires or () if n in by_name)
        deps[key] = needs
        if action == 'SNAPSHOT':
            work[key] = (lambda r=row: snapshot_row(run, r, keep))
        else:
            work[key] = (lambda r=row: action_row(run, r, action))
    if action == 'SUSPEND':
        reverse = dict((key, set()) for key in deps)
        for key, needs in deps.items():
            for need in needs:
                reverse[need].add(key)
        deps = reverse
    return deps, work


def _types(run):
    """name -> the types of its definition and of its rows (a replacement
    may change the type)."""
    types = {}
    for row in run.rows.values():
        types.setdefault(row.name, set()).add(row.type)
    for name, defn in (run.sd.resources.items() if run.sd is not None else ()):
        types.setdefault(name, set()).add(defn.type)
    return types


def _record_only(found):
    return bool(found) and all(getattr(registry.PLUGINS.get(t), 'record_only', False)
                               for t in found)


def lanes(run, deps):
    """The scheduler's ``local``, ``inline`` and ``defer`` sets for a walk
    of ``deps`` (the record's types read once: a 10,000-resource stack's)."""
    types = _types(run)
    local = local_steps(run, deps, types)
    return {'local': local, 'inline': inline_steps(run, local, types),
            'defer': deferrable_steps(run, deps, types)}


def local_steps(run, keys, types=None):
    """The step keys among ``keys`` whose every type exists only in the stack
    record (its plugin's ``record_only``: the definition's type and those of
    the name's rows, which a replacement may change): their handlers make no
    request.  A property of theirs that reads another resource's attribute
    may still ask the cloud for it, once (attributes.py keeps it)."""
    types = _types(run) if types is None else types
    local = set()
    for key in keys:
        if key.path:
            continue    # a nested stack's step: its names are its own stack's (nested/stacks.py)
        if key.kind == 'del':
            row = run.rows.get(key.name)
            found = set([row.type]) if row is not None else set()
        elif key.kind in ('res', 'cleanup', 'act'):
            found = types.get(key.name, set())
        else:
            continue
        if _record_only(found):
            local.add(key)
    return local


def inline_steps(run, local, types=None):
    """The ``local`` steps the scheduler may run in its own thread: those
    that can wait on nothing but this machine's disk.  So none when the
    store is written over the network (Swift), and no resource step whose
    properties or metadata read an attribute of a resource that has a cloud
    object (attributes.py may read it live)."""
    if not getattr(run.store, 'local_writes', False):
        return set()
    types = _types(run) if types is None else types
    inline = set()
    for key in local:
        if key.kind == 'res':
            defn = run.sd.resources[key.name]
            read = set()
            for snippet in list((defn.properties or {}).values()) + [defn.metadata]:
                attribute_references(snippet, read)
            if not all(_record_only(types.get(name)) for name in read):
                continue
        inline.add(key)
    return inline


# The actions after which a resource is still building for a while (a
# server, a volume): a step on the way to one is urgent.
_BUILDS = frozenset(('CREATE', 'UPDATE'))


def _builds(found):
    return any(_BUILDS & set(getattr(registry.PLUGINS.get(t), 'slow_actions', ()))
               for t in found)


def deferrable_steps(run, deps, types=None):
    """The cloud resource steps of a converge that lead to no slow build:
    neither their own type's create or update nor any step that needs them,
    directly or not, is one (``slow_actions``).  The scheduler starts them
    only while no other cloud step is in its first call, so the cloud
    answers the requests on the way to a build first: a router, its
    interfaces and floating IPs sent beside a security group's rule and
    ports slow those down in Neutron, and the servers after them.  Empty
    when nothing builds (nothing to make way for).
    A nested stack's step is taken for a build: its types are its own."""
    types = _types(run) if types is None else types
    urgent = []
    for key in deps:
        if key.path or (key.kind == 'res' and _builds(types.get(key.name, ()))):
            urgent.append(key)
    if not urgent:
        return set()
    seen = set(urgent)
    while urgent:
        for need in deps.get(urgent.pop(), ()):
            if need not in seen:
                seen.add(need)
                urgent.append(need)
    return set(key for key in deps if key.kind == 'res' and not key.path and key not in seen
               and _cloud_plugin(types.get(key.name)))


def _cloud_plugin(found):
    """Every type of the name is a plugin's that calls the cloud (not a
    template resource, whose step ends a nested stack's walk)."""
    plugins = [registry.PLUGINS.get(t) for t in found or ()]
    return bool(plugins) and all(p is not None and not p.record_only for p in plugins)
