# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A server's deployments document in Swift (Heat's POLL_TEMP_URL).

Heat keeps a server's metadata ``{deployments: [...], os-collect-config:
{...}}`` in a Swift object (container: ``deployment_swift_data.container``
or the server's physical name; object: ``.object`` or a uuid4) and gives
the server's agent a GET TempURL to it; every deployment change PUTs the
whole document again.  Here the server writes it at create (no
deployments yet) and deletes it with itself; each deployment replaces its
own entry (found by the deployment's key, kept beside the entry) and
writes the document back.

The deployments of one server run in parallel, and deployments of two
stacks (two heat_stack processes, maybe on two machines) may share a
server, so the read-change-write of one document is serialised twice: by a
lock per document inside this process, then by a short Swift lease beside
the document (``<object>.lock``, resources/swift_lease.py) across
processes.  A change that leaves the document as it is takes neither.
The document holds the deployments' input values in clear: the agent must
read them (Heat's contract); it is the one object that does.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import threading

from ...errors import CloudNotFound
from .. import raw_request as raw
from .. import swift_lease
from . import _swift_signal as swift

DEPLOYMENTS = 'deployments'
OCC = 'os-collect-config'
# Heat's Server's default collectors, then the one its transport adds.
COLLECTORS = ['ec2', 'request', 'local']
# The server's ctx.data key holding [container, object] of its document.
WHERE_KEY = 'deployments_document'
# Beside each entry: which deployment wrote it (the agent ignores it).
OWNER = 'deployment_key'
# The lease object beside a document, named after it.
LEASE_SUFFIX = '.lock'

_LOCKS = {}
_LOCKS_GUARD = threading.Lock()


def _lock(container, obj):
    with _LOCKS_GUARD:
        return _LOCKS.setdefault((container, obj), threading.Lock())


def metadata(conn, container, obj):
    """The document a new server starts with, and the GET TempURL its agent
    polls (named in the document, as Heat names it)."""
    url = swift.temp_url(conn, container, obj, method='GET')
    return {DEPLOYMENTS: [], OCC: {'collectors': list(COLLECTORS),
                                   'request': {'metadata_url': url}}}


def create(conn, container, obj, document):
    """The container (when missing) and the document; idempotent."""
    store = conn.object_store
    raw.send(store, 'PUT', raw.path(container))
    _put(store, container, obj, document)


def _put(store, container, obj, document):
    raw.send(store, 'PUT', raw.path(container, obj),
             data=json.dumps(document).encode('utf-8'),
             headers={'Content-Type': 'application/json'})


def read(conn, container, obj):
    """The document, or None when it is gone (the server was deleted)."""
    try:
        response = raw.send(conn.object_store, 'GET', raw.path(container, obj))
    except CloudNotFound:
        return None
    return json.loads(response.content.decode('utf-8') or '{}')


def _sort_key(entry):
    # Heat sorts a server's deployments by their config's name
    return (entry.get('name') or '', entry.get('id') or '')


def _changed(document, owner, entry):
    """The document's entries with ``owner``'s replaced, or None when
    that changes nothing."""
    kept = [e for e in document.get(DEPLOYMENTS) or () if e.get(OWNER) != owner]
    if entry is not None:
        kept.append(dict(entry, **{OWNER: owner}))
    kept.sort(key=_sort_key)
    return None if kept == document.get(DEPLOYMENTS) else kept


def _lease(conn, container, obj):
    return swift_lease.held(conn.object_store, container, obj + LEASE_SUFFIX)


def set_entry(conn, where, owner, entry):
    """Put ``entry`` (None: remove) as ``owner``'s deployment in the
    document at ``where`` = (container, object).  Returns False when the
    document is gone."""
    container, obj = where
    with _lock(container, obj):
        document = read(conn, container, obj)
        if document is None:
            return False
        if _changed(document, owner, entry) is None:
            return True         # nothing to write: no lease taken, no request more
        try:
            with _lease(conn, container, obj):
                # read again under the lease: another process may have written since
                document = read(conn, container, obj)
                if document is None:
                    return False
                kept = _changed(document, owner, entry)
                if kept is not None:
                    document[DEPLOYMENTS] = kept
                    _put(conn.object_store, container, obj, document)
        except CloudNotFound:   # the container went with the server meanwhile
            return False
        return True


def delete(conn, container, obj):
    """The document, then its container when that left it empty (after the
    lease went: its object would keep the container)."""
    with _lock(container, obj):
        try:
            with _lease(conn, container, obj):
                swift.delete_object(conn.object_store, container, obj)
        except CloudNotFound:   # no container: nothing to delete
            return
        swift.delete_container_if_empty(conn.object_store, container)
