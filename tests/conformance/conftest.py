# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Session fixtures of the conformance suites: every case (generated and
corpus) goes to Heat in ONE batch per test session."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import differential  # noqa: E402
import oracle_runner  # noqa: E402
from suite import REPORT, heat_answers  # noqa: E402


def _unavailable(reason):
    # In CI the oracle venv is built by `make conformance`: its absence there
    # is a broken setup, not a reason to skip.
    if os.environ.get('CI') == 'true':
        pytest.fail('Heat oracle unavailable in CI: %s' % reason)
    pytest.skip('Heat oracle unavailable: %s' % reason)


@pytest.fixture(scope='session')
def heat():
    """Heat's answer for every case id."""
    try:
        return heat_answers()
    except oracle_runner.OracleUnavailable as exc:
        _unavailable(str(exc))


@pytest.fixture(scope='session')
def engine():
    return differential.engine()


class _Report(object):
    def __init__(self):
        self.rows = {}

    def add(self, case, heat, ours, diffs):
        self.rows[case.id] = {
            'family': case.family, 'heat_valid': heat.get('valid'),
            'ours_valid': None if ours is None else ours.get('valid'),
            'heat_error': differential.message(heat),
            'ours_error': None if ours is None else differential.message(ours),
            'diffs': diffs}

    def write(self):
        if not self.rows:
            return
        os.makedirs(REPORT, exist_ok=True)
        with open(os.path.join(REPORT, 'differential.json'), 'w') as handle:
            json.dump(self.rows, handle, indent=1, sort_keys=True)


@pytest.fixture(scope='session')
def report():
    rep = _Report()
    yield rep
    rep.write()
