# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.events import EventLog
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Masker
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store

ROW = ResourceRow(uuid='u', name='v', type='OS::Heat::Value', physical_id='p-v')


def _stack(tmp_path):
    store = Store(str(tmp_path / 'stacks.sqlite'))
    stack = store.lock('st', 'me', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS',
                                               'salt': 'salt'})
    return store, stack


def test_events_are_stored_in_order_and_masked(tmp_path):
    store, stack = _stack(tmp_path)
    log = EventLog(store, stack, Masker(['hunter2-secret'], 'salt'))
    log.stack('CREATE', 'IN_PROGRESS', 'Stack CREATE started')
    log.resource(ROW, 'CREATE', 'FAILED', 'bad value hunter2-secret here')
    stored = store.events(stack['id'])
    assert [e['seq'] for e in stored] == [1, 2]
    assert stored[0]['resource_type'] == 'OS::Heat::Stack'
    assert stored[0]['resource_name'] == 'st'
    assert stored[0]['physical_resource_id'] == stack['id']
    assert stored[1]['resource_status_reason'] == 'bad value ***** here'
    assert stored[1]['physical_resource_id'] == 'p-v'
    assert 'hunter2' not in repr(log.events)
    assert [e['id'] for e in log.events] == [e['id'] for e in stored]
    assert 'stack_id' not in log.events[0] and 'seq' not in log.events[0]
    store.close()


def test_check_mode_and_a_stack_not_stored_keep_events_in_memory_only(tmp_path):
    store, stack = _stack(tmp_path)
    checking = EventLog(store, stack, Masker(), check_mode=True)
    checking.resource(ROW, 'CHECK', 'COMPLETE')
    unborn = EventLog(store, None, Masker())
    unborn.stack('CREATE', 'IN_PROGRESS', 'Stack CREATE started')
    assert store.events(stack['id']) == []
    assert len(checking.events) == 1 and len(unborn.events) == 1
    assert unborn.events[0]['physical_resource_id'] == ''
    store.close()


def test_changed_resources_ignores_the_stack_own_events(tmp_path):
    store, stack = _stack(tmp_path)
    log = EventLog(store, stack, Masker())
    log.stack('UPDATE', 'IN_PROGRESS', 'Stack UPDATE started')
    assert log.changed_resources() is False
    log.resource(ROW, 'UPDATE', 'IN_PROGRESS')
    assert log.changed_resources() is True
    store.close()


def test_an_os_heat_stack_resource_and_a_nested_stacks_resource_events_are_changes(tmp_path):
    store, stack = _stack(tmp_path)
    log = EventLog(store, stack, Masker())
    log.resource(ROW.replace(type='OS::Heat::Stack'), 'UPDATE', 'IN_PROGRESS')
    assert log.changed_resources() is True
    parent, child = EventLog(store, stack, Masker()), EventLog(store, None, Masker())
    child.parent = parent
    child.stack('UPDATE', 'IN_PROGRESS', 'Stack UPDATE started')
    assert parent.changed_resources() is False and len(parent.events) == 1
    child.resource(ROW, 'UPDATE', 'IN_PROGRESS')
    assert parent.changed_resources() is True
    store.close()
