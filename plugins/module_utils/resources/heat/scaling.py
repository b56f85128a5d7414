# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat 27's scaling arithmetic, as pure functions (no I/O, no clock).

- ``new_capacity``: heat/scaling/scalingutil.py calculate_new_capacity.
- The cooldown and "scaling in progress" marks Heat keeps in the group
  resource's metadata (heat/scaling/cooldown.py CooldownMixin, used by the
  AutoScalingGroup's adjust, check_create_complete and
  check_update_complete): functions over the metadata dict, each given
  ``now``, so the dict can live in the state store between runs.
- ``plan_adjustment``: the checks of AutoScalingGroup.adjust in Heat's
  order, up to the resize.  A group's create and every update of it end
  with mark_finished too (reason exact_capacity_reason), so a cooldown
  follows them as it follows a signal's scaling.
- The member order Heat scales down by (heat/common/grouputils.py).

Rolling updates and batches are in scaling_batches.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import datetime
import math

ADJUSTMENT_TYPES = (
    EXACT_CAPACITY, CHANGE_IN_CAPACITY, PERCENT_CHANGE_IN_CAPACITY,
) = ('exact_capacity', 'change_in_capacity', 'percent_change_in_capacity')

CFN_ADJUSTMENT_TYPES = (
    CFN_EXACT_CAPACITY, CFN_CHANGE_IN_CAPACITY, CFN_PERCENT_CHANGE_IN_CAPACITY,
) = ('ExactCapacity', 'ChangeInCapacity', 'PercentChangeInCapacity')

# The metadata keys of the group resource.
IN_PROGRESS = 'scaling_in_progress'
COOLDOWN_END = 'cooldown_end'
# Written by Heat releases before cooldown_end existed; still read.
LEGACY_COOLDOWN = 'cooldown'


def new_capacity(current, adjustment, adjustment_type, *, min_adjustment_step=None,
                 minimum=0, maximum=None):
    """The group size after an adjustment (Heat's calculate_new_capacity).

    A percentage moves by at least one member (a delta under 1 rounds away
    from zero), otherwise it is truncated towards zero; ``min_adjustment_step``
    then widens a smaller step (a zero step becomes a step *down*, as in
    Heat).  The result is clamped to [minimum, maximum], the maximum
    checked first; ``maximum=None`` means no upper bound.  Any type that is
    not a change or an exact capacity counts as a percentage, as in Heat
    (the property's allowed values keep others out).
    """
    if adjustment_type in (CHANGE_IN_CAPACITY, CFN_CHANGE_IN_CAPACITY):
        capacity = current + adjustment
    elif adjustment_type in (EXACT_CAPACITY, CFN_EXACT_CAPACITY):
        capacity = adjustment
    else:
        delta = current * adjustment / 100.0
        if math.fabs(delta) < 1.0:
            step = int(math.ceil(delta) if delta > 0.0 else math.floor(delta))
        else:
            step = int(math.floor(delta) if delta > 0.0 else math.ceil(delta))
        if min_adjustment_step and min_adjustment_step > abs(step):
            step = min_adjustment_step if step > 0 else -min_adjustment_step
        capacity = current + step
    if maximum is not None and capacity > maximum:
        return maximum
    if capacity < minimum:
        return minimum
    return capacity


def policy_problem(adjustment_type, min_adjustment_step):
    """Heat's refusal of ``min_adjustment_step`` with another adjustment
    type than a percentage (ScalingPolicy validate), or None."""
    if adjustment_type != PERCENT_CHANGE_IN_CAPACITY and min_adjustment_step is not None:
        return ('min_adjustment_step property should only be specified for '
                'adjustment_type with value %s.' % PERCENT_CHANGE_IN_CAPACITY)
    return None


def group_size_problem(min_size, max_size, desired_capacity=None):
    """Heat's refusals of an AutoScalingGroup's sizes (its validate), in
    Heat's order, or None."""
    if max_size < min_size:
        return 'MinSize can not be greater than MaxSize'
    if min_size < 0:
        return 'The size of AutoScalingGroup can not be less than zero'
    if desired_capacity is not None and not min_size <= desired_capacity <= max_size:
        return 'DesiredCapacity must be between MinSize and MaxSize'
    return None


def initial_capacity(desired_capacity, min_size):
    """The size a new AutoScalingGroup is created with (its child_template):
    a desired capacity of 0 or none means min_size."""
    return desired_capacity if desired_capacity else min_size


def update_capacity(current, desired_capacity, min_size, max_size):
    """The size a stack update resizes the group to (handle_update): the
    desired capacity, or the current size when it is 0 or unset, clamped;
    scaling in progress or cooldown do not stop it."""
    return new_capacity(current, desired_capacity or current, CFN_EXACT_CAPACITY,
                        minimum=min_size, maximum=max_size)


# -- cooldown -----------------------------------------------------------------

def sanitize_cooldown(cooldown):
    """None counts as 0, a negative cooldown as 0."""
    if cooldown is None:
        return 0
    return max(0, cooldown)


def timestamp(now):
    """``now`` as Heat writes it: naive UTC in ISO format (no fraction when
    the microseconds are 0, as datetime.isoformat does)."""
    return _naive_utc(now).isoformat()


def _naive_utc(moment):
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment


def _older_than(stamp, seconds, now):
    before = _naive_utc(datetime.datetime.fromisoformat(stamp))
    return _naive_utc(now) - before > datetime.timedelta(seconds=seconds)


def _first_key(mapping):
    return next(iter(mapping.keys()))


def refusal_message(name, reason):
    """The text of Heat's NoActionRequired for a group named ``name``."""
    return 'The resource %s could not perform scaling action: %s' % (name, reason)


def scaling_allowed(metadata, cooldown, now, name='Unknown'):
    """Whether a scaling may start now (CooldownMixin._check_scaling_allowed,
    without its write): ``(True, None)`` or ``(False, message)`` with the
    message Heat's NoActionRequired carries.

    Refused while a scaling is in progress, then while ``now`` is before
    the stored cooldown end (an ISO text compare, as Heat does it).  The
    two formats older Heat releases stored (the last scaling's time as the
    ``cooldown`` key's only key, or as the metadata's only key) are
    measured against ``cooldown`` instead.
    """
    metadata = dict(metadata or {})
    if metadata.get(IN_PROGRESS):
        return False, refusal_message(name, 'due to scaling activity')
    cooldown = sanitize_cooldown(cooldown)
    in_cooldown = False
    if COOLDOWN_END in metadata:
        in_cooldown = timestamp(now) < _first_key(metadata[COOLDOWN_END])
    elif LEGACY_COOLDOWN in metadata:
        in_cooldown = cooldown != 0 and not _older_than(
            _first_key(metadata[LEGACY_COOLDOWN]), cooldown, now)
    else:
        metadata.pop(IN_PROGRESS, None)
        in_cooldown = bool(metadata) and cooldown != 0 and not _older_than(
            _first_key(metadata), cooldown, now)
    if in_cooldown:
        return False, refusal_message(name, 'due to cooldown, cooldown %s' % cooldown)
    return True, None


def mark_started(metadata):
    """The metadata once a scaling starts (what _check_scaling_allowed
    writes when it lets one through)."""
    metadata = copy.deepcopy(metadata or {})
    metadata[IN_PROGRESS] = True
    return metadata


def mark_finished(metadata, cooldown, reason, now, size_changed=True):
    """The metadata once a scaling ends (CooldownMixin._finished_scaling):
    when the size changed, the cooldown ends ``cooldown`` seconds from
    ``now``, or later if a stored end is later; ``reason`` is kept with it
    (see adjustment_reason, exact_capacity_reason)."""
    metadata = copy.deepcopy(metadata or {})
    if size_changed:
        end = (_naive_utc(now) + datetime.timedelta(
            seconds=sanitize_cooldown(cooldown))).isoformat()
        if COOLDOWN_END in metadata:
            end = max(_first_key(metadata[COOLDOWN_END]), end)
        metadata[COOLDOWN_END] = {end: reason}
    metadata[IN_PROGRESS] = False
    return metadata


def reset_in_progress(metadata):
    """Heat's handle_metadata_reset: clear a stuck in-progress mark."""
    metadata = copy.deepcopy(metadata or {})
    if IN_PROGRESS in metadata:
        metadata[IN_PROGRESS] = False
    return metadata


def adjustment_reason(adjustment_type, adjustment):
    """The cooldown reason a signal's scaling stores."""
    return '%s : %s' % (adjustment_type, adjustment)


def exact_capacity_reason(size):
    """The cooldown reason a group's create or update stores (the size is
    the group's size afterwards, failed members not counted)."""
    return adjustment_reason(CFN_EXACT_CAPACITY, size)


def group_not_found(policy_name, group_ref):
    """Heat's error when a policy's auto_scaling_group_id names no
    resource of its stack (ScalingPolicy.handle_signal): the signal
    fails with it."""
    return 'Alarm %s could not find scaling group named "%s"' % (policy_name, group_ref)


class Adjustment(object):
    """What a signal to a scaling policy does (see plan_adjustment).

    ``capacity`` is the size to resize to, or None when refused;
    ``refusal`` then says why (Heat logs it and drops the signal, no event,
    no error).  ``cooldown`` and ``reason`` are what mark_finished wants
    after the resize; ``metadata`` is the group's metadata to store before
    resizing (mark_started applied).
    """

    def __init__(self, capacity=None, refusal=None, cooldown=None, reason=None, metadata=None):
        self.capacity = capacity
        self.refusal = refusal
        self.cooldown = cooldown
        self.reason = reason
        self.metadata = metadata

    def __repr__(self):
        return 'Adjustment(capacity=%r, refusal=%r)' % (self.capacity, self.refusal)


def plan_adjustment(group, policy, metadata, now, current):
    """The checks of Heat's AutoScalingGroup.adjust, in its order.

    ``group`` is a dict of the group: ``name``, ``complete`` (its status is
    COMPLETE), ``min_size``, ``max_size``, ``cooldown``; ``current`` its
    size without failed members.  ``policy`` holds the ScalingPolicy's
    properties: ``scaling_adjustment``, ``adjustment_type``,
    ``min_adjustment_step``, ``cooldown`` (None falls back to the group's).
    Heat's refusals: a group not COMPLETE, no change of capacity (both
    before the cooldown is looked at), a scaling in progress, the cooldown.
    """
    adjustment = policy['scaling_adjustment']
    adjustment_type = policy['adjustment_type']
    cooldown = policy.get('cooldown')
    name = group.get('name', 'Unknown')
    if not group.get('complete', True):
        return Adjustment(refusal='%s NOT performing scaling adjustment, when status '
                                  'is not COMPLETE' % name)
    capacity = new_capacity(current, adjustment, adjustment_type,
                            min_adjustment_step=policy.get('min_adjustment_step'),
                            minimum=group.get('min_size', 0), maximum=group.get('max_size'))
    if capacity == current:
        return Adjustment(refusal='%s NOT performing scaling adjustment, as there is '
                                  'no change in capacity.' % name)
    if cooldown is None:
        cooldown = group.get('cooldown')
    allowed, why = scaling_allowed(metadata, cooldown, now, name)
    if not allowed:
        return Adjustment(refusal=why)
    return Adjustment(capacity=capacity, cooldown=cooldown,
                      reason=adjustment_reason(adjustment_type, adjustment),
                      metadata=mark_started(metadata))


# -- members ------------------------------------------------------------------

def is_failed(status):
    """A member status ('CREATE_FAILED', or Heat's bare 'FAILED') that
    counts as failed."""
    return str(status or '').endswith('FAILED')


def member_sort_key(member):
    """grouputils' order: failed members first, then by creation time,
    then by name."""
    return (not is_failed(member.get('status')), member.get('created_time'), member['name'])


def ordered_members(members, include_failed=True):
    """The member records in Heat's order (first to go first)."""
    return sorted((m for m in members if include_failed or not is_failed(m.get('status'))),
                  key=member_sort_key)


def current_size(members):
    """The group's size as Heat counts it (failed members left out)."""
    return sum(1 for m in members if not is_failed(m.get('status')))


def scale_to(members, size):
    """Which members a group of ``members`` keeps at ``size`` and which it
    removes (scaling/template.py member_definitions): the last ``size`` in
    Heat's order stay, so failed members go first, then the oldest.
    Returns (kept names in order, removed names, number to create)."""
    ordered = [m['name'] for m in ordered_members(members)]
    keep = ordered[max(len(ordered) - size, 0):] if size > 0 else []
    removed = ordered[:len(ordered) - len(keep)]
    return keep, removed, max(size - len(ordered), 0)
