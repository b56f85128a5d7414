# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Build times for the fake drivers: read from the knobs file the supervisor rewrites at runtime."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import re
import time


def _knobs():
    path = os.environ.get('LOCALCLOUD_KNOBS')
    if not path:
        return {}
    try:
        with open(path) as f:
            knobs = json.load(f)
    except (OSError, ValueError):
        return {}
    return knobs if isinstance(knobs, dict) else {}


def seconds(kind):
    try:
        return max(0.0, float(_knobs().get('build_seconds', {}).get(kind, 0) or 0))
    except (ValueError, TypeError, AttributeError):
        return 0.0


def fails(kind, name):
    """True when the admin API's ``fail_builds`` rule for ``kind`` (a regular expression searched
    in the resource's name) matches: the build then ends in ERROR, as a broken hypervisor or
    backend would end it (a chaos campaign's "goes to ERROR while building")."""
    pattern = (_knobs().get('fail_builds') or {}).get(kind)
    if not pattern or name is None:
        return False
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return False


def pause(kind):
    """Sleep for the configured time of ``kind`` (green under eventlet, where time is patched)."""
    delay = seconds(kind)
    if delay:
        time.sleep(delay)
    return delay
