# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nested stacks walked in their parent's walk: create, rerun, update,
delete, failures deep down and rollback, with the record of every stack; after
the walk, failed nested stacks recorded and their parent resources failed in
Heat's words with the failing path, for every kind of nested stack."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.nested import steps

from ..conftest import HEADER, index

LEAF = HEADER + '''
parameters:
  name: {type: string}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: name}}}
outputs:
  out: {value: {get_attr: [v, value]}}
'''

TOP = '''
parameters:
  n: {type: string, default: x}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 6}}
  a: {type: leaf.yaml, properties: {name: {get_param: n}}}
  b: {type: leaf.yaml, properties: {name: {get_attr: [r, value]}}}
  c:
    type: OS::Heat::Value
    properties:
      value: {list_join: ['-', [{get_attr: [a, out]}, {get_attr: [a, resource.v.value]}]]}
outputs:
  c: {value: {get_attr: [c, value]}}
  b: {value: {get_attr: [b, out]}}
  ref: {value: {get_resource: a}}
'''


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def _stacks(stacks):
    store = stacks.store()
    try:
        return store._db.execute('SELECT name, parent_id, parent_resource, action, status '
                                 'FROM stacks ORDER BY created_time, name').fetchall()
    finally:
        store.close()


def test_a_template_resource_is_a_stack_of_its_own_with_outputs_as_attributes(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    result = stacks.run(TOP)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = _outputs(result)
    assert out['c'] == 'x-x'
    assert isinstance(out['b'], str) and len(out['b']) == 6     # r's value, known in the run
    children = stacks.children()
    assert sorted(children) == ['a', 'b']
    child = children['a']
    assert child['name'].startswith('st-a-') and child['status'] == 'COMPLETE'
    assert out['ref'] == 'arn:openstack:heat::%s:stacks/%s/%s' % ('', child['name'], child['id'])
    rows = stacks.rows()
    assert rows['a'].physical_id == child['id'] and rows['a'].status == 'COMPLETE'
    assert set(stacks.rows(child['name'])) == set(['v'])
    # the nested stack's events are its own, and the run's result lists them with their stack
    nested = [e for e in result['events'] if e.get('stack_name') == child['name']]
    assert stacks.brief(nested) == [(child['name'], 'CREATE', 'IN_PROGRESS'),
                                    ('v', 'CREATE', 'IN_PROGRESS'), ('v', 'CREATE', 'COMPLETE'),
                                    (child['name'], 'CREATE', 'COMPLETE')]
    assert stacks.brief(stacks.stored_events(child['name'])) == stacks.brief(nested)
    # the parent resource brackets its stack
    events = result['events']
    assert index(events, 'a', 'CREATE', 'IN_PROGRESS') < events.index(nested[0])
    assert events.index(nested[-1]) < index(events, 'a', 'CREATE', 'COMPLETE')


def test_a_rerun_changes_nothing_and_an_update_reaches_only_what_changed(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    before = [(s['id'], s, stacks.stored_events(s['name'])) for s in stacks.store().stacks()]
    again = stacks.run(TOP)
    assert again['changed'] is False
    assert again['events'] == []
    # neither the stack nor its nested stacks recorded anything
    assert [(s['id'], s, stacks.stored_events(s['name'])) for s in stacks.store().stacks()] == before
    updated = stacks.run(TOP, parameters={'n': 'y'})
    assert _outputs(updated)['c'] == 'y-y'
    names = set(e['resource_name'] for e in updated['events'])
    child_b = stacks.children()['b']['name']
    assert 'b' not in names and child_b not in names   # b's stack does not change
    assert ('v', 'UPDATE', 'COMPLETE') in stacks.brief(updated['events'])
    assert stacks.children()['a']['action'] == 'UPDATE'


def test_a_nested_resource_starts_beside_a_slow_parent_resource(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    result = stacks.run('''
resources:
  slow: {type: OS::Heat::TestResource, properties: {value: s, wait_secs: 0.4}}
  a: {type: leaf.yaml, properties: {name: n}}
''')
    events = result['events']
    assert index(events, 'v', 'CREATE', 'COMPLETE') < index(events, 'slow', 'CREATE', 'COMPLETE')


def test_only_what_reads_a_value_made_in_the_run_waits_for_it(stacks):
    (stacks.dir / 'two.yaml').write_text(HEADER + '''
parameters:
  early: {type: string}
  late: {type: string}
resources:
  first: {type: OS::Heat::Value, properties: {value: {get_param: early}}}
  second: {type: OS::Heat::Value, properties: {value: {get_param: late}}}
outputs:
  both: {value: [{get_attr: [first, value]}, {get_attr: [second, value]}]}
''')
    result = stacks.run('''
resources:
  slow: {type: OS::Heat::TestResource, properties: {value: s, wait_secs: 0.4}}
  a: {type: two.yaml, properties: {early: e, late: {get_attr: [slow, output]}}}
outputs:
  both: {value: {get_attr: [a, both]}}
''')
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    events = result['events']
    assert index(events, 'first', 'CREATE', 'COMPLETE') < index(events, 'slow', 'CREATE', 'COMPLETE')
    assert index(events, 'slow', 'CREATE', 'COMPLETE') < index(events, 'second', 'CREATE', 'IN_PROGRESS')
    assert _outputs(result)['both'] == ['e', 's']


def test_delete_walks_the_tree_and_removing_a_template_resource_deletes_its_stack(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(TOP)
    child_a = stacks.children()['a']['name']
    smaller = stacks.run(TOP.replace("  a: {type: leaf.yaml, properties: {name: {get_param: n}}}\n", '')
                         .replace("{get_attr: [a, out]}, {get_attr: [a, resource.v.value]}", "q"))
    assert smaller['stack']['stack_status'] == 'UPDATE_COMPLETE', smaller['stack']
    assert sorted(stacks.children()) == ['b']
    assert stacks.rows(child_a) == {}
    gone = stacks.run(state='absent')
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert _stacks(stacks) == []
    events = gone['events']
    assert index(events, 'v', 'DELETE', 'COMPLETE') < index(events, 'b', 'DELETE', 'COMPLETE')
    assert index(events, 'b', 'DELETE', 'COMPLETE') < index(events, 'r', 'DELETE', 'IN_PROGRESS')


THREE = {
    'top.yaml': '''
resources:
  a: {type: mid.yaml}
''',
    'mid.yaml': HEADER + '''
resources:
  b: {type: low.yaml}
''',
    'low.yaml': HEADER + '''
resources:
  fine: {type: OS::Heat::Value, properties: {value: ok}}
  bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
''',
}


def test_a_failure_three_levels_down_names_its_path_in_the_top_reason(stacks):
    for name in ('mid.yaml', 'low.yaml'):
        (stacks.dir / name).write_text(THREE[name])
    result = stacks.run(THREE['top.yaml'])
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'].startswith(
        'Resource CREATE failed: ValueError: resources.a.resources.b.resources.bad: ')
    rows = stacks.rows()
    assert rows['a'].status == 'FAILED'
    assert rows['a'].status_reason.startswith('ValueError: resources.a.resources.b.resources.bad: ')
    mid = stacks.children()['a']
    assert mid['status'] == 'FAILED'
    assert mid['status_reason'].startswith('Resource CREATE failed: ValueError: '
                                           'resources.b.resources.bad: ')
    failed = [e for e in result['events'] if e['resource_status'] == 'FAILED']
    assert [e['resource_name'] for e in failed][0] == 'bad'


def test_rollback_of_a_failed_nested_create_leaves_nothing(stacks):
    for name in ('mid.yaml', 'low.yaml'):
        (stacks.dir / name).write_text(THREE[name])
    result = stacks.run(THREE['top.yaml'], rollback=True)
    assert result['stack']['stack_status'] == 'ROLLBACK_COMPLETE', result['stack']
    store = stacks.store()
    try:
        assert store._db.execute('SELECT name FROM stacks').fetchall() == [('st',)]
        assert store._db.execute('SELECT COUNT(*) FROM resources').fetchone()[0] == 0
    finally:
        store.close()


def test_a_value_known_only_during_the_run_is_checked_when_the_nested_stack_starts(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF.replace(
        'name: {type: string}', 'name: {type: string, constraints: [{length: {min: 20}}]}'))
    result = stacks.run('''
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 6}}
  b: {type: leaf.yaml, properties: {name: {get_attr: [r, value]}}}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert 'resources.b' in stack['stack_status_reason']
    assert 'name' in stack['stack_status_reason']
    assert stacks.rows()['b'].status == 'FAILED'
    child = stacks.children()['b']
    assert child['status'] == 'FAILED' and "Parameter 'name' is invalid" in child['status_reason']
    assert stacks.rows(child['name']) == {}       # nothing of it was made


def test_check_mode_sees_through_nested_stacks(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    first = stacks.run(TOP, check_mode=True)
    assert [(i['resource_name'], i['action']) for i in first['plan']
            if i['resource_name'] in 'ab'] == [('a', 'create'), ('b', 'create')]
    stacks.run(TOP)
    again = stacks.run(TOP, check_mode=True)
    assert again['changed'] is False, again['plan']
    (stacks.dir / 'leaf.yaml').write_text(LEAF.replace('{get_param: name}',
                                                       '{list_join: [":", [{get_param: name}]]}'))
    changed = dict((i['resource_name'], i) for i in stacks.run(TOP, check_mode=True)['plan'])
    assert changed['a']['action'] == changed['b']['action'] == 'update'
    assert changed['a']['reason'] == 'its template changed'
    assert stacks.run(TOP)['changed'] is True
    assert stacks.run(TOP, check_mode=True)['changed'] is False


def test_a_resource_failure_is_worded_with_the_path_from_the_parent():
    child = 'Resource CREATE failed: ResourceInError: resources.bad: went wrong: really'
    assert steps.nested_reason('a', child) == \
        'ResourceInError: resources.a.resources.bad: went wrong: really'
    assert steps.nested_reason('a', 'Timed out') == 'resources.a: Timed out'


def test_a_failing_group_member_fails_the_group_and_names_its_index(stacks):
    result = stacks.run('''
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'].startswith('Resource CREATE failed: ValueError: '
                                                   'resources.g.resources.'), stack
    assert stacks.rows()['g'].status == 'FAILED'
    assert stacks.children()['g']['status'] == 'FAILED'


def test_a_chain_stops_at_its_failing_member(stacks):
    result = stacks.run('''
resources:
  c:
    type: OS::Heat::ResourceChain
    properties:
      resources: ['OS::Heat::TestResource', 'OS::Heat::TestResource']
      resource_properties: {value: x, fail: true}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert 'resources.c.resources.0: ' in stack['stack_status_reason'], stack
    started = set(e['resource_name'] for e in result['events']
                  if e.get('resource_type') == 'OS::Heat::TestResource')
    assert started == set(['0'])          # member 1 waits on member 0, which failed


def test_a_stack_resources_failure_names_its_path(stacks):
    result = stacks.run('''
resources:
  s:
    type: OS::Heat::Stack
    properties:
      template: |
        heat_template_version: 2018-08-31
        resources:
          bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'].startswith('Resource CREATE failed: ValueError: '
                                                   'resources.s.resources.bad: '), stack
    assert stacks.children()['s']['status'] == 'FAILED'
