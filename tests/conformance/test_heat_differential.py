# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Generated cases: our engine against real Heat.

- the case tables say what Heat does where they state it (checks the tables);
- same validity verdict; for valid cases the same conditions, resolved outputs
  and properties, and the same dependency edges;
- for cases both reject, our message names the same things Heat's names
  (resources, parameters, outputs, conditions), except the documented
  differences in differential.KNOWN_MESSAGE_DIFFERENCES;
- the verdicts differing on purpose are listed, with the reason, in
  differential.KNOWN_VERDICT_DIFFERENCES (they xfail while they differ).

Each test is generated only for the cases it applies to: the engine is
compared on every case whose answer Heat gives offline (``case.incomparable``
names the others), and messages on the cases Heat rejects, chosen at
collection from Heat's answers (cached by the oracle runner).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections

import pytest

import differential
import oracle_runner
from suite import GENERATED, heat_answers

IDS = [case.id for case in GENERATED]
COMPARABLE = [case for case in GENERATED if not case.incomparable]


def pytest_generate_tests(metafunc):
    """``rejected``: the comparable generated cases Heat rejects.  Without
    an oracle one stand-in is generated, which the ``heat`` fixture skips
    (or fails, in CI) with the reason."""
    if 'rejected' not in metafunc.fixturenames:
        return
    try:
        heat = heat_answers()
    except oracle_runner.OracleUnavailable:
        metafunc.parametrize('rejected', [None], ids=['heat-unavailable'])
        return
    rejected = [case for case in COMPARABLE if not heat[case.id]['valid']]
    metafunc.parametrize('rejected', rejected, ids=[case.id for case in rejected])


def test_there_are_hundreds_of_cases_in_every_family():
    counts = collections.Counter(case.family for case in GENERATED)
    assert len(GENERATED) > 1000
    for family in ('fn', 'alias', 'plain', 'cond', 'param', 'env', 'deps', 'struct'):
        assert counts[family] >= 50, counts
    assert len(set(IDS)) == len(IDS)


def test_case_tables_agree_with_heat(heat):
    wrong = ['%s: tables say %s, Heat says %s (%s)' % (
        case.id, 'valid' if case.intent else 'invalid',
        'valid' if heat[case.id]['valid'] else 'invalid', differential.message(heat[case.id]))
        for case in GENERATED
        if case.intent is not None and case.intent != heat[case.id]['valid']]
    assert not wrong, '\n'.join(wrong)


@pytest.mark.parametrize('case', COMPARABLE, ids=[case.id for case in COMPARABLE])
def test_engine_matches_heat(case, heat, engine, report):
    answer = heat[case.id]
    ours = differential.run_ours(case)
    diffs = differential.compare(case, answer, ours)
    report.add(case, answer, ours, diffs)
    why = differential.known_verdict_difference(case.id)
    if why:
        # The list must stay true: an entry whose verdicts agree goes.
        assert diffs and diffs[0].startswith('verdict:'), \
            'listed in KNOWN_VERDICT_DIFFERENCES but the verdicts agree: %s' % case.id
        pytest.xfail(why)
    assert not diffs, '\n'.join(diffs)


def test_error_names_what_heat_names(rejected, heat, engine):
    case = rejected
    answer = heat[case.id]
    ours = differential.run_ours(case)
    if ours.get('valid'):
        why = differential.known_verdict_difference(case.id)
        if why:
            pytest.xfail(why)
        pytest.fail('Heat rejects it and ours accepts it, so ours names nothing (the verdict is '
                    'test_engine_matches_heat\'s): %s' % differential.message(answer))
    gaps = differential.message_gaps(case, answer, ours)
    why = differential.known_message_difference(case.id)
    if gaps and why:
        pytest.xfail(why)
    assert not gaps, 'Heat: %s\nours: %s\nmissing: %s' % (
        differential.message(answer), differential.message(ours), ', '.join(gaps))
