# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""CPU figures that mean the same on any machine.

A CPU time per resource depends on the machine as much as on the engine: the same commit gives
ms per resource about 2.5 times apart on a shared 2-core VM and on a desktop.  So every CPU figure
is also given in calibration units: the CPU time of a fixed pure-Python workload (``workload``),
run in the same process as the phases it is set beside and timed by the same clock
(``time.process_time``).  The engine's CPU is interpreter work (dicts, strings, calls, small
objects), as the workload's is, so the ratio moves little from one machine to another.  The
workload is fixed: changing it, or its size, changes every ratio ever printed.

And beside the local cloud's Heat, the engine's CPU for a stack is given as a ratio to Heat's for
the same stack (``cpu_ratio``): Heat's process read from /proc (``process_cpu_s``), less the
bench's own status polls it served (``less_polls``).

Pure functions and /proc reads only: importable without the cloud, the collection or sys.path.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import statistics
import time

# One calibration unit: ITERATIONS rounds of the loop in ``workload``.
ITERATIONS = 10000
# Units timed one by one each time the calibration runs; the median is kept (one unit that met
# a busy core moves no figure).
SAMPLES = 15


def workload(iterations=ITERATIONS):
    """The calibration unit: interpreter work of the engine's kind (a dict of string keys read and
    updated, string formatting, a function call, a small list made), no I/O and no C routine doing
    the bulk.  Answers a number so the work cannot be skipped."""
    table = {}
    total = 0
    for i in range(iterations):
        key = 'k%d' % (i & 255)
        entry = table.get(key)
        if entry is None:
            entry = table[key] = [key, 0]
        entry[1] += i
        total += _weight(entry)
    return total


def _weight(entry):
    return len(entry[0]) + (entry[1] & 7)


def calibrate(samples=SAMPLES, clock=time.process_time, work=workload):
    """The CPU milliseconds of one calibration unit in this process: the median of ``samples``
    units, each timed alone; every sample kept."""
    runs = []
    for _sample in range(samples):
        start = clock()
        work()
        runs.append(1000.0 * (clock() - start))
    return {'unit_ms': statistics.median(runs), 'runs_ms': runs, 'iterations': ITERATIONS}


def merged(*calibrations):
    """One calibration from several of the same process (before and after its phases): the median
    of all their samples."""
    runs = [ms for c in calibrations if c for ms in c['runs_ms']]
    return {'unit_ms': statistics.median(runs), 'runs_ms': runs, 'iterations': ITERATIONS}


def units(cpu_ms, unit_ms):
    """``cpu_ms`` in calibration units, or None without a calibration."""
    if not unit_ms or cpu_ms is None:
        return None
    return cpu_ms / unit_ms


def per_resource(cpu_s, resources, unit_ms):
    """(ms of CPU per resource, the same in calibration units or None)."""
    ms = 1000.0 * cpu_s / resources
    return ms, units(ms, unit_ms)


def column(ratio):
    """A table's calib column: 'x2.05', '-' without a calibration."""
    if ratio is None:
        return '-'
    return 'x%.*f' % (2 if ratio < 100 else 0, ratio)


def calib_text(cpu_ms, unit_ms):
    """'x2.05 calib' (None when there is no calibration: 'x- calib')."""
    ratio = units(cpu_ms, unit_ms)
    return '%s calib' % (column(ratio) if ratio is not None else 'x-')


def cpu_text(cpu_ms, unit_ms, unit='ms/r'):
    """'5.13 ms/r (x2.05 calib)'."""
    return '%.2f %s (%s)' % (cpu_ms, unit, calib_text(cpu_ms, unit_ms))


def cpu_ratio(ours_s, theirs_s):
    """Our CPU over the peer's for the same stack, or None when the peer's is not known."""
    if ours_s is None or not theirs_s:
        return None
    return ours_s / theirs_s


def less_polls(process_cpu_s, polls, poll_cpu_ms):
    """A service process's CPU over a phase without the status polls the bench itself sent it
    (``polls`` at ``poll_cpu_ms`` each), never below zero."""
    if not polls or poll_cpu_ms is None:
        return process_cpu_s
    return max(0.0, process_cpu_s - polls * poll_cpu_ms / 1000.0)


def process_cpu_s(pid, proc='/proc'):
    """CPU seconds (user + system, every thread) process ``pid`` has used so far, from
    /proc/<pid>/stat; None when it cannot be read."""
    try:
        with open(os.path.join(proc, str(pid), 'stat')) as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the command's ')': state is field 3 of stat(5), utime 14 and stime 15
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf('SC_CLK_TCK'))
