# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import view
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.parameters import MASK

TEMPLATE = '''
description: a stack
parameters:
  pw: {type: string, hidden: true, default: hunter2}
  n: {type: number, default: 3}
  flag: {type: boolean, default: true}
  items: {type: comma_delimited_list, default: "a,b"}
  doc: {type: json, default: {"k": 1}}
  s: {type: string, default: text}
resources:
  a: {type: OS::Heat::Value, properties: {value: 1}}
  b: {type: OS::Heat::Value, properties: {value: {get_resource: a}}}
'''


def test_status_joins_action_and_status():
    assert view._status('CREATE', 'COMPLETE') == 'CREATE_COMPLETE'
    assert view._status('CREATE', None) == 'CREATE'
    assert view._status(None, 'COMPLETE') is None


def test_stack_view(make_run):
    run, _graph = make_run(TEMPLATE)
    stack = dict(run.stack, action='UPDATE', status='FAILED', status_reason='why', tags=['t'],
                 timeout_mins=5, disable_rollback=1)
    v = view.stack_view(stack, run, [{'output_key': 'o'}])
    assert v['id'] == stack['id'] and v['stack_name'] == 'st'
    assert v['stack_status'] == 'UPDATE_FAILED' and v['stack_status_reason'] == 'why'
    assert v['disable_rollback'] is True and v['tags'] == ['t'] and v['timeout_mins'] == 5
    assert v['outputs'] == [{'output_key': 'o'}]
    assert v['description'] == 'a stack'
    assert 'hunter2' not in repr(v)
    bare = view.stack_view(stack, None, None)
    assert bare['outputs'] == [] and 'parameters' not in bare
    assert view.stack_view(None, run, None) is None


def test_parameters_view_strings_and_mask(make_run):
    run, _graph = make_run(TEMPLATE)
    params = view.parameters_view(run.sd)
    assert params['pw'] == MASK
    assert params['n'] == '3' and params['flag'] == 'true' and params['items'] == 'a,b'
    assert params['doc'] == {'k': 1} and params['s'] == 'text'
    assert params['OS::stack_name'] == 'st' and params['OS::stack_id'] == run.stack['id']


def test_resource_views(make_run):
    run, _graph = make_run(TEMPLATE)
    base = ResourceRow(uuid='', name='', stack_id=run.stack['id'], type='OS::Heat::Value',
                       action='CREATE', status='COMPLETE', status_reason='state changed')
    run.save(base.replace(uuid='1', name='b', role='current', physical_id='pb', requires=['a']))
    run.save(base.replace(uuid='2', name='a', role='current', physical_id='pa', requires=[]))
    run.save(base.replace(uuid='3', name='a', role='old', physical_id='old-a', requires=[]))
    run.save(base.replace(uuid='4', name='c', role='current', physical_id=None, requires=['a'],
                          status='FAILED'))
    out = view.resource_views(run)
    assert [r['resource_name'] for r in out] == ['a', 'b', 'c']
    a = out[0]
    assert a['physical_resource_id'] == 'pa' and a['required_by'] == ['b', 'c']
    assert a['resource_status'] == 'CREATE_COMPLETE' and a['logical_resource_id'] == 'a'
    assert out[2]['physical_resource_id'] == '' and out[2]['resource_status'] == 'CREATE_FAILED'
    assert a['creation_time'] and a['updated_time']
    stored = view.row_views(run.store.resources(run.stack['id'], roles=('current',)))
    assert [(r['resource_name'], r['required_by']) for r in stored] == [('a', ['b', 'c']), ('b', []), ('c', [])]


LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::Value, properties: {value: leaf}}
'''
MID = '''heat_template_version: 2021-04-16
resources:
  leaf: {type: leaf.yaml}
  w: {type: OS::Heat::Value, properties: {value: mid}}
'''


def test_nested_depth_lists_the_nested_stacks_resources_level_by_level(stacks):
    for name, text in (('leaf.yaml', LEAF), ('mid.yaml', MID)):
        (stacks.dir / name).write_text(text)
    top = 'resources:\n  mid: {type: mid.yaml}\n  u: {type: OS::Heat::None}\n'
    result = stacks.run(top)
    assert [r['resource_name'] for r in result['resources']] == ['mid', 'u']     # depth 0: its own
    children = stacks.children()
    mid_stack = children['mid']
    deep = stacks.run(top, nested_depth=2)
    assert deep['changed'] is False
    rows = [(r['resource_name'], r.get('parent_resource'), r.get('stack_name')) for r in deep['resources']]
    leaf_stack = stacks.children(mid_stack['name'])['leaf']
    assert rows == [('mid', None, None), ('u', None, None),
                    ('leaf', 'mid', mid_stack['name']), ('w', 'mid', mid_stack['name']),
                    ('v', 'leaf', leaf_stack['name'])]
    nested = deep['resources'][2]
    assert nested['stack_id'] == mid_stack['id'] and nested['resource_status'] == 'CREATE_COMPLETE'
    assert nested['physical_resource_id'] == leaf_stack['id']
    one = stacks.run(top, nested_depth=1)
    assert [r['resource_name'] for r in one['resources']] == ['mid', 'u', 'leaf', 'w']
    checked = stacks.run(top, nested_depth=1, check_mode=True)
    assert [r['resource_name'] for r in checked['resources']][2:] == ['leaf', 'w']
