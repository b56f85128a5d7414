# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import gc
import threading

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import collector


@pytest.fixture(autouse=True)
def _threshold_kept():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_a_run_spaces_young_collections_and_puts_the_threshold_back():
    gc.set_threshold(700, 10, 10)
    with collector.spaced_collections():
        assert gc.get_threshold() == (collector.YOUNG, 10, 10)
        assert gc.isenabled()
    assert gc.get_threshold() == (700, 10, 10)


def test_overlapping_runs_restore_what_the_first_found_when_the_last_ends():
    gc.set_threshold(500, 7, 9)
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with collector.spaced_collections():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with collector.spaced_collections():
            second_in.set()
            first_out.wait(5)
            seen['while_second_runs'] = gc.get_threshold()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen['while_second_runs'] == (collector.YOUNG, 7, 9)
    assert gc.get_threshold() == (500, 7, 9)


def test_a_failing_run_puts_the_threshold_back():
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError):
        with collector.spaced_collections():
            raise RuntimeError('boom')
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize('found', [(0, 10, 10), (50000, 10, 10)])
def test_a_threshold_set_off_or_higher_is_left_as_it_is(found):
    gc.set_threshold(*found)
    with collector.spaced_collections():
        assert gc.get_threshold() == found
    assert gc.get_threshold() == found
