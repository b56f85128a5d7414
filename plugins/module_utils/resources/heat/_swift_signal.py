# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Signals over Swift, as Heat's TEMP_URL_SIGNAL keeps them.

A handle is an object in a container named after the stack's id, the
object named after the handle's physical name.  Heat turns versioning on
for handles that take several signals (``X-Versions-Location`` naming the
same container), seeds the object with ``in progress`` (which readers
skip) and hands out a PUT TempURL that expires at the end of 32-bit time,
signed with the account's ``X-Account-Meta-Temp-Url-Key`` (set once when
the account has none).  Every signal an agent PUTs archives the one before
it as ``<len:03x><object>/<timestamp>`` in the same container, so the
signals are the archived versions in name order, then the object itself.

Reading is what a wait pays per poll: one HEAD of the object; only when its
timestamp moved, one listing limited to this object's archive prefix (so
other objects in the stack's container cost nothing) and a GET per body not
read before (archives never change, their bodies are kept in ``seen``).
When several handles of one container wait at once (a server's deployments,
a group's members: their polls land on shared ticks,
engine/walk/resource_tasks.poll_delay), one listing of the container answers all
the looks of a tick instead of a HEAD each (``_Looks``), so the cost of a
poll does not grow with the number of pending signals; a handle waiting
alone keeps its HEAD (a listing is no cheaper for one, and bigger).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import secrets
import threading
import time
from urllib.parse import quote, unquote, urlparse

from ...errors import CloudConflict, CloudNotFound, ResourceFailure
from .. import raw_request as raw
from .. import sdk

IN_PROGRESS = 'in progress'
# Heat's expiry: the last minute of 32-bit time, i.e. never.
EXPIRES = 2147483647 - 60
KEY_HEADER = 'X-Account-Meta-Temp-Url-Key'
# Seconds between setting the account's key and reading which key won (see
# temp_url_key).
KEY_SETTLE = 1.0
# A listing page; a handle with more archived signals than this reads the
# next page at the same poll.
PAGE = 1000


def _account(conn):
    """(root, account path): the object store endpoint split before
    ``/v1/`` (a front door may mount Swift below a path of its own, which
    the TempURL keeps; Swift signs only ``/v1/...``)."""
    endpoint = conn.object_store.get_endpoint().rstrip('/')
    parsed = urlparse(endpoint)
    at = parsed.path.find('/v1/')
    if at < 0:
        raise ResourceFailure('The object store endpoint %s is not a Swift v1 account' % endpoint)
    return '%s://%s%s' % (parsed.scheme, parsed.netloc, parsed.path[:at]), parsed.path[at:]


def temp_url_key(conn):
    """The account's TempURL key, set (as Heat does: 32 hex digits) when it
    has none; asked once per run.

    Two runs (two processes) that both find no key both set one, and the
    last POST wins: URLs signed with the other key are refused (401).  So,
    as Heat does, the key used is the one the account holds when read
    again after the POST, and that read waits ``KEY_SETTLE`` seconds first:
    a run that found no key before this one's POST has posted its own by
    then, unless its HEAD and POST were that far apart.  Only a run that
    sets the key pays the wait."""
    def ask():
        head = raw.send(conn.object_store, 'HEAD', '/').headers
        key = head.get(KEY_HEADER)
        if not key:
            raw.send(conn.object_store, 'POST', '/', headers={KEY_HEADER: secrets.token_hex(16)})
            time.sleep(KEY_SETTLE)
            key = raw.send(conn.object_store, 'HEAD', '/').headers[KEY_HEADER]
        return key
    key = sdk.remembered(conn, ('swift-temp-url-key',), ask)
    sdk.note_secret(conn, key)   # it signs every TempURL: never printed
    return key


def temp_url(conn, container, obj, method='PUT'):
    """The TempURL of ``container/obj`` for ``method`` (PUT: a signal; GET:
    a server's deployments document, which its agent reads)."""
    root, account = _account(conn)
    path = '%s/%s/%s' % (account, container, obj)
    signed = conn.object_store.generate_temp_url(path, EXPIRES, method, absolute=True,
                                                 temp_url_key=temp_url_key(conn))
    query = signed.split('?', 1)[1]
    return '%s%s?%s' % (root, quote(path), query)


def make_handle(conn, container, obj):
    """The container (versioned into itself), the seeded object, and the
    TempURL signals are PUT to; every call is idempotent."""
    store = conn.object_store
    raw.send(store, 'PUT', raw.path(container), headers={'X-Versions-Location': container})
    raw.send(store, 'PUT', raw.path(container, obj), data=IN_PROGRESS.encode())
    return temp_url(conn, container, obj)


def parse_url(conn, url):
    """(container, object) of a TempURL of this account, or ValueError
    with Heat's reason (the part of the path that is wrong)."""
    root, account = _account(conn)
    parsed = urlparse(url or '')
    path = parsed.path
    prefix = urlparse(root).path
    tail = path[len(prefix):] if prefix and path.startswith(prefix + '/') else path
    parts = tail.split('/', 4)
    if not (len(parts) == 5 and not parts[0] and parts[1] == 'v1' and
            parts[2] == account.split('/')[2] and parts[3] and parts[4].strip('/')):
        raise ValueError('"%s" is not a valid SwiftSignalHandle.  The Swift TempURL path is '
                         'invalid' % path)
    return unquote(parts[3]), unquote(parts[4])


def archive_prefix(obj):
    """Where Swift's legacy versioning archives ``obj``'s older versions."""
    return '%03x%s/' % (len(obj.encode('utf-8')), obj)


def _mark(response):
    headers = response.headers
    return '%s|%s' % (headers.get('X-Timestamp') or headers.get('Last-Modified'),
                      headers.get('Etag'))


def _body(store, container, name):
    try:
        response = raw.send(store, 'GET', raw.path(container, name))
    except CloudNotFound:
        return None   # consumed or deleted meanwhile: Heat skips it too
    return response.content.decode('utf-8', 'replace')


def _list(store, container, prefix):
    """The container's listing under ``prefix``, every page ([] when the
    container is gone)."""
    items = []
    marker = None
    while True:
        params = {'format': 'json', 'prefix': prefix, 'limit': PAGE}
        if marker:
            params['marker'] = marker
        try:
            page = raw.send_json(store, 'GET', raw.path(container), params=params) or []
        except CloudNotFound:
            return []
        items.extend(page)
        if len(page) < PAGE:
            return items
        marker = page[-1]['name']


def _archives(store, container, obj):
    return [item['name'] for item in _list(store, container, archive_prefix(obj))]


# A listing that started this recently answers a look arriving now (the looks
# of one tick reach here within milliseconds; ticks are at least 0.25 s apart).
JOIN_WINDOW = 0.15
# A handle that has not looked for this long has stopped waiting.
STALE = 15.0


class _Looks(object):
    """The looks at one container's handles during a run: who looked when, and
    the last listing (when, ({object: hash}, {object: [archive names]}), and
    the handles it answered)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.asked = {}
        self.listed_at = None
        self.listing = None
        self.answered = set()

    def look(self, store, container, obj, now=time.monotonic):
        """The mark of ``obj`` and, from a listing, its archive names (else
        None: a HEAD was enough)."""
        with self.lock:
            t = now()
            self.asked[obj] = t
            waiting = [o for o, at in self.asked.items() if t - at < STALE]
            if len(waiting) < 2:
                return _head_mark(store, container, obj), None
            # a listing answers each handle once: one that looks again (a
            # create's count of earlier signals, then its first poll) gets a
            # fresh one
            if self.listed_at is None or t - self.listed_at > JOIN_WINDOW or obj in self.answered:
                self.listing = _listing(store, container)
                self.listed_at = now()
                self.answered = set()
            self.answered.add(obj)
            hashes, archives = self.listing
            names = archives.get(obj, [])
            return 'list|%s|%s' % (hashes.get(obj), ','.join(names)), names


def _head_mark(store, container, obj):
    try:
        return _mark(raw.send(store, 'HEAD', raw.path(container, obj)))
    except CloudNotFound:
        return None


def _listing(store, container):
    """({object: hash}, {object: [its archive names, in order]}) of the whole
    container (the stack's signals), in pages."""
    hashes, archives = {}, {}
    for item in _list(store, container, ''):
        name = item['name']
        head, _sep, _rest = name.partition('/')
        size = head[:3]
        try:
            length = int(size, 16)
        except ValueError:
            length = -1
        owner = head[3:]
        if _sep and len(owner.encode('utf-8')) == length:
            archives.setdefault(owner, []).append(name)
        else:
            hashes[name] = item.get('hash')
    return hashes, archives


def _looks(conn, container):
    return sdk.remembered(conn, ('swift-looks', container), _Looks)


def read_bodies(conn, container, obj, seen):
    """The signal bodies of ``container/obj`` in the order they arrived
    (``in progress`` left out); ``seen`` (kept in the reader's ctx.data)
    remembers what the last read found, so an unchanged object costs one
    HEAD, or its share of one listing when other handles of the container
    wait too."""
    store = conn.object_store
    mark, listed = _looks(conn, container).look(store, container, obj)
    if 'bodies' in seen and seen.get('mark') == mark:
        return list(seen['bodies'])
    known = seen.get('archives') or {}
    archives = {}
    bodies = []
    for name in (listed if listed is not None else _archives(store, container, obj)):
        body = known[name] if name in known else _body(store, container, name)
        if body is not None:
            archives[name] = body
            bodies.append(body)
    if mark is not None and not mark.startswith('list|None|'):
        body = _body(store, container, obj)
        if body is not None:
            bodies.append(body)
    bodies = [b for b in bodies if b != IN_PROGRESS]
    seen.update(mark=mark, archives=archives, bodies=bodies)
    return list(bodies)


def put_signal(conn, url, body):
    """PUT ``body`` to a handle's TempURL, as an agent does (no token)."""
    raw.send(conn.object_store, 'PUT', url, data=body, authenticated=False)


def delete_object(store, container, name):
    """True when ``name`` was there to delete."""
    try:
        raw.send(store, 'DELETE', raw.path(container, name))
    except CloudNotFound:
        return False
    return True


def delete_container_if_empty(store, container):
    """Another handle's or document's objects keep it (409), and it may be gone already."""
    try:
        raw.send(store, 'DELETE', raw.path(container))
    except (CloudNotFound, CloudConflict):
        pass


def delete_handle(conn, container, obj):
    """Every version of ``obj``, then the container when that left it
    empty (another handle's objects keep it)."""
    store = conn.object_store
    for name in _archives(store, container, obj):
        delete_object(store, container, name)
    # Deleting the object restores a version archived meanwhile: delete
    # until it is gone (a signal racing the delete leaves nothing behind).
    for _attempt in range(100):
        if not delete_object(store, container, obj):
            break
    delete_container_if_empty(store, container)
