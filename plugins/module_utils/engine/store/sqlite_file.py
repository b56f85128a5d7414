# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Is the file at a store's path a whole SQLite database?  Asked before SQLite opens it.

SQLite takes an empty file for a new, empty database, and reads a file cut short as far as its
pages go: a store truncated by a full disk, a bad copy or a crashed backup tool would then
answer "no such stack", and the next run would create every resource again beside the ones it
already made.  So a store that exists must be a regular, readable file that starts with SQLite's
header and is at least as long as the header says; anything else is a StoreError naming the file
and what to do, never "no stack".  (A page damaged inside a whole-length file is SQLite's own
"database disk image is malformed", which the store reports as a StoreError too.)
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import stat
import time

from ...errors import StoreError

MAGIC = b'SQLite format 3\x00'
HEADER = 100
# Another run may have just made the file (SQLite creates it empty on open and writes its first
# page a moment later): an empty file is given this long to grow before it is refused.
EMPTY_GRACE = 5.0
_ADVICE = ('restore it from a backup; stackers.orchestration will not take it for a store with '
           'no stack, which would create every resource again')


def check(path, grace=EMPTY_GRACE, sleep=time.sleep):
    """False when there is no file yet (a new store); True when the file looks like a whole
    SQLite database; a StoreError otherwise."""
    deadline = time.monotonic() + grace
    while True:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise StoreError('Cannot open the state store %s: %s' % (path, exc.strerror or exc))
        if not stat.S_ISREG(info.st_mode):
            raise StoreError('The state store %s is not a regular file' % path)
        if info.st_size or time.monotonic() >= deadline:
            break
        sleep(0.05)
    if info.st_size == 0:
        raise StoreError('The state store %s is empty (0 bytes): it was truncated; %s'
                         % (path, _ADVICE))
    try:
        with open(path, 'rb') as f:
            head = f.read(HEADER)
    except OSError as exc:
        raise StoreError('Cannot open the state store %s: %s' % (path, exc.strerror or exc))
    if not head.startswith(MAGIC):
        raise StoreError('The state store %s is not an SQLite database (corrupt or overwritten); %s'
                         % (path, _ADVICE))
    if len(head) < HEADER:
        raise StoreError('The state store %s is truncated (%d bytes); %s' % (path, len(head), _ADVICE))
    page_size = int.from_bytes(head[16:18], 'big')
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], 'big')
    # the header's page count is valid only when its "valid for" counter matches the change
    # counter (SQLite's own rule; older writers left it stale)
    if pages and head[24:28] == head[92:96] and info.st_size < pages * page_size:
        raise StoreError('The state store %s is truncated: %d bytes where its header says %d; %s'
                         % (path, info.st_size, pages * page_size, _ADVICE))
    return True
