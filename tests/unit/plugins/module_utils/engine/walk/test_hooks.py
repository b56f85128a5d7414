# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Hooks across runs: a run pauses at a hook, heat_resource_signal's
``unset_hook`` clears it, the next run goes past it once."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import hooks
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import signal
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

CHAIN = ('resources:\n  a: {type: OS::Heat::TestResource, properties: {value: %s}}\n'
         '  b: {type: OS::Heat::TestResource, properties: {value: {get_resource: a}}}\n'
         '  c: {type: OS::Heat::TestResource}\n')


def _env(stacks, text):
    path = stacks.dir / 'hooks-env.yaml'
    path.write_text(text)
    return [str(path)]


def _clear(stacks, resource, hook, **kw):
    return signal.signal(signal.SignalRequest('st', resource, data={'unset_hook': hook},
                                              store_path=stacks.store_path, **kw), None)


def _said(events, name):
    return [(e['resource_action'], e['resource_status'], e['resource_status_reason'])
            for e in events if e['resource_name'] == name]


def test_a_pre_create_hook_pauses_until_cleared_then_the_create_goes_on(stacks):
    env = _env(stacks, 'resource_registry:\n  resources:\n    a: {hooks: pre-create}\n')
    first = stacks.run(CHAIN % 'x', environment=env)
    assert first['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
    assert _said(first['events'], 'a') == [
        ('INIT', 'COMPLETE', 'CREATE paused until Hook pre-create is cleared')]
    assert sorted(stacks.rows()) == ['c']
    # not cleared: the next run pauses there again
    again = stacks.run(CHAIN % 'x', environment=env)
    assert again['stack']['stack_status_reason'] == 'Paused at hooks of: a'
    cleared = _clear(stacks, 'a', 'pre-create')
    assert cleared['changed'] and cleared['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
    assert _said(cleared['events'], 'a') == [('INIT', 'COMPLETE', 'Hook pre-create is cleared')]
    with pytest.raises(StackersError, match='The "pre-create" hook is not defined on TestResource "a" '
                                            'Stack "st"'):
        _clear(stacks, 'a', 'pre-create')
    done = stacks.run(CHAIN % 'x', environment=env)
    assert done['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert done['stack']['stack_status_reason'] == 'Stack CREATE completed successfully'
    assert sorted(stacks.rows()) == ['a', 'b', 'c']
    # an update adds no pre-create pause (Heat holds only a stack create)
    assert stacks.run(CHAIN % 'y', environment=env)['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert stacks.store().get_stack('st')['hooks'] is None


def test_pre_update_holds_each_resource_once_per_update(stacks):
    env = _env(stacks, 'resource_registry:\n  resources:\n    "[ab]": {hooks: [pre-update]}\n')
    stacks.run(CHAIN % 'x')
    first = stacks.run(CHAIN % 'y', environment=env)
    assert first['stack']['stack_status_reason'] == 'Paused at hooks of: a'
    assert _said(first['events'], 'a') == [
        ('CREATE', 'COMPLETE', 'UPDATE paused until Hook pre-update is cleared')]
    _clear(stacks, 'a', 'pre-update')
    second = stacks.run(CHAIN % 'y', environment=env)
    # a went on (and is not held again within this update); b, unchanged, is held
    assert second['stack']['stack_status_reason'] == 'Paused at hooks of: b'
    assert ('UPDATE', 'COMPLETE', 'state changed') in _said(second['events'], 'a')
    _clear(stacks, 'b', 'pre-update')
    third = stacks.run(CHAIN % 'y', environment=env)
    assert third['stack']['stack_status'] == 'UPDATE_COMPLETE'
    # the next update is held again
    fourth = stacks.run(CHAIN % 'y', environment=env)
    assert fourth['stack']['stack_status_reason'] == 'Paused at hooks of: a'


def test_pre_delete_holds_a_stack_delete_not_an_update_removing_it(stacks):
    env = _env(stacks, 'resource_registry:\n  resources:\n    c: {hooks: pre-delete}\n')
    stacks.run(CHAIN % 'x', environment=env)
    gone = stacks.run('resources:\n  a: {type: OS::Heat::TestResource}\n', environment=env)
    assert gone['stack']['stack_status'] == 'UPDATE_COMPLETE'
    stacks.run(CHAIN % 'x', environment=env)
    paused = stacks.run(state='absent')
    assert paused['stack']['stack_status'] == 'DELETE_IN_PROGRESS'
    assert paused['stack']['stack_status_reason'] == 'Paused at hooks of: c'
    assert _said(paused['events'], 'c')[-1] == (
        'CREATE', 'COMPLETE', 'DELETE paused until Hook pre-delete is cleared')
    assert sorted(stacks.rows()) == ['c']
    _clear(stacks, 'c', 'pre-delete')
    done = stacks.run(state='absent')
    assert done['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert stacks.store().get_stack('st') is None


def test_clearing_checks_the_hook_and_check_mode_writes_nothing(stacks):
    env = _env(stacks, 'resource_registry:\n  resources:\n    a: {hooks: pre-create}\n')
    stacks.run(CHAIN % 'x', environment=env)
    with pytest.raises(hooks.InvalidBreakPointHook, match='Invalid hook type "pre-nothing" for '):
        _clear(stacks, 'a', 'pre-nothing')
    with pytest.raises(StackersError, match=r'The Resource \(zz\) could not be found in Stack st'):
        _clear(stacks, 'zz', 'pre-create')
    with pytest.raises(hooks.InvalidBreakPointHook, match='The "pre-update" hook is not defined'):
        _clear(stacks, 'a', 'pre-update', check_mode=True)
    told = _clear(stacks, 'a', 'pre-create', check_mode=True)
    assert told['changed'] and told['events'] == []
    assert hooks.pending(stacks.store().get_stack('st')['hooks'], 'a') == ['pre-create']


def test_a_nested_resource_is_named_by_its_path(stacks):
    inner = stacks.dir / 'inner.yaml'
    inner.write_text('heat_template_version: 2018-08-31\n'
                     'resources:\n  r: {type: OS::Heat::TestResource}\n')
    env = _env(stacks, 'resource_registry:\n  "My::Inner": %s\n  resources:\n'
                       '    nest:\n      r: {hooks: pre-create}\n' % inner)
    text = 'resources:\n  nest: {type: "My::Inner"}\n  c: {type: OS::Heat::TestResource}\n'
    first = stacks.run(text, environment=env)
    assert first['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
    assert ('INIT', 'COMPLETE', 'CREATE paused until Hook pre-create is cleared') in \
        _said(first['events'], 'r')
    cleared = _clear(stacks, 'nest/r', 'pre-create')
    assert cleared['events'][0]['resource_status_reason'] == 'Hook pre-create is cleared'
    done = stacks.run(text, environment=env)
    assert done['stack']['stack_status'] == 'CREATE_COMPLETE'


def test_a_nested_pre_delete_holds_the_stack_delete(stacks):
    inner = stacks.dir / 'inner.yaml'
    inner.write_text('heat_template_version: 2018-08-31\n'
                     'resources:\n  r: {type: OS::Heat::TestResource}\n')
    env = _env(stacks, 'resource_registry:\n  "My::Inner": %s\n  resources:\n'
                       '    nest:\n      r: {hooks: pre-delete}\n' % inner)
    text = 'resources:\n  nest: {type: "My::Inner"}\n  c: {type: OS::Heat::TestResource}\n'
    assert stacks.run(text, environment=env)['stack']['stack_status'] == 'CREATE_COMPLETE'
    paused = stacks.run(state='absent')
    assert paused['stack']['stack_status'] == 'DELETE_IN_PROGRESS'
    assert paused['stack']['stack_status_reason'] == 'Paused at hooks of: nest/r'
    assert _said(paused['events'], 'r') == [('CREATE', 'COMPLETE',
                                             'DELETE paused until Hook pre-delete is cleared')]
    _clear(stacks, 'nest/r', 'pre-delete')
    assert stacks.run(state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert stacks.store().get_stack('st') is None


def test_post_create_and_post_update_hold_the_done_resource_and_its_users(stacks):
    env = _env(stacks, 'resource_registry:\n  resources:\n    a: {hooks: [post-create, post-update]}\n')
    first = stacks.run(CHAIN % 'x', environment=env)
    assert first['stack']['stack_status_reason'] == 'Paused at hooks of: a'
    assert _said(first['events'], 'a')[-1] == (
        'CREATE', 'COMPLETE', 'CREATE paused until Hook post-create is cleared')
    assert sorted(stacks.rows()) == ['a', 'c']          # b, its user, waits
    assert stacks.run(CHAIN % 'x', environment=env)['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
    _clear(stacks, 'a', 'post-create')
    done = stacks.run(CHAIN % 'x', environment=env)
    assert done['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert sorted(stacks.rows()) == ['a', 'b', 'c']
    # an update leaving a unchanged does not hold it after (nor records anything); one changing it does
    assert stacks.run(CHAIN % 'x', environment=env)['stack']['stack_status'] == 'CREATE_COMPLETE'
    changed = stacks.run(CHAIN % 'y', environment=env)
    assert changed['stack']['stack_status_reason'] == 'Paused at hooks of: a'
    assert _said(changed['events'], 'a')[-1] == (
        'UPDATE', 'COMPLETE', 'UPDATE paused until Hook post-update is cleared')
    _clear(stacks, 'a', 'post-update')
    assert stacks.run(CHAIN % 'y', environment=env)['stack']['stack_status'] == 'UPDATE_COMPLETE'
