# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from .conftest import failure, since, value

# (versions, snippet, expected) — checked against Heat 27 with the oracle.
VALUES = [
    (since('2016-10-14'), {'yaql': {'expression': '$.data.var1.sum()', 'data': {'var1': [3, 2, 1]}}}, 6),
    (since('2016-10-14'), {'yaql': {'expression': '$.data', 'data': 'text'}}, 'text'),
    (since('2016-10-14'), {'yaql': {'expression': '$.data + 2', 'data': 3}}, 5),
    (since('2016-10-14'), {'yaql': {'expression': '1 + 3'}}, 4),
    (since('2016-10-14'), {'yaql': {'expression': '$.data.where($ > 1).select($ * 10)', 'data': [1, 2, 3]}},
     [20, 30]),
    (since('2016-10-14'), {'yaql': {'expression': '$.data.d.reduce($1.mergeWith($2))',
                                    'data': {'d': [{'a': 1}, {'b': 2}]}}}, {'a': 1, 'b': 2}),
    (since('2016-10-14'), {'yaql': {'expression': '$.data.keys().len()', 'data': {'a': 1, 'b': 2}}}, 2),
    (since('2016-10-14'), {'yaql': {'expression': 'range(5)'}}, [0, 1, 2, 3, 4]),
    (since('2016-10-14'), {'yaql': {'expression': '$.data.toUpper()',
                                    'data': {'get_param': 'p'}}}, 'X'),
]
PARAMS = {'p': 'x', 'bad': 'invalid('}


@pytest.mark.parametrize('versions, snippet, expected', VALUES)
def test_values(versions, snippet, expected):
    for version in versions:
        assert value(snippet, version, params=PARAMS) == expected, version


ERRORS = [
    (since('2016-10-14'), {'yaql': 'invalid'}, 'parse', 'must be a map'),
    (since('2016-10-14'), {'yaql': {'wrong': 'x', 'expression': '1'}}, 'parse', '"expression"'),
    (since('2016-10-14'), {'yaql': {'data': {}}}, 'parse', '"expression"'),
    (since('2016-10-14'), {'yaql': {'expression': 'invalid('}}, 'validate', 'Bad yaql expression'),
    (since('2016-10-14'), {'yaql': {'expression': 5}}, 'validate', 'must be a string'),
    (since('2016-10-14'), {'yaql': {'expression': {'get_param': 'bad'}}}, 'resolve', 'Bad yaql expression'),
    (since('2016-10-14'), {'yaql': {'expression': '$.data.nosuch()'}}, 'resolve', 'yaql evaluation failed'),
    # Heat's limits: at most 200 items per collection expression, 10000 bytes of memory
    (since('2016-10-14'), {'yaql': {'expression': 'range(1000).toList()'}}, 'resolve', 'yaql'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', ERRORS)
def test_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version, params=PARAMS)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message
        assert err.path == ('x', 'yaql')


@pytest.mark.parametrize('version', since('2013-05-23', '2016-10-14'))
def test_yaql_is_data_before_2016_10_14(version):
    snippet = {'yaql': {'expression': '1'}}
    assert value(snippet, version) == snippet
