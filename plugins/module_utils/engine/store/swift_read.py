# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a Swift store (store_swift.py) reads into its private SQLite copy,
and when: lazily, one top-level stack's tree at a time.

A tree (``<prefix>/stacks/<top>/``) is listed once and its rows read when
one of its stacks is first asked for; listed again when its lock is taken,
and then only the objects whose hash changed are read again, those gone are
dropped.  Events are append-only and many: a listing only notes them, and a
stack's are read when its events are asked for (or before one is added, so
that numbering goes on after the last one), each object at most once.

``SwiftReader`` is a mixin of ``SwiftStore``: it uses the store's ``_list``,
``_get``, ``_name`` and the SQLite copy (``Store``) underneath.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StoreError
from .records import ResourceRow
from .sqlite import _JSON_STACK, _STACK_COLS, Store, _dumps

LOCAL_ONLY = ('lock_owner', 'lock_expiry')
# A tree's objects by kind, in the order they are restored (rows before
# what refers to them); events are read apart, when asked for.
KINDS = ('stack', 'hooks', 'resources')


class SwiftReader(object):
    """State (set by ``_reader_init``): ``_seen`` object -> hash as last read;
    ``_trees`` tops read whole; ``_all_rows`` every stack row read;
    ``_unread`` stack id -> {event object: hash} listed, not read;
    ``_event_objs`` stack id -> event objects listed or written;
    ``_tops`` stack id -> its top-level stack's name."""

    def _reader_init(self):
        self._loading = False
        self._seen = {}
        self._trees = set()
        self._all_rows = False
        self._everything = False
        self._unread = {}
        self._event_objs = {}
        self._tops = {}

    # -- where a record lives -------------------------------------------------
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

    # -- reading, lazily --------------------------------------------------------
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
