# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Check mode (stack check + plan + diff) and converge, through the runner."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import check
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.value import Value

CHAIN = '''
parameters:
  v: {type: string, default: one}
  fixed: {type: string, default: x}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v}, update_replace_value: {get_param: fixed}}}
  b: {type: OS::Heat::Value, properties: {value: {get_resource: a}}}
  c: {type: OS::Heat::Value, properties: {value: alone}}
'''


class Gone(Value):
    """A Value whose object the cloud no longer has."""
    gone = set()

    def show(self, ctx):
        return None if ctx.name in Gone.gone else {}


def snapshot(stacks):
    store = stacks.store()
    try:
        stack = store.get_stack('st')
        if stack is None:
            return None
        stack.pop('lock_owner'), stack.pop('lock_expiry')
        return stack, store.resources(stack['id']), store.events(stack['id'])
    finally:
        store.close()


def plan_of(result):
    return dict((i['resource_name'], i['action']) for i in result['plan'])


def test_check_mode_writes_nothing_and_plans(stacks):
    stacks.run(CHAIN)
    before = snapshot(stacks)
    size = os.path.getsize(stacks.store_path)
    result = stacks.run(CHAIN, parameters={'v': 'two'}, check_mode=True)
    assert result['changed'] is True
    assert plan_of(result) == {'a': 'update', 'b': 'keep', 'c': 'keep'}
    assert snapshot(stacks) == before
    assert os.path.getsize(stacks.store_path) == size
    assert result['stack']['stack_status'] == 'CHECK_COMPLETE'
    assert result['stack']['stack_status_reason'] == 'Stack CHECK completed successfully'
    assert sorted(e['resource_name'] for e in result['check']) == ['a', 'b', 'c']
    assert all(e['resource_status'] == 'CHECK_COMPLETE' for e in result['check'])
    # check events are returned, not stored
    assert set(e['resource_action'] for e in result['events']) == {'CHECK'}
    assert 'diff' not in result


def test_check_mode_unchanged_is_not_changed(stacks):
    stacks.run(CHAIN)
    result = stacks.run(CHAIN, check_mode=True, diff=True)
    assert result['changed'] is False
    assert set(plan_of(result).values()) == {'keep'}
    assert result['diff'] == []


def test_check_mode_diff_calls_out_replacements(stacks):
    stacks.run(CHAIN)
    before = snapshot(stacks)
    result = stacks.run(CHAIN, parameters={'fixed': 'y'}, check_mode=True, diff=True)
    assert plan_of(result) == {'a': 'replace', 'b': 'update', 'c': 'keep'}
    reasons = dict((i['resource_name'], i.get('reason')) for i in result['plan'])
    assert 'update_replace_value' in reasons['a']
    diff = dict((d['resource_name'], d) for d in result['diff'])
    assert set(diff) == {'a', 'b'}
    assert diff['a']['replacement'] is True and diff['b']['replacement'] is False
    assert diff['a']['before']['update_replace_value'] == 'x'
    assert diff['a']['after']['update_replace_value'] == 'y'
    # b's value is a's new id: unknown until applied
    assert diff['b']['after']['value'] == check.UNKNOWN
    assert diff['b']['before']['value'] == stacks.rows()['a'].physical_id
    assert snapshot(stacks) == before


def test_check_mode_new_stack_and_removed_resources(stacks):
    result = stacks.run(CHAIN, check_mode=True, diff=True)
    assert result['changed'] is True and result['stack'] is None
    assert plan_of(result) == {'a': 'create', 'b': 'create', 'c': 'create'}
    assert all(d['before'] is None for d in result['diff'])
    assert snapshot(stacks) is None
    stacks.run(CHAIN)
    smaller = 'resources:\n  c: {type: OS::Heat::Value, properties: {value: alone}}\n'
    result = stacks.run(smaller, check_mode=True, diff=True)
    assert plan_of(result) == {'a': 'delete', 'b': 'delete', 'c': 'keep'}
    deleted = [d for d in result['diff'] if d['action'] == 'delete']
    assert sorted(d['resource_name'] for d in deleted) == ['a', 'b']
    assert all(d['after'] is None and d['before'] is not None for d in deleted)


def test_every_plan_entry_says_why(stacks):
    created = stacks.run(CHAIN, check_mode=True)
    assert set(i['reason'] for i in created['plan']) == {'new'}
    stacks.run(CHAIN)
    kept = stacks.run(CHAIN, check_mode=True)
    assert set(i['reason'] for i in kept['plan']) == {'unchanged'}
    changed = stacks.run(CHAIN, parameters={'fixed': 'y'}, check_mode=True, diff=True)
    reasons = dict((i['resource_name'], i['reason']) for i in changed['plan'])
    assert reasons['a'] == 'changed: update_replace_value; replaced: update_replace_value cannot change in place'
    assert reasons['b'].startswith('changed: value; updated in place')
    assert reasons['c'] == 'unchanged'
    # the diff entries carry the same, with the type
    assert dict((d['resource_name'], (d['resource_type'], d['reason'])) for d in changed['diff']) == {
        'a': ('OS::Heat::TestResource', reasons['a']), 'b': ('OS::Heat::Value', reasons['b'])}
    smaller = 'resources:\n  c: {type: OS::Heat::Value, properties: {value: alone}}\n'
    gone = stacks.run(smaller, check_mode=True)
    assert dict((i['resource_name'], i['reason']) for i in gone['plan']) == {
        'a': 'not in the template', 'b': 'not in the template', 'c': 'unchanged'}
    deleting = stacks.run(CHAIN, state='absent', check_mode=True)
    assert set(i['reason'] for i in deleting['plan']) == {'the stack is deleted'}


def test_check_failed_when_the_object_is_gone(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::Value', Gone)
    monkeypatch.setattr(Gone, 'gone', set())
    stacks.run(CHAIN)
    Gone.gone.add('c')
    before = snapshot(stacks)
    result = stacks.run(CHAIN, check_mode=True)
    assert result['stack']['stack_status'] == 'CHECK_FAILED'
    assert 'resources.c' in result['stack']['stack_status_reason']
    entries = dict((e['resource_name'], e) for e in result['check'])
    assert entries['c']['resource_status'] == 'CHECK_FAILED' and entries['c']['gone'] is True
    assert entries['c']['resource_status_reason'].startswith('NotFound: resources.c:')
    assert entries['b']['resource_status'] == 'CHECK_COMPLETE'
    # without converge the plan trusts the record; with it, c is replaced
    assert plan_of(result)['c'] == 'keep'
    conv = stacks.run(CHAIN, check_mode=True, converge=True)
    assert plan_of(conv)['c'] == 'replace' and conv['changed'] is True
    assert snapshot(stacks) == before


def test_converge_replaces_a_resource_reported_gone(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::Value', Gone)
    monkeypatch.setattr(Gone, 'gone', set())
    stacks.run(CHAIN)
    old = stacks.rows()['c'].physical_id
    Gone.gone.add('c')
    plain = stacks.run(CHAIN)
    assert [e for e in plain['events'] if e['resource_name'] == 'c'] == []
    result = stacks.run(CHAIN, converge=True)
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    brief = stacks.brief(e for e in result['events'] if e['resource_name'] == 'c')
    assert ('c', 'CHECK', 'FAILED') in brief
    assert brief.index(('c', 'CREATE', 'COMPLETE')) < brief.index(('c', 'DELETE', 'COMPLETE'))
    row = stacks.rows()['c']
    assert row.physical_id != old and row.status == 'COMPLETE'
    assert [e for e in result['events'] if e['resource_name'] in ('a', 'b') and
            e['resource_action'] != 'CHECK'] == []


def test_check_mode_absent(stacks):
    stacks.run(CHAIN)
    before = snapshot(stacks)
    result = stacks.run(name='st', state='absent', check_mode=True)
    assert result['changed'] is True
    assert sorted((p['resource_name'], p['action']) for p in result['plan']) == [
        ('a', 'delete'), ('b', 'delete'), ('c', 'delete')]
    assert snapshot(stacks) == before


def test_plan_marks_external_id_change_as_error(make_run):
    run, graph = make_run('resources:\n  a: {type: OS::Heat::Value, external_id: ext2}\n',
                          check_mode=True)
    row = ResourceRow(uuid='u', stack_id=run.stack['id'], name='a', role='current',
                      type='OS::Heat::Value', physical_id='ext1', action='CREATE',
                      status='COMPLETE', properties={})
    run.rows['u'] = row
    items, diff = check.plan(run, graph)
    assert items[0]['action'] == 'error' and 'external_id cannot change' in items[0]['reason']


# -- converge puts drift back ----------------------------------------------------------

DRIFT = '''
resources:
  a: {type: OS::Heat::TestResource, properties: {value: one, update_replace_value: x}}
  b: {type: OS::Heat::Value, properties: {value: {get_resource: a}}}
'''


class Drifting(TestResource):
    """A TestResource whose live object has drifted as ``drifts`` says
    (name -> property names), until an update or a new object puts the
    template's values back; ``updates`` records each update's ctx.changed."""
    drifts = {}
    updates = []

    def drift(self, ctx, live):
        return sorted(Drifting.drifts.get(ctx.name, ()))

    def update(self, ctx):
        Drifting.updates.append((ctx.name, set(ctx.changed), dict(ctx.properties)))
        Drifting.drifts.pop(ctx.name, None)
        return super(Drifting, self).update(ctx)

    def create(self, ctx):
        Drifting.drifts.pop(ctx.name, None)
        return super(Drifting, self).create(ctx)


@pytest.fixture
def drifting(monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::TestResource', Drifting)
    monkeypatch.setattr(Drifting, 'drifts', {})
    monkeypatch.setattr(Drifting, 'updates', [])
    return Drifting


def test_converge_updates_a_drifted_property_back_in_place(stacks, drifting):
    stacks.run(DRIFT)
    before = stacks.rows()['a']
    drifting.drifts['a'] = {'value'}
    result = stacks.run(DRIFT, converge=True)
    assert result['changed'] is True
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    # the template's value is sent back for the drifted key
    assert drifting.updates == [('a', {'value'}, drifting.updates[0][2])]
    assert drifting.updates[0][2]['value'] == 'one'
    brief = stacks.brief(e for e in result['events'] if e['resource_name'] == 'a')
    assert brief == [('a', 'UPDATE', 'IN_PROGRESS'), ('a', 'UPDATE', 'COMPLETE')]
    after = stacks.rows()['a']
    assert after.physical_id == before.physical_id and after.action == 'UPDATE'
    assert [e for e in result['events'] if e['resource_name'] == 'b'] == []
    # put back: the next converge finds nothing to do and leaves no trace
    again = stacks.run(DRIFT, converge=True)
    assert again['changed'] is False and again['events'] == []
    assert len(drifting.updates) == 1


def test_converge_replaces_a_drifted_property_that_cannot_change_in_place(stacks, drifting):
    stacks.run(DRIFT)
    old = stacks.rows()['a'].physical_id
    drifting.drifts['a'] = {'update_replace_value'}
    result = stacks.run(DRIFT, converge=True)
    assert result['changed'] is True and drifting.updates == []
    assert stacks.rows()['a'].physical_id != old
    brief = stacks.brief(e for e in result['events'] if e['resource_name'] == 'a')
    assert brief.index(('a', 'CREATE', 'COMPLETE')) < brief.index(('a', 'DELETE', 'COMPLETE'))
    # b refers to a: it follows the replacement
    assert stacks.brief(e for e in result['events'] if e['resource_name'] == 'b')[-1] == \
        ('b', 'UPDATE', 'COMPLETE')


def test_without_converge_drift_changes_nothing(stacks, drifting):
    stacks.run(DRIFT)
    rows = stacks.rows()
    drifting.drifts['a'] = {'value', 'update_replace_value'}
    result = stacks.run(DRIFT)
    assert result['changed'] is False and result['events'] == []
    assert drifting.updates == [] and stacks.rows() == rows
    planned = stacks.run(DRIFT, check_mode=True)
    assert plan_of(planned) == {'a': 'keep', 'b': 'keep'} and planned['changed'] is False
    # the check still reports the drift
    assert dict((e['resource_name'], e['drift']) for e in planned['check'])['a'] == \
        ['update_replace_value', 'value']


def test_converge_check_mode_plans_putting_drift_back(stacks, drifting):
    stacks.run(DRIFT)
    before = snapshot(stacks)
    drifting.drifts['a'] = {'value'}
    result = stacks.run(DRIFT, converge=True, check_mode=True, diff=True)
    assert result['changed'] is True
    assert plan_of(result) == {'a': 'update', 'b': 'keep'}
    reasons = dict((i['resource_name'], i['reason']) for i in result['plan'])
    assert reasons['a'] == 'drifted: value; updated in place'
    diff = dict((d['resource_name'], d) for d in result['diff'])
    assert list(diff) == ['a'] and diff['a']['reason'] == reasons['a']
    assert diff['a']['before']['value'] == check.DRIFTED and diff['a']['after']['value'] == 'one'
    assert snapshot(stacks) == before and drifting.updates == []
    # a key that cannot change in place, beside a template change: both named
    drifting.drifts['a'] = {'update_replace_value'}
    replaced = stacks.run(DRIFT.replace('value: one', 'value: two'), converge=True, check_mode=True)
    assert plan_of(replaced) == {'a': 'replace', 'b': 'update'}
    assert dict((i['resource_name'], i['reason']) for i in replaced['plan'])['a'] == \
        'changed: value; drifted: update_replace_value; replaced: update_replace_value cannot ' \
        'change in place'
    assert snapshot(stacks) == before


def test_a_converge_stopped_before_putting_drift_back_marks_no_row(stacks, drifting):
    # restricted_actions refuse the update the drift asks for: the run fails
    # on it, and what it found is not kept for a later run to act on
    env = stacks.dir / 'env.yaml'
    env.write_text('resource_registry:\n  resources:\n    a:\n      restricted_actions: [update]\n')
    stacks.run(DRIFT)
    drifting.drifts['a'] = {'value'}
    refused = stacks.run(DRIFT, converge=True, environment=[str(env)])
    assert refused['stack']['stack_status'] == 'UPDATE_FAILED'
    assert 'restricts the action "update" (properties drifted: value)' in \
        refused['stack']['stack_status_reason']
    row = stacks.rows()['a']
    assert (row.action, row.status) == ('CREATE', 'COMPLETE') and drifting.updates == []
    plain = stacks.run(DRIFT)
    assert plain['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert [e for e in plain['events'] if e['resource_name'] == 'a'] == [] and drifting.updates == []


def test_a_run_after_a_converge_killed_while_putting_drift_back(stacks, drifting):
    stacks.run(DRIFT)
    # what the killed converge left: a's update begun, the record's
    # properties the template's (the drift was never written down)
    store = stacks.store()
    try:
        stack = store.get_stack('st')
        row = [r for r in store.resources(stack['id']) if r.name == 'a'][0]
        store.save_resource(row.replace(action='UPDATE', status='IN_PROGRESS'))
        store.update_stack(stack['id'], action='UPDATE', status='IN_PROGRESS')
    finally:
        store.close()
    drifting.drifts['a'] = {'value'}
    plain = stacks.run(DRIFT)
    # settled, its drift left alone (no converge asked)
    assert stacks.brief(e for e in plain['events'] if e['resource_name'] == 'a') == [
        ('a', 'UPDATE', 'IN_PROGRESS'), ('a', 'UPDATE', 'COMPLETE')]
    assert drifting.updates == [] and stacks.rows()['a'].status == 'COMPLETE'
    converged = stacks.run(DRIFT, converge=True)
    assert converged['changed'] is True and [u[1] for u in drifting.updates] == [{'value'}]
