# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""CPU figures that mean the same on any machine.

A CPU time per resource depends on the machine as much as on the engine: the same commit gives
ms per resource about 2.5 times apart on a shared 2-core VM and on a desktop.  So every CPU figure
is also given in calibration units: the CPU time of a fixed pure-Python workload (``workload``),
run in the same process as the phases it is set beside, on the same kind of clock (the CPU clock
of the thread that runs it; the phases' is the process's).  The engine's CPU is interpreter work
(dicts, strings, calls, small objects), as the workload's is, so the ratio moves little from one
machine to another.  The workload is fixed: changing it, or its size, changes every ratio.

A shared machine's speed moves from minute to minute (other processes on the cores, the host's
frequency), so units timed once before a run miss what the run met.  ``Sampler`` runs one unit
every PERIOD_S seconds in a thread of its own while the phases run, and ``engine_cpu_s`` is the
process's CPU clock without that thread's: the phases' figures hold none of the calibration's
work.  Units are also timed in a row before the phases (``calibrate``).

And beside the local cloud's Heat, the engine's CPU for a stack is given as a ratio to Heat's for
the same stack (``cpu_ratio``): Heat's process read from /proc (``process_cpu_s``), less the
bench's own status polls it served (``less_polls``).

Nothing of the bench, the cloud or the collection is imported: importable with no sys.path set.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import statistics
import threading
import time

# One calibration unit: ITERATIONS rounds of the loop in ``workload``.
ITERATIONS = 10000
# Units timed one by one each time the calibration runs; the median is kept (one unit that met
# a busy core moves no figure).
SAMPLES = 15
# Between two units of the Sampler: a few hundred units over a phase of minutes, about half a per
# cent of one core.
PERIOD_S = 0.5


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


class Sampler(object):
    """One calibration unit every ``period`` seconds in a thread of its own, each timed by that
    thread's CPU clock, from ``start()`` to ``stop()``; at most one runs in a process (the one
    ``engine_cpu_s`` leaves out)."""

    running = None

    def __init__(self, period=PERIOD_S, work=workload, clock=time.thread_time):
        self.period, self.work, self.clock = period, work, clock
        self.runs_ms = []
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        if Sampler.running is not None:
            raise RuntimeError('a calibration sampler already runs in this process')
        self._thread = threading.Thread(target=self._sample, name='calibration', daemon=True)
        Sampler.running = self
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.wait(self.period):
            start = self.clock()
            self.work()
            self.runs_ms.append(1000.0 * (self.clock() - start))

    def cpu_s(self):
        """The CPU seconds the sampler's thread has used so far."""
        thread = self._thread
        if thread is None or thread.ident is None or not thread.is_alive():
            return 0.0
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))

    def stop(self):
        """Stops sampling; the calibration of the units timed (None when there was none)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if Sampler.running is self:
            Sampler.running = None
        if not self.runs_ms:
            return None
        return {'unit_ms': statistics.median(self.runs_ms), 'runs_ms': list(self.runs_ms),
                'iterations': ITERATIONS}

    def calibration(self):
        """The units timed so far, as ``calibrate`` gives them (None before the first)."""
        runs = list(self.runs_ms)
        if not runs:
            return None
        return {'unit_ms': statistics.median(runs), 'runs_ms': runs, 'iterations': ITERATIONS}


def engine_cpu_s():
    """This process's CPU clock without the running Sampler's thread: what a phase measures."""
    sampler = Sampler.running
    return time.process_time() - (sampler.cpu_s() if sampler is not None else 0.0)


def merged(*calibrations):
    """One calibration from several of the same process (before, during and after its phases):
    the median of all their units; None when none was timed."""
    runs = [ms for c in calibrations if c for ms in c['runs_ms']]
    if not runs:
        return None
    return {'unit_ms': statistics.median(runs), 'runs_ms': runs, 'iterations': ITERATIONS}


def so_far(*calibrations):
    """``merged`` with the running Sampler's units so far: the unit to print a figure with while
    the process still runs."""
    sampler = Sampler.running
    return merged(*(calibrations + ((sampler.calibration(),) if sampler is not None else ())))


def unit_ms(calibration):
    """The unit of a calibration (None for none)."""
    return (calibration or {}).get('unit_ms')


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
