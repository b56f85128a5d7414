# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack record in a Swift container (``store_url: swift://container/prefix``).

An AWX job's container dies with the job, so the record must live in the
cloud.  The engine keeps working on a private SQLite copy (store.py, in a
temporary directory): every read is local, and every write is also PUT to
Swift before the call returns, one small object per record, so a run killed
at any point leaves in Swift exactly what it had committed, as with SQLite.

Objects below ``<prefix>/``:
  ``stacks/<id>.json``             a stack row (lock fields and hooks left out)
  ``hooks/<id>.json``              its hook states (cleared by a signal while a run goes on)
  ``resources/<uuid>.json``        a resource row (secret data encrypted)
  ``events/<stack id>/<seq>.json`` an event (append only)
  ``<name>.lock``                  the lock of top-level stack ``name``
  ``<name>.lock.claims/<etag>``    who took over an expired lock (see lock())
  ``versions/<name>/<n>.json``     the whole record after each completed action
(stack names hold no '/', so no stack's objects mix with another kind's)

Reads send ``X-Newest: true`` (every replica asked, the newest answer kept):
a job on another execution node must see the last run's writes.  The lock is
Terraform's former Swift backend's: an object written with
``If-None-Match: *`` (Swift answers 412 when it exists) holding owner, since
and a lease the run renews at each heartbeat (store.py's refresh_lock).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import shutil
import tempfile
import time

from ..errors import CloudError, CloudNotFound, StackLocked, StoreError
from ..resources import raw_request as raw
from .records import ResourceRow
from .store import _JSON_STACK, _STACK_COLS, Store, _dumps

SCHEME = 'swift://'
NEWEST = {'X-Newest': 'true'}
# A claim only has to outlive the race it settles; Swift's expirer drops it.
CLAIM_LIFE = 86400
_LOCAL_ONLY = ('lock_owner', 'lock_expiry')
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


def _when(stamp):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(stamp))


class SwiftStore(Store):
    """The Store API (store.py) over Swift; see module docstring.
    ``writable=False`` (info, inventory) never creates the container."""

    def __init__(self, url, conn, writable=True):
        self.url = url
        self.container, self.prefix = parse_url(url)
        if conn is None:
            raise StoreError('store_url %s needs a cloud connection: give the auth options '
                             '(cloud, auth, ...) as for heat_stack' % url)
        self._swift = conn.object_store
        self._dir = tempfile.mkdtemp(prefix='stackers-swift-')
        super(SwiftStore, self).__init__(os.path.join(self._dir, 'stacks.sqlite'))
        self._loading = False
        self._seen = {}        # object name -> hash, as last read
        self._versions = {}
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

    def _list(self, under):
        names, marker = [], ''
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
        self._load()

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

    def _load(self):
        """The container's records into the private SQLite copy; again,
        only what changed since (by the listing's hashes), once the lock is
        taken: another run may have written between the open and the lock."""
        listed = dict(self._list(self._name('')))
        self._loading = True
        try:
            for obj in set(self._seen) - set(listed):
                self._forget(obj)
            for kind in ('stacks/', 'hooks/', 'resources/', 'events/'):
                for obj in sorted(n for n in listed if n.startswith(self._name(kind))):
                    if self._seen.get(obj, ()) == listed[obj]:
                        continue
                    value, _etag = self._get(obj)
                    if value is not None:
                        self._restore(kind, value)
                        self._seen[obj] = listed[obj]
        finally:
            self._loading = False
        for obj in listed:
            stack, _sep, tail = obj[len(self._name('versions', '')):].partition('/')
            if obj.startswith(self._name('versions', '')) and tail[:-5].isdigit():
                self._versions[stack] = max(self._versions.get(stack, 0), int(tail[:-5]))

    def _forget(self, obj):
        del self._seen[obj]
        kind, _sep, tail = obj[len(self._name('')):].partition('/')
        key = tail.rsplit('/', 1)[-1][:-len('.json')]
        if kind == 'stacks':
            self._one('DELETE FROM stacks WHERE id=?', (key,))
        elif kind == 'resources':
            self._one('DELETE FROM resources WHERE uuid=?', (key,))
        elif kind == 'hooks':
            self._one('UPDATE stacks SET hooks=NULL WHERE id=?', (key,))

    def _restore(self, kind, value):
        if kind == 'stacks/':
            kept = self.stack_by_id(value['id'])      # its hooks come from their own object
            value = dict(value, hooks=kept['hooks'] if kept else None)
            cols = [c for c in _STACK_COLS if c in value and c not in _LOCAL_ONLY]
            self._one('INSERT OR REPLACE INTO stacks (%s) VALUES (%s)' % (
                ','.join(cols), ','.join('?' * len(cols))),
                [_dumps(value[c]) if c in _JSON_STACK else value[c] for c in cols])
        elif kind == 'hooks/':
            self._one('UPDATE stacks SET hooks=? WHERE id=?', (_dumps(value['hooks']), value['id']))
        elif kind == 'resources/':
            Store.save_resource(self, ResourceRow(**value), touch=False)
        else:
            self._insert_event(value)

    def _insert_event(self, event):
        cols = sorted(event)
        self._one('INSERT OR REPLACE INTO events (%s) VALUES (%s)'
                  % (','.join(cols), ','.join('?' * len(cols))), [event[c] for c in cols])

    def _push_stack(self, stack_id):
        if self._loading:
            return
        stack = self.stack_by_id(stack_id)
        if stack is not None:
            self._put(self._name('stacks', stack_id + '.json'),
                      dict((k, v) for k, v in stack.items() if k not in _LOCAL_ONLY + _APART))

    def _push_row(self, row):
        self._put(self._name('resources', row.uuid + '.json'), row.__dict__)

    # -- writes: local, then Swift -----------------------------------------------
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
        obj = self._name('hooks', stack_id + '.json')
        if hooks:
            self._put(obj, {'id': stack_id, 'hooks': hooks})
        else:
            self._delete(obj)

    def change_hooks(self, stack_id, change):
        """As store.py's, on the newest states in Swift (another process may
        have changed them since this one read them)."""
        newest, _etag = self._get(self._name('hooks', stack_id + '.json'))
        if self.stack_by_id(stack_id) is not None:
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
        stack = self.stack_by_id(stack_id)
        rows = self.resources(stack_id)
        events = self.events(stack_id)
        for row in rows:
            self._delete(self._name('resources', row.uuid + '.json'))
        for event in events:
            self._delete(self._name('events', stack_id, '%010d.json' % event['seq']))
        self._delete(self._name('stacks', stack_id + '.json'))
        super(SwiftStore, self).delete_stack(stack_id)
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
        return next((r for r in self.resources(found[0]) if r.uuid == row_uuid), None)

    def delete_resource(self, row_uuid):
        super(SwiftStore, self).delete_resource(row_uuid)
        self._delete(self._name('resources', row_uuid + '.json'))

    def add_event(self, stack_id, event):
        """Appended with ``If-None-Match: *``: a signal's event written
        beside a run's (each counting from its own copy) takes the next free
        number instead of overwriting."""
        event = super(SwiftStore, self).add_event(stack_id, event)
        while True:
            try:
                self._put(self._name('events', stack_id, '%010d.json' % event['seq']), event,
                          headers={'If-None-Match': '*'})
                return event
            except CloudError as exc:
                if exc.status != 412:
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
        stack = self.stack_by_id(stack_id)
        if stack is None or stack.get('parent_id'):
            return
        name = stack['name']
        number = self._versions.get(name, 0)
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

    # -- the lock ----------------------------------------------------------------
    def lock(self, name, owner, ttl, alive=None, create=None):
        self._take(name, owner, ttl, alive)
        try:
            self._load()
            stack = super(SwiftStore, self).lock(name, owner, ttl, create=create)
        except BaseException:
            self._delete(self._name(name + '.lock'))
            raise
        if stack is not None and create is not None:
            self._push_stack(stack['id'])
            if stack.get('hooks'):
                self._push_hooks(stack['id'], stack['hooks'])
        return stack

    def _lease(self, owner, ttl, since=None):
        now = time.time()
        return {'owner': owner, 'since': since or now, 'expiry': now + ttl}

    def _take(self, name, owner, ttl, alive):
        obj = self._name(name + '.lock')
        try:
            self._put(obj, self._lease(owner, ttl), headers={'If-None-Match': '*'})
            return
        except CloudError as exc:
            if exc.status != 412:
                raise
        held, etag = self._get(obj)
        if held is None:        # released between the two requests: try once more
            return self._retake(name, obj, owner, ttl)
        if held.get('owner') == owner:
            self._put(obj, self._lease(owner, ttl, held.get('since')))
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
            self._put(obj, self._lease(owner, ttl), headers={'If-None-Match': '*'})
        except CloudError as exc:
            if exc.status != 412:
                raise
            raise self._locked(name, self._get(obj)[0] or {})

    def _locked(self, name, held, taking=False):
        return StackLocked(
            'Stack "%s" is locked in %s by another run (%s) since %s, its lease running until %s%s. '
            'Wait for it, or set lock_timeout to wait; a crashed run\'s lock frees itself when its '
            'lease ends.' % (name, self.url, held.get('owner', 'unknown'), _when(held.get('since', 0)),
                             _when(held.get('expiry', 0)),
                             '; another run is taking it over' if taking else ''))

    def refresh_lock(self, stack_id, owner, ttl):
        stack = self.stack_by_id(stack_id)
        if stack is None:
            return
        obj = self._name(stack['name'] + '.lock')
        held, _etag = self._get(obj)
        if held is None or held.get('owner') != owner:
            raise StackLocked('Stack "%s" lost its lock in %s to %s: its lease ran out before it was '
                              'renewed' % (stack['name'], self.url, (held or {}).get('owner', 'nobody')))
        self._put(obj, self._lease(owner, ttl, held.get('since')))
        super(SwiftStore, self).refresh_lock(stack_id, owner, ttl)

    def unlock(self, stack_id, owner):
        stack = self.stack_by_id(stack_id)
        super(SwiftStore, self).unlock(stack_id, owner)
        if stack is None:
            return
        obj = self._name(stack['name'] + '.lock')
        held, _etag = self._get(obj)
        if held is not None and held.get('owner') == owner:
            self._delete(obj)

    def release(self, name, owner):
        """Drop ``owner``'s lock of a stack that no longer exists (a delete)."""
        obj = self._name(name + '.lock')
        held, _etag = self._get(obj)
        if held is not None and held.get('owner') == owner:
            self._delete(obj)


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
