# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import events as info_events
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::Value, properties: {value: leaf}}
'''
BAD_LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::Value, properties: {value: leaf}}
  bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
'''
TOP = '''
resources:
  mid: {type: leaf.yaml}
  u: {type: OS::Heat::Value, properties: {value: {get_resource: mid}}}
'''


def events_of(stacks, depth=0, name='st'):
    store = stacks.store()
    try:
        return info_events.stack_events(store, store.get_stack(name), depth)
    finally:
        store.close()


def brief(events):
    return [(e['resource_name'], e['resource_status']) for e in events]


def test_events_in_heats_shape_oldest_first(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    events = events_of(stacks)
    stored = stacks.stored_events()
    assert [e['id'] for e in events] == [e['id'] for e in stored]
    assert brief(events) == [('st', 'CREATE_IN_PROGRESS'), ('mid', 'CREATE_IN_PROGRESS'),
                             ('mid', 'CREATE_COMPLETE'), ('u', 'CREATE_IN_PROGRESS'),
                             ('u', 'CREATE_COMPLETE'), ('st', 'CREATE_COMPLETE')]
    first = events[1]
    assert set(first) == {'id', 'resource_name', 'logical_resource_id', 'physical_resource_id',
                          'resource_status', 'resource_status_reason', 'event_time'}
    assert first['logical_resource_id'] == 'mid' and first['resource_status_reason'] == 'state changed'


def test_a_runs_events_in_api_shape_are_those_the_store_lists(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    result = stacks.run(TOP.replace('get_resource: mid', 'list_join: ["-", [{get_resource: mid}, x]]'))
    listed = events_of(stacks)
    shown = info_events.api_events([e for e in result['events'] if 'stack_name' not in e])
    assert shown == listed[-len(shown):]
    assert brief(shown) == [('st', 'UPDATE_IN_PROGRESS'), ('u', 'UPDATE_IN_PROGRESS'),
                            ('u', 'UPDATE_COMPLETE'), ('st', 'UPDATE_COMPLETE')]
    assert info_events.api_events(shown) == shown       # already in that shape: kept


def test_nested_events_come_inside_their_holders_action(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    nested = stacks.children()['mid']['name']
    events = events_of(stacks, depth=1)
    assert brief(events) == [('st', 'CREATE_IN_PROGRESS'), ('mid', 'CREATE_IN_PROGRESS'),
                             (nested, 'CREATE_IN_PROGRESS'), ('v', 'CREATE_IN_PROGRESS'),
                             ('v', 'CREATE_COMPLETE'), (nested, 'CREATE_COMPLETE'),
                             ('mid', 'CREATE_COMPLETE'), ('u', 'CREATE_IN_PROGRESS'),
                             ('u', 'CREATE_COMPLETE'), ('st', 'CREATE_COMPLETE')]
    assert [e['stack_name'] for e in events] == ['st', 'st', nested, nested, nested, nested,
                                                 'st', 'st', 'st', 'st']


def test_merge_orders_by_time_then_by_the_holders_end():
    def ev(name, status, time, stack='st'):
        return {'resource_name': name, 'resource_status': status, 'event_time': time, 'stack_name': stack}
    own = [ev('mid', 'CREATE_IN_PROGRESS', '1'), ev('other', 'CREATE_IN_PROGRESS', '2'),
           ev('mid', 'CREATE_COMPLETE', '2'), ev('st', 'CREATE_COMPLETE', '3')]
    nested = [ev('v', 'CREATE_IN_PROGRESS', '2', 'n'), ev('v', 'CREATE_COMPLETE', '3', 'n')]
    merged = info_events._merge(own, nested, 'mid')
    assert [(e['resource_name'], e['event_time']) for e in merged] == [
        ('mid', '1'), ('other', '2'), ('v', '2'), ('mid', '2'), ('v', '3'), ('st', '3')]


def test_merge_puts_a_nested_action_started_in_the_same_second_after_the_holders_end():
    def ev(name, status, stack='st'):
        return {'resource_name': name, 'resource_status': status, 'event_time': '1', 'stack_name': stack}
    # a fast nested stack made, then deleted, all in one second
    own = [ev('mid', 'CREATE_IN_PROGRESS'), ev('mid', 'CREATE_COMPLETE'), ev('st', 'CREATE_COMPLETE'),
           ev('st', 'DELETE_IN_PROGRESS'), ev('mid', 'DELETE_IN_PROGRESS'), ev('mid', 'DELETE_COMPLETE'),
           ev('st', 'DELETE_COMPLETE')]
    nested = [ev('n', 'CREATE_IN_PROGRESS', 'n'), ev('v', 'CREATE_COMPLETE', 'n'), ev('n', 'CREATE_COMPLETE', 'n'),
              ev('n', 'DELETE_IN_PROGRESS', 'n'), ev('v', 'DELETE_COMPLETE', 'n'), ev('n', 'DELETE_COMPLETE', 'n')]
    merged = info_events._merge(own, nested, 'mid', 'n')
    assert brief(merged) == [
        ('mid', 'CREATE_IN_PROGRESS'), ('n', 'CREATE_IN_PROGRESS'), ('v', 'CREATE_COMPLETE'),
        ('n', 'CREATE_COMPLETE'), ('mid', 'CREATE_COMPLETE'), ('st', 'CREATE_COMPLETE'),
        ('st', 'DELETE_IN_PROGRESS'), ('mid', 'DELETE_IN_PROGRESS'), ('n', 'DELETE_IN_PROGRESS'),
        ('v', 'DELETE_COMPLETE'), ('n', 'DELETE_COMPLETE'), ('mid', 'DELETE_COMPLETE'), ('st', 'DELETE_COMPLETE')]


INNER = '''heat_template_version: 2021-04-16
resources:
  deep: {type: leaf.yaml}
'''


def test_deleted_nested_stacks_are_merged_from_their_traces_to_the_depth_asked(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    (stacks.dir / 'inner.yaml').write_text(INNER)
    stacks.run(TOP.replace('leaf.yaml', 'inner.yaml'))
    store = stacks.store()
    try:
        top = store.get_stack('st')
        live = dict((d, info_events.stack_events(store, top, d)) for d in (1, 2))
    finally:
        store.close()
    stacks.run(state='absent')
    store = stacks.store()
    try:
        gone = store.nested_traces(top['id'])
        gone[top['id']] = store.deleted(top['id'])
        for depth in (1, 2):
            events = info_events.stack_events(store, gone[top['id']]['stack'], depth, gone=gone)
            assert events[:len(live[depth])] == live[depth]      # the life before the delete, as it was listed
            deleted = [e for e in events[len(live[depth]):] if e['resource_status'] == 'DELETE_COMPLETE']
            names = [e['stack_name'] for e in deleted]
            assert len(set(names)) == depth + 1 and names[-1] == 'st'
        assert info_events.stack_events(store, gone[top['id']]['stack'], 0, gone=gone) == [
            info_events.event_view(e) for e in gone[top['id']]['events']]
    finally:
        store.close()


def test_select_resource_sort_marker_limit(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    events = events_of(stacks)
    only_u = info_events.select_events(events, resource='u')
    assert brief(only_u) == [('u', 'CREATE_IN_PROGRESS'), ('u', 'CREATE_COMPLETE')]
    newest = info_events.select_events(events, sort=[':desc'])
    # newest first, events of the same second too (they keep the order they happened in)
    assert [e['id'] for e in newest] == [e['id'] for e in reversed(events)]
    by_name = info_events.select_events(events, sort=['resource_name', 'resource_status:desc'])
    assert brief(by_name)[:3] == [('mid', 'CREATE_IN_PROGRESS'), ('mid', 'CREATE_COMPLETE'),
                                  ('st', 'CREATE_IN_PROGRESS')]
    after = info_events.select_events(events, marker=events[2]['id'], limit=2)
    assert [e['id'] for e in after] == [e['id'] for e in events[3:5]]
    assert info_events.select_events(events, limit=0) == []
    with pytest.raises(StackersError, match='marker'):
        info_events.select_events(events, marker='nope')
    with pytest.raises(StackersError, match='Cannot sort events by "colour"'):
        info_events.select_events(events, sort=['colour'])
    with pytest.raises(StackersError, match='Cannot sort'):
        info_events.select_events(events, sort=['event_time:up'])


def test_failures_are_the_failed_leaves_by_path(stacks):
    (stacks.dir / 'leaf.yaml').write_text(BAD_LEAF)
    result = stacks.run(TOP)
    assert result['stack']['stack_status'] == 'CREATE_FAILED'
    store = stacks.store()
    try:
        found = info_events.failures(store, store.get_stack('st'))
    finally:
        store.close()
    assert list(found) == ['st.mid.bad']
    bad = found['st.mid.bad']
    assert bad['resource_type'] == 'OS::Heat::TestResource' and bad['status'] == 'CREATE_FAILED'
    assert bad['status_reason'] == 'ValueError: resources.bad: Test Resource failed bad'


def test_failures_of_a_deployment_carry_its_output_and_a_good_stack_has_none(stacks):
    stacks.run('resources:\n  a: {type: OS::Heat::None}\n')
    store = stacks.store()
    try:
        stack = store.get_stack('st')
        assert info_events.failures(store, stack) == {}
        store.save_resource(ResourceRow(
            uuid='d1', name='deploy', stack_id=stack['id'], type='OS::Heat::SoftwareDeployment',
            action='CREATE', status='FAILED', physical_id='dep-1',
            status_reason='Error: resources.deploy: Deployment to server failed: deploy_status_code : '
                          'Deployment exited with non-zero status code: 1',
            attrs={'deploy_stdout': 'out', 'deploy_stderr': 'boom', 'deploy_status_code': 1}))
        store.update_stack(stack['id'], status='FAILED')
        found = info_events.failures(store, store.get_stack('st'))
    finally:
        store.close()
    assert found == {'st.deploy': {
        'resource_type': 'OS::Heat::SoftwareDeployment', 'physical_resource_id': 'dep-1',
        'status': 'CREATE_FAILED', 'status_reason': 'Error: resources.deploy: Deployment to server failed: '
        'deploy_status_code : Deployment exited with non-zero status code: 1',
        'deploy_stdout': 'out', 'deploy_stderr': 'boom', 'deploy_status_code': 1}}
