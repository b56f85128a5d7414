# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import scaling as sc

T0 = datetime.datetime(2026, 3, 1, 12, 0, 0)


def at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


def roundtrip(metadata):
    """What the state store gives back on the next run."""
    return json.loads(json.dumps(metadata))


# -- capacity -----------------------------------------------------------------

@pytest.mark.parametrize('current, adjustment, kind, step, low, high, expected', [
    # a change, clamped above and below
    (2, 3, 'change_in_capacity', None, 0, 10, 5),
    (6, -2, 'change_in_capacity', None, 0, 10, 4),
    (2, 9, 'change_in_capacity', None, 0, 10, 10),
    (2, -10, 'change_in_capacity', None, 1, 10, 1),
    # an exact size, clamped
    (2, 4, 'exact_capacity', None, 0, 10, 4),
    (2, 11, 'exact_capacity', None, 0, 10, 10),
    (4, 0, 'exact_capacity', None, 1, 10, 1),
    # percentages: whole deltas
    (4, 50, 'percent_change_in_capacity', None, 0, 10, 6),
    (4, -25, 'percent_change_in_capacity', None, 0, 10, 3),
    (4, 300, 'percent_change_in_capacity', None, 0, 10, 10),
    (6, -50, 'percent_change_in_capacity', None, 4, 10, 4),
    # a delta under one member moves by one, away from zero
    (2, -33, 'percent_change_in_capacity', None, 0, 10, 1),
    (1, 33, 'percent_change_in_capacity', None, 0, 10, 2),
    # a larger delta is truncated towards zero
    (2, -66, 'percent_change_in_capacity', None, 0, 10, 1),
    (1, 225, 'percent_change_in_capacity', None, 0, 10, 3),
    (3, -90, 'percent_change_in_capacity', None, 0, 10, 1),
    # min_adjustment_step widens a smaller step, either way
    (1, 100, 'percent_change_in_capacity', 3, 0, 10, 4),
    (1, 33, 'percent_change_in_capacity', 2, 0, 10, 3),
    (1, 325, 'percent_change_in_capacity', 2, 0, 10, 4),
    (3, -25, 'percent_change_in_capacity', 2, 0, 10, 1),
    (10, 50, 'percent_change_in_capacity', 2, 0, 20, 15),
    # a zero step becomes a step down (Heat's sign test is "> 0")
    (0, 50, 'percent_change_in_capacity', 2, 0, 10, 0),
    (0, 50, 'percent_change_in_capacity', None, 0, 10, 0),
    # a step of 0 is no step
    (1, 33, 'percent_change_in_capacity', 0, 0, 10, 2),
    # the CFN spellings count the same
    (2, 1, 'ChangeInCapacity', None, 0, 10, 3),
    (2, 7, 'ExactCapacity', None, 0, 10, 7),
    (4, 50, 'PercentChangeInCapacity', None, 0, 10, 6),
])
def test_new_capacity(current, adjustment, kind, step, low, high, expected):
    assert sc.new_capacity(current, adjustment, kind, min_adjustment_step=step,
                           minimum=low, maximum=high) == expected


def test_new_capacity_checks_the_maximum_first():
    # min above max cannot pass validation; Heat's order still decides
    assert sc.new_capacity(5, 5, 'change_in_capacity', minimum=8, maximum=6) == 6
    assert sc.new_capacity(1, 0, 'change_in_capacity', minimum=8, maximum=6) == 8


def test_new_capacity_without_maximum_is_unbounded():
    assert sc.new_capacity(2, 100, 'change_in_capacity') == 102
    assert sc.new_capacity(2, -5, 'change_in_capacity') == 0


def test_policy_problem_only_for_step_without_percentage():
    assert sc.policy_problem('percent_change_in_capacity', 2) is None
    assert sc.policy_problem('change_in_capacity', None) is None
    assert sc.policy_problem('exact_capacity', 1) == (
        'min_adjustment_step property should only be specified for '
        'adjustment_type with value percent_change_in_capacity.')


@pytest.mark.parametrize('sizes, problem', [
    ((1, 4, 2), None),
    ((1, 4, None), None),
    ((5, 4, None), 'MinSize can not be greater than MaxSize'),
    ((-1, 4, None), 'The size of AutoScalingGroup can not be less than zero'),
    ((1, 4, 5), 'DesiredCapacity must be between MinSize and MaxSize'),
    ((1, 4, 0), 'DesiredCapacity must be between MinSize and MaxSize'),
])
def test_group_size_problem(sizes, problem):
    assert sc.group_size_problem(*sizes) == problem


def test_initial_and_update_capacity_treat_zero_desired_as_unset():
    assert sc.initial_capacity(3, 1) == 3
    assert sc.initial_capacity(None, 1) == 1
    assert sc.initial_capacity(0, 2) == 2
    assert sc.update_capacity(3, 0, 1, 5) == 3
    assert sc.update_capacity(3, None, 1, 5) == 3
    assert sc.update_capacity(3, 9, 1, 5) == 5
    assert sc.update_capacity(7, None, 1, 5) == 5


# -- cooldown -----------------------------------------------------------------

def test_fresh_metadata_allows_scaling():
    assert sc.scaling_allowed({}, 60, T0, 'asg') == (True, None)
    assert sc.scaling_allowed(None, None, T0) == (True, None)


def test_scaling_in_progress_refuses_whatever_the_cooldown():
    meta = roundtrip(sc.mark_started({}))
    assert meta == {'scaling_in_progress': True}
    assert sc.scaling_allowed(meta, 0, at(1000), 'asg') == (
        False, 'The resource asg could not perform scaling action: due to scaling activity')


def test_cooldown_across_runs():
    meta = roundtrip(sc.mark_started({}))
    meta = roundtrip(sc.mark_finished(meta, 60, 'change_in_capacity : 1', at(0)))
    assert meta == {'scaling_in_progress': False,
                    'cooldown_end': {'2026-03-01T12:01:00': 'change_in_capacity : 1'}}
    refused = 'The resource asg could not perform scaling action: due to cooldown, cooldown 60'
    assert sc.scaling_allowed(meta, 60, at(30), 'asg') == (False, refused)
    assert sc.scaling_allowed(meta, 60, at(59.5), 'asg')[0] is False
    # the end is kept: a shorter cooldown now does not shorten it
    assert sc.scaling_allowed(meta, 0, at(59), 'asg') == (
        False, 'The resource asg could not perform scaling action: due to cooldown, cooldown 0')
    assert sc.scaling_allowed(meta, 60, at(60), 'asg') == (True, None)
    assert sc.scaling_allowed(meta, 60, at(61), 'asg') == (True, None)


def test_a_later_stored_end_wins():
    meta = sc.mark_finished({}, 300, 'ExactCapacity : 2', at(0))
    meta = roundtrip(sc.mark_finished(meta, 10, 'change_in_capacity : 1', at(5)))
    assert meta['cooldown_end'] == {'2026-03-01T12:05:00': 'change_in_capacity : 1'}


def test_no_size_change_keeps_the_cooldown_and_clears_progress():
    meta = sc.mark_started({'cooldown_end': {'2026-03-01T11:00:00': 'x'}})
    meta = roundtrip(sc.mark_finished(meta, 60, 'r', at(0), size_changed=False))
    assert meta == {'cooldown_end': {'2026-03-01T11:00:00': 'x'}, 'scaling_in_progress': False}


def test_negative_or_missing_cooldown_counts_as_zero():
    meta = roundtrip(sc.mark_finished({}, -30, 'r', at(0)))
    assert meta['cooldown_end'] == {'2026-03-01T12:00:00': 'r'}
    meta = roundtrip(sc.mark_finished({}, None, 'r', at(0)))
    assert sc.scaling_allowed(meta, None, at(0)) == (True, None)


def test_aware_now_is_taken_as_utc():
    now = datetime.datetime(2026, 3, 1, 14, 0, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    meta = sc.mark_finished({}, 30, 'r', now)
    assert meta['cooldown_end'] == {'2026-03-01T12:00:30': 'r'}
    assert sc.timestamp(now) == '2026-03-01T12:00:00'


@pytest.mark.parametrize('meta', [
    {'2026-03-01T12:00:00': 'ChangeInCapacity : 1'},
    {'cooldown': {'2026-03-01T12:00:00': 'ChangeInCapacity : 1'}, 'scaling_in_progress': False},
])
def test_older_formats_measure_from_the_last_scaling(meta):
    assert sc.scaling_allowed(meta, 60, at(30))[0] is False
    assert sc.scaling_allowed(meta, 60, at(60))[0] is False
    assert sc.scaling_allowed(meta, 60, at(61)) == (True, None)
    assert sc.scaling_allowed(meta, 0, at(1)) == (True, None)
    assert sc.scaling_allowed(meta, None, at(1)) == (True, None)


def test_reset_clears_only_a_present_mark():
    assert sc.reset_in_progress({'scaling_in_progress': True}) == {'scaling_in_progress': False}
    assert sc.reset_in_progress({}) == {}


def test_mark_functions_do_not_touch_their_input():
    meta = {'cooldown_end': {'2026-03-01T11:00:00': 'x'}}
    sc.mark_started(meta)
    sc.mark_finished(meta, 60, 'r', at(0))
    assert meta == {'cooldown_end': {'2026-03-01T11:00:00': 'x'}}


def test_group_not_found():
    assert sc.group_not_found('up', 'abc') == 'Alarm up could not find scaling group named "abc"'


def test_reasons():
    assert sc.adjustment_reason('change_in_capacity', 1) == 'change_in_capacity : 1'
    assert sc.exact_capacity_reason(2) == 'ExactCapacity : 2'


# -- a signal, end to end -----------------------------------------------------

GROUP = {'name': 'asg', 'complete': True, 'min_size': 1, 'max_size': 4, 'cooldown': 60}


def policy(adjustment, kind, **more):
    return dict(more, scaling_adjustment=adjustment, adjustment_type=kind)


def test_signal_up_then_refused_in_cooldown_then_allowed():
    # the group's create ends with a cooldown of its own
    meta = roundtrip(sc.mark_finished({}, 60, sc.exact_capacity_reason(2), at(0)))
    early = sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), meta, at(10), 2)
    assert early.capacity is None
    assert early.refusal == 'The resource asg could not perform scaling action: due to cooldown, cooldown 60'

    up = sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), meta, at(61), 2)
    assert up.capacity == 3 and up.refusal is None
    assert up.cooldown == 60 and up.reason == 'change_in_capacity : 1'
    meta = roundtrip(up.metadata)
    assert meta['scaling_in_progress'] is True
    # a second signal while the first resizes
    busy = sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), meta, at(62), 3)
    assert busy.refusal == 'The resource asg could not perform scaling action: due to scaling activity'

    meta = roundtrip(sc.mark_finished(meta, up.cooldown, up.reason, at(70)))
    again = sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), meta, at(100), 3)
    assert again.refusal.endswith('due to cooldown, cooldown 60')
    assert sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), meta, at(131), 3).capacity == 4


def test_no_change_is_refused_before_the_cooldown_is_read():
    busy = sc.mark_started({})
    at_max = sc.plan_adjustment(GROUP, policy(1, 'change_in_capacity'), busy, at(0), 4)
    assert at_max.refusal == ('asg NOT performing scaling adjustment, as there is no '
                              'change in capacity.')
    assert at_max.metadata is None


def test_a_group_not_complete_refuses_first():
    group = dict(GROUP, complete=False)
    out = sc.plan_adjustment(group, policy(1, 'change_in_capacity'), {}, at(0), 4)
    assert out.refusal == 'asg NOT performing scaling adjustment, when status is not COMPLETE'


def test_policy_cooldown_overrides_the_group_cooldown():
    meta = sc.mark_finished({}, 0, 'r', at(0))
    out = sc.plan_adjustment(GROUP, policy(-1, 'change_in_capacity', cooldown=5), meta, at(1), 2)
    assert out.capacity == 1 and out.cooldown == 5
    out = sc.plan_adjustment(dict(GROUP, cooldown=None),
                             policy(50, 'percent_change_in_capacity', min_adjustment_step=2),
                             meta, at(1), 2)
    assert out.capacity == 4 and out.cooldown is None
    assert out.reason == 'percent_change_in_capacity : 50'


# -- which members go ---------------------------------------------------------

MEMBERS = [
    {'name': 'bbbb', 'status': 'CREATE_COMPLETE', 'created_time': '2026-03-01T10:00:00'},
    {'name': 'aaaa', 'status': 'CREATE_COMPLETE', 'created_time': '2026-03-01T10:00:00'},
    {'name': 'cccc', 'status': 'UPDATE_COMPLETE', 'created_time': '2026-03-01T09:00:00'},
    {'name': 'dddd', 'status': 'CREATE_FAILED', 'created_time': '2026-03-01T11:00:00'},
    {'name': 'eeee', 'status': 'CREATE_COMPLETE', 'created_time': '2026-03-01T12:00:00'},
]


def test_heat_order_failed_then_oldest_then_name():
    assert [m['name'] for m in sc.ordered_members(MEMBERS)] == ['dddd', 'cccc', 'aaaa', 'bbbb', 'eeee']
    assert [m['name'] for m in sc.ordered_members(MEMBERS, include_failed=False)] == [
        'cccc', 'aaaa', 'bbbb', 'eeee']
    assert sc.current_size(MEMBERS) == 4


@pytest.mark.parametrize('size, kept, removed, create', [
    (5, ['dddd', 'cccc', 'aaaa', 'bbbb', 'eeee'], [], 0),
    (4, ['cccc', 'aaaa', 'bbbb', 'eeee'], ['dddd'], 0),
    (2, ['bbbb', 'eeee'], ['dddd', 'cccc', 'aaaa'], 0),
    (0, [], ['dddd', 'cccc', 'aaaa', 'bbbb', 'eeee'], 0),
    (7, ['dddd', 'cccc', 'aaaa', 'bbbb', 'eeee'], [], 2),
])
def test_scale_to(size, kept, removed, create):
    assert sc.scale_to(MEMBERS, size) == (kept, removed, create)


def test_datetimes_order_as_well_as_text():
    members = [{'name': 'x', 'status': 'CREATE_COMPLETE', 'created_time': at(5)},
               {'name': 'y', 'status': 'CREATE_COMPLETE', 'created_time': at(1)}]
    assert sc.scale_to(members, 1) == (['x'], ['y'], 0)
