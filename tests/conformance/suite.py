# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The cases of a conformance session, built once at import."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import cases
import corpus

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATED = cases.all_cases()
if corpus.corpus_dir():
    CORPUS, CORPUS_MISSING = corpus.corpus_cases()
    CORPUS += corpus.environment_cases()
else:
    CORPUS, CORPUS_MISSING = [], []
ALL = GENERATED + CORPUS
REPORT = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'tests', 'output', 'conformance')
