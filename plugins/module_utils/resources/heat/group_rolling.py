# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The batches of Heat 27's rolling updates and batch creates, member by
member, as pure data.

- ResourceGroup: _replace with _assemble_for_rolling_update (rolling_update
  when resource_def changes; batch_create on create, from no members).
- AutoScalingGroup: InstanceGroup._replace with _create_template
  (rolling_updates when the resource property changes).

Each plan is a list of Batch: the nested template to apply, which members
it creates, updates (new definition) and deletes, and the pause after it.
Between batches the plan assumes every member of the last template
settled without failing.  A member updated in place (a template resource,
most types) keeps its place in Heat's order, its creation time; one the
change replaces gets a new creation time and moves after the others, as
new members do (``replaced=True``).  The AutoScalingGroup's removals
follow that order, so it can matter there.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .group_template import (DEFAULT_INDEX_VAR, asg_member_definition, asg_outputs,
                             make_template, member_definition, random_member_id,
                             resource_group_outputs, resource_names)
from .scaling import is_failed, ordered_members
from .scaling_batches import (group_batches, member_definitions, pauses,
                              resource_group_batches, rolling_target)


class Batch(object):
    """One step of a batched update."""

    def __init__(self, size, updates, template, definitions, before, *, pause=0):
        self.size = size
        self.updates = updates
        self.template = template
        self.pause = pause
        self.names = [name for name, _defn in definitions]
        self.created = [n for n, _d in definitions if n not in before]
        self.updated = [n for n, d in definitions if n in before and before[n] != d]
        self.deleted = [n for n in before if n not in self.names]

    def __repr__(self):
        return 'Batch(size=%r, created=%r, updated=%r, deleted=%r, pause=%r)' % (
            self.size, self.created, self.updated, self.deleted, self.pause)


def _settle(state, definitions, replaced=False):
    """The members in Heat's order once a template's members settled:
    kept ones where they were (replaced ones after them), new ones last."""
    new = dict(definitions)
    old = dict(state)
    moved = set(n for n in new if n in old and replaced and old[n] != new[n])
    kept = [(n, new[n]) for n, _d in state if n in new and n not in moved]
    return kept + [(n, new[n]) for n, _d in state if n in moved] + [
        (n, d) for n, d in definitions if n not in old]


def _rendered(template, definitions):
    """The definitions as the template holds them (what the next batch
    compares with: Heat's make_template may trim depends_on)."""
    resources = template.get('resources', {})
    return [(name, resources[name]) for name, _defn in definitions]


def _live(members, include_failed):
    return [(m['name'], m['definition']) for m in ordered_members(members, include_failed)
            if m.get('definition') is not None]


# -- ResourceGroup ------------------------------------------------------------

def resource_group_batch(properties, skiplist, state, size, updates, *, referenced_attrs=()):
    """The nested template of one ResourceGroup batch
    (_assemble_for_rolling_update).  ``state``: the live members'
    ``(name, definition)`` in Heat's order, failed ones left out.

    Members whose names the group no longer has go first, then the kept
    ones from the highest index down; new members take the free names.
    Returns ``(template, definitions)``.
    """
    skipped = set(skiplist or ())
    count = properties.get('count')
    target = 1 if count is None else count
    names = resource_names(size, skipped)
    valid = [(n, d) for n, d in state if n not in skipped]

    def priority(item):
        if item[0] not in names:
            return 0
        index = names.index(item[0])
        return target - index if index < target else size

    existing = set(n for n, _d in valid)
    fresh = iter([n for n in names if n not in existing])
    index_var = properties.get('index_var') or DEFAULT_INDEX_VAR
    definitions = member_definitions(
        sorted(valid, key=priority), properties['resource_def'], size, updates,
        lambda: next(fresh), customise=lambda name, rdef: member_definition(name, rdef, index_var))
    template = make_template(definitions, resource_group_outputs(names, referenced_attrs))
    return template, _rendered(template, definitions)


def resource_group_rolling_plan(properties, skiplist, members, *, min_in_service=0,
                                batch_size=1, pause=0, referenced_attrs=(), replaced=False):
    """A ResourceGroup's rolling_update (_replace) as batches.

    ``skiplist`` is the removed names after this update's removal policies
    (updated_skiplist); ``members`` the nested stack's members with their
    definitions.  An empty list means Heat resizes in one go instead
    (resource_group_plan).  Per-batch timeouts: scaling_batches.
    """
    skipped = set(skiplist or ())
    live = [m['name'] for m in members if not is_failed(m.get('status'))]
    current = len(list(members)) - len(skipped & set(live))
    count = properties.get('count')
    target = 1 if count is None else count
    sizes = resource_group_batches(target, current, batch_size, min_in_service)
    state = _live(members, include_failed=False)
    # Failed members take no part in the batches, but the first one
    # replaces or deletes them.
    before = dict(_live(members, include_failed=True))
    plan = []
    for (size, updates), wait in zip(sizes, pauses(sizes, pause)):
        template, definitions = resource_group_batch(properties, skipped, state, size,
                                                     updates, referenced_attrs=referenced_attrs)
        plan.append(Batch(size, updates, template, definitions, before, pause=wait))
        state = _settle(state, definitions, replaced)
        before = dict(state)
    return plan


def resource_group_batch_create(properties, skiplist, *, max_batch_size=1, pause=0,
                                referenced_attrs=()):
    """A ResourceGroup's create under batch_create: a rolling update from no
    members with min_in_service 0 (Heat's handle_create).  Empty when the
    count is 0 (Heat then creates the empty stack at once)."""
    if not properties.get('count', 1):
        return []
    return resource_group_rolling_plan(properties, skiplist, [], batch_size=max_batch_size,
                                       pause=pause, referenced_attrs=referenced_attrs)


# -- AutoScalingGroup ---------------------------------------------------------

def asg_rolling_plan(resource, desired_capacity, members, *, min_in_service=0, batch_size=1,
                     pause=0, new_id=random_member_id, referenced_attrs=(), replaced=False):
    """An AutoScalingGroup's rolling update (InstanceGroup._replace) as
    batches, up to the resize that follows it in handle_update.

    The target is the desired capacity but never above the current size,
    failed members counted (rolling_target); each batch rebuilds the
    template from every member, failed ones first (_create_template).
    """
    current = len(list(members))
    target = rolling_target(desired_capacity, current)
    sizes = group_batches(target, current, batch_size, min_in_service)
    new_definition = asg_member_definition(resource)
    state = _live(members, include_failed=True)
    plan = []
    for (size, updates), wait in zip(sizes, pauses(sizes, pause)):
        definitions = member_definitions(state, new_definition, size, updates, new_id)
        names = [n for n, _d in definitions]
        template = make_template(definitions, asg_outputs(names, referenced_attrs))
        definitions = _rendered(template, definitions)
        plan.append(Batch(size, updates, template, definitions, dict(state), pause=wait))
        state = _settle(state, definitions, replaced)
    return plan
