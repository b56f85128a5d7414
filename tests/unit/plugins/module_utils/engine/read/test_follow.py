# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import info
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError, StackNotFound

TEMPLATE = '''
parameters:
  v: {type: string, default: one}
resources:
  a: {type: OS::Heat::Value, properties: {value: {get_param: v}}}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, value]}}}
'''


class Follower(object):
    """Looks one after another, as playbooks/events.yml makes them."""

    def __init__(self, stacks, name='st', **kw):
        self.stacks, self.name, self.kw = stacks, name, kw
        self.state = {}
        self.printed = []
        self.answers = []

    def look(self):
        answer = info.info(info.InfoRequest(self.name, store_path=self.stacks.store_path, follow=self.state,
                                            **self.kw))
        self.state = answer['follow']
        self.printed += answer['events']
        self.answers.append(answer)
        return answer

    @property
    def done(self):
        return self.state['done']


def statuses(events):
    return [(e['resource_name'], e['resource_status']) for e in events]


def listed(stacks, name='st'):
    return info.info(info.InfoRequest(name, store_path=stacks.store_path))['events']


def test_a_follower_started_before_the_stack_exists_waits_then_follows_its_create(stacks):
    follower = Follower(stacks)
    first = follower.look()             # no store file yet
    assert first['events'] == [] and 'stack' not in first and not follower.done
    stacks.run(TEMPLATE)                # the whole create between two looks
    follower.look()
    assert follower.done
    assert follower.printed == listed(stacks)
    assert follower.answers[-1]['stack']['stack_status'] == 'CREATE_COMPLETE'


def test_started_on_a_complete_stack_it_prints_the_history_then_follows_the_next_update(stacks):
    stacks.run(TEMPLATE)
    history = listed(stacks)
    follower = Follower(stacks)
    follower.look()
    assert follower.printed == history and not follower.done
    stacks.run(TEMPLATE)                # changes nothing: records nothing, so it is no action
    for _n in range(3):
        assert follower.look()['events'] == [] and not follower.done
    stacks.run(TEMPLATE, parameters={'v': 'two'})
    follower.look()
    assert follower.done
    assert statuses(follower.printed[len(history):]) == [
        ('st', 'UPDATE_IN_PROGRESS'), ('a', 'UPDATE_IN_PROGRESS'), ('a', 'UPDATE_COMPLETE'),
        ('b', 'UPDATE_IN_PROGRESS'), ('b', 'UPDATE_COMPLETE'), ('st', 'UPDATE_COMPLETE')]
    assert follower.printed == listed(stacks)          # every event, each once


def test_a_delete_is_followed_to_delete_complete(stacks):
    stacks.run(TEMPLATE)
    follower = Follower(stacks)
    follower.look()
    history = len(follower.printed)
    stacks.run(state='absent')          # the stack leaves the store between two looks
    answer = follower.look()
    assert follower.done
    assert answer['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert statuses(follower.printed[history:]) == [
        ('st', 'DELETE_IN_PROGRESS'), ('b', 'DELETE_IN_PROGRESS'), ('b', 'DELETE_COMPLETE'),
        ('a', 'DELETE_IN_PROGRESS'), ('a', 'DELETE_COMPLETE'), ('st', 'DELETE_COMPLETE')]
    ids = [e['id'] for e in follower.printed]
    assert len(ids) == len(set(ids))
    # heat_stack_info without follow still fails on the name
    with pytest.raises(StackNotFound, match=r'The Stack \(st\) could not be found'):
        listed(stacks)


def test_a_stack_made_again_under_the_name_is_not_the_one_followed(stacks):
    stacks.run(TEMPLATE)
    follower = Follower(stacks)
    follower.look()
    stacks.run(state='absent')
    stacks.run(TEMPLATE)
    answer = follower.look()
    assert follower.done and answer['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert answer['stack']['id'] == follower.state['stack_id'] != stacks.store().get_stack('st')['id']


def _in_progress(stacks):
    """A stack a run is creating: locked, IN_PROGRESS, its first events recorded."""
    store = Store(stacks.store_path)
    stack = store.lock('st', 'run', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    store.add_event(stack['id'], {'resource_name': 'st', 'physical_resource_id': stack['id'],
                                  'resource_action': 'CREATE', 'resource_status': 'IN_PROGRESS'})
    store.add_event(stack['id'], {'resource_name': 'a', 'resource_action': 'CREATE',
                                  'resource_status': 'IN_PROGRESS'})
    return store, stack


def test_an_action_under_way_is_followed_to_its_end_event(stacks):
    store, stack = _in_progress(stacks)
    follower = Follower(stacks)
    follower.look()
    assert statuses(follower.printed) == [('st', 'CREATE_IN_PROGRESS'), ('a', 'CREATE_IN_PROGRESS')]
    assert not follower.done
    store.add_event(stack['id'], {'resource_name': 'a', 'resource_action': 'CREATE',
                                  'resource_status': 'COMPLETE'})
    # the status is stored just before the end event: the follower waits for it
    store.update_stack(stack['id'], status='COMPLETE')
    assert follower.look()['events'][0]['resource_status'] == 'CREATE_COMPLETE' and not follower.done
    store.add_event(stack['id'], {'resource_name': 'st', 'physical_resource_id': stack['id'],
                                  'resource_action': 'CREATE', 'resource_status': 'COMPLETE'})
    assert statuses(follower.look()['events']) == [('st', 'CREATE_COMPLETE')] and follower.done


def test_a_failed_update_is_followed_through_its_rollback(stacks):
    store, stack = _in_progress(stacks)
    follower = Follower(stacks)
    follower.look()
    for action, status in (('CREATE', 'FAILED'), ('ROLLBACK', 'IN_PROGRESS')):
        store.add_event(stack['id'], {'resource_name': 'st', 'physical_resource_id': stack['id'],
                                      'resource_action': action, 'resource_status': status})
        follower.look()
        assert not follower.done
    store.update_stack(stack['id'], action='ROLLBACK', status='COMPLETE')
    store.add_event(stack['id'], {'resource_name': 'st', 'physical_resource_id': stack['id'],
                                  'resource_action': 'ROLLBACK', 'resource_status': 'COMPLETE'})
    follower.look()
    assert follower.done


def test_an_end_without_its_event_ends_the_follow_after_quiet_looks(stacks):
    store, stack = _in_progress(stacks)
    follower = Follower(stacks)
    follower.look()
    store.update_stack(stack['id'], status='FAILED')      # a run killed before its end event
    follower.look()
    assert not follower.done
    follower.look()
    assert follower.done


def test_a_stack_gone_with_nothing_kept_fails_naming_it(stacks):
    stacks.run(TEMPLATE)
    follower = Follower(stacks)
    follower.look()
    store = stacks.store()
    store.delete_stack(follower.state['stack_id'], trace=False)
    store.close()
    with pytest.raises(StackNotFound, match=r'The Stack \(st\) .* left the state store'):
        follower.look()


def test_follow_refuses_the_options_that_pick_events(stacks):
    with pytest.raises(StackersError, match='marker, limit cannot be given'):
        info.info(info.InfoRequest('st', store_path=stacks.store_path, follow={}, marker='x', limit=2))
    with pytest.raises(StackersError, match='give its name'):
        info.info(info.InfoRequest(store_path=stacks.store_path, follow={}))


# -- nested stacks: deleted before the stack's own delete ends ------------------------------------
LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::None}
  w: {type: OS::Heat::None, depends_on: [v]}
'''
NESTED = '''
resources:
  mid: {type: leaf.yaml}
  u: {type: OS::Heat::None, depends_on: [mid]}
'''


def _nested(stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    stacks.run(NESTED)
    return stacks.children()['mid']['name']


def _delete_events(nested):
    return [('st', 'DELETE_IN_PROGRESS'), ('u', 'DELETE_IN_PROGRESS'), ('u', 'DELETE_COMPLETE'),
            ('mid', 'DELETE_IN_PROGRESS'), (nested, 'DELETE_IN_PROGRESS'), ('w', 'DELETE_IN_PROGRESS'),
            ('w', 'DELETE_COMPLETE'), ('v', 'DELETE_IN_PROGRESS'), ('v', 'DELETE_COMPLETE'),
            (nested, 'DELETE_COMPLETE'), ('mid', 'DELETE_COMPLETE'), ('st', 'DELETE_COMPLETE')]


def _each_once(follower):
    ids = [e['id'] for e in follower.printed]
    assert len(ids) == len(set(ids))


def test_a_delete_between_two_looks_prints_the_nested_stacks_delete_too(stacks):
    nested = _nested(stacks)
    follower = Follower(stacks, nested_depth=1)
    follower.look()
    history = len(follower.printed)
    assert history == len(info.info(info.InfoRequest('st', store_path=stacks.store_path,
                                                     nested_depth=1))['events'])
    stacks.run(state='absent')
    answer = follower.look()
    assert follower.done and answer['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert statuses(follower.printed[history:]) == _delete_events(nested)
    assert {e['stack_name'] for e in follower.printed[history:]} == {'st', nested}
    _each_once(follower)
    assert follower.look()['events'] == []          # a look after the end prints nothing again


def test_a_look_while_the_stack_is_deleted_prints_its_nested_stacks_delete_once(stacks, monkeypatch):
    nested = _nested(stacks)
    nested_id = stacks.children()['mid']['id']
    follower = Follower(stacks, nested_depth=1)
    follower.look()
    history = len(follower.printed)
    real = Store.delete_stack

    def deleting(store, stack_id, trace=True):
        real(store, stack_id, trace)
        if stack_id == nested_id:       # the nested stack gone, the stack still DELETE_IN_PROGRESS
            answer = follower.look()
            assert answer['stack']['stack_status'] == 'DELETE_IN_PROGRESS' and not follower.done
    monkeypatch.setattr(Store, 'delete_stack', deleting)
    stacks.run(state='absent')
    assert len(follower.answers) == 2
    assert statuses(follower.answers[1]['events']) == _delete_events(nested)[:-2]
    follower.look()
    assert follower.done and follower.answers[-1]['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert statuses(follower.printed[history:]) == _delete_events(nested)
    _each_once(follower)


def test_a_nested_stack_an_update_deletes_is_followed_but_heats_list_has_it_no_longer(stacks):
    nested = _nested(stacks)
    follower = Follower(stacks, nested_depth=1)
    follower.look()
    history = len(follower.printed)
    stacks.run('resources:\n  u: {type: OS::Heat::None}\n')
    follower.look()
    assert follower.done
    printed = statuses(follower.printed[history:])
    assert printed[0] == ('st', 'UPDATE_IN_PROGRESS') and printed[-1] == ('st', 'UPDATE_COMPLETE')
    for event in ((nested, 'DELETE_IN_PROGRESS'), ('v', 'DELETE_COMPLETE'), (nested, 'DELETE_COMPLETE')):
        assert event in printed
    _each_once(follower)
    # Heat's event list reads live nested stacks alone: a deleted one's events are not listed
    plain = info.info(info.InfoRequest('st', store_path=stacks.store_path, nested_depth=1))['events']
    assert nested not in {e['stack_name'] for e in plain}
    assert [e['id'] for e in plain] == [e['id'] for e in follower.printed if e['stack_name'] == 'st']


def test_without_a_nested_depth_the_delete_prints_the_stacks_own_events(stacks):
    _nested(stacks)
    follower = Follower(stacks)
    follower.look()
    history = len(follower.printed)
    stacks.run(state='absent')
    follower.look()
    assert follower.done
    assert statuses(follower.printed[history:]) == [
        e for e in _delete_events('gone') if e[0] != 'gone' and e[0] not in ('v', 'w')]
