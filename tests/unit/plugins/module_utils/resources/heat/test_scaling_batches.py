# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import scaling_batches as sb


@pytest.mark.parametrize('target, current, done, size, keep, batch', [
    # replace one at a time in place
    (4, 4, 0, 1, 0, (4, 1)),
    # keep all four in service: grow by the batch first
    (4, 4, 0, 1, 4, (5, 1)),
    (4, 4, 0, 2, 4, (6, 2)),
    # the last batch of a grown group shrinks it back
    (4, 5, 4, 1, 4, (4, 0)),
    # min_in_service above the size is bounded by it
    (2, 2, 0, 1, 10, (3, 1)),
    # growing: new members count as updated
    (5, 2, 0, 2, 0, (4, 2)),
    # nothing left to update
    (3, 3, 3, 2, 0, (3, 0)),
])
def test_next_batch(target, current, done, size, keep, batch):
    assert sb.next_batch(target, current, done, size, keep) == batch


def test_next_batch_refuses_more_done_than_members():
    with pytest.raises(ValueError):
        sb.next_batch(3, 2, 3, 1, 0)


def test_needs_update():
    assert sb.needs_update(3, 3, 2)
    assert sb.needs_update(3, 4, 4)
    assert not sb.needs_update(3, 3, 3)


@pytest.mark.parametrize('target, current, size, keep, batches', [
    (4, 4, 1, 0, [(4, 1)] * 4),
    (4, 4, 2, 0, [(4, 2), (4, 2)]),
    (5, 5, 2, 0, [(5, 2), (5, 2), (5, 1)]),
    (4, 4, 1, 4, [(5, 1)] * 4 + [(4, 0)]),
    (3, 3, 2, 4, [(5, 2), (4, 1), (3, 0)]),
    (0, 3, 1, 0, [(0, 0)]),
    (0, 0, 1, 0, []),
])
def test_group_batches(target, current, size, keep, batches):
    assert sb.group_batches(target, current, size, keep) == batches


@pytest.mark.parametrize('target, current, size, keep, batches', [
    # the temporary extra member is not up to date: one more batch than
    # the AutoScalingGroup's way
    (4, 4, 1, 4, [(5, 1)] * 5 + [(4, 0)]),
    (4, 4, 2, 4, [(6, 2)] * 3 + [(4, 0)]),
    (3, 3, 2, 4, [(5, 2), (5, 2), (4, 1), (3, 0)]),
    (5, 5, 2, 0, [(5, 2), (5, 2), (5, 1)]),
    # batch_create: from nothing, min_in_service 0
    (5, 0, 2, 0, [(2, 2), (4, 2), (5, 1)]),
    (3, 0, 5, 0, [(3, 3)]),
])
def test_resource_group_batches(target, current, size, keep, batches):
    assert sb.resource_group_batches(target, current, size, keep) == batches


def test_rolling_target_never_grows():
    assert sb.rolling_target(5, 3) == 3
    assert sb.rolling_target(2, 3) == 2
    assert sb.rolling_target(0, 3) == 3
    assert sb.rolling_target(None, 3) == 3


def test_update_timeout_and_pauses():
    assert sb.update_timeout(4, 10, 3600) == 3570
    assert sb.update_timeout(1, 5000, 3600) == 3600
    assert sb.update_timeout_minutes(4, 10, 3600) == 60
    assert sb.update_timeout_minutes(2, 30, 3600) == 60
    assert sb.update_timeout_minutes(2, 90, 600) == 9
    with pytest.raises(ResourceFailure) as err:
        sb.update_timeout(3, 1800, 3600)
    assert str(err.value) == 'The current update policy will result in stack update timeout.'
    assert sb.pauses([(1, 1)] * 3, 7) == [7, 7, 0]
    assert sb.pauses([(1, 1)] * 3, 0) == [0, 0, 0]
    assert sb.pauses([], 7) == []


def _names(prefix='new'):
    counter = itertools.count()
    return lambda: '%s%d' % (prefix, next(counter))


OLD = [('a', 'v1'), ('b', 'v1'), ('c', 'v2'), ('d', 'v1')]


@pytest.mark.parametrize('size, updates, expected', [
    # a resize keeps definitions and drops the first ones
    (2, 0, [('c', 'v2'), ('d', 'v1')]),
    (6, 0, OLD + [('new0', 'v2'), ('new1', 'v2')]),
    # updates go to new members first, then to differing kept ones in order
    (4, 2, [('a', 'v2'), ('b', 'v2'), ('c', 'v2'), ('d', 'v1')]),
    (5, 2, [('a', 'v2'), ('b', 'v1'), ('c', 'v2'), ('d', 'v1'), ('new0', 'v2')]),
    (3, 5, [('b', 'v2'), ('c', 'v2'), ('d', 'v2')]),
    (0, 3, []),
])
def test_member_definitions(size, updates, expected):
    assert sb.member_definitions(OLD, 'v2', size, updates, _names()) == expected


def test_member_definitions_customises_each_member():
    out = sb.member_definitions([('0', 'x-0')], 'y-%i', 2, 2, _names('n'),
                                customise=lambda name, d: d.replace('%i', name))
    assert out == [('0', 'y-0'), ('n0', 'y-n0')]


def test_walk_batches_chunks_names_by_the_policys_batch_size_and_keeps_its_pause():
    assert sb.walk_batches(['a', 'b', 'c'], {'max_batch_size': 2, 'pause_time': 1.5}) == \
        ([['a', 'b'], ['c']], 1.5)
    assert sb.walk_batches(('a', 'b'), {}) == ([['a'], ['b']], 0.0)
    assert sb.walk_batches([], {'max_batch_size': 0}) == ([], 0.0)
