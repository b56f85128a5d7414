# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack record in a Swift container (``store_url: swift://container/prefix``).

An AWX job's container dies with the job, so the record must live in the
cloud.  The engine keeps working on a private SQLite copy (store.py, in a
temporary directory): every read is local, and every write is also PUT to
Swift before the call returns, one small object per record, so a run killed
at any point leaves in Swift exactly what it had committed, as with SQLite.

Objects below ``<prefix>/``, each top-level stack's tree (its nested stacks
included) under its own name, so that one stack is read with one listing:
  ``stacks/<top>/stack/<id>.json``             a stack row (lock fields and hooks left out)
  ``stacks/<top>/hooks/<id>.json``             its hook states (cleared by a signal while a run goes on)
  ``stacks/<top>/resources/<uuid>.json``       a resource row (secret data encrypted)
  ``stacks/<top>/events/<stack id>/<seq>.json`` an event (append only); one written
                                               beside a run, ``<seq>-<event id>.json``
  ``<name>.lock``, ``<name>.lock.claims/``     the lock (store_swift_lock.py)
  ``versions/<name>/<n>.json``                 the whole record after each completed action
(stack names hold no '/', so no stack's objects mix with another's)

Reading is lazy: a tree is listed and read when one of its stacks is first
asked for (``get_stack``, or its resources, children or events), again when
its lock is taken (another run may have written since), and only what
changed since (the listing's hashes); events are read only when asked for,
and only those not read yet.  Listing every stack (``stacks``) reads the
stack rows alone.  So opening one stack costs the same in a container of one
stack or of fifty.  Reads send ``X-Newest: true`` (every replica asked, the
newest answer kept): a job on another execution node must see the last
run's writes.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import shutil
import tempfile

from ...errors import CloudError, CloudNotFound, StoreError
from ...resources import raw_request as raw
from .sqlite import Store, _dumps
from .swift_lock import SwiftLock
from .swift_read import LOCAL_ONLY as _LOCAL_ONLY, SwiftReader

SCHEME = 'swift://'
NEWEST = {'X-Newest': 'true'}
# Written apart from the stack row: a signal clears a hook without the lock,
# and a run's next write of its row must not put the old states back.
_APART = ('hooks',)
_PAGE = 10000
# Set on a container once it was seen refusing a conditional PUT (412).
CHECKED = 'X-Container-Meta-Stackers-Conditional-Put'


def parse_url(url):
    """(container, prefix) of ``swift://container[/prefix]``."""
    if not url.startswith(SCHEME):
        raise StoreError('store_url %s is not a swift://container/prefix URL' % url)
    container, _sep, prefix = url[len(SCHEME):].partition('/')
    if not container:
        raise StoreError('store_url %s names no container: use swift://container/prefix' % url)
    return container, prefix.strip('/')


class SwiftStore(SwiftReader, SwiftLock, Store):
    """The Store API (store.py) over Swift; see module docstring.
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
        self._reader_init()
        self._versions = {}
        self._held = set()            # the stacks (top names) whose lock this process holds
        self.path = url
        try:
            self._open(writable)
        except BaseException:
            self.close()
            raise

    def close(self):
        super(SwiftStore, self).close()
        shutil.rmtree(self._dir, ignore_errors=True)

    # -- plumbing -----------------------------------------------------------
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

    # -- reads: the tree first ------------------------------------------------------
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

    # -- writes: local, then Swift -----------------------------------------------
    def _push_stack(self, stack_id):
        if self._loading:
            return
        stack = Store.stack_by_id(self, stack_id)
        if stack is not None:
            self._put(self._obj(self._top(stack_id), 'stack', stack_id + '.json'),
                      dict((k, v) for k, v in stack.items() if k not in _LOCAL_ONLY + _APART))

    def _push_row(self, row):
        self._put(self._obj(self._top(row.stack_id), 'resources', row.uuid + '.json'), row.__dict__)

    def update_stack(self, stack_id, **fields):
        super(SwiftStore, self).update_stack(stack_id, **fields)
        if set(fields) - set(_LOCAL_ONLY + _APART):
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
        """As store.py's, on the newest states in Swift (another process may
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

    def delete_stack(self, stack_id):
        stack = Store.stack_by_id(self, stack_id)
        top = self._top(stack_id)
        self._ensure(stack_id)
        self._tops_below(stack_id)    # its nested stacks' rows are deleted after it
        if top is not None:
            for row in super(SwiftStore, self).resources(stack_id):
                self._delete(self._obj(top, 'resources', row.uuid + '.json'))
            for obj in sorted(self._event_objs.pop(stack_id, ())):
                self._delete(obj)
                self._seen.pop(obj, None)
            self._unread.pop(stack_id, None)
            if stack and stack.get('hooks'):
                self._delete(self._obj(top, 'hooks', stack_id + '.json'))
            self._delete(self._obj(top, 'stack', stack_id + '.json'))
        super(SwiftStore, self).delete_stack(stack_id)
        self._tops.pop(stack_id, None)
        if stack and not stack.get('parent_id') and stack.get('lock_owner'):
            self.release(stack['name'], stack['lock_owner'])

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

    # -- versions ----------------------------------------------------------------
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

    # -- the lock (store_swift_lock.py) ---------------------------------------------
    def lock(self, name, owner, ttl, alive=None, create=None):
        self._take(name, owner, ttl, alive)
        try:
            self._load_tree(name)     # again: another run may have written before this lock
            stack = super(SwiftStore, self).lock(name, owner, ttl, create=create)
        except BaseException:
            self._delete(self._lock_obj(name))
            raise
        self._held.add(name)
        if stack is not None and create is not None:
            self._push_stack(stack['id'])
            if stack.get('hooks'):
                self._push_hooks(stack['id'], stack['hooks'])
        return stack


def export(store, stack):
    """A stack, its nested stacks, their resources and events as one
    document (secrets stay encrypted as stored)."""
    out = {'stacks': [], 'resources': [], 'events': []}
    pending = [stack]
    while pending:
        one = pending.pop(0)
        out['stacks'].append(dict((k, v) for k, v in one.items() if k not in _LOCAL_ONLY))
        out['resources'].extend(r.__dict__ for r in store.resources(one['id']))
        out['events'].extend(store.events(one['id']))
        pending.extend(store.children(one['id']))
    return out
