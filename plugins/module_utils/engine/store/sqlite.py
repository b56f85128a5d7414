# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack record in an embedded SQLite file.

Every state change is its own committed transaction, written the moment it
happens (the intended physical name before the create call, the physical
id as soon as the cloud gives it), so a run killed at any point leaves a
record the next run can converge from.  One connection is shared by the
engine's worker threads behind a lock: writes are tiny and SQLite
serialises writers anyway.  WAL mode lets a second process read (and be
refused by the stack lock) while a run writes.

Commits are not fsynced one by one (``synchronous=NORMAL``, SQLite's
advice for WAL): a killed run (SIGKILL, an Ansible timeout, a crash of
Python) loses nothing committed; only a crash of the machine itself may
lose the last commits, which the next run meets as it meets a run killed
just before them (the stack marks and the physical name find what the
cloud made).  An fsync per commit would hold the store's lock for a disk
flush at each of a resource's several writes.  A row written by one
statement is written without BEGIN/COMMIT: one statement is a
transaction of its own in SQLite.

Stacks and events are plain dicts; resources are ``records.ResourceRow``s
(converted here, at the boundary); JSON columns are decoded.  Secrets
never reach the file in clear: ``secrets.py`` encrypts what is stored and masks what is
compared.

A deleted stack leaves a trace for a day (table ``deleted``, dropped by the
next delete after that): its last status and its events, no secret.  A
top-level stack's is read by its id (``deleted``), as Heat shows a deleted
stack; a nested stack's, deleted while its top-level stack lives on or
before that one's delete ends, under its top-level stack's id
(``nested_traces``), so a follower with a nested depth (read/follow.py)
still prints its events.  A stack moved to another store leaves none.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import sqlite3
import threading
import time
import uuid

from ...errors import StackLocked, StoreError
from . import sqlite_file as store_file
from .records import ResourceRow
from .secrets import Vault

SCHEMA_VERSION = 1
# INSERT ... RETURNING came with SQLite 3.35 (2021)
_RETURNING = sqlite3.sqlite_version_info >= (3, 35, 0)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS stacks (
    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, action TEXT, status TEXT,
    status_reason TEXT, created_time TEXT, updated_time TEXT,
    definition TEXT, previous TEXT, secrets TEXT, outputs TEXT, tags TEXT,
    timeout_mins INTEGER, disable_rollback INTEGER, salt TEXT,
    lock_owner TEXT, lock_expiry REAL, parent_id TEXT, parent_resource TEXT, hooks TEXT,
    project_id TEXT, shown TEXT, cancel TEXT);
CREATE TABLE IF NOT EXISTS resources (
    uuid TEXT PRIMARY KEY, stack_id TEXT NOT NULL, name TEXT NOT NULL,
    role TEXT NOT NULL, type TEXT, physical_name TEXT, physical_id TEXT,
    reference_id TEXT, action TEXT, status TEXT, status_reason TEXT,
    properties TEXT, metadata TEXT, attrs TEXT, data TEXT, secret_data TEXT,
    requires TEXT, created_time TEXT, updated_time TEXT, seq INTEGER);
CREATE INDEX IF NOT EXISTS resources_stack ON resources (stack_id, name);
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, stack_id TEXT NOT NULL, seq INTEGER NOT NULL,
    resource_name TEXT, resource_type TEXT, physical_resource_id TEXT,
    resource_action TEXT, resource_status TEXT, resource_status_reason TEXT,
    event_time TEXT);
CREATE INDEX IF NOT EXISTS events_stack ON events (stack_id, seq);
CREATE TABLE IF NOT EXISTS deleted (
    id TEXT PRIMARY KEY, name TEXT, deleted_at REAL, record TEXT);
CREATE TABLE IF NOT EXISTS snapshots (
    id TEXT PRIMARY KEY, stack_id TEXT NOT NULL, name TEXT, action TEXT, status TEXT,
    status_reason TEXT, creation_time TEXT, data TEXT, inputs TEXT, secrets TEXT);
CREATE INDEX IF NOT EXISTS snapshots_stack ON snapshots (stack_id, creation_time);
"""

_JSON_STACK = ('definition', 'previous', 'outputs', 'tags', 'hooks', 'shown')
_JSON_RESOURCE = ('properties', 'metadata', 'attrs', 'data', 'requires')
_STACK_COLS = ('id', 'name', 'action', 'status', 'status_reason', 'created_time', 'updated_time',
               'definition', 'previous', 'secrets', 'outputs', 'tags', 'timeout_mins',
               'disable_rollback', 'salt', 'lock_owner', 'lock_expiry', 'parent_id',
               'parent_resource', 'hooks', 'project_id', 'shown')
# Columns added since schema 1 was first written: (table, column, type).
_ADDED = (('stacks', 'parent_id', 'TEXT'), ('stacks', 'parent_resource', 'TEXT'),
          ('stacks', 'hooks', 'TEXT'), ('stacks', 'project_id', 'TEXT'), ('stacks', 'shown', 'TEXT'),
          ('deleted', 'root_id', 'TEXT'), ('stacks', 'cancel', 'TEXT'))
_RESOURCE_COLS = ('uuid', 'stack_id', 'name', 'role', 'type', 'physical_name', 'physical_id',
                  'reference_id', 'action', 'status', 'status_reason', 'properties', 'metadata',
                  'attrs', 'data', 'secret_data', 'requires', 'created_time', 'updated_time', 'seq')
# A stack snapshot (Heat's ``stack snapshot``, engine/run/snapshot.py): Heat's
# fields, ``data`` as Heat's API shows it (no secret), ``inputs`` the stack's
# stored definition to restore (hidden values cut out, as ``definition``)
# and ``secrets`` the stack's hidden values, encrypted as the stack row's.
SNAPSHOT_COLS = ('id', 'stack_id', 'name', 'action', 'status', 'status_reason', 'creation_time',
                 'data', 'inputs', 'secrets')
_JSON_SNAPSHOT = ('data', 'inputs')
_EVENT_COLS = ('id', 'stack_id', 'seq', 'resource_name', 'resource_type', 'physical_resource_id',
               'resource_action', 'resource_status', 'resource_status_reason', 'event_time')


# What a deleted stack leaves (``deleted``): the stack as Heat shows a
# deleted one by id (DELETE_COMPLETE), its events, for a day; long enough
# for whoever follows its delete (read/follow.py) to see it end.  A nested
# stack's is kept too, under its top-level stack's id (``root_id``): it is
# deleted before its top-level stack's delete ends, and a follower with a
# nested depth must still print its DELETE events.  Nothing secret: the
# stack's status and events, which the store keeps in clear anyway.
TRACE_COLS = ('id', 'name', 'action', 'status', 'status_reason', 'created_time', 'updated_time',
              'parent_id', 'parent_resource', 'tags')
TRACE_LIFE = 86400

_SAVE_RESOURCE = 'INSERT OR REPLACE INTO resources (%s) VALUES (%s)' % (
    ','.join(_RESOURCE_COLS), ','.join('?' * len(_RESOURCE_COLS)))


def now_iso():
    """Heat's timestamp shape (UTC, seconds, no offset)."""
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())


def default_store_path():
    """``$STACKERS_STORE`` or ``~/.local/state/stackers/stacks.sqlite``
    (XDG state dir): per user, outside any project, survives reboots."""
    path = os.environ.get('STACKERS_STORE')
    if path:
        return path
    base = os.environ.get('XDG_STATE_HOME') or os.path.join(os.path.expanduser('~'), '.local',
                                                            'state')
    return os.path.join(base, 'stackers', 'stacks.sqlite')


# One encoder for every column: json.dumps with arguments builds a new
# JSONEncoder per call, and a create writes five JSON columns per save.
_ENCODER = json.JSONEncoder(sort_keys=True, default=str)


def _dumps(value):
    return None if value is None else _ENCODER.encode(value)


def _loads(text):
    return None if text is None else json.loads(text)


def _add_columns(db):
    """A store written before a column existed gets it (NULL in old rows):
    nested stacks brought parent_id, and a store must keep working across
    upgrades of the collection."""
    for table, column, kind in _ADDED:
        have = set(r[1] for r in db.execute('PRAGMA table_info(%s)' % table).fetchall())
        if column not in have:
            try:
                db.execute('ALTER TABLE %s ADD COLUMN %s %s' % (table, column, kind))
            except sqlite3.OperationalError:
                pass    # another process added it between the two statements


class Store(object):
    """The SQLite store; see module docstring."""

    # A write is done on this machine's disk (the scheduler may make it in its own thread).
    local_writes = True

    def __init__(self, path=None):
        self.path = path or default_store_path()
        directory = os.path.dirname(os.path.abspath(self.path))
        try:
            if not os.path.isdir(directory):
                os.makedirs(directory, mode=0o700)
            store_file.check(self.path)     # an empty or cut file is an error, not "no stack"
            # Made 0600 before SQLite opens it: its -wal and -shm files take
            # the database's mode, and nothing is ever readable by others,
            # not even between the create and a chmod.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute('PRAGMA journal_mode=WAL')
            self._db.execute('PRAGMA synchronous=NORMAL')
            self._db.execute('PRAGMA busy_timeout=30000')
            self._db.executescript(_SCHEMA)
            _add_columns(self._db)
            # after _add_columns: an old store's ``deleted`` has no root_id before it
            self._db.execute('CREATE INDEX IF NOT EXISTS deleted_root ON deleted (root_id)')
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                 (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError('The state store %s was written by a newer stackers.orchestration '
                                 '(schema %s)' % (self.path, row[0]))
        except (sqlite3.Error, OSError) as exc:
            raise StoreError('Cannot open the state store %s: %s' % (self.path, exc))
        try:
            os.chmod(self.path, 0o600)   # it holds stack data, some of it sensitive
        except OSError:
            pass
        self._lock = threading.RLock()
        self._seq = 0

    def close(self):
        with self._lock:
            self._db.close()

    def keep_version(self, stack_id):
        """A Swift store keeps each completed action's record; this file
        keeps only the latest."""

    def vault(self, user_secret=None):
        """What encrypts this store's secrets: the user's key, else a key
        file beside the store (secrets.py)."""
        return Vault.for_store(self.path, user_secret)

    # -- plumbing -----------------------------------------------------------
    def _tx(self, fn, immediate=False):
        with self._lock:
            try:
                self._db.execute('BEGIN IMMEDIATE' if immediate else 'BEGIN')
                try:
                    result = fn(self._db)
                except BaseException:
                    self._db.execute('ROLLBACK')
                    raise
                self._db.execute('COMMIT')
                return result
            except sqlite3.Error as exc:
                if self._db.in_transaction:   # a COMMIT refused (a full disk): nothing of it kept
                    self._db.execute('ROLLBACK')
                raise StoreError('State store %s: %s' % (self.path, exc))

    def _one(self, sql, values=()):
        """One write statement, its own transaction (autocommit)."""
        with self._lock:
            try:
                self._db.execute(sql, values)
            except sqlite3.Error as exc:
                raise StoreError('State store %s: %s' % (self.path, exc))

    @staticmethod
    def _row(cols, json_cols, values):
        if values is None:
            return None
        row = dict(zip(cols, values))
        for key in json_cols:
            row[key] = _loads(row[key])
        return row

    # -- stacks ---------------------------------------------------------------
    def get_stack(self, name):
        def read(db):
            return db.execute('SELECT %s FROM stacks WHERE name=?' % ','.join(_STACK_COLS),
                              (name,)).fetchone()
        return self._row(_STACK_COLS, _JSON_STACK, self._tx(read))

    def stack_by_id(self, stack_id):
        def read(db):
            return db.execute('SELECT %s FROM stacks WHERE id=?' % ','.join(_STACK_COLS),
                              (stack_id,)).fetchone()
        return self._row(_STACK_COLS, _JSON_STACK, self._tx(read))

    def update_stack(self, stack_id, **fields):
        for key in fields:
            if key not in _STACK_COLS or key == 'id':
                raise StoreError('unknown stack field %s' % key)
        values = [_dumps(v) if k in _JSON_STACK else v for k, v in fields.items()]

        def write(db):
            db.execute('UPDATE stacks SET %s WHERE id=?'
                       % ','.join('%s=?' % k for k in fields), values + [stack_id])
        self._tx(write)

    def change_hooks(self, stack_id, change):
        """Read, change and write the stack's hook states in one
        transaction (``change(hooks) -> hooks``): a run's steps pausing side
        by side, or a signal, never write over each other's."""
        def write(db):
            found = db.execute('SELECT hooks FROM stacks WHERE id=?', (stack_id,)).fetchone()
            if found is None:
                return None
            hooks = change(_loads(found[0]) or {})
            db.execute('UPDATE stacks SET hooks=? WHERE id=?', (_dumps(hooks or None), stack_id))
            return hooks
        return self._tx(write, immediate=True)

    def create_stack(self, fields):
        """Insert a stack row that needs no lock of its own (a nested stack:
        its top-level stack's lock covers it); returns it as stored."""
        fields = dict(fields)
        fields.setdefault('id', str(uuid.uuid4()))
        cols = [c for c in _STACK_COLS if c in fields]

        def write(db):
            db.execute('INSERT INTO stacks (%s) VALUES (%s)' % (','.join(cols), ','.join('?' * len(cols))),
                       [_dumps(fields[c]) if c in _JSON_STACK else fields[c] for c in cols])
        self._tx(write)
        return self.stack_by_id(fields['id'])

    def stacks(self):
        """Every stack row, nested ones included (``stack list``)."""
        def read(db):
            return db.execute('SELECT %s FROM stacks ORDER BY created_time, name'
                              % ','.join(_STACK_COLS)).fetchall()
        return [self._row(_STACK_COLS, _JSON_STACK, r) for r in self._tx(read)]

    def children(self, parent_id):
        """The nested stacks whose parent is ``parent_id``."""
        def read(db):
            return db.execute('SELECT %s FROM stacks WHERE parent_id=? ORDER BY created_time, name'
                              % ','.join(_STACK_COLS), (parent_id,)).fetchall()
        return [self._row(_STACK_COLS, _JSON_STACK, r) for r in self._tx(read)]

    def delete_stack(self, stack_id, trace=True):
        """Drop a stack's rows; the stack leaves its trace (see ``deleted``
        and ``nested_traces``) unless ``trace`` is False (a stack moved to
        another store).  Traces older than a day are dropped here."""
        record = self.trace(stack_id) if trace else None

        def write(db):
            if record is not None:
                db.execute('DELETE FROM deleted WHERE deleted_at<?', (time.time() - TRACE_LIFE,))
                db.execute('INSERT OR REPLACE INTO deleted (id, name, deleted_at, record, root_id) '
                           'VALUES (?,?,?,?,?)', (stack_id, record['stack']['name'], time.time(),
                                                  _dumps(record), record.get('root')))
            for table, col in (('events', 'stack_id'), ('resources', 'stack_id'),
                               ('snapshots', 'stack_id'), ('stacks', 'id')):
                db.execute('DELETE FROM %s WHERE %s=?' % (table, col), (stack_id,))
        self._tx(write)

    def trace(self, stack_id):
        """What the delete of stack ``stack_id`` leaves: ``{stack, events}``,
        and for a nested stack ``root``, the id of its top-level stack (None
        for an unknown stack, or a nested one whose top-level stack is gone
        already: no follower could reach it)."""
        stack = Store.stack_by_id(self, stack_id)
        if stack is None:
            return None
        record = {'stack': dict((k, stack.get(k)) for k in TRACE_COLS),
                  'events': Store.events(self, stack_id)}
        if stack.get('parent_id'):
            record['root'] = self._root_id(stack)
            if record['root'] is None:
                return None
        return record

    def _root_id(self, stack):
        seen = set()
        while stack is not None and stack.get('parent_id') and stack['id'] not in seen:
            seen.add(stack['id'])
            stack = Store.stack_by_id(self, stack['parent_id'])
        return None if stack is None or stack.get('parent_id') else stack['id']

    def deleted(self, stack_id):
        """The trace a deleted top-level stack left (``{stack, events}``, as
        ``trace`` made it), or None once it is older than a day.  A nested
        stack's is read with its tree's (``nested_traces``), as in Swift."""
        def read(db):
            return db.execute('SELECT record, deleted_at FROM deleted WHERE id=? AND root_id IS NULL',
                              (stack_id,)).fetchone()
        found = self._tx(read)
        if found is None or found[1] < time.time() - TRACE_LIFE:
            return None
        return _loads(found[0])

    def nested_traces(self, root_id):
        """{stack id: trace} of the nested stacks of top-level stack
        ``root_id`` (any depth) deleted in the last day."""
        def read(db):
            return db.execute('SELECT id, record FROM deleted WHERE root_id=? AND deleted_at>=? '
                              'ORDER BY deleted_at, id', (root_id, time.time() - TRACE_LIFE)).fetchall()
        return dict((found[0], _loads(found[1])) for found in self._tx(read))

    # -- the lock -------------------------------------------------------------
    def lock(self, name, owner, ttl, alive=None, create=None):
        """Take the lock of stack ``name`` for ``owner`` until now+ttl.

        When no stack of that name exists and ``create`` (a dict of stack
        fields) is given, the row is created already locked, in the same
        transaction: two first runs cannot both create it.  A lock held by
        another owner is taken over when it expired or ``alive(owner)`` says
        its process is gone; otherwise StackLocked.  Returns the stack row
        (None when it does not exist and nothing was created)."""
        def take(db):
            row = db.execute('SELECT id, lock_owner, lock_expiry FROM stacks WHERE name=?',
                             (name,)).fetchone()
            expiry = time.time() + ttl
            if row is None:
                if create is None:
                    return None
                fields = dict(create, name=name, lock_owner=owner, lock_expiry=expiry)
                fields.setdefault('id', str(uuid.uuid4()))
                cols = [c for c in _STACK_COLS if c in fields]
                sql = 'INSERT INTO stacks (%s) VALUES (%s)' % (','.join(cols), ','.join('?' * len(cols)))
                db.execute(sql, [_dumps(fields[c]) if c in _JSON_STACK else fields[c] for c in cols])
                return fields['id']
            stack_id, holder, until = row
            if holder and holder != owner and until and until > time.time() and not (
                    alive is not None and not alive(holder)):
                raise StackLocked(
                    'Stack "%s" is locked by another run (%s) until %s; it may be in progress. '
                    'Wait for it, or set lock_timeout to wait.'
                    % (name, holder, time.strftime('%H:%M:%S', time.localtime(until))))
            db.execute('UPDATE stacks SET lock_owner=?, lock_expiry=? WHERE id=?',
                       (owner, expiry, stack_id))
            return stack_id
        stack_id = self._tx(take, immediate=True)
        return None if stack_id is None else self.stack_by_id(stack_id)

    def refresh_lock(self, stack_id, owner, ttl):
        def write(db):
            db.execute('UPDATE stacks SET lock_expiry=? WHERE id=? AND lock_owner=?',
                       (time.time() + ttl, stack_id, owner))
        self._tx(write)

    def unlock(self, stack_id, owner):
        def write(db):
            db.execute('UPDATE stacks SET lock_owner=NULL, lock_expiry=NULL, cancel=NULL '
                       'WHERE id=? AND lock_owner=?', (stack_id, owner))
        self._tx(write)

    def lock_holder(self, stack_id):
        """(owner, lease's end) of the stack's lock, or None when free."""
        found = self._tx(lambda db: db.execute('SELECT lock_owner, lock_expiry FROM stacks WHERE id=?',
                                               (stack_id,)).fetchone())
        return (found[0], found[1] or 0) if found and found[0] else None

    # -- a cancel request ---------------------------------------------------------
    # Kept in the column ``cancel`` beside the lock and never among the stack's
    # fields (``_STACK_COLS``): it is addressed to one holder of the lock, which
    # reads it at its heartbeat, and it goes with that holder's unlock.  It is
    # written only where that holder still holds the lock, so a request never
    # reaches the run after it.
    def request_cancel(self, stack_id, owner, rollback):
        """Ask the run holding the lock as ``owner`` to cancel; False when
        it holds the lock no more."""
        request = _dumps({'owner': owner, 'rollback': bool(rollback), 'time': time.time()})

        def write(db):
            return db.execute('UPDATE stacks SET cancel=? WHERE id=? AND lock_owner=?',
                              (request, stack_id, owner)).rowcount
        return bool(self._tx(write, immediate=True))

    def cancel_request(self, stack_id, owner):
        """The cancel asked of ``owner``'s run ({'rollback': bool, ...}), or None."""
        found = self._tx(lambda db: db.execute('SELECT cancel FROM stacks WHERE id=?',
                                               (stack_id,)).fetchone())
        request = _loads(found[0]) if found and found[0] else None
        return request if request and request.get('owner') == owner else None

    # -- resources ------------------------------------------------------------
    def resources(self, stack_id, roles=None):
        def read(db):
            return db.execute('SELECT %s FROM resources WHERE stack_id=? ORDER BY seq'
                              % ','.join(_RESOURCE_COLS), (stack_id,)).fetchall()
        rows = [ResourceRow(**self._row(_RESOURCE_COLS, _JSON_RESOURCE, r))
                for r in self._tx(read)]
        return [r for r in rows if roles is None or r.role in roles]

    def resource_by_physical_id(self, physical_id):
        """The current row of any stack whose physical id is this, or None."""
        def read(db):
            return db.execute("SELECT %s FROM resources WHERE physical_id=? AND role='current' "
                              'ORDER BY seq LIMIT 1' % ','.join(_RESOURCE_COLS),
                              (physical_id,)).fetchone()
        found = self._tx(read)
        return ResourceRow(**self._row(_RESOURCE_COLS, _JSON_RESOURCE, found)) if found else None

    def save_resource(self, row, touch=True):
        """Insert or replace a ``ResourceRow``; returns it as stored (times
        and seq filled in).  ``touch=False`` keeps its updated_time (a cache
        written, not a change of the resource)."""
        changes = {}
        if touch or not row.updated_time:
            changes['updated_time'] = now_iso()
        if row.created_time is None:
            changes['created_time'] = changes.get('updated_time', row.updated_time)
        if row.seq is None:
            with self._lock:
                self._seq += 1
                changes['seq'] = int(time.time() * 1000) * 1000 + self._seq % 1000
        if changes:
            row = row.replace(**changes)
        values = [_dumps(v) if c in _JSON_RESOURCE else v
                  for c, v in ((c, getattr(row, c)) for c in _RESOURCE_COLS)]
        self._one(_SAVE_RESOURCE, values)
        return row

    def set_roles(self, changes):
        """Change several rows' roles in one transaction: [(uuid, role)]."""
        def write(db):
            for row_uuid, role in changes:
                db.execute('UPDATE resources SET role=? WHERE uuid=?', (role, row_uuid))
        self._tx(write)

    def delete_resource(self, row_uuid):
        self._one('DELETE FROM resources WHERE uuid=?', (row_uuid,))

    # -- snapshots --------------------------------------------------------------
    # A stack's snapshots go with its record (delete_stack); the images and
    # backups they name are the engine's to delete first (Heat deletes them
    # with the stack).
    def save_snapshot(self, snapshot):
        """Insert or replace a snapshot (a dict of SNAPSHOT_COLS); returns it."""
        snapshot = dict((c, snapshot.get(c)) for c in SNAPSHOT_COLS)
        self._one('INSERT OR REPLACE INTO snapshots (%s) VALUES (%s)' % (
            ','.join(SNAPSHOT_COLS), ','.join('?' * len(SNAPSHOT_COLS))),
            [_dumps(snapshot[c]) if c in _JSON_SNAPSHOT else snapshot[c] for c in SNAPSHOT_COLS])
        return snapshot

    def snapshots(self, stack_id):
        """The stack's snapshots, oldest first."""
        def read(db):
            return db.execute('SELECT %s FROM snapshots WHERE stack_id=? ORDER BY creation_time, rowid'
                              % ','.join(SNAPSHOT_COLS), (stack_id,)).fetchall()
        return [self._row(SNAPSHOT_COLS, _JSON_SNAPSHOT, r) for r in self._tx(read)]

    def delete_snapshot(self, snapshot_id):
        self._one('DELETE FROM snapshots WHERE id=?', (snapshot_id,))

    # -- events ---------------------------------------------------------------
    def add_event(self, stack_id, event):
        """Append an event (Heat's fields); returns it with id and seq."""
        event = dict(event, stack_id=stack_id)
        event.setdefault('id', str(uuid.uuid4()))
        event.setdefault('event_time', now_iso())

        # One statement, its own transaction: SQLite takes the write lock
        # before the MAX is read, so two writers never share a seq.  The seq
        # comes back by RETURNING where SQLite has it (3.35), else read back
        # by id (older execution environments).  No BEGIN/SELECT/INSERT/COMMIT:
        # a thousand-resource stack writes two thousand events.
        cols = [c for c in _EVENT_COLS if c != 'seq']
        sql = ('INSERT INTO events (%s, seq) SELECT %s, COALESCE(MAX(seq), 0) + 1 FROM events '
               'WHERE stack_id=?' % (','.join(cols), ','.join('?' * len(cols))))
        values = [event.get(c) for c in cols] + [stack_id]
        with self._lock:
            try:
                if _RETURNING:
                    # fetchall: the statement runs to its end, and so commits, here
                    event['seq'] = self._db.execute(sql + ' RETURNING seq', values).fetchall()[0][0]
                else:
                    self._db.execute(sql, values)
                    event['seq'] = self._db.execute('SELECT seq FROM events WHERE id=?',
                                                    (event['id'],)).fetchone()[0]
            except sqlite3.Error as exc:
                raise StoreError('State store %s: %s' % (self.path, exc))
        return event

    def events(self, stack_id, after=0):
        # rowid breaks a tie in the order the events were read: in a Swift
        # store an event written beside a run may share the run's next seq
        def read(db):
            return db.execute('SELECT %s FROM events WHERE stack_id=? AND seq>? ORDER BY seq, rowid'
                              % ','.join(_EVENT_COLS), (stack_id, after)).fetchall()
        return [dict(zip(_EVENT_COLS, r)) for r in self._tx(read)]
