# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat 27's batched updates of scaling groups, as pure functions.

- ``needs_update`` and ``next_batch``: heat/scaling/rolling_update.py.
- ``group_batches``: InstanceGroup._get_batches, which the
  AutoScalingGroup's rolling_updates use; ``resource_group_batches``:
  ResourceGroup._get_batches (rolling_update and batch_create), which
  counts the updates of a batch differently.
- ``update_timeout``: the _update_timeout both groups share.
- ``member_definitions``: heat/scaling/template.py member_definitions, which
  picks the members a batch (or a resize) keeps, changes and adds.

A batch is ``(size, updates)``: the group's size once the batch is done,
and how many members get the new definition in it (new ones included).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

from ...errors import ResourceFailure

TIMEOUT_MESSAGE = 'The current update policy will result in stack update timeout.'


def needs_update(target, current, up_to_date):
    """Whether another batch is due: not once the group has its target
    size and every member is up to date."""
    return not (up_to_date >= current == target)


def next_batch(target, current, up_to_date, batch_size, min_in_service):
    """The next batch: ``(new size, members to get the new definition)``.

    The group may grow above its target for the batch so that
    ``min_in_service`` members (bounded by the target and the current size)
    stay untouched while ``batch_size`` others are replaced.
    """
    if up_to_date > current:
        raise ValueError('more members up to date (%d) than in the group (%d)'
                         % (up_to_date, current))
    floor = min(min_in_service, target, current)
    batch = min(batch_size, max(target - up_to_date, 0))
    return batch + max(min(current, target - batch), floor), batch


def group_batches(target, current, batch_size, min_in_service):
    """The batches of an AutoScalingGroup's (InstanceGroup's) rolling
    update, from ``current`` members (failed ones counted) to ``target``."""
    up_to_date = 0
    batches = []
    while needs_update(target, current, up_to_date):
        current, count = next_batch(target, current, up_to_date, batch_size, min_in_service)
        batches.append((current, count))
        up_to_date += count
    return batches


def rolling_target(desired_capacity, current):
    """The target size of an AutoScalingGroup's rolling update (_replace):
    never above the current size (growing is the resize's job after it);
    an unset or 0 desired capacity means the current size."""
    return min(desired_capacity or current, current)


def resource_group_batches(target, current, batch_size, min_in_service):
    """The batches of a ResourceGroup's rolling_update (min_in_service as
    given) or batch_create (min_in_service 0, from 0 members).

    Unlike group_batches, the members a batch adds beyond the larger of the
    current and target sizes do not count as up to date: they are the
    temporary extra members that go again later.
    """
    up_to_date = 0
    batches = []
    while needs_update(target, current, up_to_date):
        size, count = next_batch(target, current, up_to_date, batch_size, min_in_service)
        batches.append((size, count))
        up_to_date += count - max(size - max(current, target), 0)
        current = size
    return batches


def update_timeout(batch_count, pause, stack_timeout):
    """The seconds each batch may take (_update_timeout): the stack's
    timeout less the pauses between batches; refused (Heat raises a
    ValueError, which fails the resource) when the pauses alone fill it."""
    total_pause = pause * max(batch_count - 1, 0)
    if total_pause >= stack_timeout:
        raise ResourceFailure(TIMEOUT_MESSAGE, action='UPDATE', kind='ValueError')
    return stack_timeout - total_pause


def update_timeout_minutes(batch_count, pause, stack_timeout):
    """The ResourceGroup's per-batch timeout in whole minutes (it rounds
    the seconds up for the nested stack's update)."""
    return int(math.ceil(update_timeout(batch_count, pause, stack_timeout) / 60.0))


def pauses(batches, pause):
    """The pause after each batch: ``pause`` between batches, none after
    the last (and none at all when ``pause`` is 0)."""
    return [pause if index < len(batches) - 1 and pause > 0 else 0
            for index in range(len(batches))]


def walk_batches(names, policy):
    """``([[names], ...], pause seconds)``: ``names`` in batches of the
    resolved ``policy``'s ``max_batch_size`` (1 when unset), and its
    ``pause_time`` (0 when unset), as a flattened walk takes them."""
    size = max(1, int(policy.get('max_batch_size') or 1))
    names = list(names)
    return ([names[i:i + size] for i in range(0, len(names), size)],
            float(policy.get('pause_time') or 0))


def _same(name, definition):
    return definition


def member_definitions(old, new_definition, size, updates, new_name, *, customise=_same):
    """The members after a resize or one batch (scaling/template.py
    member_definitions): a list of ``(name, definition)``.

    ``old`` is the existing ``(name, definition)`` pairs, the first to go
    first; the last ``size`` of them stay.  ``updates`` members get the new
    definition: new members first, then kept ones whose definition differs,
    in ``old``'s order.  ``new_name()`` names a new member;
    ``customise(name, definition)`` makes a member's own definition from
    the new one (ResourceGroup's index_var).
    """
    old = list(old)[-size:] if size > 0 else []
    to_create = size - len(old)
    to_replace = updates - to_create
    out = []
    for index in range(size):
        if index < len(old):
            name, definition = old[index]
            wanted = customise(name, new_definition)
            if definition != wanted and to_replace > 0:
                to_replace -= 1
                out.append((name, wanted))
            else:
                out.append((name, definition))
        else:
            name = new_name()
            out.append((name, customise(name, new_definition)))
    return out
