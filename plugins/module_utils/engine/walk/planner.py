# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What an update does to one resource: create, update, replace or keep.

The same function answers for the plan (check mode, before anything runs)
and for the run itself (when the resource's turn comes and everything it
refers to is known).  In a plan, a property whose value comes from a
resource that will be created or replaced is *unknown*: it counts as
changed, which is what it will be.

Heat's rules (resource.py ``_needs_update`` / ``update_template_diff``):
a resource never created, or left half-made, is created; a type change, a
FAILED resource (when the plugin says it cannot be reused), a CHECK_FAILED
one, or a changed property that is not update_allowed replaces it; other
changes update it in place; restricted_actions in the environment forbid
update or replace with an error naming the resource.

One rule of ours: a resource COMPLETE whose create still owed work done
after its dependents started (``UNFINISHED`` in its data: the stack marks
of a Neutron object, resource_tasks) is updated, which finishes that work.

A converge (Heat's ``--converge``, which compares the template with the
live state rather than the record) gives the property names the stack
check found drifted: they count as changed, so the same rules update the
resource back in place or replace it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import json
from typing import Any, Dict, FrozenSet, Optional

from ...errors import ResourceFailure
from ...resources.base import ResourceContext
from ...resources.heat.group_kinds import group_type
from ...resources.heat.remote_stack import is_stack
from ..definition import heat_data
from ..definition.inputs import same_template_name

KEEP, CREATE, UPDATE, REPLACE, DELETE = 'keep', 'create', 'update', 'replace', 'delete'
# The row's data key saying its create's deferred work (create_later) is not done.
UNFINISHED = 'create_unfinished'


class Decision(object):
    """``changed``: the property names the action is for, ``drifted`` among
    them (those changed in the cloud only, not in the template)."""
    __slots__ = ('action', 'changed', 'reason', 'drifted')

    def __init__(self, action, changed=(), reason=None, drifted=()):
        self.action = action
        self.changed = frozenset(changed)
        self.reason = reason
        self.drifted = frozenset(drifted)

    def __repr__(self):
        return 'Decision(%s, %s)' % (self.action, sorted(self.changed))


def normalised(value):
    """JSON's view of a value, so stored and fresh values compare equal."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def created(row):
    """True when the row stands for an object that exists (or may exist)."""
    if row is None or row.physical_id is None and row.action in (None, 'INIT'):
        return False
    if row.action == 'DELETE' and row.status == 'COMPLETE':
        return False
    return True


def changed_keys(new_props, old_props, unknown=()):
    old_props = old_props or {}
    keys = set(unknown)
    for key in set(new_props) | set(old_props):
        if key in keys:
            continue
        if normalised(new_props.get(key)) != normalised(old_props.get(key)):
            keys.add(key)
    return keys


def decide(defn, row, plugin, new_props, *, unknown=(), metadata=None, restricted=(),
           external_id=None, conn=None, stack_updated=False, drifted=()):
    """The Decision for resource ``defn`` (a ResourceDefinition) given its
    current record ``row`` (or None), its plugin instance and the new
    effective, masked ``new_props``; ``unknown`` are property names whose
    values are not known yet (plan only); ``drifted`` those whose live value
    differs from the record's (a converge's stack check)."""
    name = defn.name
    if external_id is not None:
        if row is not None and row.physical_id not in (None, external_id):
            raise ResourceFailure('Resource "%s": the external_id cannot change (from %s to %s)'
                                  % (name, row.physical_id, external_id), resource=name)
        if row is not None and row.status == 'COMPLETE':
            return Decision(KEEP)
        return Decision(CREATE, reason='adopt')
    if not created(row):
        return Decision(CREATE)
    if row.action == 'CREATE' and (row.status == 'IN_PROGRESS' or
                                   (row.status == 'FAILED' and row.physical_id is None)):
        # a create killed, or failed before it recorded an id (its answer
        # lost, the cloud gone): what it made is found by the physical name
        # or the marks and taken, as the create's own (a router interface, a
        # floating IP, cannot coexist with a second of theirs)
        return Decision(CREATE, reason='resume')
    same_type = same_template_name(row.type, defn.type)
    if getattr(plugin, 'never_update', False) and same_type and \
            row.status == 'COMPLETE':
        return Decision(KEEP)   # OS::Heat::None: Heat never updates nor replaces it
    if not same_type:
        return _checked(Decision(REPLACE, reason='type changed from %s' % row.type),
                        name, restricted)
    changed = changed_keys(new_props, row.properties, unknown)
    # the template's own changes are named as such; the rest of the drift
    # is what the cloud changed behind the stack, to be put back
    drift = frozenset(drifted) - changed
    changed |= drift
    # A resource left IN_PROGRESS by a killed run is updated again (the
    # handlers are idempotent); one left FAILED is replaced unless the plugin
    # can tell the object is fine (Heat's needs_replace_failed).
    if row.status == 'FAILED':
        ctx = _ctx(defn, row, new_props, changed, conn)
        if row.action == 'CHECK' or plugin.needs_replace_failed(ctx):
            reason = '%s_%s' % (row.action, row.status)
            return _checked(Decision(REPLACE, changed, reason=reason, drifted=drift), name,
                            restricted)
        if not changed:
            # fine after all: updated as Heat updates a FAILED resource it
            # keeps, which settles it (COMPLETE, its reference id known to
            # its dependents); not the user's update, so never restricted
            return Decision(UPDATE, reason='%s_%s' % (row.action, row.status))
    if stack_updated and getattr(plugin, 'replace_on_stack_update', False) and \
            row.status == 'COMPLETE':
        # Heat's UpdateWaitConditionHandle: every update of its stack replaces it
        return _checked(Decision(REPLACE, changed, reason='replaced by every update of its stack',
                                 drifted=drift), name, restricted)
    meta_changed = normalised(metadata) != normalised(row.metadata)
    if not changed:
        if row.facts.get(UNFINISHED):
            # not the user's update: restricted_actions do not forbid it
            return Decision(UPDATE, reason='its create is unfinished')
        if meta_changed:
            return _checked(Decision(UPDATE, reason='metadata'), name, restricted)
        if row.action == 'UPDATE' and row.status == 'IN_PROGRESS':
            # an update killed with no change left in the record (a
            # converge's, putting drift back): settled, as the killed run
            # would have; the drift itself only a converge puts back
            return Decision(UPDATE, reason='its update was interrupted')
        return Decision(KEEP)
    fixed = sorted(k for k in changed if not plugin.update_allowed(k))
    if fixed:
        return _checked(Decision(REPLACE, changed, reason='%s cannot change in place'
                                 % ', '.join(fixed), drifted=drift), name, restricted)
    if not unknown and plugin.needs_replace(_ctx(defn, row, new_props, changed, conn)):
        return _checked(Decision(REPLACE, changed, reason='the type replaces on this change',
                                 drifted=drift), name, restricted)
    return _checked(Decision(UPDATE, changed, drifted=drift), name, restricted)


def _ctx(defn, row, new_props, changed, conn):
    return ResourceContext(conn=conn, name=defn.name, type_name=defn.type,
                           physical_name=row.physical_name, physical_id=row.physical_id,
                           properties=new_props, old_properties=row.properties,
                           changed=changed, data=dict(row.facts))


def _checked(decision, name, restricted):
    if decision.action in restricted:
        why = decision.reason or ('properties drifted: %s' % ', '.join(sorted(decision.drifted))
                                  if decision.drifted == decision.changed else 'properties changed')
        raise ResourceFailure('Resource "%s": the environment restricts the action "%s" (%s)'
                              % (name, decision.action, why),
                              resource=name, action=decision.action)
    return decision


@dataclasses.dataclass(frozen=True)
class Desired:
    """What the template wants of one resource, as the planner weighs it
    against its row: the effective properties (``props``, as the handlers
    get them, and ``masked``, as the record keeps them), ``metadata``, the
    adopted ``external_id``, the ``unknown`` property names (depending on
    resources to be made or updated: a plan's guess) and the environment's
    ``restricted`` actions."""
    name: str
    props: Dict[str, Any]
    masked: Dict[str, Any]
    metadata: Any = None
    external_id: Optional[str] = None
    unknown: FrozenSet[str] = frozenset()
    restricted: FrozenSet[str] = frozenset()


def desired(run, name, unknown_names=(), unknown_attrs=()):
    """The ``Desired`` of resource ``name`` in ``run``'s definition (see
    Seam.resolve_properties for the unknowns)."""
    defn = run.sd.resources[name]
    props, unknown = run.seam.resolve_properties(name, unknown_names, unknown_attrs)
    registry_ = getattr(run.sd.environment, 'registry', None)
    external_id = None
    if defn.external_id is not None:
        external_id = run.sd.resolve(defn.external_id, defn.path + ('external_id',)) or None
    elif getattr(run, 'adopting', None) is not None and not _nested(defn):
        # Heat's adopt: the physical id its abandon data gives ('' when it
        # gives none: resource_tasks then fails it as Heat's handle_adopt does)
        external_id = heat_data.resource_id(run.adopting, name) or ''
    return Desired(name=name, props=props, masked=run.masker.mask(props),
                   metadata=run.seam.resolve_metadata(name), external_id=external_id,
                   unknown=frozenset(unknown),
                   restricted=frozenset(registry_.restricted_actions(name)
                                        if registry_ is not None else ()))


def _nested(defn):
    """A template resource, a group or an OS::Heat::Stack (nested/stacks.py
    is_nested, which imports the walk): its entry is its stack's."""
    return bool(getattr(defn.type_info, 'template', None) or group_type(defn) or is_stack(defn))


def decide_desired(run, row, want):
    """The Decision for ``want`` (a Desired) and its record ``row``; the
    drift a converge found on that row (``run.drifted``: row uuid -> names)
    counts as changed."""
    defn = run.sd.resources[want.name]
    drifted = getattr(run, 'drifted', None) or {}
    return decide(defn, row, run.plugin(defn.type, want.name), want.masked,
                  unknown=want.unknown, metadata=run.masker.mask(want.metadata),
                  restricted=want.restricted, external_id=want.external_id, conn=run.conn,
                  stack_updated=getattr(run, 'stack_updated', False),
                  drifted=drifted.get(row.uuid, ()) if row is not None else ())
