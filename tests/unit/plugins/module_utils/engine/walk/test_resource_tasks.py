# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import events
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import resource_tasks as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.planner import UNFINISHED
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.scheduler import RELEASE
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudConflict, CloudError, CloudNotFound, ResourceFailure, StackersError, StoreError)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

TR = 'OS::Heat::TestResource'


def drive(gen):
    """Run a task generator to its end; returns (value, number of polls)."""
    polls = 0
    try:
        while True:
            next(gen)
            polls += 1
    except StopIteration as stop:
        return stop.value, polls


def test_failure_reason_kinds():
    assert rt.failure_reason(CloudNotFound('no server'), 'r') == 'NotFound: resources.r: no server'
    assert rt.failure_reason(CloudConflict('in use'), 'r') == 'Conflict: resources.r: in use'
    assert rt.failure_reason(CloudError('bad', status=400), 'r') == \
        'BadRequest: resources.r: bad'
    assert rt.failure_reason(CloudError('boom', status=500), 'r') == 'Error: resources.r: boom'
    assert rt.failure_reason(ResourceFailure('went ERROR'), 'r') == \
        'ResourceInError: resources.r: went ERROR'
    assert rt.failure_reason(StoreError('x'), 'r') == 'StoreError: resources.r: x'
    # Heat's own exception name, and the resource it names (a wait failing on its handle's error)
    assert rt.failure_reason(ResourceFailure('0 of 2 received', kind='WaitConditionTimeout'), 'w') == \
        'WaitConditionTimeout: resources.w: 0 of 2 received'
    assert rt.failure_reason(ResourceFailure('Metadata format invalid', kind='ValueError', where='h'),
                             'w') == 'ValueError: resources.h: Metadata format invalid'
    assert rt.failure_reason(ZeroDivisionError('oops'), 'r') == 'InternalError: resources.r: oops'


class Watching(TestResource):
    """Checks what is on disk at each step of a create."""
    seen = []
    run = None

    def create(self, ctx):
        row = self.run.store.resources(self.run.stack['id'])[0]
        Watching.seen.append(('create', row.physical_name, row.physical_id, row.status))
        assert row.physical_name == ctx.physical_name
        ctx.data['step'] = 0
        return 'pid-1'

    def check_create_complete(self, ctx):
        row = self.run.store.resources(self.run.stack['id'])[0]
        Watching.seen.append(('check', row.physical_id, (row.data or {}).get('step')))
        ctx.data['step'] += 1
        return ctx.data['step'] > 2


def test_create_commits_name_before_call_and_id_at_once(make_run, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Watching)
    monkeypatch.setattr(Watching, 'seen', [])
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    Watching.run = run
    row, polls = drive(rt.apply_resource(run, 'a'))
    assert polls == 2
    first = Watching.seen[0]
    assert first[0] == 'create' and first[1].startswith('st-a-')
    assert first[2] is None and first[3] == 'IN_PROGRESS'
    # the id is on disk at the first poll; the data changed by a poll is saved
    assert Watching.seen[1:] == [('check', 'pid-1', 0), ('check', 'pid-1', 1),
                                 ('check', 'pid-1', 2)]
    assert row.status == 'COMPLETE' and row.reference_id == 'pid-1'
    assert run.sd.resource_data['a']['reference_id'] == 'pid-1'
    assert [(e['resource_action'], e['resource_status']) for e in run.log.events] == [
        ('CREATE', 'IN_PROGRESS'), ('CREATE', 'COMPLETE')]
    assert run.decisions['a'].action == 'create'


def test_create_failure_recorded_and_raised(make_run):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource, properties: '
                           '{fail: true}}\n')
    with pytest.raises(ResourceFailure, match='Test Resource failed a') as err:
        drive(rt.apply_resource(run, 'a'))
    assert err.value.resource == 'a'
    row = run.store.resources(run.stack['id'])[0]
    assert (row.action, row.status) == ('CREATE', 'FAILED')
    assert row.status_reason == 'ValueError: resources.a: Test Resource failed a'
    assert run.log.events[-1]['resource_status'] == 'FAILED'
    assert run.log.events[-1]['resource_status_reason'] == row.status_reason


def test_keep_publishes_the_row(make_run):
    text = 'resources:\n  a: {type: OS::Heat::Value, properties: {value: 1}}\n'
    run, _graph = make_run(text)
    drive(rt.apply_resource(run, 'a'))
    run2, _graph = make_run(text, store=run.store)
    run2.sd.resource_data.clear()
    decision, polls = drive(rt.apply_resource(run2, 'a'))
    assert decision.action == 'keep' and polls == 0
    assert run2.sd.resource_data['a']['reference_id'].startswith('st-a-')
    assert run2.log.events == []


def test_external_id_adopts_or_fails(make_run, monkeypatch):
    class Ext(TestResource):
        def show(self, ctx):
            return {} if ctx.physical_id == 'exists' else None
    monkeypatch.setitem(resources.PLUGINS, TR, Ext)
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource, '
                           'external_id: exists}\n  b: {type: OS::Heat::TestResource, '
                           'external_id: missing}\n')
    row, _polls = drive(rt.apply_resource(run, 'a'))
    assert row.physical_id == 'exists' and row.status == 'COMPLETE'
    with pytest.raises(ResourceFailure, match='external resource missing does not exist'):
        drive(rt.apply_resource(run, 'b'))


def test_hooks_pause_the_resource(stacks):
    env = stacks.dir / 'env.yaml'
    env.write_text('resource_registry:\n  resources:\n    a:\n      hooks: pre-create\n')
    text = ('resources:\n  a: {type: OS::Heat::TestResource}\n'
            '  b: {type: OS::Heat::TestResource, properties: {value: {get_resource: a}}}\n'
            '  c: {type: OS::Heat::TestResource}\n')
    result = stacks.run(text, environment=[str(env)])
    assert result['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
    assert result['stack']['stack_status_reason'] == 'Paused at hooks of: a'
    paused = [e for e in result['events'] if e['resource_name'] == 'a']
    assert [(e['resource_action'], e['resource_status'], e['resource_status_reason'])
            for e in paused] == [('INIT', 'COMPLETE',
                                  'CREATE paused until Hook pre-create is cleared')]
    assert sorted(stacks.rows()) == ['c']


class Recording(TestResource):
    deleted = []
    found = []

    def delete(self, ctx):
        Recording.deleted.append((ctx.name, ctx.physical_id))

    def find(self, ctx):
        Recording.found.append(ctx.physical_name)
        return 'found-id'


def test_delete_row_finds_an_uncommitted_create(make_run, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'deleted', [])
    monkeypatch.setattr(Recording, 'found', [])
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    row = run.save(ResourceRow(uuid='u', stack_id=run.stack['id'], name='a', role='current',
                               type=TR, physical_name='st-a-xyz', action='CREATE',
                               status='IN_PROGRESS'))
    gen = rt.delete_row(run, row)
    # the dead run's create may still be in the cloud's hands: wait before looking
    assert 9 <= next(gen) <= 10 and Recording.found == []
    drive(gen)
    assert Recording.found == ['st-a-xyz'] and Recording.deleted == [('a', 'found-id')]
    assert run.rows == {} and run.store.resources(run.stack['id']) == []
    assert [(e['resource_action'], e['resource_status']) for e in run.log.events] == [
        ('DELETE', 'IN_PROGRESS'), ('DELETE', 'COMPLETE')]
    assert run.log.events[-1]['physical_resource_id'] == 'found-id'


def test_delete_failure_keeps_the_row(make_run, monkeypatch):
    class Stuck(TestResource):
        def delete(self, ctx):
            raise CloudConflict('volume in use')
    monkeypatch.setitem(resources.PLUGINS, TR, Stuck)
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    row = run.save(ResourceRow(uuid='u', stack_id=run.stack['id'], name='a', role='current',
                               type=TR, physical_id='p', action='CREATE', status='COMPLETE'))
    with pytest.raises(CloudConflict):
        drive(rt.delete_row(run, row))
    stored = run.store.resources(run.stack['id'])
    assert len(stored) == 1 and (stored[0].action, stored[0].status) == ('DELETE', 'FAILED')
    assert stored[0].status_reason == 'Conflict: resources.a: volume in use'


def test_action_row_suspends_and_records_failures(make_run, monkeypatch):
    class Half(TestResource):
        def suspend(self, ctx):
            if ctx.name == 'bad':
                raise StackersError('cannot pause')
    monkeypatch.setitem(resources.PLUGINS, TR, Half)
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    base = {'stack_id': run.stack['id'], 'role': 'current', 'type': TR, 'physical_id': 'p',
            'action': 'CREATE', 'status': 'COMPLETE'}
    good = run.save(ResourceRow(uuid='u1', name='a', **base))
    bad = run.save(ResourceRow(uuid='u2', name='bad', **base))
    drive(rt.action_row(run, good, 'SUSPEND'))
    with pytest.raises(StackersError):
        drive(rt.action_row(run, bad, 'SUSPEND'))
    rows = dict((r.name, r) for r in run.store.resources(run.stack['id']))
    assert (rows['a'].action, rows['a'].status) == ('SUSPEND', 'COMPLETE')
    assert (rows['bad'].action, rows['bad'].status) == ('SUSPEND', 'FAILED')
    assert rows['bad'].status_reason == 'StackersError: resources.bad: cannot pause'


def test_retain_policy_and_external_resources_survive_stack_delete(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'deleted', [])
    text = ('resources:\n'
            '  kept: {type: OS::Heat::TestResource, deletion_policy: Retain}\n'
            '  ext: {type: OS::Heat::TestResource, external_id: outside}\n'
            '  gone: {type: OS::Heat::TestResource}\n')
    stacks.run(text)
    result = stacks.run(name='st', state='absent')
    assert result['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert [name for name, _pid in Recording.deleted] == ['gone']


def test_retain_policy_applies_when_the_resource_is_removed(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'deleted', [])
    stacks.run('resources:\n  kept: {type: OS::Heat::TestResource, deletion_policy: Retain}\n'
               '  other: {type: OS::Heat::TestResource}\n')
    stacks.run('resources:\n  other: {type: OS::Heat::TestResource}\n')
    assert Recording.deleted == []
    assert sorted(stacks.rows()) == ['other']


def test_retain_added_to_a_kept_resource_is_remembered(stacks, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Recording)
    monkeypatch.setattr(Recording, 'deleted', [])
    stacks.run('resources:\n  kept: {type: OS::Heat::TestResource}\n')
    result = stacks.run('resources:\n  kept: {type: OS::Heat::TestResource, '
                        'deletion_policy: Retain}\n')
    assert [e for e in result['events'] if e['resource_name'] == 'kept'] == []
    stacks.run(name='st', state='absent')
    assert Recording.deleted == []


VOL = 'OS::Cinder::Volume'


class Backed(ResourcePlugin):
    """A type deletion_policy Snapshot is allowed on, recording its calls:
    no backup of a FAILED one; a backup is looked at twice before it is whole."""
    type_name = VOL
    calls = []
    stored = []     # the row's data in the store at each look at the backup

    def create(self, ctx):
        return 'vol-%s' % ctx.name

    def snapshot(self, ctx, state):
        Backed.calls.append(('snapshot', ctx.name, state))
        if state[1] == 'FAILED':
            return None
        ctx.data.setdefault('backup_id', 'bk-%s' % ctx.name)
        return {'backup_id': ctx.data['backup_id']}

    def check_snapshot_complete(self, ctx):
        Backed.calls.append(('look', ctx.name))
        Backed.stored.append(dict(Backed.store_data(ctx)))
        return Backed.calls.count(('look', ctx.name)) >= 2

    def delete(self, ctx):
        Backed.calls.append(('delete', ctx.name, ctx.physical_id))

    @staticmethod
    def store_data(ctx):
        return {}


@pytest.fixture
def backed(monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, VOL, Backed)
    monkeypatch.setattr(Backed, 'calls', [])
    monkeypatch.setattr(Backed, 'stored', [])
    return Backed


def test_a_snapshot_policy_delete_snapshots_first_and_the_result_names_what_was_kept(stacks, backed):
    stacks.run('resources:\n'
               '  kept: {type: OS::Cinder::Volume, properties: {size: 1}, deletion_policy: Snapshot}\n'
               '  plain: {type: OS::Cinder::Volume, properties: {size: 1}}\n')
    result = stacks.run(name='st', state='absent')
    assert result['stack']['stack_status'] == 'DELETE_COMPLETE'
    kept_calls = [c for c in backed.calls if c[1] == 'kept']
    # the plugin is given the state before the delete; the delete waits for the backup
    assert kept_calls == [('snapshot', 'kept', ('CREATE', 'COMPLETE')), ('look', 'kept'),
                          ('look', 'kept'), ('delete', 'kept', 'vol-kept')]
    assert [c for c in backed.calls if c[1] == 'plain'] == [('delete', 'plain', 'vol-plain')]
    assert result['snapshots'] == [{'resource_name': 'kept', 'resource_type': VOL,
                                    'physical_resource_id': 'vol-kept', 'backup_id': 'bk-kept'}]
    # Heat's DELETE_COMPLETE event keeps its shape
    done = [e for e in result['events'] if e['resource_name'] == 'kept'][-1]
    assert (done['resource_action'], done['resource_status']) == ('DELETE', 'COMPLETE')
    assert 'backup_id' not in done and 'backup_id' not in str(done)


def test_a_resource_removed_from_the_template_is_snapshotted_and_named(stacks, backed):
    stacks.run('resources:\n'
               '  kept: {type: OS::Cinder::Volume, properties: {size: 1}, deletion_policy: Snapshot}\n'
               '  other: {type: OS::Heat::None}\n')
    result = stacks.run('resources:\n  other: {type: OS::Heat::None}\n')
    assert backed.calls[0] == ('snapshot', 'kept', ('CREATE', 'COMPLETE'))
    assert [s['backup_id'] for s in result['snapshots']] == ['bk-kept']
    assert 'snapshots' not in stacks.run('resources:\n  other: {type: OS::Heat::None}\n')


def _volume_row(run, **kw):
    fields = dict(uuid='u', stack_id=run.stack['id'], name='v', role='current', type=VOL,
                  physical_id='vol-v', physical_name='st-v-x', action='CREATE', status='COMPLETE')
    fields.update(kw)
    return run.save(ResourceRow(**fields))


def test_a_failed_resource_is_given_its_state_and_deleted_without_a_snapshot(make_run, backed):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    row = _volume_row(run, action='CREATE', status='FAILED')
    drive(rt.delete_row(run, row, 'Snapshot'))
    assert backed.calls == [('snapshot', 'v', ('CREATE', 'FAILED')), ('delete', 'v', 'vol-v')]
    assert run.log.snapshots == [] and run.rows == {}


def test_the_snapshots_id_is_stored_before_the_first_look(make_run, backed, monkeypatch):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    monkeypatch.setattr(Backed, 'store_data', staticmethod(
        lambda ctx: run.store.resources(run.stack['id'])[0].data))
    drive(rt.delete_row(run, _volume_row(run), 'Snapshot'))
    assert backed.stored[0].get('backup_id') == 'bk-v'


def test_a_delete_a_killed_run_left_gives_the_plugin_its_stored_snapshot(make_run, backed):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    row = _volume_row(run, action='DELETE', status='IN_PROGRESS', data={'backup_id': 'bk-old'})
    drive(rt.delete_row(run, row, 'Snapshot'))
    assert backed.calls[0] == ('snapshot', 'v', ('DELETE', 'IN_PROGRESS'))
    assert [s['backup_id'] for s in run.log.snapshots] == ['bk-old']


def test_a_failed_snapshot_fails_the_delete_and_keeps_its_id(make_run, backed, monkeypatch):
    def broken(self, ctx):
        ctx.fail('Volume backup failed - Unknown status error due to "Unknown"')
    monkeypatch.setattr(Backed, 'check_snapshot_complete', broken)
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    with pytest.raises(ResourceFailure):
        drive(rt.delete_row(run, _volume_row(run), 'Snapshot'))
    stored = run.store.resources(run.stack['id'])
    assert [(r.action, r.status, r.data.get('backup_id')) for r in stored] == [
        ('DELETE', 'FAILED', 'bk-v')]
    assert ('delete', 'v', 'vol-v') not in backed.calls and run.log.snapshots == []


def test_poll_delay_backs_off_with_the_wait_up_to_the_plugins_cap():
    # short looks first, then 15% of the time already waited, never above the cap
    assert rt.poll_delay(0.0, 2.0, 0.0) == pytest.approx(0.25)
    assert 0.6 / 2 <= rt.poll_delay(4.0, 2.0, 0.0) <= 0.6 + 0.5
    assert rt.poll_delay(60.0, 2.0, 0.0) <= 2.0 * 0.75 + 2.0
    assert rt.poll_delay(0.0, 0, 5.0) == 0.0         # a plugin that polls at once
    # the same wait from different moments lands on one shared tick
    a = 10.03 + rt.poll_delay(3.0, 2.0, 10.03)
    b = 10.10 + rt.poll_delay(3.07, 2.0, 10.10)
    assert a == pytest.approx(b)


def _looks(build, start, answer=0.15):
    """(how late the answer that shows a ``build``-second transition done
    comes, how many looks it took) for a poll starting at clock ``start``
    against a cloud answering each look in ``answer`` seconds, as _poll
    asks poll_delay."""
    looked = start + rt.poll_delay(0.0, 2.0, start)
    looks = 1
    while looked + answer / 2 - start < build:
        now = looked + answer
        looked = now + rt.poll_delay(looked - start, 2.0, now, looked=looked)
        looks += 1
    return looked + answer - (start + build), looks


@pytest.mark.parametrize('build,late,most', [(3.0, 0.35, 12), (4.5, 0.4, 15), (60.0, 1.3, 48)])
def test_poll_sees_a_build_soon_after_it_ends_in_few_looks(build, late, most):
    # over start moments spread across the ticks: the mean lateness and the
    # most looks (waits of a quarter of the time waited, counted from each
    # answer, saw builds of 3 and 4.5 s ~0.65 s late, in half as many looks)
    runs = [_looks(build, 1000.0 + i * 0.0173) for i in range(400)]
    assert sum(r[0] for r in runs) / len(runs) <= late
    assert max(r[1] for r in runs) <= most
    assert all(r[0] >= 0 for r in runs)


def test_poll_waits_are_counted_from_the_looks_start():
    # a look on the 0.25 s tick at 100.0 answered 0.19 s later: the next look
    # is on the next tick, not one skipped for the answer's time
    assert 100.19 + rt.poll_delay(0.5, 2.0, 100.19, looked=100.0) == pytest.approx(100.25)
    assert 100.2 + rt.poll_delay(0.7, 2.0, 100.2) == pytest.approx(100.5)
    # an answer that leaves less than MIN_GAP before that tick: the one after
    assert 100.23 + rt.poll_delay(0.5, 2.0, 100.23, looked=100.0) == pytest.approx(100.5)
    # an answer slower than the wait: the first tick at least MIN_GAP away
    assert 101.3 + rt.poll_delay(0.5, 2.0, 101.3, looked=100.0) == pytest.approx(101.5)


class Slow(TestResource):
    """A create the cloud is never done with at its answer."""
    slow_actions = ('CREATE',)
    checks = []

    def create(self, ctx):
        return 'pid-slow'

    def check_create_complete(self, ctx):
        Slow.checks.append(ctx.physical_id)
        return True


def test_a_slow_action_is_first_looked_at_after_a_wait(make_run, monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Slow)
    monkeypatch.setattr(Slow, 'checks', [])
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    gen = rt.apply_resource(run, 'a')
    first = next(gen)
    assert first > 0 and Slow.checks == []        # no call before the first wait
    row, polls = drive(gen)
    assert Slow.checks == ['pid-slow'] and polls == 0 and row.status == 'COMPLETE'


class Building(TestResource):
    """A build the cloud ends on the fourth look; at the third, another
    object made beside it is seen to have moved (poll_batch.look)."""
    slow_actions = ('CREATE',)
    poll_interval = 2.0
    clock = [1000.0]
    looks = []
    soon_at = (3,)

    def create(self, ctx):
        return 'pid-building'

    def check_create_complete(self, ctx):
        Building.looks.append(ctx.look_soon)
        if len(Building.looks) in Building.soon_at:
            ctx.look_soon = True
        return len(Building.looks) == 4


def _building_waits(make_run, monkeypatch, soon_at):
    """The task's first four waits, each look ten seconds after the one
    before; and the task, to drive to its end."""
    monkeypatch.setitem(resources.PLUGINS, TR, Building)
    monkeypatch.setattr(Building, 'looks', [])
    monkeypatch.setattr(Building, 'soon_at', soon_at)
    monkeypatch.setattr(Building, 'clock', [1000.0])
    monkeypatch.setattr(rt.time, 'monotonic', lambda: Building.clock[0])
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    gen = rt.apply_resource(run, 'a')
    waits = []
    for _look in range(4):
        waits.append(next(gen))
        Building.clock[0] += 10.0
    return waits, gen


def test_a_look_that_saw_a_sibling_move_is_followed_soon(make_run, monkeypatch):
    waits, gen = _building_waits(make_run, monkeypatch, (3,))
    # the first wait, then two grown with the build's age, then a short one
    assert waits[1] > 1.0 and waits[2] > 1.0
    assert waits[3] <= rt.FIRST_POLL * 2
    assert Building.looks == [False, False, False]   # reset before every look
    row, _polls = drive(gen)
    assert row.status == 'COMPLETE' and Building.looks == [False, False, False, False]


def test_never_two_short_waits_in_a_row(make_run, monkeypatch):
    waits, _gen = _building_waits(make_run, monkeypatch, (1, 2, 3))
    assert waits[1] <= rt.FIRST_POLL * 2 and waits[2] > 1.0 and waits[3] <= rt.FIRST_POLL * 2


class Later(TestResource):
    """A create that owes work after the object is usable (a Neutron object's marks)."""
    calls = []
    fail = False

    def create_later(self, ctx):
        def later():
            Later.calls.append(ctx.physical_id)
            if Later.fail:
                raise CloudConflict('tags refused')
        return later

    def needs_replace_failed(self, ctx):
        return False          # the object is fine: only its marks are missing


def _until_release(gen):
    """Step a task until it releases its dependents; the steps before it."""
    steps = []
    while True:
        step = next(gen)
        if step is RELEASE:
            return steps
        steps.append(step)


@pytest.fixture
def later(monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, TR, Later)
    monkeypatch.setattr(Later, 'calls', [])
    monkeypatch.setattr(Later, 'fail', False)
    return Later


def test_deferred_work_runs_after_the_resource_is_complete_and_released(make_run, later):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    gen = rt.apply_resource(run, 'a')
    _until_release(gen)
    row = run.store.resources(run.stack['id'])[0]
    # COMPLETE, published and its event out before the deferred call; the row says it is owed
    assert row.status == 'COMPLETE' and row.data[UNFINISHED] is True
    assert run.sd.resource_data['a']['reference_id'] == row.physical_id
    assert run.log.events[-1]['resource_status'] == 'COMPLETE' and later.calls == []
    # a dependent, started by the release, reads an attribute the row had not cached
    run._keep(row.uuid, {'read_meanwhile': 'x'})
    result, _polls = drive(gen)
    assert later.calls == [row.physical_id]
    row = run.store.resources(run.stack['id'])[0]
    assert UNFINISHED not in (row.data or {}) and result.status == 'COMPLETE'
    assert row.attrs['read_meanwhile'] == 'x'      # not written over by the finish
    assert [e['resource_status'] for e in run.log.events] == ['IN_PROGRESS', 'COMPLETE']


def test_a_run_killed_after_release_is_finished_by_the_next(make_run, later):
    text = 'resources:\n  a: {type: OS::Heat::TestResource}\n'
    run, _graph = make_run(text)
    gen = rt.apply_resource(run, 'a')
    _until_release(gen)
    gen.close()                                  # killed before the deferred call
    run2, _graph = make_run(text, store=run.store)
    drive(rt.apply_resource(run2, 'a'))
    decision = run2.decisions['a']
    assert decision.action == 'update' and decision.reason == 'its create is unfinished'
    row = run2.store.resources(run2.stack['id'])[0]
    assert later.calls == [row.physical_id] and UNFINISHED not in (row.data or {})
    assert (row.action, row.status) == ('UPDATE', 'COMPLETE')
    run3, _graph = make_run(text, store=run.store)
    assert drive(rt.apply_resource(run3, 'a'))[0].action == 'keep'


def test_a_failed_deferred_call_fails_the_resource_and_is_tried_again(make_run, later):
    text = 'resources:\n  a: {type: OS::Heat::TestResource}\n'
    run, _graph = make_run(text)
    later.fail = True
    gen = rt.apply_resource(run, 'a')
    _until_release(gen)
    with pytest.raises(CloudConflict):
        drive(gen)
    row = run.store.resources(run.stack['id'])[0]
    assert (row.action, row.status) == ('CREATE', 'FAILED')
    assert row.status_reason == 'Conflict: resources.a: tags refused'
    assert row.data[UNFINISHED] is True
    later.fail = False
    run2, _graph = make_run(text, store=run.store)
    drive(rt.apply_resource(run2, 'a'))
    assert run2.decisions['a'].action == 'update' and len(later.calls) == 2
    row = run2.store.resources(run2.stack['id'])[0]
    assert row.status == 'COMPLETE' and UNFINISHED not in (row.data or {})


def test_a_replacement_does_its_deferred_work_before_it_is_published(make_run, later):
    old = 'resources:\n  a: {type: OS::Heat::TestResource, properties: {value: x, update_replace: true}}\n'
    run, _graph = make_run(old)
    drive(rt.apply_resource(run, 'a'))
    run2, _graph = make_run(old.replace('value: x', 'value: y'), store=run.store)
    steps = []
    gen = rt.apply_resource(run2, 'a')
    try:
        while True:
            steps.append(next(gen))
    except StopIteration:
        pass
    decision = run2.decisions['a']
    # dependents move to the new one only when _replace publishes it, after its marks
    assert RELEASE not in steps and decision.action == 'replace' and len(later.calls) == 2
    new = run2.current('a')
    assert new.status == 'COMPLETE' and UNFINISHED not in (new.data or {})


class Flaky(TestResource):
    """An object that goes to ERROR while building the first ``errors`` times
    (ResourceInError), then builds; it records creates and deletes."""
    errors = 1
    calls = []

    def create(self, ctx):
        Flaky.calls.append(('create', ctx.physical_id))
        return 'obj-%d' % sum(1 for c in Flaky.calls if c[0] == 'create')

    def check_create_complete(self, ctx):
        if Flaky.errors:
            Flaky.errors -= 1
            ctx.in_error('ERROR', 'No valid host was found.')
        return True

    def delete(self, ctx):
        Flaky.calls.append(('delete', ctx.physical_id))

    def check_delete_complete(self, ctx):
        return True


def _flaky(monkeypatch, make_run, errors, limit=None):
    monkeypatch.setitem(resources.PLUGINS, TR, Flaky)
    monkeypatch.setattr(Flaky, 'errors', errors)
    monkeypatch.setattr(Flaky, 'calls', [])
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource}\n')
    if limit is not None:
        run.action_retry_limit = limit
    return run


def _waits(gen):
    """Run a task to its end; returns (value, the waits it yielded of 2 s or more)."""
    waits = []
    try:
        while True:
            step = next(gen)
            if isinstance(step, float) and step >= 2:
                waits.append(step)
    except StopIteration as stop:
        return stop.value, waits


def test_an_object_gone_to_error_is_deleted_and_made_again_as_heat_does(monkeypatch, make_run):
    run = _flaky(monkeypatch, make_run, errors=2)
    row, waits = _waits(rt.apply_resource(run, 'a'))
    assert Flaky.calls == [('create', None), ('delete', 'obj-1'), ('create', None),
                           ('delete', 'obj-2'), ('create', None)]
    assert 2 <= waits[0] < 4 and 4 <= waits[1] < 6            # 2**n s and up to 2 more
    assert (row.status, row.physical_id) == ('COMPLETE', 'obj-3')
    stored = run.store.resources(run.stack['id'])
    assert [(r.physical_id, r.status) for r in stored] == [('obj-3', 'COMPLETE')]
    failed = 'ResourceInError: resources.a: Went to status ERROR due to "No valid host was found."'
    assert [(e['resource_action'], e['resource_status'], e['physical_resource_id'])
            for e in run.log.events] == [
        ('CREATE', 'IN_PROGRESS', ''), ('CREATE', 'FAILED', 'obj-1'),
        ('DELETE', 'IN_PROGRESS', 'obj-1'), ('DELETE', 'COMPLETE', 'obj-1'),
        ('CREATE', 'IN_PROGRESS', ''), ('CREATE', 'FAILED', 'obj-2'),
        ('DELETE', 'IN_PROGRESS', 'obj-2'), ('DELETE', 'COMPLETE', 'obj-2'),
        ('CREATE', 'IN_PROGRESS', ''), ('CREATE', 'COMPLETE', 'obj-3')]
    assert run.log.events[1]['resource_status_reason'] == failed


def test_the_retries_are_bounded_and_the_first_failure_stands(monkeypatch, make_run):
    run = _flaky(monkeypatch, make_run, errors=5, limit=2)
    with pytest.raises(ResourceFailure, match='No valid host'):
        _waits(rt.apply_resource(run, 'a'))
    assert [c[0] for c in Flaky.calls] == ['create', 'delete', 'create', 'delete', 'create']
    row = run.store.resources(run.stack['id'])[0]
    # the last object is kept (FAILED): the next run replaces it
    assert (row.status, row.physical_id) == ('FAILED', 'obj-3')
    assert row.status_reason.startswith('ResourceInError: resources.a: Went to status ERROR')
    none = _flaky(monkeypatch, make_run, errors=1, limit=0)
    with pytest.raises(ResourceFailure):
        _waits(rt.apply_resource(none, 'a'))
    assert Flaky.calls == [('create', None)]


def test_only_an_object_in_error_is_made_again(make_run):
    # TestResource's failure is Heat's ValueError: not retried
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::TestResource, properties: {fail: true}}\n')
    with pytest.raises(ResourceFailure):
        drive(rt.apply_resource(run, 'a'))
    assert [(e['resource_action'], e['resource_status']) for e in run.log.events] == [
        ('CREATE', 'IN_PROGRESS'), ('CREATE', 'FAILED')]


class Late(Flaky):
    """What a dead run asked for appears late: find sees nothing at first, then the object that
    run's request made (it holds the port, so our own build goes to ERROR meanwhile)."""
    appears = []

    def find(self, ctx):
        Flaky.calls.append(('find', ctx.physical_name))
        return Late.appears.pop(0) if Late.appears else None


def test_a_create_resumed_from_a_dead_run_waits_for_its_request_and_looks_again(
        monkeypatch, make_run):
    run = _flaky(monkeypatch, make_run, errors=1)
    monkeypatch.setitem(resources.PLUGINS, TR, Late)
    monkeypatch.setattr(Late, 'appears', [None, 'dead-run-obj'])
    # the dead run wrote the row (IN_PROGRESS, its physical name) just now
    run.save(ResourceRow(uuid='u', stack_id=run.stack['id'], name='a', role='current', type=TR,
                         physical_name='st-a-xyz', action='CREATE', status='IN_PROGRESS'))
    gen = rt.apply_resource(run, 'a')
    first = next(gen)
    # RESUME_SETTLE after the dead run's record, before any look
    assert isinstance(first, float) and 9 <= first <= 10 and Flaky.calls == []
    row, _later = _waits(gen)
    assert Flaky.calls == [('find', 'st-a-xyz'), ('create', None), ('delete', 'obj-1'),
                           ('find', 'st-a-xyz')]
    assert (row.status, row.physical_id) == ('COMPLETE', 'dead-run-obj')


def test_a_failed_deployment_keeps_the_outputs_of_the_failed_run_not_the_last_good_one(make_run):
    """``stack failures list`` shows the failed run's deploy_stdout, stderr and status code (read
    from the row's attributes): an update that fails must not leave the good run's there."""
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    row = run.save(ResourceRow(uuid='u-d', stack_id=run.stack['id'], name='deploy', role='current',
                               type='OS::Heat::SoftwareDeployment', action='CREATE', status='IN_PROGRESS',
                               physical_id='dep-1', physical_name='st-deploy-x', properties={}))
    ctx = run.context(row, action='CREATE')
    ctx.data['outputs'] = {'deploy_stdout': 'configured for mars', 'deploy_stderr': '',
                           'deploy_status_code': 0}
    row = rt._complete(run, row, ctx, 'CREATE')
    assert row.attrs['deploy_stdout'] == 'configured for mars'      # kept when it settled
    row = run.save(row.replace(action='UPDATE', status='IN_PROGRESS'))
    ctx = run.context(row, action='UPDATE')
    ctx.data['outputs'] = {'deploy_stdout': '', 'deploy_stderr': 'cannot greet boom',
                           'deploy_status_code': 3}
    rt._failed(run, row, ctx, 'UPDATE', ResourceFailure(
        'Deployment to server failed: deploy_status_code : Deployment exited with non-zero status code: 3'))
    run.store.update_stack(run.stack['id'], status='FAILED')
    found = events.failures(run.store, run.store.stack_by_id(run.stack['id']))['st.deploy']
    assert (found['deploy_stdout'], found['deploy_stderr'], found['deploy_status_code']) == \
        ('', 'cannot greet boom', 3)
    assert found['status'] == 'UPDATE_FAILED'


def test_a_failed_action_drops_what_was_cached_of_the_object_before(make_run):
    run, _graph = make_run('resources:\n  a: {type: OS::Heat::None}\n')
    row = run.save(ResourceRow(uuid='u-t', stack_id=run.stack['id'], name='t', role='current', type=TR,
                               action='CREATE', status='COMPLETE', physical_id='t-1',
                               physical_name='st-t-x', properties={}, attrs={'output': 'old'}))
    ctx = run.context(row.replace(action='UPDATE', status='IN_PROGRESS'), action='UPDATE')
    rt._failed(run, row, ctx, 'UPDATE', ResourceFailure('went wrong'))
    assert run.store.resources(run.stack['id'])[0].attrs is None
