# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Build times for the fake drivers: read from the knobs file the supervisor rewrites at runtime."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import time


def seconds(kind):
    path = os.environ.get('LOCALCLOUD_KNOBS')
    if not path:
        return 0.0
    try:
        with open(path) as f:
            return max(0.0, float(json.load(f).get('build_seconds', {}).get(kind, 0) or 0))
    except (OSError, ValueError, TypeError):
        return 0.0


def pause(kind):
    """Sleep for the configured time of ``kind`` (green under eventlet, where time is patched)."""
    delay = seconds(kind)
    if delay:
        time.sleep(delay)
    return delay
