# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Mark-unhealthy through heat_resource_signal's engine: CHECK_FAILED with
Heat's event, a replacement at the next converge, and the reset."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import signal, unhealthy
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackLocked, StackersError)

TEXT = ('resources:\n  a: {type: OS::Heat::TestResource, properties: {value: x}}\n'
        '  b: {type: OS::Heat::Value, properties: {value: {get_resource: a}}}\n')


def _mark(stacks, resource, flag, **kw):
    return signal.signal(signal.SignalRequest('st', resource, mark_unhealthy=flag,
                                              store_path=stacks.store_path, **kw), None)


def test_marked_unhealthy_it_is_replaced_by_the_next_converge(stacks):
    stacks.run(TEXT)
    before = stacks.rows()['a']
    told = _mark(stacks, 'a', True, reason='disk gone')
    assert told['changed'] and told['signal'] == {'resource': 'a', 'mark_unhealthy': True}
    assert [(e['resource_action'], e['resource_status'], e['resource_status_reason'])
            for e in told['events']] == [('CHECK', 'FAILED', 'disk gone')]
    row = stacks.rows()['a']
    assert (row.action, row.status, row.status_reason) == ('CHECK', 'FAILED', 'disk gone')
    # the same mark again changes nothing
    assert not _mark(stacks, 'a', True, reason='disk gone')['changed']
    plan = stacks.run(TEXT, check_mode=True)['plan']
    assert dict((p['resource_name'], p['action']) for p in plan)['a'] == 'replace'
    after = stacks.run(TEXT)
    assert after['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert stacks.rows()['a'].physical_id != before.physical_id
    assert stacks.rows()['a'].status == 'COMPLETE'
    again = stacks.run(TEXT)
    assert not again['changed']


def test_marking_healthy_resets_only_a_check_failed_resource(stacks):
    stacks.run(TEXT)
    assert not _mark(stacks, 'a', False)['changed']
    _mark(stacks, 'a', True)
    assert stacks.rows()['a'].status_reason == unhealthy.DEFAULT_REASON
    told = _mark(stacks, 'a', False, check_mode=True)
    assert told['changed'] and told['events'] == [] and stacks.rows()['a'].status == 'FAILED'
    told = _mark(stacks, 'a', False)
    assert [(e['resource_action'], e['resource_status']) for e in told['events']] == [
        ('CHECK', 'COMPLETE')]
    assert stacks.rows()['a'].status == 'COMPLETE'
    plan = stacks.run(TEXT, check_mode=True)['plan']
    assert dict((p['resource_name'], p['action']) for p in plan)['a'] == 'keep'


def test_a_resource_is_found_by_physical_id_and_the_lock_is_respected(stacks):
    stacks.run(TEXT)
    physical = stacks.rows()['a'].physical_id
    told = _mark(stacks, physical, True, check_mode=True)
    assert told['changed'] and stacks.rows()['a'].status == 'COMPLETE'
    with pytest.raises(StackersError, match=r'The Resource \(nope\) could not be found in Stack st'):
        _mark(stacks, 'nope', True)
    store = stacks.store()
    stack = store.get_stack('st')
    store.lock('st', 'host:1:other', 60)
    try:
        with pytest.raises(StackLocked):
            _mark(stacks, 'a', True)
    finally:
        store.unlock(stack['id'], 'host:1:other')
        store.close()
