# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import os
import sqlite3
import threading

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import info
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import signal
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackersError,
    StackNotFound,
    StoreError,
)

LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::Value, properties: {value: leaf}}
outputs:
  out: {value: {get_attr: [v, value]}}
'''
MID = '''heat_template_version: 2021-04-16
resources:
  leaf: {type: leaf.yaml}
  w: {type: OS::Heat::Value, properties: {value: mid}}
'''
TOP = '''heat_template_version: 2021-04-16
description: the top stack
parameters:
  pw: {type: string, hidden: true}
  n: {type: number, default: 2}
resources:
  mid: {type: mid.yaml}
  r: {type: OS::Heat::RandomString, properties: {length: 8}}
  u:
    type: OS::Heat::Value
    description: reads r
    depends_on: r
    properties: {value: {str_replace: {template: plain-N, params: {N: {get_param: n}}}}}
outputs:
  o: {value: {get_param: n}, description: the n}
  uv: {value: {get_attr: [u, value]}}
'''


@pytest.fixture
def top(stacks):
    """A stack of three levels (top -> mid -> leaf) made by a real engine run."""
    for name, text in (('leaf.yaml', LEAF), ('mid.yaml', MID)):
        (stacks.dir / name).write_text(text)
    result = stacks.run(TOP, parameters={'pw': 'hunter2-secret'}, tags=['web', 'prod'])
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    return stacks


def ask(stacks, name=None, **kw):
    return info.info(info.InfoRequest(name, store_path=stacks.store_path, **kw))


def test_list_shows_top_level_stacks_newest_first_as_heat_lists_them(top):
    top.run('resources:\n  a: {type: OS::Heat::None}\n', name='other')
    listed = ask(top)
    assert listed['changed'] is False
    assert [s['stack_name'] for s in listed['stacks']][0:2] in (['other', 'st'], ['st', 'other'])
    assert sorted(s['stack_name'] for s in listed['stacks']) == ['other', 'st']
    st = next(s for s in listed['stacks'] if s['stack_name'] == 'st')
    assert st['stack_status'] == 'CREATE_COMPLETE' and st['description'] == 'the top stack'
    assert st['parent'] is None and st['tags'] == ['web', 'prod'] and st['creation_time']
    assert next(s for s in listed['stacks'] if s['stack_name'] == 'other')['tags'] == []   # as Heat
    nested = ask(top, show_nested=True)['stacks']
    assert len(nested) == 4
    mid = top.children()['mid']
    assert next(s for s in nested if s['id'] == mid['id'])['parent'] == st['id']


def test_list_filters_name_status_tags(top):
    top.run('resources:\n  a: {type: OS::Heat::None}\n', name='other', tags=['web'])

    def names(**filters):
        return sorted(s['stack_name'] for s in ask(top, filters=filters)['stacks'])
    assert names(name='st') == ['st']
    assert names(name=['st', 'other']) == ['other', 'st']
    assert names(status='COMPLETE') == ['other', 'st']
    assert names(status='CREATE_COMPLETE', action='CREATE') == ['other', 'st']
    assert names(status='FAILED') == []
    assert names(tags=['web', 'prod']) == ['st']
    assert names(tags_any=['prod', 'nope']) == ['st']
    with pytest.raises(StackersError, match='Unknown stack list filter.*colour'):
        names(colour='red')


def test_a_missing_store_lists_nothing_and_is_not_made(tmp_path):
    path = str(tmp_path / 'none.sqlite')
    assert info.info(info.InfoRequest(store_path=path)) == {'changed': False, 'stacks': []}
    with pytest.raises(StackNotFound, match=r'The Stack \(web\) could not be found in the state store .*none'):
        info.info(info.InfoRequest('web', store_path=path))
    assert os.listdir(str(tmp_path)) == []


def test_unknown_name_fails_naming_the_stack(top):
    with pytest.raises(StackNotFound, match=r'The Stack \(nope\) could not be found.*store_path'):
        ask(top, 'nope')


def test_show_masks_hidden_parameters_and_has_the_outputs(top):
    shown = ask(top, 'st')
    stack = shown['stack']
    assert stack['stack_name'] == 'st' and stack['stack_status'] == 'CREATE_COMPLETE'
    assert stack['parameters']['pw'] == '******' and stack['parameters']['n'] == '2'
    assert stack['parameters']['OS::stack_name'] == 'st'
    assert stack['outputs'] == [{'output_key': 'o', 'output_value': 2, 'description': 'the n'},
                                {'output_key': 'uv', 'output_value': 'plain-2',
                                 'description': 'No description given'}]
    assert stack['description'] == stack['template_description'] == 'the top stack'
    assert stack['parent'] is None and stack['tags'] == ['web', 'prod']
    assert 'hunter2-secret' not in repr(shown)
    assert ask(top, 'st', output='o')['output']['output_value'] == 2
    with pytest.raises(StackersError, match='Specified output key nope not found.'):
        ask(top, 'st', output='nope')


def test_show_of_a_nested_stack_names_its_parent(top):
    mid = top.children()['mid']
    shown = ask(top, mid['name'])['stack']
    assert shown['parent'] == ask(top, 'st')['stack']['id']


def test_resources_reach_nested_depth_with_their_stack(top):
    mid = top.children()['mid']
    leaf = top.children(mid['name'])['leaf']
    own = ask(top, 'st')['resources']
    assert [r['resource_name'] for r in own] == ['mid', 'r', 'u']
    assert 'stack_name' not in own[0]
    r = own[1]
    assert r['resource_type'] == 'OS::Heat::RandomString' and r['required_by'] == ['u']
    assert r['resource_status'] == 'CREATE_COMPLETE' and r['physical_resource_id'] and r['creation_time']
    deep = ask(top, 'st', nested_depth=2)['resources']
    rows = [(r['resource_name'], r['stack_name'], r.get('parent_resource')) for r in deep]
    assert rows == [('mid', 'st', None), ('r', 'st', None), ('u', 'st', None),
                    ('leaf', mid['name'], 'mid'), ('w', mid['name'], 'mid'), ('v', leaf['name'], 'leaf')]
    assert [r['resource_name'] for r in ask(top, 'st', nested_depth=1)['resources']] == \
        ['mid', 'r', 'u', 'leaf', 'w']


def test_resource_filters_as_heat(top):
    def names(**filters):
        return [r['resource_name'] for r in ask(top, 'st', nested_depth=2, resource_filters=filters)['resources']]
    assert names(name='u') == ['u']
    assert names(type='Heat::Value') == ['u', 'w', 'v']
    assert names(type='.yaml') == ['mid', 'leaf']
    assert names(status='COMPLETE', name=['r', 'v']) == ['r', 'v']
    assert names(status='CREATE_FAILED') == []
    with pytest.raises(StackersError, match='Unknown resource filter'):
        names(colour='x')


def test_resource_show_has_recorded_attributes_and_description(top):
    # (what the record caches: attributes a template read; u's is read by an output)
    shown = ask(top, 'st', resource='u')['resource']
    assert shown['resource_name'] == 'u' and shown['description'] == 'reads r'
    assert shown['stack_name'] == 'st' and shown['metadata'] == {}
    assert shown['attributes']['value'] == 'plain-2'
    # a random string's value is a secret: the record caches none of it
    assert ask(top, 'st', resource='r')['resource']['attributes'] == {}
    with pytest.raises(StackersError, match=r'The Resource \(nope\) could not be found in Stack st.'):
        ask(top, 'st', resource='nope')


def test_template_and_environment_show(top):
    shown = ask(top, 'st', template=True, environment=True)
    assert shown['template']['description'] == 'the top stack'
    assert shown['template']['resources']['mid'] == {'type': 'mid.yaml'}
    env = shown['environment']
    assert set(env) >= {'parameters', 'parameter_defaults', 'resource_registry'}
    # given, hidden: masked as Heat masks it; n was not given
    assert env['parameters'] == {'pw': '******'}
    assert 'hunter2-secret' not in repr(env)


def test_hidden_values_kept_with_a_store_key_stay_masked(stacks):
    stacks.run(TOP.replace('mid.yaml', 'OS::Heat::None'), parameters={'pw': 'hunter2-secret'},
               store_key='k1')
    shown = ask(stacks, 'st', store_key='k1', environment=True)
    assert shown['stack']['parameters']['pw'] == '******'
    assert shown['environment']['parameters'] == {'pw': '******'}
    assert 'hunter2-secret' not in repr(shown)
    with pytest.raises(StoreError, match='store_key'):
        ask(stacks, 'st')
    assert not os.path.exists(stacks.store_path + '.key')     # a reader makes no key file


def test_reads_never_take_the_lock_nor_wait_for_a_writer(top):
    store = top.store()
    try:
        stack = store.lock('st', 'someone-else', 600)
    finally:
        store.close()
    # another process's write transaction stays open while info reads
    writer = sqlite3.connect(top.store_path, isolation_level=None)
    writer.execute('BEGIN IMMEDIATE')
    writer.execute("UPDATE stacks SET status_reason='writing' WHERE id=?", (stack['id'],))
    answers = []
    reader = threading.Thread(target=lambda: answers.append(ask(top, 'st', nested_depth=2)))
    reader.start()
    # a reader that waited for the writer would still be waiting (the writer commits below,
    # and the store's busy wait is 30 s): an answer at all is the proof
    reader.join(20)
    assert answers, 'info waited for the writer'
    # the last committed record: not the uncommitted change
    assert answers[0]['stack']['stack_status_reason'] == 'Stack CREATE completed successfully'
    writer.execute('COMMIT')
    writer.close()
    store = top.store()
    try:
        after = store.get_stack('st')
    finally:
        store.close()
    assert after['lock_owner'] == 'someone-else'


def test_negative_nested_depth_is_refused(top):
    with pytest.raises(StackersError, match='nested_depth'):
        ask(top, 'st', nested_depth=-1)


def test_options_about_one_stack_need_its_name(top):
    with pytest.raises(StackersError, match=r'resource, failures ask\(s\) about one stack: give its name'):
        ask(top, resource='u', failures=True)
    assert ask(top, filters={'name': 'st'})['stacks'][0]['stack_name'] == 'st'


def test_environment_masks_a_given_hidden_value_kept_or_not(stacks):
    text = 'parameters:\n  pw2: {type: string, hidden: true, default: d}\nresources:\n  a: {type: OS::Heat::None}\n'
    stacks.run(text, name='kept', parameters={'pw2': 'given-secret'}, store_key='k1')
    stacks.run(text, name='cut', parameters={'pw2': 'given-secret'})
    stacks.run(text, name='default')
    assert ask(stacks, 'kept', store_key='k1', environment=True)['environment']['parameters'] == {'pw2': '******'}
    # without a store key the value was not kept, but the run that wrote the record knew it was
    # given: Heat's environment show lists it, masked
    assert ask(stacks, 'cut', environment=True)['environment']['parameters'] == {'pw2': '******'}
    assert ask(stacks, 'default', environment=True)['environment']['parameters'] == {}
    for path in glob.glob(stacks.store_path + '*'):
        with open(path, 'rb') as f:
            assert b'given-secret' not in f.read(), path


PROJECT = '7d3c4f0a9b8e4c1d8f2a6b5c4d3e2f10'


def test_stack_show_has_the_project_the_stack_was_made_in_as_heat_stack_showed_it(stacks):
    """heat_stack_info does not authenticate: the record keeps the project heat_stack ran in."""
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    made = stacks.run('resources:\n  leaf: {type: leaf.yaml}\n', project_id=PROJECT)
    assert made['stack']['parameters']['OS::project_id'] == PROJECT
    shown = ask(stacks, 'st')['stack']
    assert shown['parameters']['OS::project_id'] == PROJECT
    assert shown['parameters'] == made['stack']['parameters']
    assert stacks.children()['leaf']['project_id'] == PROJECT


def test_a_stack_recorded_without_its_project_gets_it_at_its_next_update(stacks):
    stacks.run('resources:\n  a: {type: OS::Heat::None}\n')
    assert ask(stacks, 'st')['stack']['parameters']['OS::project_id'] == ''
    # a rerun that changes nothing writes nothing, the project id included
    stacks.run('resources:\n  a: {type: OS::Heat::None}\n', project_id=PROJECT)
    assert ask(stacks, 'st')['stack']['parameters']['OS::project_id'] == ''
    stacks.run('resources:\n  a: {type: OS::Heat::None}\n  b: {type: OS::Heat::None}\n',
               project_id=PROJECT)
    assert ask(stacks, 'st')['stack']['parameters']['OS::project_id'] == PROJECT


def test_a_record_from_before_shown_was_kept_gets_it_at_its_next_run_and_nothing_else(stacks):
    text = ('description: two of them\nparameters:\n  size: {type: number, default: 2}\n'
            '  pw: {type: string, hidden: true}\nresources:\n  a: {type: OS::Heat::None}\n')
    stacks.run(text, parameters={'size': 3, 'pw': 'given-secret'})
    full = ask(stacks, 'st', environment=True)
    assert full['stack']['description'] == 'two of them'
    assert full['stack']['parameters']['size'] == '3' and full['stack']['parameters']['pw'] == '******'
    assert full['environment']['parameters'] == {'size': 3, 'pw': '******'}
    # what a release before it wrote: no ``shown``
    db = sqlite3.connect(stacks.store_path)
    db.execute('UPDATE stacks SET shown=NULL')
    db.commit()
    db.close()
    old = ask(stacks, 'st')['stack']
    assert old['description'] == 'two of them'
    assert old['parameters'] == {'size': '3'}     # as given: the hidden one was cut from the record
    with pytest.raises(StackersError, match='Any heat_stack run on the stack records it'):
        ask(stacks, 'st', environment=True)
    before, events = stacks.store().get_stack('st'), stacks.stored_events()
    again = stacks.run(text, parameters={'size': 3, 'pw': 'given-secret'})
    assert again['changed'] is False
    after = stacks.store().get_stack('st')
    assert stacks.stored_events() == events
    assert dict(after, shown=None) == dict(before, shown=None)
    assert ask(stacks, 'st', environment=True) == full


HOOKED = ('resources:\n  a: {type: OS::Heat::TestResource}\n  b: {type: OS::Heat::TestResource}\n'
          '  c: {type: OS::Heat::TestResource, properties: {value: {get_resource: a}}}\n')


def test_hooks_are_the_resources_held_at_the_hook_of_the_action_under_way(stacks):
    """``openstack stack hook poll``: the paused events not cleared since the action started."""
    env = stacks.dir / 'hooks.yaml'
    env.write_text('resource_registry:\n  resources:\n    "[ab]": {hooks: pre-create}\n')
    stacks.run(HOOKED, environment=[str(env)])
    held = ask(stacks, 'st', hooks=True)['hooks']
    assert [(e['resource_name'], e['resource_status'], e['resource_status_reason']) for e in held] == [
        ('a', 'INIT_COMPLETE', 'CREATE paused until Hook pre-create is cleared'),
        ('b', 'INIT_COMPLETE', 'CREATE paused until Hook pre-create is cleared')]
    signal.signal(signal.SignalRequest('st', 'a', data={'unset_hook': 'pre-create'},
                                       store_path=stacks.store_path), None)
    assert [e['resource_name'] for e in ask(stacks, 'st', hooks=True)['hooks']] == ['b']
    signal.signal(signal.SignalRequest('st', 'b', data={'unset_hook': 'pre-create'},
                                       store_path=stacks.store_path), None)
    assert ask(stacks, 'st', hooks=True)['hooks'] == []
    stacks.run(HOOKED, environment=[str(env)])
    with pytest.raises(StackersError, match='Stack status CREATE_COMPLETE not IN_PROGRESS'):
        ask(stacks, 'st', hooks=True)
