# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One list call answers the polls of every object of a kind due together.

A stack builds its servers and volumes side by side and each waits for a
status.  A GET per object per poll costs N calls a cycle; the engine lands
polls on ticks shared by all resources (engine/resource_tasks.poll_delay),
so the polls of one tick ask here at about the same moment and one list
call of the kind answers them all.  An object asked for alone gets its own
GET (a list is no cheaper for one, and its answer is bigger).

A list answers "not there" with authority only when it shows every object
of the kind (``authoritative``); otherwise (Nova's list narrowed by
changes-since) an object missing from it is read with its own GET.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import threading
import time

from ..errors import CloudNotFound
from . import sdk

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
# within JOIN_WINDOW (those that have were answered already; counting them
# made the second of two objects starting together list for itself alone,
# beside the first one's GET).  For one, its own GET says the same for less.
MIN_BATCH = 2

_MISSING = object()


class _Listing(object):
    __slots__ = ('started', 'done', 'found', 'error')

    def __init__(self, started):
        self.started = started
        self.done = threading.Event()
        self.found = None      # id -> object
        self.error = None


class Batch(object):
    """``fetch(id)`` -> the object, or None when it does not exist.

    ``get_one(id)`` reads one object (None when not found); ``list_all()``
    returns the listed objects as id -> object."""

    def __init__(self, get_one, list_all, authoritative, missing='%s could not be found.',
                 clock=time.monotonic):
        self._missing = missing
        self._get_one = get_one
        self._list_all = list_all
        self._authoritative = authoritative
        self._clock = clock
        self._lock = threading.Lock()
        self._asking = {}      # id -> [when it first asked, when it last asked]
        self._listing = None   # the newest list call (running or done)

    def _ask(self, obj_id, now):
        """Note an ask; forget the objects that stopped asking.  Returns
        when ``obj_id`` first asked (in this stretch of polling)."""
        times = self._asking.setdefault(obj_id, [now, now])
        times[1] = now
        for other, (_first, last) in list(self._asking.items()):
            if now - last > STALE:
                del self._asking[other]
        return self._asking.get(obj_id, times)[0]

    def fetch(self, obj_id):
        now = self._clock()
        with self._lock:
            first = self._ask(obj_id, now)
            listing = self._listing
            # A list answers only objects that were already asking when it
            # started: an object made a moment before its first poll may
            # have been made after an older list started.
            if listing is None or listing.started < now - JOIN_WINDOW or listing.started < first:
                listing = None
                coming = sum(1 for other, (_first, last) in self._asking.items()
                             if other != obj_id and now - last > JOIN_WINDOW)
                if coming + 1 >= MIN_BATCH:
                    listing = self._listing = _Listing(now)
                    owner = True
            else:
                owner = False
        if listing is None:
            return self._get_one(obj_id)
        if owner:
            try:
                listing.found = self._list_all()
            except Exception as exc:  # noqa: B902 - handed to every poll that joined
                listing.error = exc
            finally:
                listing.done.set()
        else:
            listing.done.wait()
        if listing.error is not None:
            raise listing.error
        obj = listing.found.get(obj_id, _MISSING)
        if obj is not _MISSING:
            return obj
        if self._authoritative:
            return None
        return self._get_one(obj_id)

    def fetch_existing(self, obj_id):
        """``fetch``, an object that does not exist failing as the service's
        GET would (404, its message): a poll of what must be there."""
        obj = self.fetch(obj_id)
        if obj is None:
            raise CloudNotFound(self._missing % obj_id, status=404)
        return obj


def batch(conn, kind):
    """The run's batch of ``kind`` ('server' | 'volume'): one per connection
    (one connection per run).  The first polls of a kind come together (a
    tick): its factory reads the service's version document once for them
    (sdk.warm_service) before any of them calls; the attachments' polls are
    the first Cinder calls of a delete."""
    return sdk.remembered(conn, ('poll-batch', kind), lambda: _FACTORIES[kind](conn))


def _servers(conn):
    sdk.warm_service(conn, 'compute')
    since = (datetime.datetime.now(datetime.timezone.utc) - SKEW).strftime('%Y-%m-%dT%H:%M:%SZ')

    def list_all():
        # changes-since also lists servers deleted since then (status
        # DELETED), which is what a delete's poll wants to see.
        servers = sdk.call(lambda: list(conn.compute.servers(details=True, changes_since=since)))
        return dict((s.id, s) for s in servers)
    return Batch(lambda sid: sdk.get_or_none(conn.compute.get_server, sid), list_all,
                 authoritative=False, missing='Instance %s could not be found.')


def _volumes(conn):
    sdk.warm_service(conn, 'block_storage')

    def list_all():
        # every volume of the project: one missing is gone
        volumes = sdk.call(lambda: list(conn.block_storage.volumes(details=True)))
        return dict((v.id, v) for v in volumes)
    return Batch(lambda vid: sdk.get_or_none(conn.block_storage.get_volume, vid), list_all,
                 authoritative=True, missing='Volume %s could not be found.')


_FACTORIES = {'server': _servers, 'volume': _volumes}
