# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One list call answers the polls of every object of a kind due together,
and asks only for those objects.

A stack builds its servers and volumes side by side and each waits for a
status.  A GET per object per poll costs N calls a cycle; the engine lands
polls on ticks shared by all resources (engine/walk/resource_tasks.poll_delay),
so the polls of one tick ask here at about the same moment and one list
call of the kind answers them all.  An object asked for alone gets its own
GET (a list is no cheaper for one, and its answer is bigger).

A poll's cost must not grow with the project: a list is narrowed by a
filter that only the polled objects match (``key``: what the list asks
for), never the whole project.  Servers: Nova's ``name`` filter (a regular
expression) spelling the exact names of the polled servers, with
``changes-since`` so that deleted ones are listed too (a delete's poll sees
DELETED).  Only names the engine made (``<stack>-<resource>-<random>``) are
asked for that way; a server named by its template may share its name with
anything, and is read by id.  Volumes: Cinder's ``metadata`` filter (the
stack's mark) and its ``status`` filter given a list of the transitional
statuses (Cinder reads filter values as literals: a list is an IN), so a
volume is listed while it is in transition and read by id once it leaves
it.  An object missing from a list is read with its own GET, so a list
never has to be complete to be right.  A service that refuses the filter
(400), answers beyond it (a filter it ignores) or matches none of the
servers asked for (Nova on MySQL escapes the '|' of the name filter) is
not listed again in this run: its objects are read by id, which is
bounded by construction.  (openstacksdk 4.0.0 does not pass the
volumes' ``properties`` query: the list asks for the project's volumes in
transition, and stops at the first one of another stack.)

A list also tells each poll it answers whether another object it listed
has moved since the list before (a new status, or gone from a list of
objects in transition): objects made together tend to end together, so a
server still building when its sibling is seen ACTIVE is looked at again
soon (``look``: the context's ``look_soon``), not after the long wait its
own age gives (Nova ends the builds of servers made together within a
fraction of a second of each other).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import json
import re
import threading
import time

from ..errors import CloudError, CloudNotFound, CloudTransient
from . import sdk
from .base import TAG_STACK

# A list that started this recently answers a poll arriving now: polls of one
# tick reach here within a few milliseconds of each other (thread pool
# hand-off), while ticks are at least a quarter of a second apart.
JOIN_WINDOW = 0.15
# An object that has not asked for this long has stopped polling (it
# finished or failed): it no longer makes a poll a batch.
STALE = 15.0
# Nova's changes-since is compared with Nova's clock: a margin for skew (an
# object changed before it is not missed: it is read with its own GET).
SKEW = datetime.timedelta(minutes=10)

# A list answers polls only when at least this many objects of the kind may
# ask on this tick: the asker and the others polling that have not asked
# within JOIN_WINDOW (those that have are answered already; counting them
# would make the second of two objects starting together list for itself
# alone, beside the first one's GET).  For one, its own GET says the same for less.
MIN_BATCH = 2

# The longest ``name`` filter one server list sends (more names: more lists):
# the whole request line stays far below the 8 KiB web servers accept.
NAME_FILTER_CHARS = 2000
# Names spelled literally in a regular expression (POSIX ERE as MySQL and
# PostgreSQL read it, Python's re as SQLite's REGEXP does): '.' as '[.]'.
_PLAIN_NAME = re.compile(r'^[A-Za-z0-9_.-]+$')

# Cinder statuses a poll waits through (create, restore, delete, attach,
# detach, extend, retype, upload, backup).
VOLUME_TRANSITIONS = ('creating', 'downloading', 'restoring-backup', 'deleting', 'attaching',
                      'detaching', 'reserved', 'extending', 'retyping', 'uploading', 'backing-up',
                      'maintenance', 'awaiting-transfer')


class _Listing(object):
    __slots__ = ('started', 'ids', 'answered', 'done', 'found', 'error', 'moved')

    def __init__(self, started, ids):
        self.started = started
        self.ids = ids         # the objects it asks for
        self.answered = set()  # the objects it has answered (once each)
        self.done = threading.Event()
        self.found = None      # id -> object; None: no answer, each reads its own
        self.error = None
        self.moved = frozenset()   # the asked-for objects moved since the list before


class Batch(object):
    """``fetch(id, key)`` -> the object, or None when it does not exist.

    ``get_one(id)`` reads one object (None when not found);
    ``list_some(keys)`` lists the objects matching any of ``keys`` and
    returns ``(found, usable)``: id -> object, and False when the filter
    did not work as meant (the answer holds objects beyond the keys: the
    service ignored it; or none of them: it matched nothing).  An object
    asked for without a key is always read with its own GET."""

    def __init__(self, get_one, list_some, missing='%s could not be found.',
                 clock=time.monotonic):
        self._missing = missing
        self._get_one = get_one
        self._list_some = list_some
        self._clock = clock
        self._lock = threading.Lock()
        self._asking = {}      # id -> [when it first asked, when it last asked, key]
        self._listing = None   # the newest list call (running or done)
        self._status = {}      # id -> its status in the last list that asked for it
        self.listing_off = False   # the service's filter cannot bound a list

    def _ask(self, obj_id, now, key=None):
        """Note an ask; forget the objects that stopped asking."""
        times = self._asking.setdefault(obj_id, [now, now, key])
        times[1], times[2] = now, key
        for other, (_first, last, _key) in list(self._asking.items()):
            if now - last > STALE:
                del self._asking[other]
                self._status.pop(other, None)

    def _start(self, obj_id, now, key):
        """A new list for ``obj_id`` and the others due on this tick, or
        None when it would answer fewer than MIN_BATCH."""
        if key is None or self.listing_off:
            return None
        ids = dict((other, k) for other, (_first, last, k) in self._asking.items()
                   if other != obj_id and k is not None and now - last > JOIN_WINDOW)
        if len(ids) + 1 < MIN_BATCH:
            return None
        ids[obj_id] = key
        self._listing = _Listing(now, ids)
        return self._listing

    def fetch(self, obj_id, key=None):
        return self.poll(obj_id, key)[0]

    def poll(self, obj_id, key=None, existing=False):
        """``(object or None, moved)``: ``moved`` when the list that
        answered saw another object it asked for move.  With ``existing``
        (a poll of what must be there), an object that does not exist fails
        as the service's GET would (404, its message)."""
        obj, moved = self._answer(obj_id, key)
        if obj is None and existing:
            raise CloudNotFound(self._missing % obj_id, status=404)
        return obj, moved

    def _answer(self, obj_id, key):
        now = self._clock()
        with self._lock:
            self._ask(obj_id, now, key)
            listing = self._listing
            # A list answers only the objects it asked for (they were polling
            # when it started, and their keys are in its filter).
            owner = False
            # An object's next poll never takes the answer its last one had,
            # however soon it comes (its answer could be older than its ask).
            if listing is None or listing.started < now - JOIN_WINDOW or \
                    obj_id not in listing.ids or obj_id in listing.answered:
                listing = self._start(obj_id, now, key)
                owner = listing is not None
            if listing is not None:
                listing.answered.add(obj_id)
        if listing is None:
            return self._get_one(obj_id), False
        if owner:
            self._run(listing)
        else:
            listing.done.wait()
        if listing.error is not None:
            raise listing.error
        moved = bool(listing.moved - {obj_id})
        obj = None if listing.found is None else listing.found.get(obj_id)
        if obj is not None:
            return obj, moved
        # not in transition, gone, renamed, or the list had no answer
        return self._get_one(obj_id), moved

    def _note_moves(self, listing):
        moved = set()
        with self._lock:
            for obj_id in listing.ids:
                obj = listing.found.get(obj_id)
                status = None if obj is None else getattr(obj, 'status', None)
                before = self._status.get(obj_id)
                if before is not None and before != status:
                    moved.add(obj_id)
                if status is None:
                    self._status.pop(obj_id, None)
                else:
                    self._status[obj_id] = status
        listing.moved = frozenset(moved)

    def _run(self, listing):
        try:
            found, usable = self._list_some(frozenset(listing.ids.values()))
            listing.found = found
            self._note_moves(listing)
            if not usable:
                self.listing_off = True
        except CloudError as exc:
            if exc.status == 400 or (exc.status is None and not isinstance(exc, CloudTransient)):
                # the filter refused (a deployment that does not allow it, an
                # SDK that refuses the query): each poll reads its own object,
                # now and for the rest of the run
                self.listing_off = True
            else:
                listing.error = exc
        except Exception as exc:  # noqa: B902 - handed to every poll that joined
            listing.error = exc
        finally:
            listing.done.set()


def look(ctx, kind, obj_id, key, existing=False):
    """A poll's look at ``obj_id`` through the run's batch of ``kind``
    (``Batch.poll``), telling the engine to look again soon when the
    answer saw another object move."""
    obj, moved = batch(ctx.conn, kind).poll(obj_id, key, existing)
    if moved:
        ctx.look_soon = True
    return obj


def batch(conn, kind):
    """The run's batch of ``kind`` ('server' | 'volume'): one per connection
    (one connection per run).  The first polls of a kind come together (a
    tick): its factory reads the service's version document once for them
    (sdk.warm_service) before any of them calls; the attachments' polls are
    the first Cinder calls of a delete."""
    return sdk.remembered(conn, ('poll-batch', kind), lambda: _FACTORIES[kind](conn))


def server_key(ctx):
    """What a server's poll lists it by: its name when the engine made it
    (unique: the random suffix), else None (read by id)."""
    name = ctx.physical_name
    if ctx.properties.get('name') or not name or not _PLAIN_NAME.match(name):
        return None
    return name


def volume_key(ctx):
    """What a volume's poll lists it by: the stack's mark in its metadata
    (a volume the stack did not make is simply not listed: read by id)."""
    return None if ctx.stack_id is None else str(ctx.stack_id)


def name_filters(names, limit=NAME_FILTER_CHARS):
    """Nova ``name`` filters matching exactly ``names``, each at most about
    ``limit`` characters long."""
    filters, group, size = [], [], 0
    for name in sorted(names):
        spelled = name.replace('.', '[.]')
        if group and size + len(spelled) + 1 > limit:
            filters.append('^(%s)$' % '|'.join(group))
            group, size = [], 0
        group.append(spelled)
        size += len(spelled) + 1
    if group:
        filters.append('^(%s)$' % '|'.join(group))
    return filters


def _servers(conn):
    sdk.warm_service(conn, 'compute')
    since = (datetime.datetime.now(datetime.timezone.utc) - SKEW).strftime('%Y-%m-%dT%H:%M:%SZ')

    def list_some(names):
        wanted = set(n.lower() for n in names)   # MySQL's REGEXP ignores case
        found, bounded = {}, True
        for name_filter in name_filters(names):
            # changes-since also lists servers deleted since then (status
            # DELETED), which is what a delete's poll wants to see.
            for server in sdk.call(lambda f=name_filter: list(conn.compute.servers(
                    details=True, name=f, changes_since=since))):
                bounded = bounded and (server.name or '').lower() in wanted
                found[server.id] = server
        # Polled servers changed in this run, deleted ones included: a list
        # naming none of them has a filter that did not match as spelled
        # (Nova on MySQL escapes '|'): each is read by id from now on.
        return found, bounded and (bool(found) or len(names) < 2)
    return Batch(lambda sid: sdk.get_or_none(conn.compute.get_server, sid), list_some,
                 missing='Instance %s could not be found.')


def _volumes(conn):
    sdk.warm_service(conn, 'block_storage')
    statuses = str(list(VOLUME_TRANSITIONS))

    def list_some(stack_ids):
        found, bounded = {}, True
        for stack_id in sorted(stack_ids):
            mark = json.dumps({TAG_STACK: stack_id})
            for vol in sdk.call(lambda m=mark: list(conn.block_storage.volumes(
                    details=True, properties=m, status=statuses))):
                bounded = bounded and (vol.status in VOLUME_TRANSITIONS
                                       and (vol.metadata or {}).get(TAG_STACK) in stack_ids)
                found[vol.id] = vol
        return found, bounded
    return Batch(lambda vid: sdk.get_or_none(conn.block_storage.get_volume, vid), list_some,
                 missing='Volume %s could not be found.')


_FACTORIES = {'server': _servers, 'volume': _volumes}
