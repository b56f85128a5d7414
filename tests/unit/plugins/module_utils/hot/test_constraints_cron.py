# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The cron lines Heat's cron_expression accepts (croniter 7).  Every row was
checked against Heat 27.0.1 (and ~10,000 generated lines agree)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import constraints_cron as cron

CRON_GOOD = [
    '0 23 * * *', '* * * * *', '@hourly', '@HOURLY', '@annually', '@midnight',
    '*/5 * * * *', '0-59/15 * * * *', '59/15 * * * *', '5/10 * * * *',
    '0 0 1 jan mon', '0 0 1 JAN-DEC *', '0 0 l * *', '0 0 L * *', '0 0 15w * *',
    '0 0 w15 * *', '0 0 * * 1#2', '0 0 * * l5', '0 0 * * mon#2',
    '0 0 * * mon-wed#2', '0 0 * * 1#2,1', '0 0 * * 7', '0 0 * * sun-sat',
    '0 0 * * sat-sun', '0 0 * * fri-7', '0 0 ? * *', '0 0 * * ?', '0 0 5-1 * *',
    '0 0 * * * * 2050', '0 0 * * * * 2000-1980', '0 0 * * * 59',
    'r * * * *', 'R(0-29) * * * *', 'r/5 * * * *', 'r(10-20)/3 * * * *',
    '* * * * r(0-7)', '1,2,3 * * * *', '0 0 1-l * *', '0 0 * * 1-7', '0 0 * * 7-1',
    '0 0 1 jan-jan *', '0 0 1 dec/3 *', '0 0 1 12/3 *', '0 0 * * 0,1,2,3,4,5,6,1#2',
    '0 0 * * *,1#2', '0 0 1 * *\t', '0 0 31 2 *', '00 00 01 01 *', '0-0 * * * *',
    '0 0 * * tue/2', '0-59/60 * * * *',
]
CRON_BAD = [
    '', '* * * * * 100', '* *', '@reboot', ' @hourly', '*/0 * * * *',
    '0 0 15w,16 * *', '0 0 32w * *', '0 0 0w * *', '0 0 * * 1#6', '0 0 * * 1#0',
    '0 0 * * 1#2,3',      # plain days mixed with an nth day
    '0 0 * * 1#1,2#2,3', '0 0 * * 8', '0 ? * * *', '0 0 ?? * *', '0 0 0 * *',
    '0 0 0-5 * *',        # range values are checked again: 0 is no day
    '0 0 * 0 *', '0 0 * 0-3 *', '0 0 * * * * 1969', '0 0 * * * * 2100',
    '0 0 * * * * 5-3/3000', '0 0 * * * 60', 'h * * * *', 'r(0-99) * * * *',
    'r(5-5) * * * *', 'r/0 * * * *', '* * r(0-5) * *', '-5 * * * *', '5- * * * *',
    '*-5 * * * *', '*/ * * * *', '*/x * * * *', '*/5/3 * * * *', '1-5/2/3 * * * *',
    '1,,2 * * * *', ', * * * *', '0 0 l-5 * *', '0 0 * * l', '0 0 * * l#3',
    '0 0 1 jan/0 *', '0 0 1 foo *', '0 0 1 * foo', '0\u00a00 1 * *',
    '0 0 1 * * * * *', '1-60 * * * *', '0 24 * * *', '0 0 jan-jan * *',
    '0 0 * * jan-feb#2', '0 0 * * a_b#2', '0 0 1w-5 * *', '0 0 * 13 *', '0 0 * l *',
    '0 0 * * 5l', '0 0 * * mon,tue#2',
    '0 0 * * jan#2',      # parsed as nth 'jan', which is no week day
]


@pytest.mark.parametrize('line', CRON_GOOD)
def test_accepted(line):
    assert cron.problem(line) is None


@pytest.mark.parametrize('line', CRON_BAD)
def test_refused(line):
    assert cron.problem(line)


@pytest.mark.parametrize('value', [5, None, ['* * * * *']])
def test_not_text(value):
    assert 'not text' in cron.problem(value)


@pytest.mark.parametrize('line, words', [
    ('* *', '5, 6 or 7 fields'),
    ('h * * * *', 'hash id'),
    ('0 0 * * 1#2,3', 'mixes'),
    ('0 0 15w,16 * *', 'single day'),
    ('0 0 1 foo *', "'foo'"),
])
def test_reasons(line, words):
    assert words in cron.problem(line)
