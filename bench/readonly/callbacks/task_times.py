# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A callback plugin for bench/readonly_bench.py: each task's wall time, from
its start (before the worker forks and AnsiballZ builds the module) to its
result, written as JSON to the file named by READONLY_BENCH_TIMES."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import time

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'aggregate'
    CALLBACK_NAME = 'task_times'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self.started = None
        self.times = []

    def v2_playbook_on_task_start(self, task, is_conditional):
        self.started = (task.get_name(), time.monotonic())

    def _done(self, result, ok):
        name, t0 = self.started
        self.times.append({'task': name, 'seconds': time.monotonic() - t0, 'ok': ok,
                           'result': {} if ok else dict(result._result)})

    def v2_runner_on_ok(self, result):
        self._done(result, True)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._done(result, False)

    def v2_playbook_on_stats(self, stats):
        with open(os.environ['READONLY_BENCH_TIMES'], 'w') as f:
            json.dump(self.times, f, default=str)
