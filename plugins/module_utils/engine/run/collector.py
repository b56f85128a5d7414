# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Python's cyclic garbage collector, spaced out while a stack run holds a big heap.

A run allocates container objects by the hundred thousand (rows read from
the store, resolved properties, JSON answers) while its heap holds the whole
template, graph and record.  With CPython's default threshold (a young
collection every 700 allocations) a big run spends much of its CPU in
collections whose older generations scan what the run holds, so the cost
per resource would grow with the stack.

So while at least one run is in progress the young generation's threshold is
raised (``YOUNG``); the older generations keep theirs, so what is collected,
and when relative to young collections, does not change.  The setting is the
interpreter's documented ``gc.set_threshold``: it spaces collections out, it
never turns the collector off.  Runs may overlap in one process (threads):
the first to start raises the threshold, the last to end puts back what it
found.  A module runs in a process of its own, so this touches nothing of
Ansible's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import gc
import threading

# allocations between young collections while a run is in progress
YOUNG = 10000

_LOCK = threading.Lock()
_STATE = {'runs': 0, 'saved': None}


@contextlib.contextmanager
def spaced_collections():
    with _LOCK:
        if _STATE['runs'] == 0:
            _STATE['saved'] = gc.get_threshold()
            young, older = _STATE['saved'][0], _STATE['saved'][1:]
            # a threshold of 0 means the user turned collection off: keep it so
            if young and young < YOUNG:
                gc.set_threshold(YOUNG, *older)
        _STATE['runs'] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE['runs'] -= 1
            if _STATE['runs'] == 0:
                gc.set_threshold(*_STATE['saved'])
                _STATE['saved'] = None
