# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::ResourceGroup, OS::Heat::ResourceChain, the deployment groups
(OS::Heat::SoftwareDeploymentGroup, StructuredDeploymentGroup and their
aliases) and (through autoscaling_group.py) OS::Heat::AutoScalingGroup: nested
stacks whose template the group writes (resources/heat/group_template.py
and deployment_group.py write it as Heat 27 does).

Each type is a ``GroupKind``: the properties that must be known when the
run is validated (a group's members are the walk's steps: a ResourceGroup's
``count``, a chain's ``resources`` and ``concurrent``, which orders them,
the keys of a deployment group's ``servers``),
how its template is written and how its attributes are read.  The types of
the members are known then too.
The values of ``resource_def`` that wait on other resources are not: the
goal's template holds a parameter in their place, and the group's stack
is written again with every value once the group's own requirements are
done, as Heat writes it when the group's turn comes.  The names removed by
``removal_policies`` are kept in the group's row (``removed``), never
reused.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
from typing import Any, Callable, Tuple

from ...errors import TemplateError
from . import autoscaling_group as autoscaling
from ...hot import functions as fns
from ...hot.template import Template
from .group_attributes import asg_attribute, chain_attribute, resource_group_attribute, select_path
from .group_template import chain_template, member_type_found, resource_group_plan
from . import deployment_group, group_members
from .late_values import placeheld, with_parameters
from .scaling_batches import walk_batches

RESOURCE_GROUP = 'OS::Heat::ResourceGroup'
RESOURCE_CHAIN = 'OS::Heat::ResourceChain'
# The row's data key of the names removal_policies removed.
REMOVED = 'removed'


@dataclasses.dataclass(frozen=True)
class GroupKind:
    """What differs between the group types: ``first``, the properties
    known when the run is validated; ``write(props, removed, members,
    created)`` -> (template dict, member names, removed names or None);
    ``read(group, key, path, names, *, ref_of, attr_of, removed)`` an
    attribute."""
    first: Tuple[str, ...]
    write: Callable[..., Any]
    read: Callable[..., Any]
    # maps whose keys name the members: known before the run, their values may wait
    keyed: Tuple[str, ...] = ()


def _write_resource_group(props, removed, members, created):
    props.setdefault('count', 1)
    plan = resource_group_plan(props, removed=removed, members=members, created=created)
    return plan.template, plan.names, plan.removed


def _write_chain(props, _removed, _members, _created):
    types = props.get('resources') or []
    # No cap on a concurrent chain: Heat's is its number of engines.
    template = chain_template(types, bool(props.get('concurrent')),
                              props.get('resource_properties'))
    return template, [str(i) for i in range(len(types))], None


def _read_chain(group, key, path, names, *, ref_of, attr_of, removed):
    del removed     # a chain removes nothing
    return chain_attribute(group, key, path, names, ref_of=ref_of, attr_of=attr_of)


def _deployments_writer(gtype):
    def write(props, _removed, _members, _created):
        template, names = deployment_group.deployment_group_template(gtype, props)
        return template, names, None
    return write


KINDS = {
    RESOURCE_GROUP: GroupKind(('count',), _write_resource_group, resource_group_attribute),
    RESOURCE_CHAIN: GroupKind(('resources', 'concurrent'), _write_chain, _read_chain),
}
# The deployment groups are ResourceGroups in Heat: rolling updates and
# batched creates as a ResourceGroup's (batches below).
KINDS.update((gtype, GroupKind((), _deployments_writer(gtype),
                               deployment_group.deployment_group_attribute,
                               keyed=(deployment_group.SERVERS,)))
             for gtype in deployment_group.MEMBER_TYPES)
BATCHED = (RESOURCE_GROUP,) + tuple(deployment_group.MEMBER_TYPES)
# An autoscaling group decides its size and names its members its own way (autoscaling_group.py).
GROUP_TYPES = tuple(KINDS) + (autoscaling.ASG,)


def validate_resource_group(given):
    """Heat's ResourceGroup.validate_nested_stack: a group with members (a
    count waiting on an attribute reads as the default, 1) must have a
    member type the environment resolves, and its first member must pass
    the validation of a nested stack (group_members.py)."""
    props = given.props
    if props['count']:
        member_type_found(given, props['resource_def']['type'], 'resource_def', 'type')
        group_members.check_resource_group(given)


def validate_chain(given):
    """Heat's ResourceChain: each type must resolve, as its nested stack
    finds when it is validated, and each member must pass that stack's
    validation (group_members.py)."""
    for index, type_name in enumerate(given.props.get('resources') or ()):
        member_type_found(given, type_name, 'resources', index)
    group_members.check_chain(given)


def group_type(defn):
    """The group type ``defn`` is (through the registry), or None."""
    info = getattr(defn, 'type_info', None)
    name = getattr(info, 'plugin', None) or defn.type
    return name if name in GROUP_TYPES else None


def goal_template(sd, defn, row, members, resize=None):
    """(Template, member names, removed names, late parameter names) of the
    group's stack as its goal holds it: the values waiting on resources held by
    parameters (``resize``: the size a signal asks of an autoscaling group)."""
    if group_type(defn) == autoscaling.ASG:
        template, names, late = autoscaling.goal_template(sd, defn, row, members, resize)
        return template, names, None, late
    props = defn.properties or {}
    kind = KINDS[group_type(defn)]
    for first in kind.first:
        if fns.dependencies(props.get(first)):
            raise TemplateError('The "%s" of %s "%s" must be known before the run (it cannot '
                                'come from another resource)'
                                % (first, group_type(defn).split('::')[-1], defn.name),
                                path=defn.path + ('properties', first))
    for keyed in kind.keyed:
        value = props.get(keyed)
        if isinstance(value, fns.Function) and fns.dependencies(value):
            raise TemplateError('The keys of the "%s" of %s "%s" name its members and must be '
                                'known before the run: write the map in the template (its '
                                'values may come from other resources)'
                                % (keyed, group_type(defn).split('::')[-1], defn.name),
                                path=defn.path + ('properties', keyed))
    late = []
    known = dict((k, placeheld(v, late)) for k, v in props.items())
    return _written(sd, defn, known, row, members) + (late,)


def runtime_template(sd, defn, resolved, row, members, *, names=None):
    """(Template, member names, removed names) of the group's stack written
    with every value, as the group's turn comes (``resolved``: its
    properties; ``names``: the goal's, an autoscaling group's)."""
    if group_type(defn) == autoscaling.ASG:
        template, written = autoscaling.runtime_template(sd, defn, resolved, members, names)
        return template, written, None
    return _written(sd, defn, resolved, row, members)


def _written(sd, defn, props, row, members):
    props = dict((k, v) for k, v in props.items() if v is not None)
    removed = (row.facts.get(REMOVED) if row is not None else None) or []
    template, names, removed = KINDS[group_type(defn)].write(
        props, removed, members, row is not None and row.status is not None)
    # The members' own files (a member template) are read next to the group's template.
    loaded = Template.load(with_parameters(template), filename=sd.template.filename,
                           files=sd.files, root=sd.template.root)
    return loaded, names, removed


def batches(defn, members, names, *, creating):
    """([[member names], ...], pause seconds): the batches a group's
    members are walked in, each after the one before it (and its pause).

    A ResourceGroup (and a deployment group, one in Heat) batches its
    create under ``update_policy.batch_create`` (lowest index first) and
    the update of its existing members under ``rolling_update`` (highest
    index first, as Heat's replace priority: a deployment group's last key
    first);
    an AutoScalingGroup its existing members under ``rolling_updates``.
    Heat's temporary extra members (which keep ``min_in_service`` in
    service while a batch is replaced) are not made: a member updated in
    place stays in service.  ``members``: the existing ones (members_of);
    ``names``: the goal's, in index order.
    """
    gtype = group_type(defn)
    if gtype == autoscaling.ASG:
        return ([], 0) if creating else autoscaling.rolling_batches(defn, members)
    policy = autoscaling.known_policy(defn.update_policy).get(
        'batch_create' if creating else 'rolling_update')
    if gtype not in BATCHED or not isinstance(policy, dict):
        return [], 0
    existing = set(m['name'] for m in members)
    return walk_batches(names if creating else [n for n in reversed(names) if n in existing], policy)


def members_of(child_rows):
    """The group's members as group_template reads them."""
    # Heat orders members by creation time (microseconds); the record's times
    # are seconds: its creation sequence breaks the ties.
    return [{'name': r.name, 'status': '%s_%s' % (r.action, r.status),
             'created_time': (r.created_time or '', r.seq or 0), 'reference_id': r.reference_id}
            for r in child_rows if r.role == 'current']


def attribute(run, row, nest, key, path):
    """A group's attribute read through its stack's run."""
    child = nest.run if nest is not None else None
    names = list(nest.goal.names) if nest is not None else []

    def ref_of(name):
        member = child.current(name) if child is not None else None
        return child.reference_of(member) if member is not None else None

    def attr_of(name, attr_path):
        member = child.current(name) if child is not None else None
        if member is None or not attr_path:
            return None
        return select_path(child.attribute(member, attr_path[0]), list(attr_path[1:]))

    defn = run.sd.resources.get(row.name) if run.sd is not None else None
    gtype = (defn is not None and group_type(defn)) or row.type
    if gtype == autoscaling.ASG:
        members = members_of(child.rows.values()) if child is not None else []
        return asg_attribute(row.name, key, path, members, ref_of=ref_of, attr_of=attr_of)
    kind = KINDS[gtype]
    return kind.read(row.name, key, path, names, ref_of=ref_of, attr_of=attr_of,
                     removed=row.facts.get(REMOVED) or [])
