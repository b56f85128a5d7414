# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The engine end to end with the Heat types (no cloud) and a store in
tmp_path; fake plugins stand in where a test needs to see the calls."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import sqlite3

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ParameterError, ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

from ..conftest import FAILING, index, resource_events

TR = 'OS::Heat::TestResource'

CHAIN = '''
parameters:
  v: {type: string, default: one}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, output]}}}
  c: {type: OS::Heat::TestResource, properties: {value: alone}}
outputs:
  out: {value: {get_attr: [b, value]}, description: what b holds}
  ref: {value: {get_resource: a}}
'''


def test_create_heat_shaped_events_and_outputs(stacks):
    result = stacks.run(CHAIN)
    assert result['changed'] is True
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_COMPLETE'
    assert stack['stack_name'] == 'st'
    events = result['events']
    first, last = events[0], events[-1]
    assert (first['resource_type'], first['resource_name']) == ('OS::Heat::Stack', 'st')
    assert (first['resource_action'], first['resource_status']) == ('CREATE', 'IN_PROGRESS')
    assert (last['resource_action'], last['resource_status']) == ('CREATE', 'COMPLETE')
    assert last['physical_resource_id'] == stack['id']
    assert sorted(stacks.brief(resource_events(events))) == sorted(
        (n, 'CREATE', s) for n in 'abc' for s in ('IN_PROGRESS', 'COMPLETE'))
    for name in 'abc':
        assert index(events, name, 'CREATE', 'IN_PROGRESS') < index(events, name, 'CREATE',
                                                                    'COMPLETE')
    assert index(events, 'a', 'CREATE', 'COMPLETE') < index(events, 'b', 'CREATE', 'IN_PROGRESS')
    for e in events:
        assert set(e) >= {'id', 'resource_name', 'resource_type', 'physical_resource_id',
                          'resource_action', 'resource_status', 'resource_status_reason',
                          'event_time'}
    complete_a = events[index(events, 'a', 'CREATE', 'COMPLETE')]
    assert complete_a['physical_resource_id'].startswith('st-a-')
    # the store holds the same events in the same order
    assert [e['id'] for e in stacks.stored_events()] == [e['id'] for e in events]
    outputs = dict((o['output_key'], o) for o in stack['outputs'])
    assert [o['output_key'] for o in stack['outputs']] == ['out', 'ref']
    assert outputs['out'] == {'output_key': 'out', 'output_value': 'one',
                              'description': 'what b holds'}
    assert outputs['ref']['output_value'] == complete_a['physical_resource_id']
    assert outputs['ref']['description'] == 'No description given'
    views = dict((r['resource_name'], r) for r in result['resources'])
    assert views['a']['required_by'] == ['b']
    assert all(r['resource_status'] == 'CREATE_COMPLETE' for r in views.values())


def record(stacks):
    """Every row of the store's stacks, resources and events tables, as stored."""
    db = sqlite3.connect(stacks.store_path)
    try:
        return dict((table, db.execute('SELECT * FROM %s ORDER BY 1' % table).fetchall())
                    for table in ('stacks', 'resources', 'events'))
    finally:
        db.close()


@pytest.mark.parametrize('first', [{}, {'v': 'two'}], ids=['after-create', 'after-update'])
def test_rerun_changes_nothing_and_leaves_the_record_as_it_was(stacks, first):
    stacks.run(CHAIN)
    shown = stacks.run(CHAIN, parameters=first)['stack']
    before = record(stacks)
    result = stacks.run(CHAIN, parameters=first)
    assert result['changed'] is False
    assert result['events'] == []
    # no event, no new status nor updated_time, not even the lock's columns left behind
    assert record(stacks) == before
    assert result['stack'] == shown
    assert result['stack']['stack_status'] == ('UPDATE_COMPLETE' if first else 'CREATE_COMPLETE')


def test_an_update_after_quiet_reruns_records_its_start_and_keeps_rollbacks_previous(stacks):
    stacks.run(CHAIN)
    stacks.run(CHAIN)
    created = stacks.store().get_stack('st')
    result = stacks.run(CHAIN, parameters={'v': 'two'})
    assert result['changed'] is True
    brief = stacks.brief(result['events'])
    assert brief[0] == ('st', 'UPDATE', 'IN_PROGRESS') and brief[-1] == ('st', 'UPDATE', 'COMPLETE')
    assert index(result['events'], 'st', 'UPDATE', 'IN_PROGRESS') < index(result['events'], 'a', 'UPDATE',
                                                                          'IN_PROGRESS')
    stack = stacks.store().get_stack('st')
    assert stack['previous'] == created['definition'] and stack['updated_time'] is not None
    assert [e['id'] for e in stacks.stored_events()][-len(brief):] == [e['id'] for e in result['events']]


def test_a_rerun_with_other_tags_is_an_update(stacks):
    stacks.run(CHAIN)
    result = stacks.run(CHAIN, tags=['blue'])
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert stacks.brief(result['events']) == [('st', 'UPDATE', 'IN_PROGRESS'), ('st', 'UPDATE', 'COMPLETE')]
    assert stacks.store().get_stack('st')['tags'] == ['blue']


def test_parameter_change_updates_only_affected_resources(stacks):
    stacks.run(CHAIN)
    before = stacks.rows()
    result = stacks.run(CHAIN, parameters={'v': 'two'})
    assert result['changed'] is True
    assert stacks.brief(resource_events(result['events'])) == [
        ('a', 'UPDATE', 'IN_PROGRESS'), ('a', 'UPDATE', 'COMPLETE'),
        ('b', 'UPDATE', 'IN_PROGRESS'), ('b', 'UPDATE', 'COMPLETE')]
    after = stacks.rows()
    assert all(after[n].physical_id == before[n].physical_id for n in 'abc')
    assert after['c'].updated_time == before['c'].updated_time
    assert after['a'].properties['value'] == 'two'
    outputs = dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])
    assert outputs['out'] == 'two'


REPLACE = '''
parameters:
  fixed: {type: string, default: x}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: v, update_replace_value: {get_param: fixed}}}
  b: {type: OS::Heat::Value, properties: {value: {get_resource: a}}}
  d: {type: OS::Heat::Value, properties: {value: {get_resource: b}}}
'''


def test_replacement_creates_new_then_deletes_old_after_dependents(stacks):
    stacks.run(REPLACE)
    old = stacks.rows()['a'].physical_id
    result = stacks.run(REPLACE, parameters={'fixed': 'y'})
    events = result['events']
    new = stacks.rows()['a'].physical_id
    assert new != old
    create_new = index(events, 'a', 'CREATE', 'COMPLETE')
    assert events[create_new]['physical_resource_id'] == new
    delete_old = index(events, 'a', 'DELETE', 'IN_PROGRESS')
    assert events[delete_old]['physical_resource_id'] == old
    assert index(events, 'a', 'CREATE', 'IN_PROGRESS') < create_new < delete_old
    # b refers to a: it moves to the new one before the old one goes
    assert index(events, 'b', 'UPDATE', 'COMPLETE') < delete_old
    assert index(events, 'a', 'DELETE', 'COMPLETE') < len(events) - 1
    assert stacks.rows()['b'].properties['value'] == new
    # d's value (b's reference id) did not change: kept
    assert 'd' not in [e['resource_name'] for e in events]
    # only the current row is left
    store = stacks.store()
    try:
        rows = store.resources(store.get_stack('st')['id'])
    finally:
        store.close()
    assert sorted((r.name, r.role) for r in rows) == [('a', 'current'), ('b', 'current'), ('d', 'current')]


def test_removed_resources_deleted_after_their_users(stacks):
    stacks.run(CHAIN)
    result = stacks.run('resources:\n  c: {type: OS::Heat::TestResource, properties: '
                        '{value: alone}}\n')
    events = result['events']
    assert sorted(stacks.brief(resource_events(events))) == sorted(
        [(n, 'DELETE', s) for n in 'ab' for s in ('IN_PROGRESS', 'COMPLETE')])
    assert index(events, 'b', 'DELETE', 'COMPLETE') < index(events, 'a', 'DELETE', 'IN_PROGRESS')
    assert sorted(stacks.rows()) == ['c']
    assert result['stack']['outputs'] == []


def test_removed_resource_deleted_after_its_user_moved_on(stacks):
    stacks.run(CHAIN)
    result = stacks.run('resources:\n  b: {type: OS::Heat::Value, properties: {value: fixed}}\n'
                        '  c: {type: OS::Heat::TestResource, properties: {value: alone}}\n')
    events = result['events']
    assert index(events, 'b', 'UPDATE', 'COMPLETE') < index(events, 'a', 'DELETE', 'IN_PROGRESS')
    assert sorted(stacks.rows()) == ['b', 'c']


def test_failure_names_resource_and_reason_and_spares_other_branches(stacks):
    result = stacks.run(FAILING)
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    reason = stack['stack_status_reason']
    assert 'bad' in reason and 'Test Resource failed bad' in reason
    assert reason.startswith('Resource CREATE failed: ValueError: resources.bad:')
    events = result['events']
    failed = events[index(events, 'bad', 'CREATE', 'FAILED')]
    assert 'Test Resource failed bad' in failed['resource_status_reason']
    assert index(events, 'other', 'CREATE', 'COMPLETE')
    names = set(e['resource_name'] for e in events)
    assert 'child' not in names and 'grandchild' not in names
    assert events[-1]['resource_status'] == 'FAILED'
    rows = stacks.rows()
    assert rows['bad'].status == 'FAILED' and rows['other'].status == 'COMPLETE'
    assert 'child' not in rows
    views = dict((r['resource_name'], r) for r in result['resources'])
    assert views['bad']['resource_status'] == 'CREATE_FAILED'


def test_failed_resource_replaced_on_next_run(stacks):
    stacks.run(FAILING)
    fixed = FAILING.replace('fail: true', 'fail: false')
    result = stacks.run(fixed)
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    rows = stacks.rows()
    assert set(rows) == {'bad', 'child', 'grandchild', 'other'}
    assert all(r.status == 'COMPLETE' for r in rows.values())
    assert index(result['events'], 'bad', 'CREATE', 'COMPLETE') >= 0


def test_state_absent_twice(stacks):
    stacks.run(CHAIN)
    result = stacks.run(name='st', state='absent')
    assert result['changed'] is True
    events = result['events']
    assert index(events, 'b', 'DELETE', 'COMPLETE') < index(events, 'a', 'DELETE', 'IN_PROGRESS')
    assert events[-1]['resource_action'] == 'DELETE'
    assert events[-1]['resource_status'] == 'COMPLETE'
    store = stacks.store()
    try:
        assert store.get_stack('st') is None
    finally:
        store.close()
    again = stacks.run(name='st', state='absent')
    assert again == {'changed': False, 'stack': None, 'resources': [], 'events': []}


class Recording(TestResource):
    calls = []

    def suspend(self, ctx):
        self.calls.append(('suspend', ctx.name))

    def resume(self, ctx):
        self.calls.append(('resume', ctx.name))


SUSPEND = '''
resources:
  a: {type: OS::Heat::TestResource, properties: {value: a}}
  b: {type: OS::Heat::TestResource, properties: {value: {get_resource: a}}}
  c: {type: OS::Heat::TestResource, properties: {value: {get_resource: b}}}
'''


def test_suspend_users_first_and_resume_in_order(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'calls', [])
    stacks.run(SUSPEND)
    result = stacks.run(name='st', state='suspended')
    assert result['stack']['stack_status'] == 'SUSPEND_COMPLETE'
    assert Recording.calls == [('suspend', 'c'), ('suspend', 'b'), ('suspend', 'a')]
    assert index(result['events'], 'c', 'SUSPEND', 'COMPLETE') < index(
        result['events'], 'b', 'SUSPEND', 'IN_PROGRESS')
    assert all(r.action == 'SUSPEND' and r.status == 'COMPLETE'
               for r in stacks.rows().values())
    again = stacks.run(name='st', state='suspended')
    assert again['changed'] is False and len(Recording.calls) == 3
    Recording.calls[:] = []
    resumed = stacks.run(SUSPEND)
    assert Recording.calls == [('resume', 'a'), ('resume', 'b'), ('resume', 'c')]
    assert resumed['changed'] is True
    # nothing else changed: the stack ends as Heat's stack resume ends it, with its events only
    assert resumed['stack']['stack_status'] == 'RESUME_COMPLETE'
    assert resumed['stack']['stack_status_reason'] == 'Stack RESUME completed successfully'
    assert [(e['resource_name'], e['resource_action'], e['resource_status'])
            for e in resumed['events']] == [
        ('st', 'RESUME', 'IN_PROGRESS'), ('a', 'RESUME', 'IN_PROGRESS'), ('a', 'RESUME', 'COMPLETE'),
        ('b', 'RESUME', 'IN_PROGRESS'), ('b', 'RESUME', 'COMPLETE'), ('c', 'RESUME', 'IN_PROGRESS'),
        ('c', 'RESUME', 'COMPLETE'), ('st', 'RESUME', 'COMPLETE')]
    assert stacks.stored_events()[-1]['resource_status'] == 'COMPLETE'
    assert stacks.stored_events()[-1]['resource_action'] == 'RESUME'
    # a rerun leaves it so; a change updates it
    assert stacks.run(SUSPEND)['changed'] is False
    assert stacks.run(SUSPEND.replace('value: a}', 'value: a2}'))['stack']['stack_status'] == \
        'UPDATE_COMPLETE'


class Crashing(TestResource):
    made = {}       # physical name -> id: "the cloud"
    creates = []
    finds = []
    crash = True

    def create(self, ctx):
        Crashing.creates.append(ctx.physical_name)
        Crashing.made[ctx.physical_name] = 'id-%s' % ctx.physical_name
        ctx.data['value'] = (ctx.properties or {}).get('value')
        if Crashing.crash:
            raise KeyboardInterrupt('killed before the physical id was committed')
        return Crashing.made[ctx.physical_name]

    def find(self, ctx):
        Crashing.finds.append(ctx.physical_name)
        return Crashing.made.get(ctx.physical_name)


def test_crash_mid_create_is_found_not_recreated(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Crashing)
    monkeypatch.setattr(Crashing, 'made', {})
    monkeypatch.setattr(Crashing, 'creates', [])
    monkeypatch.setattr(Crashing, 'finds', [])
    text = 'resources:\n  a: {type: OS::Heat::TestResource, properties: {value: v}}\n'
    first = stacks.run(text)
    assert first['stack']['stack_status'] == 'CREATE_FAILED'
    row = stacks.rows()['a']
    # the intended name was committed before the call; the id never was
    assert row.physical_id is None and row.physical_name == Crashing.creates[0]
    assert (row.action, row.status) == ('CREATE', 'IN_PROGRESS')
    monkeypatch.setattr(Crashing, 'crash', False)
    second = stacks.run(text)
    assert second['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert len(Crashing.creates) == 1                       # no duplicate create
    assert Crashing.finds == [row.physical_name]
    row = stacks.rows()['a']
    assert row.physical_id == 'id-' + row.physical_name
    assert row.status == 'COMPLETE'


HIDDEN = '''
parameters:
  pw: {type: string, hidden: true}
  v: {type: string, default: one}
resources:
  user: {type: OS::Heat::TestResource, properties: {value: {get_param: pw}}}
  script: {type: OS::Heat::Value, properties: {value: {list_join: ['', ['echo ', {get_param: pw}]]}}}
  plain: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
outputs:
  o: {value: {get_attr: [plain, output]}}
'''
SECRET = 'S3cr3t-Pa55w0rd'


def _store_bytes_and_tables(store_path):
    raw = b''
    import glob
    for path in glob.glob(store_path + '*'):
        with open(path, 'rb') as f:
            raw += f.read()
    db = sqlite3.connect(store_path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        dump = '\n'.join(repr(row) for t in tables for row in db.execute('SELECT * FROM %s' % t))
    finally:
        db.close()
    return raw, dump


def test_hidden_parameters_never_stored_nor_returned(stacks):
    result = stacks.run(HIDDEN, parameters={'pw': SECRET}, store_key='user key')
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert SECRET not in json.dumps(result)
    assert result['stack']['parameters']['pw'] != SECRET
    raw, dump = _store_bytes_and_tables(stacks.store_path)
    assert SECRET.encode() not in raw
    assert SECRET not in dump
    # PATCH update without the hidden value: it comes from the encrypted store
    again = stacks.run(name='st', existing=True, parameters={'v': 'two'}, store_key='user key')
    assert again['stack']['stack_status'] == 'UPDATE_COMPLETE', again['stack']
    assert stacks.brief(resource_events(again['events'])) == [
        ('plain', 'UPDATE', 'IN_PROGRESS'), ('plain', 'UPDATE', 'COMPLETE')]
    assert SECRET not in json.dumps(again)
    raw, dump = _store_bytes_and_tables(stacks.store_path)
    assert SECRET.encode() not in raw and SECRET not in dump


def test_hidden_parameter_change_is_detected_through_the_digest(stacks):
    stacks.run(HIDDEN, parameters={'pw': SECRET})
    result = stacks.run(HIDDEN, parameters={'pw': SECRET + 'x'})
    names = set(e['resource_name'] for e in resource_events(result['events']))
    assert names == {'user', 'script'}
    unchanged = stacks.run(HIDDEN, parameters={'pw': SECRET + 'x'})
    assert resource_events(unchanged['events']) == []


def test_existing_without_store_key_asks_for_the_hidden_parameter(stacks, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    stacks.run(HIDDEN, parameters={'pw': SECRET})
    with pytest.raises(ParameterError) as err:
        stacks.run(name='st', existing=True, parameters={'v': 'two'})
    assert 'pw' in str(err.value) and 'store_key' in str(err.value)
    ok = stacks.run(name='st', existing=True, parameters={'v': 'two', 'pw': SECRET})
    assert ok['stack']['stack_status'] == 'UPDATE_COMPLETE'


def test_tags_and_a_patch_update_with_cleared_parameters(stacks):
    first = stacks.run(CHAIN, parameters={'v': 'two'}, tags=['web', 'prod'])
    assert first['stack']['tags'] == ['web', 'prod']
    assert dict((o['output_key'], o['output_value']) for o in first['stack']['outputs'])['out'] == 'two'
    # PATCH: no template, the stored one reused; clearing v brings back its default
    patched = stacks.run(None, existing=True, clear_parameters=['v'], tags=['web'])
    assert patched['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert patched['stack']['parameters']['v'] == 'one'
    assert patched['stack']['tags'] == ['web']
    assert dict((o['output_key'], o['output_value']) for o in patched['stack']['outputs'])['out'] == 'one'
    # PATCH with a new value only: merged over the stored parameters
    again = stacks.run(None, existing=True, parameters={'v': 'three'})
    assert again['stack']['parameters']['v'] == 'three'
    assert stacks.run(None, existing=True, parameters={'v': 'three'})['changed'] is False


def test_a_stack_left_part_suspended_is_resumed_by_a_present_run(stacks, monkeypatch):
    """A suspend that failed half-way (one resource refused) leaves SUSPEND_FAILED: the next
    present run resumes what was suspended, and with nothing else changed ends there."""
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'calls', [])
    stacks.run(SUSPEND)
    refused = {'a'}

    def suspend(self, ctx):
        if ctx.name in refused:
            raise ResourceFailure('Conflict on suspend')
        self.calls.append(('suspend', ctx.name))
    monkeypatch.setattr(Recording, 'suspend', suspend)
    failed = stacks.run(name='st', state='suspended')
    assert failed['stack']['stack_status'] == 'SUSPEND_FAILED'
    Recording.calls[:] = []
    resumed = stacks.run(SUSPEND)
    assert resumed['stack']['stack_status'] == 'RESUME_COMPLETE'
    assert ('resume', 'b') in Recording.calls and ('resume', 'c') in Recording.calls
    assert index(resumed['events'], 'st', 'RESUME', 'COMPLETE') >= 0


class HalfMade(TestResource):
    """A create that makes its object, then loses the answer (find sees it, but the type does not
    say one request made it whole): the resource fails with no id recorded."""
    cloud = {}
    creates = []
    deletes = []

    def create(self, ctx):
        from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudTransient
        HalfMade.creates.append(ctx.physical_name)
        HalfMade.cloud[ctx.physical_name] = 'id-%d' % len(HalfMade.creates)
        if len(HalfMade.creates) == 1:
            raise CloudTransient('answer lost')
        return HalfMade.cloud[ctx.physical_name]

    def find(self, ctx):
        return HalfMade.cloud.get(ctx.physical_name)

    def delete(self, ctx):
        HalfMade.deletes.append(ctx.physical_id)


def test_a_create_that_failed_before_recording_its_id_is_taken_by_the_rerun(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, HalfMade)
    for name in ('cloud', 'creates', 'deletes'):
        monkeypatch.setattr(HalfMade, name, type(getattr(HalfMade, name))())
    text = 'resources:\n  a: {type: OS::Heat::TestResource, properties: {value: x}}\n'
    failed = stacks.run(text)
    assert failed['stack']['stack_status'] == 'CREATE_FAILED'
    assert stacks.rows()['a'].physical_id is None
    again = stacks.run(text)
    assert again['stack']['stack_status'] == 'UPDATE_COMPLETE', again['stack']
    # found by its physical name and taken: no second create, nothing deleted
    assert len(HalfMade.creates) == 1 and HalfMade.deletes == []
    row = stacks.rows()['a']
    assert (row.status, row.physical_id) == ('COMPLETE', 'id-1')
