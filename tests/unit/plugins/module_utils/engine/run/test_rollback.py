# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rollback phase: a failed create back to nothing, a failed update back
to the previous definition, and a rollback that fails is the stack's end
(it never rolls back itself)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

from ..conftest import FAILING, index, resource_events

TR = 'OS::Heat::TestResource'


def test_rollback_on_create_deletes_everything(stacks):
    result = stacks.run(FAILING, rollback=True)
    assert result['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    assert 'Test Resource failed bad' in result['failed_reason']
    events = result['events']
    assert index(events, 'st', 'CREATE', 'FAILED') < index(events, 'st', 'ROLLBACK', 'IN_PROGRESS')
    assert index(events, 'other', 'DELETE', 'COMPLETE') > index(events, 'st', 'ROLLBACK', 'IN_PROGRESS')
    assert index(events, 'bad', 'DELETE', 'COMPLETE')
    assert stacks.rows() == {}
    assert events[-1]['resource_action'] == 'ROLLBACK'
    assert events[-1]['resource_status'] == 'COMPLETE'


def test_rollback_on_update_converges_back(stacks):
    good = '''
parameters:
  v: {type: string, default: one}
resources:
  keep: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
'''
    stacks.run(good)
    first = stacks.rows()['keep']
    bad = good + '  bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}\n'
    result = stacks.run(bad, parameters={'v': 'two'}, rollback=True)
    assert result['stack']['stack_status'] == 'ROLLBACK_COMPLETE', result['stack']
    rows = stacks.rows()
    assert sorted(rows) == ['keep']
    assert rows['keep'].properties['value'] == 'one'
    assert rows['keep'].physical_id == first.physical_id
    events = result['events']
    assert index(events, 'st', 'UPDATE', 'FAILED') < index(events, 'st', 'ROLLBACK', 'IN_PROGRESS')
    assert index(events, 'bad', 'DELETE', 'COMPLETE') > index(events, 'st', 'ROLLBACK', 'IN_PROGRESS')
    # the record's definition is the one rolled back to: a rerun of it changes nothing
    again = stacks.run(good)
    assert resource_events(again['events']) == []
    store = stacks.store()
    try:
        assert store.get_stack('st')['definition']['parameters'] == {}
    finally:
        store.close()


class Undeletable(TestResource):
    def delete(self, ctx):
        if ctx.name == 'other':
            raise CloudConflict('still in use')
        return super(Undeletable, self).delete(ctx)


def test_a_failed_rollback_is_the_end_never_rolled_back_again(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Undeletable)
    result = stacks.run(FAILING, rollback=True)
    assert result['stack']['stack_status'] == 'ROLLBACK_FAILED'
    assert 'Test Resource failed bad' in result['failed_reason']
    reason = result['stack']['stack_status_reason']
    assert reason.startswith('Resource ROLLBACK failed: Conflict: ') and 'still in use' in reason
    stack_events = [(e['resource_action'], e['resource_status']) for e in result['events']
                    if e['resource_type'] == 'OS::Heat::Stack']
    assert stack_events == [('CREATE', 'IN_PROGRESS'), ('CREATE', 'FAILED'),
                            ('ROLLBACK', 'IN_PROGRESS'), ('ROLLBACK', 'FAILED')]
    assert sorted(stacks.rows()) == ['other']
    assert stacks.rows()['other'].status == 'FAILED'
