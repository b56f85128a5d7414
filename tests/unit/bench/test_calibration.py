# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""bench/stack/calibration.py: CPU figures in units of a fixed workload, and the engine's CPU over
Heat's.  The module imports nothing of the bench, so it is imported here as the repository is
(through the collection's path that conftest.py links), with no sys.path of its own."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os

import pytest

from bench.stack import calibration


class _Clock(object):
    """A process clock that advances by the next of ``steps`` at each read after the first of a
    pair: each sample of a calibration takes the next step."""

    def __init__(self, steps):
        self.steps, self.now, self.reads = list(steps), 0.0, 0

    def __call__(self):
        self.reads += 1
        if self.reads % 2 == 0:
            self.now += self.steps.pop(0)
        return self.now


def test_the_workload_is_fixed_and_does_its_work():
    assert calibration.workload() == calibration.workload()
    assert calibration.workload(100) != calibration.workload(200)
    assert calibration.ITERATIONS == 10000      # changing it changes every ratio printed


def test_a_calibration_is_the_median_of_its_samples_on_the_clock_given():
    clock = _Clock([0.003, 0.002, 0.010, 0.002, 0.0025])
    done = []
    found = calibration.calibrate(samples=5, clock=clock, work=lambda: done.append(1))
    assert len(done) == 5
    assert found['unit_ms'] == pytest.approx(2.5)           # one slow sample moves nothing
    assert found['runs_ms'] == pytest.approx([3.0, 2.0, 10.0, 2.0, 2.5])
    both = calibration.merged(found, {'runs_ms': [1.0, 1.0]}, None)
    assert both['unit_ms'] == pytest.approx(2.0) and len(both['runs_ms']) == 7


def test_a_real_calibration_measures_this_process():
    found = calibration.calibrate(samples=3)
    assert found['unit_ms'] > 0 and len(found['runs_ms']) == 3


def test_cpu_per_resource_in_calibration_units():
    ms, units = calibration.per_resource(5.13, 1000, 2.5)
    assert ms == pytest.approx(5.13) and units == pytest.approx(2.052)
    assert calibration.per_resource(1.0, 1000, None) == (1.0, None)
    assert calibration.units(None, 2.5) is None


def test_the_printed_figures():
    assert calibration.cpu_text(5.13, 2.5) == '5.13 ms/r (x2.05 calib)'
    assert calibration.cpu_text(1234.0, 2.5, 'ms') == '1234.00 ms (x494 calib)'
    assert calibration.cpu_text(5.13, None) == '5.13 ms/r (x- calib)'
    assert calibration.column(0.468) == 'x0.47' and calibration.column(None) == '-'


def test_the_engines_cpu_over_heats():
    assert calibration.cpu_ratio(1.0, 4.0) == pytest.approx(0.25)
    assert calibration.cpu_ratio(1.0, 0.0) is None
    assert calibration.cpu_ratio(None, 4.0) is None
    # Heat's process without the bench's polls, never below zero
    assert calibration.less_polls(3.0, 50, 4.0) == pytest.approx(2.8)
    assert calibration.less_polls(0.1, 50, 4.0) == 0.0
    assert calibration.less_polls(3.0, 50, None) == 3.0


def test_a_processs_cpu_is_read_from_proc(tmp_path):
    tick = float(os.sysconf('SC_CLK_TCK'))
    stat = tmp_path / '4242'
    stat.mkdir()
    # the command may hold spaces and parentheses: the fields are read after its last ')'
    fields = ['S'] + ['0'] * 10 + ['250', '50'] + ['0'] * 10
    (stat / 'stat').write_text('4242 (heat (api) x) %s\n' % ' '.join(fields))
    assert calibration.process_cpu_s(4242, proc=str(tmp_path)) == pytest.approx(300 / tick)
    assert calibration.process_cpu_s(4343, proc=str(tmp_path)) is None
    assert calibration.process_cpu_s(os.getpid()) >= 0


def test_the_sampler_times_units_in_its_own_thread_and_the_phases_cpu_leaves_it_out():
    import time
    assert calibration.Sampler.running is None
    sampler = calibration.Sampler(period=0.001, work=lambda: calibration.workload(20000))
    engine0, process0 = calibration.engine_cpu_s(), time.process_time()
    sampler.start()
    try:
        with pytest.raises(RuntimeError):
            calibration.Sampler().start()          # one per process: the one left out
        deadline = time.monotonic() + 30
        while len(sampler.runs_ms) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert calibration.so_far(None)['unit_ms'] > 0
        sampler_cpu = sampler.cpu_s()
        engine, process = calibration.engine_cpu_s() - engine0, time.process_time() - process0
    finally:
        found = sampler.stop()
    assert calibration.Sampler.running is None and sampler.cpu_s() == 0.0
    assert len(found['runs_ms']) >= 5 and found['unit_ms'] == calibration.merged(found)['unit_ms']
    # this thread slept: the process's CPU is the sampler's, the phases' clock leaves it out
    assert sampler_cpu > 0.02 and process >= sampler_cpu
    assert engine < process - 0.8 * sampler_cpu
    assert calibration.so_far(None) is None and calibration.merged(None) is None


def test_a_sampler_that_timed_nothing_gives_no_calibration():
    sampler = calibration.Sampler(period=60).start()
    assert sampler.stop() is None and sampler.calibration() is None
    assert calibration.unit_ms(None) is None
