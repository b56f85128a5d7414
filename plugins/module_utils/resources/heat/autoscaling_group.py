# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::AutoScalingGroup as the nested stack it writes (Heat 27's
AutoScalingGroup: resources/heat/group_template.asg_template).

Its size is decided when the run is validated, as Heat decides it: a new
group starts at its desired capacity (or min_size); an update that changes
its sizing properties resizes it (update_capacity); otherwise it keeps the
size it has (a signal's scaling is not undone by the next run of the same
template); a signal's run (``resize``) asks for a size.  Members that go
are the failed ones first, then the oldest; new members get Heat's random
short names, drawn before the walk so that the walk knows them.  Every member
takes the group's current ``resource`` definition; the members it had are
walked in rolling batches (``rolling_batches``): ``max_batch_size`` at a
time, in Heat's order, ``pause_time`` between batches, so an update of
their definition never has more than a batch of them out of service (Heat
may also grow the group for the batch to keep ``min_in_service``; members
updated in place need no such growth, and none is made).

The group's scaling marks (cooldown end, scaling in progress) are kept in
its row's data (``SCALING``), across runs, as Heat keeps them in the
resource's metadata.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

from ...errors import TemplateError
from ...hot import functions as fns
from ...hot.template import Template
from . import group_members, scaling
from .group_template import (asg_member_definition, asg_template, member_type_found,
                             random_member_id)
from .late_values import placeheld, with_parameters
from .scaling_batches import walk_batches

ASG = 'OS::Heat::AutoScalingGroup'
# The row's data key of the group's scaling marks (scaling.py's metadata).
SCALING = 'scaling'
_SIZING = ('min_size', 'max_size', 'desired_capacity')


def _known_sizing(defn):
    props = defn.properties or {}
    out = {}
    for key in _SIZING:
        if fns.dependencies(props.get(key)):
            raise TemplateError('The "%s" of AutoScalingGroup "%s" must be known before the run (it '
                                'cannot come from another resource)' % (key, defn.name),
                                path=defn.path + ('properties', key))
        out[key] = fns.resolve(props.get(key))
    return out


def validate(given):
    """Heat's AutoScalingGroup.validate: the sizes (a size waiting on an
    attribute reads as 0), that the member's type is text, then that it
    resolves and the member's definition (only when the group starts with
    members: desired_capacity, or else min_size), validated as a nested
    stack (group_members.py)."""
    props = given.props
    low, high, desired = props['min_size'], props['max_size'], props['desired_capacity']
    if high < low:
        given.fail('MinSize can not be greater than MaxSize', 'min_size')
    if desired is not None and (desired < low or desired > high):
        given.fail('DesiredCapacity must be between MinSize and MaxSize', 'desired_capacity')
    # Heat reads the member's definition even for a group starting empty
    group_members.check_member_type(given)
    if desired or low:
        member_type_found(given, (props.get('resource') or {}).get('type'), 'resource', 'type')
        group_members.check_autoscaling_group(given)


def size_for(defn, row, members, resize=None):
    """The group's size in this run (see module docstring)."""
    sizing = _known_sizing(defn)
    low, high, desired = sizing['min_size'], sizing['max_size'], sizing['desired_capacity']
    problem = scaling.group_size_problem(low, high, desired)
    if problem:
        raise TemplateError('AutoScalingGroup "%s": %s' % (defn.name, problem),
                            path=defn.path + ('properties',))
    if resize is not None:
        return resize
    if row is None or row.status is None:
        return scaling.initial_capacity(desired, low)
    stored = row.properties or {}
    current = scaling.current_size(members)
    if any(stored.get(k) != sizing[k] for k in _SIZING):
        return scaling.update_capacity(current, desired, low, high)
    return len(members)


def goal_template(sd, defn, row, members, resize=None):
    """(Template, member names, late parameter names) of the group's stack
    as its goal holds it, made before the walk; new members named now."""
    size = size_for(defn, row, members, resize)
    late = []
    resource = placeheld((defn.properties or {}).get('resource'), late)
    template, names = _template(resource, size, members, random_member_id)
    return _loaded(sd, template), names, late


def runtime_template(sd, defn, props, members, names):
    """(Template, names) written with every value, the ``names`` of the
    goal given to the members it makes."""
    kept = set(m['name'] for m in members)
    fresh = iter([n for n in names if n not in kept])
    template, written = _template(props.get('resource'), len(names), members,
                                  lambda: next(fresh))
    return _loaded(sd, template), written


def _template(resource, size, members, new_id):
    definition = asg_member_definition(resource)
    old = [dict(m, definition=definition) for m in members]
    return asg_template(resource, size, old, updates=size, new_id=new_id)


def _loaded(sd, template):
    return Template.load(with_parameters(template), filename=sd.template.filename, files=sd.files,
                         root=sd.template.root)


def finished_marks(row, props, size, now=None):
    """The group's scaling marks once a create or update of it ended (Heat
    starts a cooldown then too)."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    marks = (row.facts.get(SCALING) if row is not None else None) or {}
    return scaling.mark_finished(marks, props.get('cooldown'),
                                 scaling.exact_capacity_reason(size), now)


def rolling_batches(defn, members):
    """([[member names], ...], pause seconds): the batches the existing
    ``members`` are walked in when the group's definition of them changes
    (its ``rolling_updates``; batches of 1 with no pause by default)."""
    policy = known_policy((defn.properties or {}).get('rolling_updates'))
    return walk_batches([m['name'] for m in scaling.ordered_members(members)], policy)


def known_policy(snippet):
    """A batching policy (a parsed snippet) resolved, or {} when it is
    unset or waits on a resource (the run is validated before that)."""
    if snippet is None or fns.dependencies(snippet):
        return {}
    return fns.resolve(snippet) or {}


def check_policies(sd):
    """A ScalingPolicy whose ``auto_scaling_group_id`` is another resource
    of the stack that is not an AutoScalingGroup is refused before any
    cloud call (Heat finds out only when a signal comes: "could not find
    scaling group")."""
    for name, defn in sd.resources.items():
        if (getattr(defn.type_info, 'plugin', None) or defn.type) != 'OS::Heat::ScalingPolicy':
            continue
        target = (defn.properties or {}).get('auto_scaling_group_id')
        for other in fns.dependencies(target):
            found = sd.resources.get(other)
            kind = found and (getattr(found.type_info, 'plugin', None) or found.type)
            if found is not None and kind != ASG:
                raise TemplateError('ScalingPolicy "%s" scales "%s", which is a %s, not an '
                                    'OS::Heat::AutoScalingGroup' % (name, other, found.type),
                                    path=defn.path + ('properties', 'auto_scaling_group_id'))
