# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Who holds a stack's lock, and for how long.

Every store keeps a stack's lock as an owner string and a lease: a run, a
signal, a migration or a key rotation takes it with ``new_owner()`` for
``lock_ttl()`` seconds, and a lock whose owner ran on this host and is gone
(``owner_alive``) may be taken at once.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import socket
import uuid


LOCK_TTL = 60.0


def lock_ttl():
    """The lease of a stack's lock, in seconds: ``$STACKERS_LOCK_TTL`` when
    it is a positive number, else LOCK_TTL.  A crashed run's lock frees
    itself after its lease; a short one (tests, a fast AWX retry) makes the
    next job wait less, at the cost of more lease renewals (a third of it)."""
    try:
        ttl = float(os.environ.get('STACKERS_LOCK_TTL') or LOCK_TTL)
    except ValueError:
        return LOCK_TTL
    return ttl if ttl > 0 else LOCK_TTL


def new_owner():
    return '%s:%d:%s' % (socket.gethostname(), os.getpid(), uuid.uuid4().hex[:8])


def owner_alive(owner):
    """False only when the owner ran on this host and its process is gone."""
    try:
        host, pid, _tag = owner.rsplit(':', 2)
        pid = int(pid)
    except (ValueError, AttributeError):
        return True
    if host != socket.gethostname():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A killed run whose parent is gone too may linger as a zombie nobody
    # reaps (a container's init): it holds a pid but runs nothing.
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[-1].split()[0] != 'Z'
    except (OSError, IndexError):
        return True
