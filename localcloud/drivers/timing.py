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


# (serial of the rule, kind) -> the ids of the objects this process has failed under it: a rule
# with ``times`` fails only that many objects (each driver runs in one service process:
# nova-compute, cinder-volume)
_FAILED = {}


def fails(kind, name, ident=None):
    """True when the admin API's ``fail_builds`` rule for ``kind`` matches ``name``: the build
    then ends in ERROR, as a broken hypervisor or backend would end it (a chaos campaign's "goes
    to ERROR while building").  A rule is a regular expression searched in the resource's name
    (every matching build fails), or ``{"pattern": regex, "times": N}``: the builds of the first N
    matching objects (``ident``) after the rule was set fail, every build of them (Cinder
    reschedules a failed build: the object still ends in error), and other objects build (a fault
    that passes, which Heat's ``action_retry_limit`` retries through with a new object)."""
    knobs = _knobs()
    rule = (knobs.get('fail_builds') or {}).get(kind)
    times = None
    if isinstance(rule, dict):
        rule, times = rule.get('pattern'), rule.get('times')
    if not rule or name is None:
        return False
    try:
        if re.search(rule, name) is None:
            return False
    except re.error:
        return False
    if times is None:
        return True
    failed = _FAILED.setdefault((knobs.get('fail_builds_serial'), kind), set())
    if ident in failed:
        return True
    if len(failed) >= int(times):
        return False
    failed.add(ident)
    return True


def pause(kind):
    """Sleep for the configured time of ``kind`` (green under eventlet, where time is patched)."""
    delay = seconds(kind)
    if delay:
        time.sleep(delay)
    return delay
