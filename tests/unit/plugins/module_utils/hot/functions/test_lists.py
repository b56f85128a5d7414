# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from .conftest import failure, since, value

# (versions, snippet, expected value) — checked against Heat 27 with the oracle.
VALUES = [
    # repeat
    (since('2015-04-30'), {'repeat': {'template': 'port-%p%', 'for_each': {'%p%': ['a', 'b']}}},
     ['port-a', 'port-b']),
    (since('2015-04-30'), {'repeat': {'template': {'k-%v%': '%v%', 'n': 1},
                                      'for_each': {'%v%': ['x']}}}, [{'k-x': 'x', 'n': 1}]),
    (since('2015-04-30'), {'repeat': {'template': ['%a%', '%b%'],
                                      'for_each': {'%a%': ['1', '2'], '%b%': ['x', 'y']}}},
     [['1', 'x'], ['1', 'y'], ['2', 'x'], ['2', 'y']]),
    (since('2015-04-30'), {'repeat': {'template': 'v', 'for_each': {'%v%': []}}}, []),
    (since('2015-04-30'), {'repeat': {'template': '%v%', 'for_each': {'%v%': None}}}, []),
    (since('2015-04-30'), {'repeat': {'template': 5, 'for_each': {'%v%': ['a']}}}, [5]),
    (since('2016-10-14'), {'repeat': {'template': '%k%', 'for_each': {'%k%': {'a': 1, 'b': 2}}}},
     ['a', 'b']),
    (since('2017-09-01'), {'repeat': {'template': '%a%%b%', 'permutations': False,
                                      'for_each': {'%a%': ['1', '2'], '%b%': ['x', 'y']}}},
     ['1x', '2y']),
    (since('2017-09-01'), {'repeat': {'template': '%a%', 'permutations': True,
                                      'for_each': {'%a%': ['1']}}}, ['1']),
    # map_merge
    (since('2016-04-08'), {'map_merge': [{'a': 1, 'b': 2}, {'b': 3}, None, {}]}, {'a': 1, 'b': 3}),
    (since('2016-04-08'), {'map_merge': []}, {}),
    # map_replace
    (since('2016-10-14'), {'map_replace': [{'k1': 'v1', 'k2': 'v2'},
                                           {'keys': {'k1': 'K1'}, 'values': {'v2': 'V2'}}]},
     {'K1': 'v1', 'k2': 'V2'}),
    (since('2016-10-14'), {'map_replace': [{'a': [1], 'b': 'x'}, {'values': {'x': 'y'}}]},
     {'a': [1], 'b': 'y'}),
    (since('2016-10-14'), {'map_replace': [{'a': 1}, {'keys': {'a': 'a'}}]}, {'a': 1}),
    (since('2016-10-14'), {'map_replace': [None, None]}, {}),
    # filter
    (since('2017-02-24'), {'filter': [[1, 'a'], [1, 2, 'a', 'b', 1]]}, [2, 'b']),
    (since('2017-02-24'), {'filter': [None, [1, 2]]}, [1, 2]),
    (since('2017-02-24'), {'filter': [[1], []]}, []),
    (since('2017-02-24'), {'filter': [[1], None]}, None),
    # list_concat(_unique)
    (since('2017-09-01'), {'list_concat': [[1, 2], [2, 3], None, []]}, [1, 2, 2, 3]),
    (since('2017-09-01'), {'list_concat_unique': [[1, 2], [2, {'a': 1}], [{'a': 1}]]},
     [1, 2, {'a': 1}]),
    (since('2017-09-01'), {'list_concat': []}, []),
    # contains
    (since('2017-09-01'), {'contains': ['a', ['a', 'b']]}, True),
    (since('2017-09-01'), {'contains': [3, [1, 2]]}, False),
    (since('2017-09-01'), {'contains': ['b', 'abc']}, True),
    (since('2017-09-01'), {'contains': [{'a': 1}, [{'a': 1}]]}, True),
]


@pytest.mark.parametrize('versions, snippet, expected', VALUES)
def test_values(versions, snippet, expected):
    for version in versions:
        assert value(snippet, version) == expected, version


ERRORS = [
    (since('2015-04-30'), {'repeat': ['x']}, 'parse', 'must be a map'),
    (since('2015-04-30'), {'repeat': {'template': 'x'}}, 'parse', '"for_each"'),
    (since('2015-04-30'), {'repeat': {'template': 'x', 'for_each': ['a']}}, 'validate', 'must be a map'),
    (since('2015-04-30'), {'repeat': {'template': 'x', 'for_each': {}}}, 'resolve', 'must not be empty'),
    (since('2015-04-30'), {'repeat': {'template': '%v%', 'for_each': {'%v%': 'abc'}}}, 'resolve', 'must be lists'),
    (since('2015-04-30', '2016-10-14'), {'repeat': {'template': 'x', 'for_each': {'%v%': {'a': 1}}}},
     'resolve', 'must be lists'),
    (since('2015-04-30'), {'repeat': {'template': '%v%', 'for_each': {'%v%': [1]}}}, 'resolve', ''),
    (since('2017-09-01'), {'repeat': {'template': 'x', 'permutations': 'no', 'for_each': {'%a%': ['1']}}},
     'parse', 'boolean'),
    (since('2017-09-01'), {'repeat': {'template': 'x', 'permutations': False,
                                      'for_each': {'%a%': ['1'], '%b%': ['1', '2']}}}, 'resolve', 'same length'),
    (since('2017-09-01'), {'repeat': {'template': 'x', 'permutations': False,
                                      'for_each': {'%a%': {'k': 1}}}}, 'resolve', 'must be lists'),
    (since('2016-04-08'), {'map_merge': {'a': 1}}, 'resolve', 'list of maps'),
    (since('2016-04-08'), {'map_merge': [{'a': 1}, ['b']]}, 'resolve', 'can only merge maps'),
    (since('2016-04-08'), {'map_merge': 'ab'}, 'resolve', 'can only merge maps'),
    (since('2016-10-14'), {'map_replace': [{'a': 1}]}, 'resolve', 'must be [map'),
    (since('2016-10-14'), {'map_replace': [['a'], {}]}, 'resolve', 'must be [map'),
    (since('2016-10-14'), {'map_replace': [{'a': 1}, {'other': {}}]}, 'resolve', 'must be [map'),
    (since('2016-10-14'), {'map_replace': [{'a': 1}, {'keys': ['a']}]}, 'resolve', 'must be [map'),
    (since('2016-10-14'), {'map_replace': [{'a': 1, 'b': 2}, {'keys': {'a': 'b'}}]}, 'resolve',
     'collides with a key of the input map'),
    (since('2016-10-14'), {'map_replace': [{'a': 1, 'b': 2}, {'keys': {'a': 'c', 'b': 'c'}}]}, 'resolve',
     'collides with a key of the output map'),
    (since('2017-02-24'), {'filter': 'x'}, 'parse', 'must be a list'),
    (since('2017-02-24'), {'filter': [[1]]}, 'parse', 'takes 2 arguments'),
    (since('2017-02-24'), {'filter': [[1], 'abc']}, 'resolve', 'only works on lists'),
    (since('2017-02-24'), {'filter': ['a', ['a']]}, 'resolve', 'list of values'),
    (since('2017-09-01'), {'list_concat': 'ab'}, 'resolve', 'list of lists'),
    (since('2017-09-01'), {'list_concat': [[1], 'ab']}, 'resolve', 'is not a list'),
    (since('2017-09-01'), {'list_concat_unique': {'a': 1}}, 'resolve', 'list of lists'),
    (since('2017-09-01'), {'contains': 'a'}, 'parse', 'must be a list'),
    (since('2017-09-01'), {'contains': ['a']}, 'parse', 'takes 2 arguments'),
    (since('2017-09-01'), {'contains': ['a', 5]}, 'resolve', 'must be a sequence'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', ERRORS)
def test_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message
        assert err.path[:2] == ('x', list(snippet)[0])


@pytest.mark.parametrize('snippet, version', [
    ({'repeat': {'template': 'x', 'for_each': {'x': [1]}}}, '2014-10-16'),
    ({'map_merge': [{}]}, '2015-10-15'),
    ({'map_replace': [{}, {}]}, '2016-04-08'),
    ({'filter': [[], []]}, '2016-10-14'),
    ({'list_concat': [[]]}, '2017-02-24'),
    ({'list_concat_unique': [[]]}, '2017-02-24'),
    ({'contains': ['a', []]}, '2017-02-24'),
])
def test_not_yet_a_function_is_data(snippet, version):
    assert value(snippet, version) == snippet


def test_repeat_permutations_key_is_data_before_2017_09_01():
    # Older repeats ignore unknown keys (and nest the loops).
    snippet = {'repeat': {'template': '%a%%b%', 'permutations': False,
                          'for_each': {'%a%': ['1', '2'], '%b%': ['x']}}}
    assert value(snippet, '2017-02-24') == ['1x', '2x']


def test_repeat_over_values_from_functions():
    snippet = {'repeat': {'template': {'name': '%n%'}, 'for_each': {'%n%': {'get_param': 'names'}}}}
    assert value(snippet, params={'names': ['a', 'b']}) == [{'name': 'a'}, {'name': 'b'}]
