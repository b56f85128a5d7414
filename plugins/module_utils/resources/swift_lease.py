# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A short lease on a name in a Swift container, for writers that share
nothing but the object store (two heat_stack processes, on two machines).

The lease is an object PUT with ``If-None-Match: *`` (Swift answers 412
while it exists) and ``X-Delete-After``: a holder that dies without
releasing it loses it when Swift's clock passes the expiry, because
Swift's object server counts an expired object as absent for
``If-None-Match`` (and answers 404 to reads of it) before the expirer ever
removes it.  So no takeover protocol is needed, unlike the stack lock of
engine/store/swift.py, which is held for a whole run and renewed.

A lease is for a few requests (a read-modify-write of one object), far
shorter than ``LEASE``; a holder that took longer than that does not
delete the lease object at release (it may be someone else's by then).

Swift's If-None-Match is no compare-and-swap: the object server looks for
the object before it reads the body and commits, so two PUTs racing on an
absent object both answer 201 (37 of 40 tries on the local cloud's Swift;
the newer timestamp's body stays).  A writer whose PUT made the object
reads it back once a racing PUT has landed (``SETTLE``) and holds the
lease only if the token there is its own.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import random
import secrets
import time

from ..errors import CloudError, CloudNotFound, ResourceFailure
from . import raw_request as raw

# seconds a lease lasts when its holder never releases it (Swift rounds
# X-Delete-After to whole seconds)
LEASE = 20
# seconds a writer waits for a lease before failing (another writer's lease
# left by a killed process ends within LEASE)
WAIT = 3 * LEASE
# the first and the longest pause between two tries
FIRST_PAUSE = 0.05
LONGEST_PAUSE = 1.0
# seconds between making the lease object and reading it back: a racing PUT
# past Swift's check has a few bytes left to write (an immediate read-back
# mostly sees the winner already: the pause is a margin); paid once per
# document write
SETTLE = 0.1


def _put(store, container, name, token, lease):
    """True when this PUT made the lease object, False when one exists."""
    try:
        raw.send(store, 'PUT', raw.path(container, name), data=token.encode('utf-8'),
                 headers={'If-None-Match': '*', 'X-Delete-After': str(lease),
                          'Content-Type': 'text/plain'})
        return True
    except CloudError as exc:
        if exc.status != 412:
            raise
        return False


def _read(store, container, name):
    try:
        return raw.send(store, 'GET', raw.path(container, name)).content
    except CloudNotFound:
        return None


def _try(store, container, name, token, lease, *, sleep=time.sleep):
    """True when this writer now holds ``name``: its PUT made the object
    and it is still its own after SETTLE, or an earlier PUT of the same
    token did (a PUT retried after a lost answer finds its own lease)."""
    if not _put(store, container, name, token, lease):
        held = _read(store, container, name)
        if held is not None:
            return held == token.encode('utf-8')
        # released or expired between the two: try again at once
        if not _put(store, container, name, token, lease):
            return False
    sleep(SETTLE)
    return _read(store, container, name) == token.encode('utf-8')


@contextlib.contextmanager
def held(store, container, name, *, lease=LEASE, wait=WAIT, clock=time.monotonic,
         sleep=time.sleep):
    """Hold the lease ``container/name`` for the ``with`` block; waits for a
    lease another writer holds (pauses growing from FIRST_PAUSE, with a
    little jitter so that waiters do not retry in step) up to ``wait``
    seconds, then raises ResourceFailure naming the object."""
    token = secrets.token_hex(16)
    start = clock()
    pause = FIRST_PAUSE
    while not _try(store, container, name, token, lease, sleep=sleep):
        if clock() - start >= wait:
            raise ResourceFailure('The lease %s/%s stayed held by another writer for %d s; a writer that '
                                  'died lets it go within %d s' % (container, name, wait, lease))
        sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, LONGEST_PAUSE)
    taken = clock()
    try:
        yield
    finally:
        # past most of its lease, the object may be another writer's by now
        if clock() - taken < lease * 0.75:
            try:
                raw.send(store, 'DELETE', raw.path(container, name))
            except CloudNotFound:
                pass
