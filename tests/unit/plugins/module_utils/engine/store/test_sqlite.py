# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import sqlite3
import stat
import time
import uuid

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import sqlite as st
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackLocked, StoreError

CREATE = {'action': 'CREATE', 'status': 'IN_PROGRESS', 'definition': {'template': 'x'}}


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / 'sub' / 'stacks.sqlite')


@pytest.fixture
def store(path):
    s = Store(path)
    yield s
    s.close()


def test_file_and_directory_modes(path, store):
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700


def test_wal_files_and_a_permissive_umask_keep_0600(tmp_path):
    old = os.umask(0)        # a umask that would leave a new file world-writable
    try:
        path = str(tmp_path / 'open' / 's.sqlite')
        s = Store(path)
        s.create_stack(dict(CREATE, name='a'))
        made = os.listdir(os.path.dirname(path))
        assert 's.sqlite-wal' in made
        for name in made:
            assert stat.S_IMODE(os.stat(os.path.join(os.path.dirname(path), name)).st_mode) == 0o600, name
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
        s.close()
    finally:
        os.umask(old)


def test_default_path_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv('STACKERS_STORE', '/x/y.sqlite')
    assert st.default_store_path() == '/x/y.sqlite'
    monkeypatch.delenv('STACKERS_STORE')
    monkeypatch.setenv('XDG_STATE_HOME', str(tmp_path))
    assert st.default_store_path() == str(tmp_path / 'stackers' / 'stacks.sqlite')


def test_newer_schema_refused(path, store):
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match='newer'):
        Store(path)


def test_same_schema_reopens_and_keeps_data(path, store):
    store.lock('s', 'o', 60, create=dict(CREATE))
    store.close()
    again = Store(path)
    try:
        assert again.get_stack('s')['definition'] == {'template': 'x'}
    finally:
        again.close()


def test_unopenable_path_is_a_store_error(tmp_path):
    blocker = tmp_path / 'file'
    blocker.write_text('')
    with pytest.raises(StoreError, match='Cannot open'):
        Store(str(blocker / 'stacks.sqlite'))


def test_lock_creates_the_stack_once(store):
    row = store.lock('s', 'owner1', 60, create=dict(CREATE, id='sid'))
    assert row['id'] == 'sid' and row['name'] == 's'
    assert row['lock_owner'] == 'owner1' and row['lock_expiry'] > time.time() + 50
    assert row['definition'] == {'template': 'x'}           # JSON column decoded
    with pytest.raises(StackLocked, match='locked by another run'):
        store.lock('s', 'owner2', 60, create=dict(CREATE))
    # The loser did not create a second stack nor steal the lock.
    assert store.get_stack('s')['lock_owner'] == 'owner1'
    assert store.get_stack('s')['id'] == 'sid'


def test_two_stores_on_one_file_race_for_the_lock(path, store):
    other = Store(path)
    try:
        store.lock('s', 'a', 60, create=dict(CREATE))
        with pytest.raises(StackLocked):
            other.lock('s', 'b', 60, create=dict(CREATE))
    finally:
        other.close()


def test_lock_without_create_on_missing_stack(store):
    assert store.lock('nothing', 'o', 60) is None
    assert store.get_stack('nothing') is None


def test_same_owner_relocks(store):
    store.lock('s', 'o', 60, create=dict(CREATE))
    assert store.lock('s', 'o', 60)['lock_owner'] == 'o'


def test_expired_lock_taken_over(store):
    store.lock('s', 'old', -1, create=dict(CREATE))
    row = store.lock('s', 'new', 60)
    assert row['lock_owner'] == 'new'


def test_dead_owner_lock_taken_over(store):
    store.lock('s', 'old', 60, create=dict(CREATE))
    seen = []
    with pytest.raises(StackLocked):
        store.lock('s', 'new', 60, alive=lambda owner: seen.append(owner) or True)
    assert seen == ['old']
    assert store.lock('s', 'new', 60, alive=lambda owner: False)['lock_owner'] == 'new'


def test_refresh_and_unlock_only_by_the_owner(store):
    sid = store.lock('s', 'o', 1, create=dict(CREATE))['id']
    first = store.get_stack('s')['lock_expiry']
    store.refresh_lock(sid, 'intruder', 600)
    assert store.get_stack('s')['lock_expiry'] == first
    store.refresh_lock(sid, 'o', 600)
    assert store.get_stack('s')['lock_expiry'] > first + 500
    store.unlock(sid, 'intruder')
    assert store.get_stack('s')['lock_owner'] == 'o'
    store.unlock(sid, 'o')
    row = store.get_stack('s')
    assert row['lock_owner'] is None and row['lock_expiry'] is None
    assert store.lock('s', 'other', 60)['lock_owner'] == 'other'


def test_update_stack_json_and_unknown_fields(store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    store.update_stack(sid, outputs=[{'k': 1}], tags=['a'], status='COMPLETE')
    row = store.stack_by_id(sid)
    assert row['outputs'] == [{'k': 1}] and row['tags'] == ['a'] and row['status'] == 'COMPLETE'
    with pytest.raises(StoreError):
        store.update_stack(sid, bogus=1)
    with pytest.raises(StoreError):
        store.update_stack(sid, id='other')


def _row(sid, name, **kw):
    row = dict(uuid=str(uuid.uuid4()), stack_id=sid, name=name, role='current',
               type='OS::Heat::None')
    row.update(kw)
    return ResourceRow(**row)


def test_resource_rows_round_trip_json(store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    props = {'a': [1, {'b': None}], 'c': 'd', 'n': 1.5, 't': True}
    saved = store.save_resource(_row(sid, 'r', properties=props, data={'x': 'y'},
                                     requires=['q'], metadata={'m': [1]}))
    assert saved.uuid and saved.seq and saved.created_time
    rows = store.resources(sid)
    assert len(rows) == 1
    row = rows[0]
    assert row.properties == props and row.data == {'x': 'y'}
    assert row.requires == ['q'] and row.metadata == {'m': [1]}
    assert row.attrs is None and row.physical_id is None
    # Saving again replaces (same uuid), never duplicates.
    store.save_resource(row.replace(physical_id='pid'))
    rows = store.resources(sid)
    assert len(rows) == 1 and rows[0].physical_id == 'pid'
    assert rows[0].seq == row.seq
    # A cache written is not a change of the resource: its updated_time stays.
    kept = rows[0].replace(attrs={'a': 1}, updated_time='2020-01-01T00:00:00Z')
    store.save_resource(kept, touch=False)
    assert store.resources(sid)[0].updated_time == '2020-01-01T00:00:00Z'
    store.save_resource(kept)
    assert store.resources(sid)[0].updated_time != '2020-01-01T00:00:00Z'


def test_resources_ordered_and_roles(store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    a = store.save_resource(_row(sid, 'a'))
    b = store.save_resource(_row(sid, 'b'))
    c = store.save_resource(_row(sid, 'c', role='new'))
    assert [r.name for r in store.resources(sid)] == ['a', 'b', 'c']
    assert [r.name for r in store.resources(sid, roles=('new',))] == ['c']
    store.set_roles([(a.uuid, 'old'), (c.uuid, 'current')])
    roles = dict((r.name, r.role) for r in store.resources(sid))
    assert roles == {'a': 'old', 'b': 'current', 'c': 'current'}
    store.delete_resource(b.uuid)
    assert [r.name for r in store.resources(sid)] == ['a', 'c']


@pytest.fixture(params=[True, False], ids=['returning', 'read-back'])
def returning(request, monkeypatch):
    """Both ways an event's seq comes back: RETURNING (SQLite 3.35+) and the read by id."""
    if request.param and not st._RETURNING:
        pytest.skip('this SQLite (%s) has no RETURNING' % sqlite3.sqlite_version)
    monkeypatch.setattr(st, '_RETURNING', request.param)
    return request.param


def test_events_ordered_with_seq(store, returning):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    other = store.lock('t', 'o', 60, create=dict(CREATE))['id']
    made = [store.add_event(sid, {'resource_name': 'r%d' % i, 'resource_status': 'X'})
            for i in range(5)]
    store.add_event(other, {'resource_name': 'elsewhere'})
    assert [e['seq'] for e in made] == [1, 2, 3, 4, 5]
    assert all(e['id'] and e['event_time'] for e in made)
    events = store.events(sid)
    assert [e['resource_name'] for e in events] == ['r0', 'r1', 'r2', 'r3', 'r4']
    assert [e['seq'] for e in store.events(sid, after=3)] == [4, 5]
    assert [e['seq'] for e in store.events(other)] == [1]


def test_two_writers_of_one_file_never_share_an_event_seq(tmp_path, returning):
    # two Store objects on one file stand for two processes (a run and a
    # signal): each insert takes the next seq in the same statement
    path = str(tmp_path / 's.sqlite')
    first, second = Store(path), Store(path)
    made = []
    for i in range(6):
        made.append((first if i % 2 else second).add_event('sid', {'resource_name': 'r%d' % i}))
    assert [e['seq'] for e in made] == [1, 2, 3, 4, 5, 6]
    assert [e['resource_name'] for e in first.events('sid')] == ['r%d' % i for i in range(6)]
    # each insert committed when add_event returned: a reader on its own connection sees it
    reader = sqlite3.connect(path)
    assert reader.execute('SELECT COUNT(*) FROM events').fetchone()[0] == 6
    reader.close()
    assert not first._db.in_transaction and not second._db.in_transaction


def test_delete_stack_removes_everything_of_that_stack_only(store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    keep = store.lock('t', 'o', 60, create=dict(CREATE))['id']
    for stack_id in (sid, keep):
        store.save_resource(_row(stack_id, 'r'))
        store.add_event(stack_id, {'resource_name': 'r'})
    store.delete_stack(sid)
    assert store.get_stack('s') is None and store.stack_by_id(sid) is None
    assert store.resources(sid) == [] and store.events(sid) == []
    assert len(store.resources(keep)) == 1 and len(store.events(keep)) == 1
    # The name is free again.
    assert store.lock('s', 'x', 60, create=dict(CREATE))['id'] != sid


def test_failed_transaction_rolls_back(store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']

    def boom(db):
        db.execute("UPDATE stacks SET status='BROKEN' WHERE id=?", (sid,))
        raise RuntimeError('x')
    with pytest.raises(RuntimeError):
        store._tx(boom)
    assert store.get_stack('s')['status'] == 'IN_PROGRESS'
    # and the store is still usable
    store.update_stack(sid, status='COMPLETE')
    assert store.get_stack('s')['status'] == 'COMPLETE'


def test_a_row_written_by_an_earlier_version_reads_and_writes_back_the_same(store):
    """The columns and their JSON are those of the stores already on disk."""
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    cols = ('uuid', 'stack_id', 'name', 'role', 'type', 'physical_name', 'physical_id',
            'reference_id', 'action', 'status', 'status_reason', 'properties', 'metadata',
            'attrs', 'data', 'secret_data', 'requires', 'created_time', 'updated_time', 'seq')
    old = ('u1', sid, 'r', 'current', 'OS::Heat::None', 'st-r-x', 'pid', 'ref', 'CREATE',
           'COMPLETE', 'state changed', '{"a": [1, {"b": null}]}', None, '{"show": {}}',
           '{"deletion_policy": "Retain"}', None, '["q"]', '2020-01-01T00:00:00Z',
           '2020-01-01T00:00:00Z', 7)
    db = sqlite3.connect(store.path)
    db.execute('INSERT INTO resources (%s) VALUES (%s)' % (','.join(cols), ','.join('?' * 20)),
               old)
    db.commit()
    row = store.resources(sid)[0]
    assert row == ResourceRow(uuid='u1', stack_id=sid, name='r', role='current',
                              type='OS::Heat::None', physical_name='st-r-x', physical_id='pid',
                              reference_id='ref', action='CREATE', status='COMPLETE',
                              status_reason='state changed', properties={'a': [1, {'b': None}]},
                              attrs={'show': {}}, data={'deletion_policy': 'Retain'},
                              requires=['q'], created_time='2020-01-01T00:00:00Z',
                              updated_time='2020-01-01T00:00:00Z', seq=7)
    store.save_resource(row, touch=False)
    assert db.execute('SELECT %s FROM resources' % ','.join(cols)).fetchone() == old
    db.close()


def test_commits_are_not_fsynced_one_by_one(store):
    # WAL with synchronous=NORMAL: an fsync per commit cost ~2.5 ms of wall
    # time under the store's lock, at ~6 writes a resource
    assert store._db.execute('PRAGMA journal_mode').fetchone()[0] == 'wal'
    assert store._db.execute('PRAGMA synchronous').fetchone()[0] == 1    # NORMAL


def test_a_killed_process_loses_no_committed_row(path):
    import subprocess
    import sys
    code = ('import os, sys; sys.path[:0] = %r\n'
            'from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite '
            'import Store\n'
            'from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records '
            'import ResourceRow\n'
            's = Store(%r)\n'
            'sid = s.lock("k", "o", 60, create={"action": "CREATE"})["id"]\n'
            's.save_resource(ResourceRow(uuid="u1", stack_id=sid, name="r", role="current", '
            'physical_id="p1"))\n'
            'os.kill(os.getpid(), 9)\n' % (sys.path, path))
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, timeout=60, check=False)
    assert proc.returncode == -9, proc.stderr
    again = Store(path)
    try:
        rows = again.resources(again.get_stack('k')['id'])
        assert [(r.uuid, r.physical_id) for r in rows] == [('u1', 'p1')]
    finally:
        again.close()


def test_stacks_lists_every_stack_nested_ones_too(store):
    top = store.lock('top', 'me', 60, create=dict(CREATE, created_time='2026-01-01T00:00:01Z'))
    store.create_stack({'name': 'top-child', 'parent_id': top['id'], 'parent_resource': 'r',
                        'created_time': '2026-01-01T00:00:02Z'})
    assert [(s['name'], s['parent_id']) for s in store.stacks()] == [('top', None), ('top-child', top['id'])]
    assert store.stacks()[0]['definition'] == {'template': 'x'}


def test_hook_states_change_in_one_transaction_and_an_older_store_gains_the_column(path, store):
    row = store.lock('s', 'o', 60, create=dict(CREATE))
    assert row['hooks'] is None
    seen = store.change_hooks(row['id'], lambda h: dict(h, a={'pre-create': 'pending'}))
    assert seen == {'a': {'pre-create': 'pending'}}
    store.change_hooks(row['id'], lambda h: dict(h, b={'post-create': 'cleared'}))
    assert store.get_stack('s')['hooks'] == {'a': {'pre-create': 'pending'},
                                             'b': {'post-create': 'cleared'}}
    store.change_hooks(row['id'], lambda h: {})
    assert store.get_stack('s')['hooks'] is None
    assert store.change_hooks('no-such-stack', lambda h: {'x': {}}) is None
    store.close()
    db = sqlite3.connect(path)
    db.execute('ALTER TABLE stacks DROP COLUMN hooks')
    db.commit()
    db.close()
    again = Store(path)
    try:
        assert again.get_stack('s')['hooks'] is None
        again.change_hooks(row['id'], lambda h: {'a': {'pre-delete': 'pending'}})
        assert again.get_stack('s')['hooks'] == {'a': {'pre-delete': 'pending'}}
    finally:
        again.close()


def _big_row(sid, n):
    return ResourceRow(uuid='big-%d' % n, stack_id=sid, name='r%d' % n, role='current',
                       physical_id='p%d' % n, data={'blob': 'x' * 20000})


def test_a_full_disk_during_a_write_loses_no_earlier_record(path, store):
    """SQLite's own limit on the file's pages answers SQLITE_FULL exactly as a full disk does."""
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    store.save_resource(ResourceRow(uuid='u1', stack_id=sid, name='early', role='current', physical_id='p1'))
    store.add_event(sid, {'resource_name': 'early', 'resource_status': 'COMPLETE'})
    pages = store._db.execute('PRAGMA page_count').fetchone()[0]
    store._db.execute('PRAGMA max_page_count=%d' % (pages + 2))
    with pytest.raises(StoreError, match='full'):
        for n in range(50):
            store.save_resource(_big_row(sid, n))
    with pytest.raises(StoreError, match='full'):
        store.add_event(sid, {'resource_name': 'late', 'resource_status_reason': 'y' * 50000})
    # the store goes on taking what fits, and a fresh reader sees every earlier record
    store.update_stack(sid, status='FAILED')
    again = Store(path)
    try:
        assert again.get_stack('s')['status'] == 'FAILED'
        early = [r for r in again.resources(sid) if r.uuid == 'u1']
        assert early and early[0].physical_id == 'p1' and early[0].role == 'current'
        assert [e['resource_name'] for e in again.events(sid)] == ['early']
    finally:
        again.close()


class _CommitRefused(object):
    """The store's connection, with COMMIT refused once as a full disk refuses it."""

    def __init__(self, db):
        self.db = db
        self.refuse = True

    def execute(self, sql, *args):
        if sql == 'COMMIT' and self.refuse:
            self.refuse = False
            raise sqlite3.OperationalError('database or disk is full')
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_refused_commit_keeps_nothing_of_its_transaction_and_the_store_goes_on(path, store):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    store._db = _CommitRefused(store._db)
    with pytest.raises(StoreError, match='full'):
        store.update_stack(sid, status='HALF')
    assert store.get_stack('s')['status'] == 'IN_PROGRESS'
    store.update_stack(sid, status='COMPLETE')      # no transaction left open behind it
    again = Store(path)
    try:
        assert again.get_stack('s')['status'] == 'COMPLETE'
    finally:
        again.close()


@pytest.mark.parametrize('damage, message', [
    (lambda p: open(p, 'wb').close(), 'empty'),
    (lambda p: open(p, 'r+b').truncate(os.path.getsize(p) // 2), 'truncated'),
    (lambda p: open(p, 'wb').write(b'not a database at all' * 20), 'not an SQLite database'),
])
def test_a_damaged_store_is_an_error_never_no_stack(path, store, damage, message):
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    for n in range(5):
        store.save_resource(_big_row(sid, n))
    store.close()
    for suffix in ('-wal', '-shm'):      # as a copy of the file alone would be
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    damage(path)
    with pytest.raises(StoreError, match=message) as err:
        Store(path)
    assert path in str(err.value) and 'backup' in str(err.value)


def test_a_deleted_stack_leaves_its_end_for_a_day_a_nested_one_under_its_top(tmp_path, monkeypatch):
    from_store = Store(str(tmp_path / 's.sqlite'))
    try:
        top = from_store.lock('gone', 'me', 60, create={'action': 'DELETE', 'status': 'COMPLETE'})
        child = from_store.create_stack({'name': 'gone-x', 'parent_id': top['id'], 'parent_resource': 'x',
                                         'action': 'DELETE', 'status': 'COMPLETE', 'secrets': 'sealed'})
        grandchild = from_store.create_stack({'name': 'gone-x-y', 'parent_id': child['id'],
                                              'parent_resource': 'y', 'action': 'DELETE', 'status': 'COMPLETE'})
        event = from_store.add_event(top['id'], {'resource_name': 'gone', 'resource_action': 'DELETE',
                                                 'resource_status': 'COMPLETE'})
        below = from_store.add_event(grandchild['id'], {'resource_name': 'v', 'resource_action': 'DELETE',
                                                        'resource_status': 'COMPLETE'})
        from_store.delete_stack(grandchild['id'])
        from_store.delete_stack(child['id'])
        from_store.delete_stack(top['id'])
        kept = from_store.deleted(top['id'])
        assert (kept['stack']['name'], kept['stack']['action'], kept['stack']['status']) == (
            'gone', 'DELETE', 'COMPLETE')
        assert [e['id'] for e in kept['events']] == [event['id']]
        # a nested stack's trace is read with its tree's, whatever its depth
        assert from_store.deleted(child['id']) is None
        nested = from_store.nested_traces(top['id'])
        assert sorted(nested) == sorted([child['id'], grandchild['id']])
        assert (nested[grandchild['id']]['stack']['parent_id'],
                nested[grandchild['id']]['stack']['parent_resource']) == (child['id'], 'y')
        assert [e['id'] for e in nested[grandchild['id']]['events']] == [below['id']]
        assert 'secrets' not in nested[child['id']]['stack']       # status and events only
        assert from_store.events(top['id']) == [] and from_store.get_stack('gone') is None
        assert from_store.nested_traces('another') == {}
        later = time.time() + st.TRACE_LIFE + 1
        monkeypatch.setattr(st.time, 'time', lambda: later)
        assert from_store.deleted(top['id']) is None and from_store.nested_traces(top['id']) == {}
        # the next traced delete drops them from the file
        again = from_store.lock('next', 'me', 60, create={'action': 'DELETE', 'status': 'COMPLETE'})
        from_store.delete_stack(again['id'])
        assert [r[0] for r in from_store._db.execute('SELECT id FROM deleted')] == [again['id']]
    finally:
        from_store.close()


def test_a_nested_stack_whose_top_is_gone_or_a_moved_one_leaves_nothing(store):
    top = store.lock('t', 'me', 60, create={'action': 'CREATE', 'status': 'COMPLETE'})
    child = store.create_stack({'name': 't-x', 'parent_id': top['id'], 'parent_resource': 'x'})
    moved = store.create_stack({'name': 't-m', 'parent_id': top['id'], 'parent_resource': 'm'})
    store.delete_stack(moved['id'], trace=False)
    store.delete_stack(top['id'])
    store.delete_stack(child['id'])      # its top-level stack first: no follower can reach it
    assert store.nested_traces(top['id']) == {}


def test_a_store_written_before_nested_traces_opens_and_keeps_them(path, store):
    top = store.lock('t', 'me', 60, create={'action': 'CREATE', 'status': 'COMPLETE'})
    old = store.lock('old', 'me', 60, create={'action': 'DELETE', 'status': 'COMPLETE'})
    store.delete_stack(old['id'])
    store.close()
    db = sqlite3.connect(path)           # the deleted table as the collection first wrote it
    db.execute('DROP INDEX deleted_root')
    db.execute('ALTER TABLE deleted DROP COLUMN root_id')
    db.commit()
    db.close()
    again = Store(path)
    try:
        assert again.deleted(old['id'])['stack']['name'] == 'old'     # a trace written before
        child = again.create_stack({'name': 't-x', 'parent_id': top['id'], 'parent_resource': 'x'})
        again.delete_stack(child['id'])
        assert list(again.nested_traces(top['id'])) == [child['id']]
    finally:
        again.close()


def test_a_cancel_is_asked_of_the_locks_holder_only_and_goes_with_its_unlock(path, store):
    sid = store.lock('s', 'run-1', 60, create=dict(CREATE))['id']
    canceller = Store(path)     # another process: the same file, another store
    assert canceller.lock_holder(sid)[0] == 'run-1'
    assert not canceller.request_cancel(sid, 'run-0', True)    # not the holder: nothing asked
    assert store.cancel_request(sid, 'run-1') is None
    assert canceller.request_cancel(sid, 'run-1', False)
    assert store.cancel_request(sid, 'run-1')['rollback'] is False
    assert store.cancel_request(sid, 'run-2') is None          # addressed to run-1 alone
    assert 'cancel' not in store.stack_by_id(sid)              # never one of the stack's fields
    store.unlock(sid, 'run-1')
    assert canceller.lock_holder(sid) is None
    assert not canceller.request_cancel(sid, 'run-1', True)    # the run ended: too late
    store.lock('s', 'run-2', 60)
    assert store.cancel_request(sid, 'run-2') is None


def test_an_old_store_gets_the_cancel_column(tmp_path):
    path = str(tmp_path / 'old.sqlite')
    db = sqlite3.connect(path)
    db.executescript(st._SCHEMA.replace(', cancel TEXT', ''))
    db.close()
    store = Store(path)
    sid = store.lock('s', 'o', 60, create=dict(CREATE))['id']
    assert store.request_cancel(sid, 'o', True) and store.cancel_request(sid, 'o')['rollback']


def _snapshot(stack_id, name='s1', **kw):
    record = {'id': str(uuid.uuid4()), 'stack_id': stack_id, 'name': name, 'action': 'CREATE',
              'status': 'COMPLETE', 'status_reason': 'done', 'creation_time': st.now_iso(),
              'data': {'resources': {'r': {'resource_data': {'backup_id': 'b'}}}},
              'inputs': {'template': 'x', 'parameters': {}}, 'secrets': 'token'}
    record.update(kw)
    return record


def test_snapshots_round_trip_and_go_with_their_stack(store):
    stack = store.lock('st', 'o', 60, create={'action': 'CREATE', 'status': 'COMPLETE'})
    other = store.lock('other', 'o', 60, create={'action': 'CREATE', 'status': 'COMPLETE'})
    first = store.save_snapshot(_snapshot(stack['id']))
    store.save_snapshot(_snapshot(other['id']))
    assert store.snapshots(stack['id']) == [first]
    store.save_snapshot(dict(first, status='FAILED'))
    assert [s['status'] for s in store.snapshots(stack['id'])] == ['FAILED']
    store.delete_stack(stack['id'])
    assert store.snapshots(stack['id']) == [] and len(store.snapshots(other['id'])) == 1
    store.delete_snapshot(store.snapshots(other['id'])[0]['id'])
    assert store.snapshots(other['id']) == []


def test_a_store_written_before_snapshots_gets_their_table(tmp_path):
    path = str(tmp_path / 'old.sqlite')
    db = sqlite3.connect(path)
    db.executescript(st._SCHEMA.split('CREATE TABLE IF NOT EXISTS snapshots', maxsplit=1)[0])
    db.close()
    store = Store(path)
    try:
        stack = store.lock('st', 'o', 60, create={'action': 'CREATE', 'status': 'COMPLETE'})
        assert store.save_snapshot(_snapshot(stack['id'])) in store.snapshots(stack['id'])
    finally:
        store.close()
