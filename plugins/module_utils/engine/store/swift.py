# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack record in a Swift container (``store_url: swift://container/prefix``).

An AWX job's container dies with the job, so the record must live in the
cloud.  The engine keeps working on a private SQLite copy (``Store`` of
sqlite.py, in a temporary directory): every read is local, and every write
is also PUT to Swift before the call returns, one small object per record,
so a run killed at any point leaves in Swift exactly what it had committed,
as with SQLite.

Objects below ``<prefix>/``, each top-level stack's tree (its nested stacks
included) under its own name, so that one stack is read with one listing:
  ``stacks/<top>/stack/<id>.json``             a stack row (lock fields and hooks left out)
  ``stacks/<top>/hooks/<id>.json``             its hook states (cleared by a signal while a run goes on)
  ``stacks/<top>/resources/<uuid>.json``       a resource row (secret data encrypted)
  ``stacks/<top>/snapshots/<id>.json``         a stack snapshot (its hidden values encrypted)
  ``stacks/<top>/events/<stack id>/<seq>.json`` an event (append only); one written
                                               beside a run, ``<seq>-<event id>.json``
  ``<name>.lock``, ``<name>.lock.claims/``     the lock (below)
  ``<name>.lock.cancel``                       a cancel asked of the lock's holder (its own object: the
                                               holder writes its stack row whole and would put it back)
  ``deleted/<id>.json``                         what a deleted top-level stack leaves for a day (sqlite.py)
  ``deleted/<top id>/<id>.json``               what a deleted nested stack leaves, under its top-level
                                               stack's id: one listing finds a tree's (a follower's look)
  ``versions/<name>/<n>.json``                 the whole record after each completed action
(stack names hold no '/', so no stack's objects mix with another's)

Reading is lazy, one top-level stack's tree at a time.  A tree is listed
and its rows read when one of its stacks is first asked for (``get_stack``,
or its resources, children or events); listed again when its lock is taken
(another run may have written since), and then only the objects whose hash
changed are read again, those gone are dropped.  Events are append-only and
many: a listing only notes them, and a stack's are read when its events are
asked for (or before one is added, so that numbering goes on after the last
one), each object at most once.  Listing every stack (``stacks``) reads the
stack rows alone.  So opening one stack costs the same in a container of
one stack or of fifty.  Reads send ``X-Newest: true`` (every replica asked,
the newest answer kept): a job on another execution node must see the last
run's writes.

The lock follows Terraform's former Swift backend.  The lock of top-level
stack ``name`` is the object ``<prefix>/<name>.lock``, written with
``If-None-Match: *`` (Swift answers 412 when it exists) and holding owner,
since and a lease the run renews at each heartbeat (``refresh_lock``).  A
run finding another's live lease fails at once naming the holder and since
when.  An expired lease is taken over by the one run that creates the claim
object named after that very lock object's etag
(``<name>.lock.claims/<etag>``, also ``If-None-Match: *``): two takers of
one crashed run's lock cannot both win.

Swift's If-None-Match is not a compare-and-swap: its object server looks
for the object before it reads the body and commits, with nothing held in
between, so two PUTs racing on an absent object can both answer 201 (the
body with the newer timestamp stays).  Two AWX jobs started together both
took the lock that way in one CI run and made the stack's server twice.
So a run that made the lock object reads it back once every PUT that may
have passed the check beside its own has landed (``SETTLE``), and holds
the lock only if the object is still its own.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import shutil
import tempfile
import time

from ...errors import CloudError, CloudNotFound, StackLocked, StoreError
from ...resources import raw_request as raw
from .records import ResourceRow
from .sqlite import _JSON_STACK, _STACK_COLS, TRACE_LIFE, Store, _dumps

SCHEME = 'swift://'
NEWEST = {'X-Newest': 'true'}
# Kept in the private copy alone: the lock lives in its own object.
LOCAL_ONLY = ('lock_owner', 'lock_expiry')
# Written apart from the stack row: a signal clears a hook without the lock,
# and a run's next write of its row must not put the old states back.
_APART = ('hooks',)
# A tree's objects by kind, in the order they are restored (rows before
# what refers to them); events are read apart, when asked for.
KINDS = ('stack', 'hooks', 'resources', 'snapshots')
_PAGE = 10000
# Set on a container once it was seen refusing a conditional PUT (412).
CHECKED = 'X-Container-Meta-Stackers-Conditional-Put'
# A claim only has to outlive the race it settles; Swift's expirer drops it.
CLAIM_LIFE = 86400
# Seconds between making the lock object and reading it back: a racing PUT
# that passed Swift's existence check has only a small body left to write
# (tens of milliseconds on a loaded local cloud); paid once per run.
SETTLE = 0.5
_pause = time.sleep


def parse_url(url):
    """(container, prefix) of ``swift://container[/prefix]``."""
    if not url.startswith(SCHEME):
        raise StoreError('store_url %s is not a swift://container/prefix URL' % url)
    container, _sep, prefix = url[len(SCHEME):].partition('/')
    if not container:
        raise StoreError('store_url %s names no container: use swift://container/prefix' % url)
    return container, prefix.strip('/')


def when(stamp):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(stamp))


def lease(owner, ttl, since=None):
    now = time.time()
    return {'owner': owner, 'since': since or now, 'expiry': now + ttl}


class SwiftStore(Store):
    """The Store API (sqlite.py) over Swift; see module docstring.
    ``writable=False`` (info, inventory) never creates the container."""

    local_writes = False     # every write is a PUT to Swift

    def __init__(self, url, conn, writable=True):
        self.url = url
        self.container, self.prefix = parse_url(url)
        if conn is None:
            raise StoreError('store_url %s needs a cloud connection: give the auth options '
                             '(cloud, auth, ...) as for heat_stack' % url)
        self._swift = conn.object_store
        self._dir = tempfile.mkdtemp(prefix='stackers-swift-')
        super(SwiftStore, self).__init__(os.path.join(self._dir, 'stacks.sqlite'))
        self._loading = False         # restoring what was read: the writes below push nothing
        self._seen = {}               # object -> its hash as last read
        self._trees = set()           # the tops whose tree was read whole
        self._all_rows = False        # every stack row read (a stack list)
        self._everything = False      # every tree read (a resource by physical id alone)
        self._unread = {}             # stack id -> {event object: hash}, listed, not read
        self._event_objs = {}         # stack id -> its event objects, listed or written
        self._tops = {}               # stack id -> the name of its top-level stack
        self._versions = {}
        self._held = set()            # the stacks (top names) whose lock this process holds
        self._asked = set()           # those whose holder here was asked to cancel
        self.path = url
        try:
            self._open(writable)
        except BaseException:
            self.close()
            raise

    def close(self):
        super(SwiftStore, self).close()
        shutil.rmtree(self._dir, ignore_errors=True)

    # -- Swift requests ----------------------------------------------------------------
    def _name(self, *parts):
        return '/'.join(([self.prefix] if self.prefix else []) + [str(p) for p in parts])

    def _send(self, method, obj=None, **kw):
        where = raw.path(self.container, obj) if obj is not None else raw.path(self.container)
        try:
            return raw.send(self._swift, method, where, **kw)
        except CloudNotFound:
            raise
        except CloudError as exc:
            if exc.status == 412:
                raise
            raise StoreError('The state store %s refused %s %s (%s): check that the container exists, '
                             'that this cloud user may read and write it, and that Swift is reachable'
                             % (self.url, method, obj or self.container, exc))

    def _put(self, obj, value, headers=None):
        self._send('PUT', obj, data=json.dumps(value, sort_keys=True, default=str).encode(),
                   headers=dict(headers or {}, **{'Content-Type': 'application/json'}))

    def _get(self, obj):
        """(value, etag) of ``obj``, or (None, None) when it does not exist."""
        try:
            response = self._send('GET', obj, headers=dict(NEWEST))
        except CloudNotFound:
            return None, None
        return json.loads(response.content.decode('utf-8')), response.headers.get('Etag')

    def _delete(self, obj):
        try:
            self._send('DELETE', obj)
        except CloudNotFound:
            pass

    def _list(self, under, marker=''):
        names = []
        while True:
            params = {'format': 'json', 'prefix': under, 'limit': _PAGE}
            if marker:
                params['marker'] = marker
            page = self._send('GET', headers=dict(NEWEST), params=params).json() or []
            names.extend((item['name'], item.get('hash')) for item in page)
            if len(page) < _PAGE:
                return names
            marker = page[-1]['name']

    def _open(self, writable):
        try:
            head = self._send('HEAD', headers=dict(NEWEST)).headers
        except CloudNotFound:
            if not writable:
                raise StoreError('The state store %s does not exist: check store_url (container %s) '
                                 'and the cloud it is read with' % (self.url, self.container))
            self._send('PUT')
            head = {}
        if writable and head.get(CHECKED) != 'true':
            self._check_conditional_put()

    def _check_conditional_put(self):
        """A Swift that ignores ``If-None-Match: *`` (before 2.x's support,
        or a gateway dropping the header) would let two runs both take a
        lock: asked once per container, the answer kept in its metadata."""
        probe = self._name('.stackers-probe')
        self._put(probe, {})
        try:
            self._put(probe, {}, headers={'If-None-Match': '*'})
        except CloudError as exc:
            if exc.status != 412:
                raise
            self._send('POST', headers={CHECKED: 'true'})
            return
        finally:
            self._delete(probe)
        raise StoreError('The Swift of %s ignores "If-None-Match: *" (it overwrote an existing object), so it '
                         'cannot hold a stack lock: use a Swift that supports conditional PUTs, or the SQLite '
                         'store (store_path) on a shared disk' % self.url)

    # -- where a record lives ----------------------------------------------------------
    def _top(self, stack_id):
        """The name of the top-level stack of ``stack_id`` (a local row), or None."""
        if stack_id in self._tops:
            return self._tops[stack_id]
        row, seen = Store.stack_by_id(self, stack_id), set()
        while row is not None and row.get('parent_id') and row['id'] not in seen:
            seen.add(row['id'])
            row = Store.stack_by_id(self, row['parent_id'])
        if row is None or row.get('parent_id'):
            return None
        self._tops[stack_id] = row['name']
        return row['name']

    def _obj(self, top, kind, *tail):
        if top is None:     # a record whose stack row is unknown: never write it under no tree
            raise StoreError('The state store %s holds no stack for this %s record: was its stack deleted '
                             'by another run?' % (self.url, kind))
        return self._name('stacks', top, kind, *tail)

    def _event_obj(self, top, stack_id, seq, event_id=None):
        # the reader takes seq from the body: the name only keeps the order
        name = '%010d-%s.json' % (seq, event_id) if event_id else '%010d.json' % seq
        return self._obj(top, 'events', stack_id, name)

    # -- reading, lazily: one tree at a time -------------------------------------------
    def _load_tree(self, top):
        """The tree of ``top`` into the private copy: one listing, then only
        the objects that changed since they were read; objects gone from
        Swift are dropped.  Events are only noted (see _read_events)."""
        base = self._obj(top, '')
        listed = dict(self._list(base))
        self._restore_listed(base, listed, KINDS)
        self._trees.add(top)

    def _load_rows(self):
        """Every tree's stack rows and hooks (a stack list), not their
        resources nor events."""
        base = self._name('stacks', '')
        listed = dict(self._list(base))
        self._restore_listed(base, listed, ('stack', 'hooks'))
        self._all_rows = True

    def _restore_listed(self, base, listed, kinds):
        self._loading = True
        try:
            for obj in [o for o in self._seen if o.startswith(base) and o not in listed]:
                self._forget(obj)
            split = [(obj, obj[len(self._name('stacks', '')):].split('/')) for obj in sorted(listed)]
            for kind in kinds:
                for obj, parts in split:
                    if len(parts) == 3 and parts[1] == kind and self._seen.get(obj, ()) != listed[obj]:
                        value, _etag = self._get(obj)
                        if value is not None:
                            self._restore(kind, value)
                            self._seen[obj] = listed[obj]
            for obj, parts in split:
                if len(parts) == 4 and parts[1] == 'events':
                    self._event_objs.setdefault(parts[2], set()).add(obj)
                    if obj not in self._seen:
                        self._unread.setdefault(parts[2], {})[obj] = listed[obj]
        finally:
            self._loading = False

    def _read_events(self, stack_id):
        """The events of ``stack_id`` listed but not read yet (in order)."""
        unread = self._unread.pop(stack_id, {})
        self._loading = True
        try:
            for obj in sorted(unread):
                value, _etag = self._get(obj)
                if value is not None:
                    self._insert_event(value)
                    self._seen[obj] = unread[obj]
        finally:
            self._loading = False

    def _ensure(self, stack_id):
        """The tree of ``stack_id`` read; a stack no tree read so far holds
        (asked for by id alone) is looked for among every stack row."""
        top = self._top(stack_id)
        if top is None and not self._all_rows:
            self._load_rows()
            top = self._top(stack_id)
        if top is not None and top not in self._trees:
            self._load_tree(top)

    def _load_everything(self):
        """Every tree (a resource looked for by physical id alone), once."""
        if self._everything:
            return
        self._load_rows()
        for top in sorted(set(s['name'] for s in Store.stacks(self) if not s.get('parent_id'))):
            if top not in self._trees:
                self._load_tree(top)
        self._everything = True

    def _forget(self, obj):
        del self._seen[obj]
        parts = obj[len(self._name('stacks', '')):].split('/')
        key = parts[-1][:-len('.json')]
        if parts[1] == 'stack':
            self._one('DELETE FROM stacks WHERE id=?', (key,))
        elif parts[1] == 'resources':
            self._one('DELETE FROM resources WHERE uuid=?', (key,))
        elif parts[1] == 'hooks':
            self._one('UPDATE stacks SET hooks=NULL WHERE id=?', (key,))
        elif parts[1] == 'snapshots':
            Store.delete_snapshot(self, key)

    def _restore(self, kind, value):
        if kind == 'stack':
            kept = Store.stack_by_id(self, value['id'])      # its hooks come from their own object
            value = dict(value, hooks=kept['hooks'] if kept else None)
            cols = [c for c in _STACK_COLS if c in value and c not in LOCAL_ONLY]
            self._one('INSERT OR REPLACE INTO stacks (%s) VALUES (%s)' % (
                ','.join(cols), ','.join('?' * len(cols))),
                [_dumps(value[c]) if c in _JSON_STACK else value[c] for c in cols])
        elif kind == 'hooks':
            self._one('UPDATE stacks SET hooks=? WHERE id=?', (_dumps(value['hooks']), value['id']))
        elif kind == 'snapshots':
            Store.save_snapshot(self, value)
        else:
            Store.save_resource(self, ResourceRow(**value), touch=False)

    def _insert_event(self, event):
        cols = sorted(event)
        self._one('INSERT OR REPLACE INTO events (%s) VALUES (%s)'
                  % (','.join(cols), ','.join('?' * len(cols))), [event[c] for c in cols])

    def _tops_below(self, stack_id):
        """Note the top of every stack under ``stack_id`` while its rows are there."""
        for child in Store.children(self, stack_id):
            self._top(child['id'])
            self._tops_below(child['id'])

    # -- reads: the tree first ---------------------------------------------------------
    def get_stack(self, name):
        if name not in self._trees:
            self._load_tree(name)
        return super(SwiftStore, self).get_stack(name)

    def stacks(self):
        if not self._all_rows:
            self._load_rows()
        return super(SwiftStore, self).stacks()

    def children(self, parent_id):
        self._ensure(parent_id)
        return super(SwiftStore, self).children(parent_id)

    def resources(self, stack_id, roles=None):
        self._ensure(stack_id)
        return super(SwiftStore, self).resources(stack_id, roles=roles)

    def resource_by_physical_id(self, physical_id):
        """From the trees read; else (a config of another stack) every tree."""
        found = super(SwiftStore, self).resource_by_physical_id(physical_id)
        if found is None and physical_id and not self._everything:
            self._load_everything()
            found = super(SwiftStore, self).resource_by_physical_id(physical_id)
        return found

    def events(self, stack_id, after=0):
        self._ensure(stack_id)
        self._read_events(stack_id)
        return super(SwiftStore, self).events(stack_id, after=after)

    # -- writes: local, then Swift -----------------------------------------------------
    def _push_stack(self, stack_id):
        if self._loading:
            return
        stack = Store.stack_by_id(self, stack_id)
        if stack is not None:
            self._put(self._obj(self._top(stack_id), 'stack', stack_id + '.json'),
                      dict((k, v) for k, v in stack.items() if k not in LOCAL_ONLY + _APART))

    def _push_row(self, row):
        self._put(self._obj(self._top(row.stack_id), 'resources', row.uuid + '.json'), row.__dict__)

    def update_stack(self, stack_id, **fields):
        super(SwiftStore, self).update_stack(stack_id, **fields)
        if set(fields) - set(LOCAL_ONLY + _APART):
            self._push_stack(stack_id)
        if 'hooks' in fields:
            self._push_hooks(stack_id, fields['hooks'])
        status = fields.get('status')
        if status in ('COMPLETE', 'FAILED'):
            self.keep_version(stack_id)

    def _push_hooks(self, stack_id, hooks):
        obj = self._obj(self._top(stack_id), 'hooks', stack_id + '.json')
        if hooks:
            self._put(obj, {'id': stack_id, 'hooks': hooks})
        else:
            self._delete(obj)

    def change_hooks(self, stack_id, change):
        """As sqlite.py's, on the newest states in Swift (another process may
        have changed them since this one read them)."""
        self._ensure(stack_id)
        newest = None
        if self._top(stack_id) is not None:
            newest, _etag = self._get(self._obj(self._top(stack_id), 'hooks', stack_id + '.json'))
            self._one('UPDATE stacks SET hooks=? WHERE id=?', (_dumps((newest or {}).get('hooks')), stack_id))
        hooks = super(SwiftStore, self).change_hooks(stack_id, change)
        self._push_hooks(stack_id, hooks)
        return hooks

    def create_stack(self, fields):
        stack = super(SwiftStore, self).create_stack(fields)
        self._push_stack(stack['id'])
        if stack.get('hooks'):
            self._push_hooks(stack['id'], stack['hooks'])
        return stack

    def delete_stack(self, stack_id, trace=True):
        stack = Store.stack_by_id(self, stack_id)
        top = self._top(stack_id)
        self._ensure(stack_id)
        self._tops_below(stack_id)    # its nested stacks' rows are deleted after it
        if trace:
            self._read_events(stack_id)
            record = self.trace(stack_id)
            if record is not None:      # Swift's expirer drops it after TRACE_LIFE
                self._put(self._deleted_obj(stack_id, record.get('root')), record,
                          headers={'X-Delete-After': str(TRACE_LIFE)})
        if top is not None:
            for row in super(SwiftStore, self).resources(stack_id):
                self._delete(self._obj(top, 'resources', row.uuid + '.json'))
            for obj in sorted(self._event_objs.pop(stack_id, ())):
                self._delete(obj)
                self._seen.pop(obj, None)
            self._unread.pop(stack_id, None)
            if stack and stack.get('hooks'):
                self._delete(self._obj(top, 'hooks', stack_id + '.json'))
            for snapshot in Store.snapshots(self, stack_id):
                self._delete(self._obj(top, 'snapshots', snapshot['id'] + '.json'))
            self._delete(self._obj(top, 'stack', stack_id + '.json'))
        super(SwiftStore, self).delete_stack(stack_id, trace=False)
        self._tops.pop(stack_id, None)
        if stack and not stack.get('parent_id') and stack.get('lock_owner'):
            self.release(stack['name'], stack['lock_owner'])

    def _deleted_obj(self, stack_id, root=None):
        if root:
            return self._name('deleted', root, stack_id + '.json')
        return self._name('deleted', stack_id + '.json')

    def deleted(self, stack_id):
        """As sqlite.py's, from its own object (``deleted/<id>.json``): a
        top-level stack's (a nested one's is read with its tree's)."""
        return self._get(self._deleted_obj(stack_id))[0]

    def nested_traces(self, root_id):
        """As sqlite.py's: one listing of ``deleted/<root_id>/``, then each
        trace; Swift's expirer has dropped those older than a day."""
        found = {}
        for obj, _hash in self._list(self._name('deleted', root_id, '')):
            record = self._get(obj)[0]
            if record is not None:      # expired between the listing and the read
                found[record['stack']['id']] = record
        return found

    def save_resource(self, row, touch=True):
        row = super(SwiftStore, self).save_resource(row, touch=touch)
        self._push_row(row)
        return row

    def set_roles(self, changes):
        super(SwiftStore, self).set_roles(changes)
        for row_uuid, _role in changes:
            found = self._db_row(row_uuid)
            if found is not None:
                self._push_row(found)

    def _db_row(self, row_uuid):
        with self._lock:
            found = self._db.execute('SELECT stack_id FROM resources WHERE uuid=?', (row_uuid,)).fetchone()
        if found is None:
            return None
        return next((r for r in super(SwiftStore, self).resources(found[0]) if r.uuid == row_uuid), None)

    def delete_resource(self, row_uuid):
        found = self._db_row(row_uuid)
        super(SwiftStore, self).delete_resource(row_uuid)
        if found is not None:
            self._delete(self._obj(self._top(found.stack_id), 'resources', row_uuid + '.json'))

    def snapshots(self, stack_id):
        self._ensure(stack_id)
        return super(SwiftStore, self).snapshots(stack_id)

    def save_snapshot(self, snapshot):
        self._ensure(snapshot['stack_id'])
        snapshot = super(SwiftStore, self).save_snapshot(snapshot)
        self._put(self._obj(self._top(snapshot['stack_id']), 'snapshots', snapshot['id'] + '.json'), snapshot)
        return snapshot

    def delete_snapshot(self, snapshot_id):
        with self._lock:
            found = self._db.execute('SELECT stack_id FROM snapshots WHERE id=?', (snapshot_id,)).fetchone()
        super(SwiftStore, self).delete_snapshot(snapshot_id)
        if found is not None:
            obj = self._obj(self._top(found[0]), 'snapshots', snapshot_id + '.json')
            self._delete(obj)
            self._seen.pop(obj, None)

    def add_event(self, stack_id, event):
        """The lock's holder appends ``<seq>.json`` with ``If-None-Match: *``
        (taking the next number on a 412), counting from the last event in
        Swift.  A writer beside it (a signal: no lock) names its event
        ``<seq>-<event id>.json``: Swift checks If-None-Match before it
        writes, not atomically, so two racing PUTs of one name both succeed
        and the later replaces the other.  Sharing the run's next seq, it
        sorts first ('-' before '.'), and readers keep that order."""
        self._ensure(stack_id)
        self._read_events(stack_id)
        event = super(SwiftStore, self).add_event(stack_id, event)
        top = self._top(stack_id)
        beside = top not in self._held
        while True:
            obj = self._event_obj(top, stack_id, event['seq'], event['id'] if beside else None)
            try:
                self._put(obj, event, headers=None if beside else {'If-None-Match': '*'})
                self._event_objs.setdefault(stack_id, set()).add(obj)
                self._seen[obj] = ''      # written here: never read back
                return event
            except CloudError as exc:
                if exc.status != 412 or beside:
                    raise
            event['seq'] += 1
            self._one('UPDATE events SET seq=? WHERE id=?', (event['seq'], event['id']))

    def vault(self, user_secret=None):
        """A key file beside a Swift store would die with the job that made
        it: a Swift store needs the user's key."""
        secret = user_secret or os.environ.get('STACKERS_STORE_KEY')
        if not secret:
            raise StoreError('store_url %s keeps the stack in Swift: give store_key (or set '
                             '$STACKERS_STORE_KEY) so its secrets can be encrypted and read again '
                             'on any execution node' % self.url)
        return super(SwiftStore, self).vault(secret)

    # -- versions ----------------------------------------------------------------------
    def keep_version(self, stack_id):
        """The whole record of a top-level stack as its next version."""
        stack = Store.stack_by_id(self, stack_id)
        if stack is None or stack.get('parent_id'):
            return
        name = stack['name']
        if name not in self._versions:
            under = self._name('versions', name, '')
            numbers = [n[len(under):-len('.json')] for n, _hash in self._list(under)]
            self._versions[name] = max([int(n) for n in numbers if n.isdigit()] or [0])
        number = self._versions[name]
        while True:
            number += 1
            try:
                self._put(self._name('versions', name, '%06d.json' % number), export(self, stack),
                          headers={'If-None-Match': '*'})
            except CloudError as exc:   # 412: another run kept that number (a taken-over lock)
                if exc.status != 412:
                    raise
                continue
            self._versions[name] = number
            return

    def versions(self, name):
        """The object names of stack ``name``'s kept versions, oldest first."""
        return sorted(n for n, _hash in self._list(self._name('versions', name, '')))

    def read_version(self, obj):
        return self._get(obj)[0]

    def write_version(self, obj, record):
        """A kept version written again (key rotation, under the stack's lock)."""
        self._put(obj, record)

    # -- the lock ----------------------------------------------------------------------
    def lock(self, name, owner, ttl, alive=None, create=None):
        self._take(name, owner, ttl, alive)
        try:
            self._load_tree(name)     # again: another run may have written before this lock
            made = create is not None and Store.get_stack(self, name) is None
            stack = super(SwiftStore, self).lock(name, owner, ttl, create=create)
        except BaseException:
            self._delete(self._lock_obj(name))
            raise
        self._held.add(name)
        # only a row this lock made is new to Swift (the lock's fields stay local)
        if stack is not None and made:
            self._push_stack(stack['id'])
            if stack.get('hooks'):
                self._push_hooks(stack['id'], stack['hooks'])
        return stack

    def _lock_obj(self, name):
        return self._name(name + '.lock')

    def _take(self, name, owner, ttl, alive):
        """The lease of ``name`` for ``owner``, or StackLocked."""
        obj = self._lock_obj(name)
        try:
            self._put(obj, lease(owner, ttl), headers={'If-None-Match': '*'})
            return self._confirm(name, obj, owner)
        except CloudError as exc:
            if exc.status != 412:
                raise
        held, etag = self._get(obj)
        if held is None:        # released between the two requests: try once more
            return self._retake(name, obj, owner, ttl)
        if held.get('owner') == owner:
            self._put(obj, lease(owner, ttl, held.get('since')))
            return
        if held.get('expiry', 0) > time.time() and (alive is None or alive(held.get('owner'))):
            raise self._locked(name, held)
        # An expired lease: the one run that creates the claim named after this
        # very lock object (its etag) may replace it; two takers cannot both win.
        try:
            self._put(self._name(name + '.lock.claims', etag or 'none'), {'owner': owner},
                      headers={'If-None-Match': '*', 'X-Delete-After': str(CLAIM_LIFE)})
        except CloudError as exc:
            if exc.status != 412:
                raise
            raise self._locked(name, self._get(obj)[0] or held, taking=True)
        self._delete(obj)
        self._retake(name, obj, owner, ttl)

    def _retake(self, name, obj, owner, ttl):
        try:
            self._put(obj, lease(owner, ttl), headers={'If-None-Match': '*'})
        except CloudError as exc:
            if exc.status != 412:
                raise
            raise self._locked(name, self._get(obj)[0] or {})
        self._confirm(name, obj, owner)

    def _confirm(self, name, obj, owner):
        """The lock object made for ``owner`` is still its own once racing
        PUTs landed; else StackLocked naming the run whose PUT stayed."""
        _pause(SETTLE)
        held, _etag = self._get(obj)
        if held is None or held.get('owner') != owner:
            raise self._locked(name, held or {})

    def _locked(self, name, held, taking=False):
        return StackLocked(
            'Stack "%s" is locked in %s by another run (%s) since %s, its lease running until %s%s. '
            'Wait for it, or set lock_timeout to wait; a crashed run\'s lock frees itself when its '
            'lease ends.' % (name, self.url, held.get('owner', 'unknown'), when(held.get('since', 0)),
                             when(held.get('expiry', 0)),
                             '; another run is taking it over' if taking else ''))

    def refresh_lock(self, stack_id, owner, ttl):
        stack = self.stack_by_id(stack_id)
        if stack is None:
            return
        obj = self._lock_obj(stack['name'])
        held, _etag = self._get(obj)
        if held is None or held.get('owner') != owner:
            raise StackLocked('Stack "%s" lost its lock in %s to %s: its lease ran out before it was '
                              'renewed, or that run\'s lock replaced it as both took it'
                              % (stack['name'], self.url, (held or {}).get('owner', 'nobody')))
        self._put(obj, lease(owner, ttl, held.get('since')))
        super(SwiftStore, self).refresh_lock(stack_id, owner, ttl)

    def unlock(self, stack_id, owner):
        stack = self.stack_by_id(stack_id)
        super(SwiftStore, self).unlock(stack_id, owner)
        if stack is not None:
            self.release(stack['name'], owner)

    def release(self, name, owner):
        """Drop ``owner``'s lock of ``name`` (also of a stack deleted since)."""
        self._held.discard(name)
        obj = self._lock_obj(name)
        held, _etag = self._get(obj)
        if held is not None and held.get('owner') == owner:
            if name in self._asked:
                # the cancel asked of this run goes with it (before the lock: a
                # request made after would be addressed to the next holder).  One
                # that came after the run's last look stays, addressed to a run
                # that is gone: no run reads it, the next request replaces it.
                self._asked.discard(name)
                self._delete(obj + '.cancel')
            self._delete(obj)

    def lock_holder(self, stack_id):
        stack = self.stack_by_id(stack_id)
        held = self._get(self._lock_obj(stack['name']))[0] if stack is not None else None
        return (held.get('owner'), held.get('expiry', 0)) if held and held.get('owner') else None

    def request_cancel(self, stack_id, owner, rollback):
        """As sqlite.py's, the request in ``<name>.lock.cancel``."""
        held = self.lock_holder(stack_id)
        if held is None or held[0] != owner:
            return False
        self._put(self._lock_obj(self.stack_by_id(stack_id)['name']) + '.cancel',
                  {'owner': owner, 'rollback': bool(rollback), 'time': time.time()})
        return True

    def cancel_request(self, stack_id, owner):
        stack = self.stack_by_id(stack_id)
        if stack is None:
            return None
        request = self._get(self._lock_obj(stack['name']) + '.cancel')[0]
        if request and request.get('owner') == owner:
            self._asked.add(stack['name'])
            return request
        return None


def export(store, stack):
    """A stack, its nested stacks, their resources and events as one
    document (secrets stay encrypted as stored), with the stack's snapshots."""
    out = {'stacks': [], 'resources': [], 'events': [], 'snapshots': store.snapshots(stack['id'])}
    pending = [stack]
    while pending:
        one = pending.pop(0)
        out['stacks'].append(dict((k, v) for k, v in one.items() if k not in LOCAL_ONLY))
        out['resources'].extend(r.__dict__ for r in store.resources(one['id']))
        out['events'].extend(store.events(one['id']))
        pending.extend(store.children(one['id']))
    return out
