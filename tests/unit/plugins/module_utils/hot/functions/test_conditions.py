# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from .conftest import failure, since, value

# Every row is evaluated with these conditions defined (and parameter p='x').
CONDITIONS = {'yes': True, 'no': False, 'is_x': {'equals': [{'get_param': 'p'}, 'x']}}
PARAMS = {'p': 'x'}

# Condition functions, evaluated as a condition: (versions, snippet, expected)
# — checked against Heat 27 with the oracle.
COND_VALUES = [
    (since('2016-10-14'), {'equals': ['a', 'a']}, True),
    (since('2016-10-14'), {'equals': [[1, {'k': 2}], [1, {'k': 2}]]}, True),
    (since('2016-10-14'), {'equals': [1, '1']}, False),
    (since('2016-10-14'), {'equals': [{'get_param': 'p'}, 'x']}, True),
    (since('2016-10-14'), {'not': True}, False),
    (since('2016-10-14'), {'not': 'no'}, True),
    (since('2016-10-14'), {'not': {'equals': [1, 2]}}, True),
    (since('2016-10-14'), {'and': ['yes', 'is_x', True]}, True),
    (since('2016-10-14'), {'and': ['yes', {'not': 'yes'}]}, False),
    (since('2016-10-14'), {'or': ['no', False, 'is_x']}, True),
    (since('2016-10-14'), {'or': ['no', {'equals': [1, 2]}]}, False),
    (since('2017-09-01'), {'contains': ['x', [{'get_param': 'p'}]]}, True),
    (since('2017-09-01'), {'yaql': {'expression': '$.data.a > 1', 'data': {'a': 2}}}, True),
]


@pytest.mark.parametrize('versions, snippet, expected', COND_VALUES)
def test_condition_values(versions, snippet, expected):
    for version in versions:
        got = value(snippet, version, conditions=CONDITIONS, params=PARAMS, condition=True)
        assert got == expected, version


# ``if`` in ordinary data: (versions, snippet, expected).
VALUES = [
    (since('2016-10-14'), {'if': ['yes', 'a', 'b']}, 'a'),
    (since('2016-10-14'), {'if': ['no', 'a', 'b']}, 'b'),
    (since('2016-10-14'), {'if': [True, {'get_param': 'p'}, 'b']}, 'x'),
    (since('2016-10-14'), {'if': [{'not': 'is_x'}, 'a', ['b']]}, ['b']),
    (since('2016-10-14'), {'if': [{'get_param': 'which'}, 'a', 'b']}, 'b'),
    (since('2016-10-14'), {'if': ['yes', {'if': ['no', 1, 2]}, 3]}, 2),
    # the branch not taken is never parsed: a bad function there is fine
    (since('2016-10-14'), {'if': ['yes', 'ok', {'list_join': 'bad'}]}, 'ok'),
    (since('2021-04-16'), {'if': ['yes', 'a']}, 'a'),
    (since('2021-04-16'), {'k': {'if': ['no', 'a']}, 'l': [1, {'if': ['no', 2]}, 3]}, {'l': [1, 3]}),
    (since('2021-04-16'), {'if': ['no', 'a']}, None),
]
PARAMS_EXTRA = {'which': 'no'}


@pytest.mark.parametrize('versions, snippet, expected', VALUES)
def test_values(versions, snippet, expected):
    for version in versions:
        got = value(snippet, version, conditions=CONDITIONS, params=dict(PARAMS, **PARAMS_EXTRA))
        assert got == expected, version


COND_ERRORS = [
    (since('2016-10-14'), {'equals': 'a'}, 'parse', '[value_1, value_2]'),
    (since('2016-10-14'), {'equals': ['a']}, 'parse', '[value_1, value_2]'),
    (since('2016-10-14'), {'equals': []}, 'parse', '[value_1, value_2]'),
    (since('2016-10-14'), {'not': None}, 'parse', 'must be a condition'),
    (since('2016-10-14'), {'not': 'nosuch'}, 'resolve', 'Invalid condition "nosuch"'),
    (since('2016-10-14'), {'not': ['yes']}, 'resolve', 'Invalid condition'),
    (since('2016-10-14'), {'and': 'yes'}, 'parse', 'list of conditions'),
    (since('2016-10-14'), {'and': ['yes']}, 'parse', 'at least 2'),
    (since('2016-10-14'), {'or': [True]}, 'parse', 'at least 2'),
    (since('2016-10-14'), {'or': ['no', 'nosuch']}, 'resolve', 'Invalid condition'),
    (since('2016-10-14'), {'not': {'if': [True, True, False]}}, 'parse', 'cannot be used in a condition'),
    # not a function yet, so plain data, so not a condition
    (since('2016-10-14', '2017-09-01'), {'not': {'contains': ['a', ['a']]}}, 'resolve',
     'Invalid condition'),
    (since('2016-10-14', '2017-09-01'), {'yaql': {'expression': 'true'}}, 'parse',
     'cannot be used in a condition'),
    (since('2016-10-14'), {'and': [{'Fn::Select': [0, [True]]}, True]}, 'validate', 'removed'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', COND_ERRORS)
def test_condition_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version, conditions=CONDITIONS, params=PARAMS, condition=True)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message


ERRORS = [
    (since('2016-10-14', '2021-04-16'), {'if': ['yes', 'a']}, 'parse', 'value_if_false'),
    (since('2016-10-14'), {'if': 'yes'}, 'parse', 'must be a list'),
    (since('2016-10-14'), {'if': []}, 'parse', 'must be a list'),
    (since('2016-10-14'), {'if': ['yes', 1, 2, 3]}, 'parse', 'must be a list'),
    (since('2016-10-14'), {'if': ['nosuch', 1, 2]}, 'parse', 'Invalid condition "nosuch"'),
    (since('2016-10-14'), {'if': [{'get_resource': 'r'}, 1, 2]}, 'parse', 'cannot be used in a condition'),
    (since('2016-10-14'), {'if': ['yes', {'list_join': 'bad'}, 'ok']}, 'parse', 'expected the form'),
    (since('2021-04-16'), {'if': ['yes']}, 'parse', 'must be a list'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', ERRORS)
def test_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version, conditions=CONDITIONS, params=PARAMS)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message


def test_if_error_points_at_the_if():
    got, err = failure({'if': ['nosuch', 1, 2]}, conditions=CONDITIONS, params=PARAMS)
    assert err.path == ('x', 'if')


def test_if_branch_functions_get_their_index_in_the_path():
    got, err = failure({'if': ['no', 1, {'list_join': 'bad'}]}, conditions=CONDITIONS, params=PARAMS)
    assert err.path == ('x', 'if', 2, 'list_join')


@pytest.mark.parametrize('version', since('2013-05-23', '2016-10-14'))
def test_condition_functions_are_data_before_2016_10_14(version):
    for snippet in ({'if': [True, 1, 2]}, {'equals': [1, 1]}, {'not': True},
                    {'and': [True, True]}, {'or': [True, False]}):
        assert value(snippet, version) == snippet


@pytest.mark.parametrize('version', since('2016-10-14'))
def test_plain_condition_functions_outside_conditions_are_data(version):
    # equals/not/and/or are condition functions only: elsewhere they are data.
    for snippet in ({'equals': [1, 1]}, {'not': True}, {'and': [True, True]}):
        assert value(snippet, version, conditions=CONDITIONS) == snippet
