# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Waits that Heat's own resources simulate (TestResource, Delay), as polls.

Heat sleeps or raises PollDelay inside its handlers; here a handler records
when the wait started and how long it lasts in ``ctx.data`` and the check
handler compares the wall clock, so no engine thread is held by a wait and a
restarted run keeps the deadline it had.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

_KEY = 'wait'


def start(ctx, seconds):
    """Record a wait of ``seconds`` (None/0: none; < 0: forever) from now."""
    ctx.data[_KEY] = {'started': time.time(), 'seconds': seconds}


def elapsed(ctx):
    """(seconds waited, seconds to wait), or None when no wait was started."""
    wait = ctx.data.get(_KEY)
    if not isinstance(wait, dict):
        return None
    return time.time() - float(wait.get('started') or 0), wait.get('seconds')


def clear(ctx):
    ctx.data.pop(_KEY, None)
