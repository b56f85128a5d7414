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
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections

import pytest

import differential
from suite import GENERATED

IDS = [case.id for case in GENERATED]


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


@pytest.mark.parametrize('case', GENERATED, ids=IDS)
def test_engine_matches_heat(case, heat, engine, report):
    answer = heat[case.id]
    ours = differential.run_ours(case)
    if case.incomparable:
        pytest.skip(case.incomparable)
    diffs = differential.compare(case, answer, ours)
    report.add(case, answer, ours, diffs)
    why = differential.known_verdict_difference(case.id)
    if why:
        # The list must stay true: an entry whose verdicts agree goes.
        assert diffs and diffs[0].startswith('verdict:'), \
            'listed in KNOWN_VERDICT_DIFFERENCES but the verdicts agree: %s' % case.id
        pytest.xfail(why)
    assert not diffs, '\n'.join(diffs)


@pytest.mark.parametrize('case', GENERATED, ids=IDS)
def test_error_names_what_heat_names(case, heat, engine):
    answer = heat[case.id]
    if answer['valid']:
        pytest.skip('valid in Heat')
    ours = differential.run_ours(case)
    if ours.get('valid'):
        pytest.skip('verdict differs: test_engine_matches_heat reports it')
    gaps = differential.message_gaps(case, answer, ours)
    why = differential.known_message_difference(case.id)
    if gaps and why:
        pytest.xfail(why)
    assert not gaps, 'Heat: %s\nours: %s\nmissing: %s' % (
        differential.message(answer), differential.message(ours), ', '.join(gaps))
