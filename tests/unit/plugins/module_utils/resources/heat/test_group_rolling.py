# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import group_rolling as gr
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import group_template as gt

OLD = {'type': 'T', 'properties': {'v': 'old-%index%'}}
NEW = {'type': 'T', 'properties': {'v': 'new-%index%'}}


def rg_members(names, rdef=None, failed=()):
    rdef = rdef or OLD
    return [{'name': n, 'status': 'CREATE_FAILED' if n in failed else 'CREATE_COMPLETE',
             'created_time': 't%02d' % i, 'definition': gt.member_definition(n, rdef)}
            for i, n in enumerate(names)]


def steps(plan):
    return [(b.size, b.created, b.updated, b.deleted, b.pause) for b in plan]


def test_rolling_update_in_place_from_the_highest_index():
    plan = gr.resource_group_rolling_plan({'count': 4, 'resource_def': NEW}, [],
                                          rg_members('0123'), batch_size=2, pause=30)
    assert steps(plan) == [(4, [], ['3', '2'], [], 30), (4, [], ['1', '0'], [], 0)]
    last = plan[-1].template['resources']
    assert [last[n]['properties']['v'] for n in '0123'] == ['new-0', 'new-1', 'new-2', 'new-3']
    assert plan[0].template['resources']['0']['properties']['v'] == 'old-0'


def test_rolling_update_keeping_everyone_in_service_adds_a_temporary_member():
    # Heat's own scenario: '0' removed by policy, members 1..4, min_in_service 4
    plan = gr.resource_group_rolling_plan({'count': 4, 'resource_def': NEW}, ['0'],
                                          rg_members('01234'), min_in_service=4, pause=10)
    assert steps(plan) == [
        (5, ['5'], [], ['0'], 10),
        (5, [], ['4'], [], 10),
        (5, [], ['3'], [], 10),
        (5, [], ['2'], [], 10),
        (5, [], ['1'], [], 10),
        (4, [], [], ['5'], 0)]
    assert all(b.size - len(b.updated) >= 4 for b in plan)


def test_rolling_update_drops_failed_members_first():
    plan = gr.resource_group_rolling_plan({'count': 2, 'resource_def': NEW}, [],
                                          rg_members('01', failed='1'))
    assert steps(plan)[0] == (2, [], ['1'], [], 0)
    assert [b.size for b in plan] == [2, 2]


def test_nothing_to_roll_when_definitions_already_match():
    plan = gr.resource_group_rolling_plan({'count': 2, 'resource_def': NEW}, [],
                                          rg_members('01', NEW))
    assert [b.updated for b in plan] == [[], []]


def test_batch_create():
    plan = gr.resource_group_batch_create({'count': 5, 'resource_def': NEW}, ['2'],
                                          max_batch_size=2, pause=3)
    assert steps(plan) == [(2, ['0', '1'], [], [], 3), (4, ['3', '4'], [], [], 3),
                           (5, ['5'], [], [], 0)]
    assert plan[1].template['outputs']['refs_map']['value'] == dict(
        (n, {'get_resource': n}) for n in ['0', '1', '3', '4'])
    assert gr.resource_group_batch_create({'count': 0, 'resource_def': NEW}, [],
                                          max_batch_size=2) == []


def asg_members():
    small = gt.asg_member_definition({'type': 'web.yaml', 'properties': {'flavor': 'small'}})
    return [{'name': n, 'status': s, 'created_time': t, 'definition': small}
            for n, s, t in [('a', 'CREATE_COMPLETE', '1'), ('b', 'CREATE_FAILED', '3'),
                            ('c', 'CREATE_COMPLETE', '2')]]


LARGE = {'type': 'web.yaml', 'properties': {'flavor': 'large'}}


def new_ids():
    counter = itertools.count()
    return lambda: 'n%d' % next(counter)


def test_asg_rolling_update_failed_first_then_oldest():
    plan = gr.asg_rolling_plan(LARGE, 3, asg_members(), min_in_service=1, pause=5,
                               new_id=new_ids())
    assert steps(plan) == [(3, [], ['b'], [], 5), (3, [], ['a'], [], 5), (3, [], ['c'], [], 0)]
    assert plan[-1].template['resources']['c']['properties'] == {'flavor': 'large'}


def test_asg_rolling_update_never_grows_the_target():
    plan = gr.asg_rolling_plan(LARGE, 9, asg_members(), batch_size=2, new_id=new_ids())
    assert [(b.size, b.updates) for b in plan] == [(3, 2), (3, 1)]


def test_asg_full_service_leaves_one_in_place_updated_member_behind():
    # Heat removes the oldest at the end; updated in place, that is the
    # member it just updated, and 'c' keeps the old definition
    two = [m for m in asg_members() if m['name'] != 'b']
    plan = gr.asg_rolling_plan(LARGE, 2, two, min_in_service=2, new_id=new_ids())
    assert steps(plan) == [(3, ['n0'], [], [], 0), (3, [], ['a'], [], 0), (2, [], [], ['a'], 0)]
    assert plan[-1].template['resources']['c']['properties'] == {'flavor': 'small'}
    # replaced instead, the updated member is the newest and 'c' goes
    plan = gr.asg_rolling_plan(LARGE, 2, two, min_in_service=2, new_id=new_ids(),
                               replaced=True)
    assert plan[-1].deleted == ['c']
