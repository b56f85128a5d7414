# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lock of a stack kept in Swift (store_swift.py): Terraform's former
Swift backend's design.

The lock of top-level stack ``name`` is the object ``<prefix>/<name>.lock``,
written with ``If-None-Match: *`` (Swift answers 412 when it exists) and
holding owner, since and a lease the run renews at each heartbeat
(``refresh_lock``).  A run finding another's live lease fails at once naming
the holder and since when.  An expired lease is taken over by the one run
that creates the claim object named after that very lock object's etag
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

``SwiftLock`` is a mixin of ``SwiftStore``: it uses the store's ``_put``,
``_get``, ``_delete``, ``_name`` and ``url``, and calls the SQLite copy's
own lock fields through ``super()``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ...errors import CloudError, StackLocked

# A claim only has to outlive the race it settles; Swift's expirer drops it.
CLAIM_LIFE = 86400
# Seconds between making the lock object and reading it back: a racing PUT
# that passed Swift's existence check has only a small body left to write
# (tens of milliseconds on a loaded local cloud); paid once per run.
SETTLE = 0.5
_pause = time.sleep


def when(stamp):
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(stamp))


def lease(owner, ttl, since=None):
    now = time.time()
    return {'owner': owner, 'since': since or now, 'expiry': now + ttl}


class SwiftLock(object):
    """take / refresh_lock / unlock / release of the lock object."""

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
                              'renewed, or that run\'s lock replaced it as both took it' % (stack['name'], self.url, (held or {}).get('owner', 'nobody')))
        self._put(obj, lease(owner, ttl, held.get('since')))
        super(SwiftLock, self).refresh_lock(stack_id, owner, ttl)

    def unlock(self, stack_id, owner):
        stack = self.stack_by_id(stack_id)
        super(SwiftLock, self).unlock(stack_id, owner)
        if stack is not None:
            self.release(stack['name'], owner)

    def release(self, name, owner):
        """Drop ``owner``'s lock of ``name`` (also of a stack deleted since)."""
        self._held.discard(name)
        obj = self._lock_obj(name)
        held, _etag = self._get(obj)
        if held is not None and held.get('owner') == owner:
            self._delete(obj)
