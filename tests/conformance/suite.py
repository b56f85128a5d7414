# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The cases of a conformance session, built once at import."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import cases
import corpus
import oracle_runner

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATED = cases.all_cases()
if corpus.corpus_dir():
    CORPUS, CORPUS_MISSING = corpus.corpus_cases()
    CORPUS += corpus.environment_cases()
else:
    CORPUS, CORPUS_MISSING = [], []
ALL = GENERATED + CORPUS
REPORT = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'tests', 'output', 'conformance')
_HEAT = {}


def heat_answers():
    """Heat's answer for every case id of ALL, asked once per session in one
    batch (the oracle's cache keeps them between sessions).  Raises
    oracle_runner.OracleUnavailable, every time it is called, when the oracle
    cannot answer.  Collection asks too: which cases a test applies to can
    depend on Heat's verdict."""
    if 'error' in _HEAT:
        raise _HEAT['error']
    if 'answers' not in _HEAT:
        try:
            answers = oracle_runner.ask([case.request() for case in ALL])
        except oracle_runner.OracleUnavailable as exc:
            _HEAT['error'] = exc
            raise
        _HEAT['answers'] = {case.id: answer for case, answer in zip(ALL, answers)}
    return _HEAT['answers']
