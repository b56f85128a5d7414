# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How each parameter type reads a value (checked against Heat 27.0.1)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import parameter_values as pv


@pytest.mark.parametrize('param_type, raw, expected', [
    ('string', 'abc', 'abc'),
    ('string', 5, '5'),
    ('string', 1.5, '1.5'),
    ('string', True, 'True'),
    ('string', {'a': 1}, "{'a': 1}"),        # Heat's str(), not JSON
    ('string', '', ''),
    ('number', '1', 1),
    ('number', '1.5', 1.5),
    ('number', '1e3', 1000.0),
    ('number', ' 12 ', 12),
    ('number', '1_000', 1000),
    ('number', 7, 7),
    ('number', 2.5, 2.5),
    ('number', True, True),                  # a bool is a number to Heat
    ('number', '-0', 0),
    ('boolean', 'true', True),
    ('boolean', 'Yes', True),
    ('boolean', ' on ', True),
    ('boolean', 't', True),
    ('boolean', 'y', True),
    ('boolean', '1', True),
    ('boolean', 1, True),
    ('boolean', True, True),
    ('boolean', 'FALSE', False),
    ('boolean', 'no', False),
    ('boolean', 'off', False),
    ('boolean', 'f', False),
    ('boolean', 'n', False),
    ('boolean', '0', False),
    ('boolean', 0, False),
    ('boolean', False, False),
    ('comma_delimited_list', 'a,b', ['a', 'b']),
    ('comma_delimited_list', 'a, b', ['a', ' b']),     # no trimming
    ('comma_delimited_list', '', []),
    ('comma_delimited_list', ',', ['', '']),
    ('comma_delimited_list', ['a', 1, True], ['a', '1', 'True']),
    ('comma_delimited_list', [], []),
    ('json', '{"a": 1}', {'a': 1}),
    ('json', '[1, 2]', [1, 2]),
    ('json', '5', 5),
    ('json', 'null', None),
    ('json', '', ''),                                   # empty text stays as is
    ('json', {'a': [1, {'b': None}]}, {'a': [1, {'b': None}]}),
    ('json', {1: 'x'}, {'1': 'x'}),                     # the round trip makes keys text
    ('json', [], []),
    ('json', 5, 5),
])
def test_typed_value(param_type, raw, expected):
    got = pv.typed_value(param_type, raw)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize('param_type, raw', [
    ('number', 'abc'), ('number', ''), ('number', [1]), ('number', {'a': 1}), ('number', None),
    ('boolean', 'maybe'), ('boolean', '1.0'), ('boolean', 1.0), ('boolean', 2), ('boolean', ''),
    ('boolean', None),
    ('comma_delimited_list', 5), ('comma_delimited_list', {'a': 1}), ('comma_delimited_list', True),
    ('json', 'abc'), ('json', '{'), ('json', "{'a': 1}"),
])
def test_unreadable_values(param_type, raw):
    with pytest.raises((ValueError, TypeError)):
        pv.typed_value(param_type, raw)


def test_number_nan_and_infinity_are_floats():
    assert math.isnan(pv.to_number('nan'))
    assert pv.to_number('inf') == float('inf')


@pytest.mark.parametrize('param_type, raw, expected', [
    ('string', 5, 5),                    # constraints see the value as given
    ('number', '3', '3'),
    ('boolean', 'yes', 'yes'),
    ('comma_delimited_list', 'a,b', ['a', 'b']),
    ('json', '[1]', [1]),
])
def test_what_constraints_see(param_type, raw, expected):
    assert pv.loaded(param_type, raw) == expected


def test_boolean_error_lists_the_spellings():
    with pytest.raises(ValueError) as err:
        pv.to_boolean('maybe')
    assert 'maybe' in str(err.value)
    for word in ('0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'):
        assert word in str(err.value)


@pytest.mark.parametrize('value, hidden, as_json, expected', [
    ('abc', False, False, 'abc'),
    ('abc', False, True, '"abc"'),
    (['a'], False, True, '["a"]'),
    ('abc', True, False, '******'),
    ('abc', True, True, '******'),
    (object, False, True, repr(object)),
])
def test_show(value, hidden, as_json, expected):
    assert pv.show(value, hidden, as_json) == expected


@pytest.mark.parametrize('param_type, raw, hidden, present, absent', [
    ('number', 'secret', False, ['"secret"', 'not a number'], []),
    ('number', 'secret', True, ['******', 'not a number'], ['secret']),
    ('boolean', 'secret', False, ["'secret'"], []),
    ('boolean', 'secret', True, ['******'], ['secret']),
    ('json', 'secret', True, ['not valid JSON'], ['secret']),
    ('comma_delimited_list', 5, False, ['int'], []),
])
def test_conversion_problem_hides_hidden_values(param_type, raw, hidden, present, absent):
    with pytest.raises((ValueError, TypeError)) as info:
        pv.typed_value(param_type, raw)
    text = pv.conversion_problem(param_type, raw, info.value, hidden)
    for part in present:
        assert part in text
    for part in absent:
        assert part not in text
