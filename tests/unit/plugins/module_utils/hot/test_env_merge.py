# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Merging several environments, table-driven.

Every expectation below is also checked against installed Heat's own
merge code (tools/heat_env_oracle.py) when it is available, so the table
states Heat's behaviour, not ours.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os
import subprocess

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import EnvironmentError_
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import env_merge
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.environment import merge_environments

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *([os.pardir] * 5)))

# Heat's own TestMergeEnvironments fixtures.
ENV_1 = {'parameters': {'str_value1': 'string1', 'str_value2': 'string2', 'del_lst_value1': '1,2',
                        'del_lst_value2': '3,4', 'lst_value1': [1, 2],
                        'json_value1': {'1': ['str1', 'str2']}, 'json_value2': {'2': ['test1', 'test2']}},
         'resource_registry': {'test::R1': 'OS::Heat::RandomString', 'test::R2': 'BROKEN'},
         'parameter_defaults': {'lst_value2': [3, 4]}}
ENV_2 = {'parameters': {'str_value1': 'string3', 'str_value2': 'string4', 'del_lst_value1': '5,6',
                        'del_lst_value2': '7,8', 'lst_value1': [5, 6],
                        'json_value1': {'3': ['str3', 'str4']}, 'json_value2': {'4': ['test3', 'test4']}},
         'resource_registry': {'test::R2': 'OS::Heat::None'},
         'parameter_defaults': {'lst_value2': [7, 8]}}
ENV_3 = {'parameters': {'lst_value1': [9, 10], 'json_value1': {'5': ['str5']}}}
ENV_4 = {'parameter_defaults': {'lst_value2': [9, 10]}}
TYPES = {'str_value1': 'string', 'str_value2': 'string', 'del_lst_value1': 'comma_delimited_list',
         'del_lst_value2': 'comma_delimited_list', 'lst_value1': 'comma_delimited_list',
         'lst_value2': 'comma_delimited_list', 'json_value1': 'json', 'json_value2': 'json'}
REGISTRY_1_2 = {'test::R1': 'OS::Heat::RandomString', 'test::R2': 'OS::Heat::None'}


def with_strategies(env, strategies):
    env = copy.deepcopy(env)
    env['parameter_merge_strategies'] = strategies
    return env


# id, envs, param_types, request parameters, expected sections or an error text
CASES = [
    ('overwrite_by_default', [ENV_1, ENV_2], TYPES, None, {
        'parameters': ENV_2['parameters'], 'parameter_defaults': {'lst_value2': [7, 8]},
        'resource_registry': REGISTRY_1_2}),
    ('default_deep_merge', [with_strategies(ENV_1, {'default': 'deep_merge'}), ENV_2], TYPES, None, {
        'parameters': {'json_value1': {'1': ['str1', 'str2'], '3': ['str3', 'str4']},
                       'json_value2': {'2': ['test1', 'test2'], '4': ['test3', 'test4']},
                       'del_lst_value1': '1,2,5,6', 'del_lst_value2': '3,4,7,8', 'lst_value1': [1, 2, 5, 6],
                       'str_value1': 'string1string3', 'str_value2': 'string2string4'},
        'parameter_defaults': {'lst_value2': [3, 4, 7, 8]}, 'resource_registry': REGISTRY_1_2}),
    ('per_parameter_strategies',
     [with_strategies(ENV_1, {'default': 'overwrite', 'lst_value1': 'merge', 'lst_value2': 'merge',
                              'json_value1': 'deep_merge'}), ENV_2], TYPES, None,
     {'parameters': {'json_value1': {'1': ['str1', 'str2'], '3': ['str3', 'str4']},
                     'json_value2': {'4': ['test3', 'test4']}, 'del_lst_value1': '5,6',
                     'del_lst_value2': '7,8', 'lst_value1': [1, 2, 5, 6], 'str_value1': 'string3',
                     'str_value2': 'string4'},
      'parameter_defaults': {'lst_value2': [3, 4, 7, 8]}, 'resource_registry': REGISTRY_1_2}),
    ('conflicting_strategies',
     [with_strategies(ENV_1, {'default': 'overwrite', 'lst_value1': 'merge', 'json_value1': 'deep_merge'}),
      ENV_2, with_strategies(ENV_3, {'default': 'overwrite', 'lst_value1': 'deep_merge',
                                     'json_value1': 'merge'})], TYPES, None,
     "Conflicting merge strategy 'deep_merge' for parameter 'lst_value1'"),
    ('conflicting_strategies_in_defaults',
     [with_strategies(ENV_1, {'default': 'overwrite', 'lst_value2': 'merge'}), ENV_2,
      with_strategies(ENV_4, {'default': 'overwrite', 'lst_value2': 'overwrite'})], TYPES, None,
     "Conflicting merge strategy 'overwrite' for parameter 'lst_value2'"),
    ('later_file_strategy_for_known_param_conflicts',
     [{'parameters': {'s': 'a'}}, {'parameters': {'s': 'b'}, 'parameter_merge_strategies': {'s': 'merge'}}],
     {'s': 'string'}, None, "Conflicting merge strategy 'merge' for parameter 's'"),
    ('later_default_does_not_touch_known_param',
     [{'parameters': {'s': 'a'}}, {'parameters': {'s': 'b', 't': 'x'},
                                   'parameter_merge_strategies': {'default': 'merge'}}],
     {'s': 'string', 't': 'string'}, None, {'parameters': {'s': 'b', 't': 'x'}}),
    ('zero_overwrites', [{'parameter_defaults': {'v': 1}}, {'parameter_defaults': {'v': 0}}],
     {'v': 'number'}, None, {'parameter_defaults': {'v': 0}}),
    ('zero_in_deep_merged_map', [{'parameter_defaults': {'v': {'foo': 1}},
                                  'parameter_merge_strategies': {'v': 'deep_merge'}},
                                 {'parameter_defaults': {'v': {'foo': 0}}}],
     {'v': 'json'}, None, {'parameter_defaults': {'v': {'foo': 0}}}),
    ('deep_merge_concatenates_nested_strings',
     [{'parameters': {'j': {'a': {'b': 'x', 'l': [1]}, 'n': 1}},
       'parameter_merge_strategies': {'j': 'deep_merge'}},
      {'parameters': {'j': {'a': {'b': 'y', 'l': [2]}, 'n': 2}}}],
     {'j': 'json'}, None, {'parameters': {'j': {'a': {'b': 'xy', 'l': [1, 2]}, 'n': 2}}}),
    ('merge_of_json_is_shallow',
     [{'parameters': {'j': {'a': {'b': 1}}}, 'parameter_merge_strategies': {'j': 'merge'}},
      {'parameters': {'j': {'a': {'c': 2}}}}],
     {'j': 'json'}, None, {'parameters': {'j': {'a': {'c': 2}}}}),
    ('registry_is_merged_shallowly',
     [{'resource_registry': {'A::B': 'OS::Heat::None', 'resources': {'x': {'hooks': 'pre-create'}}}},
      {'resource_registry': {'C::D': 'OS::Heat::None', 'resources': {'y': {'hooks': 'pre-update'}}}}],
     {}, None, {'resource_registry': {'A::B': 'OS::Heat::None', 'C::D': 'OS::Heat::None',
                                      'resources': {'y': {'hooks': 'pre-update'}}}}),
    ('null_registry_value_in_later_file_is_ignored',
     [{'resource_registry': {'A::B': 'OS::Heat::None'}}, {'resource_registry': {'A::B': None}}],
     {}, None, {'resource_registry': {'A::B': 'OS::Heat::None'}}),
    ('files_override_request_parameters', [{'parameters': {'p': 'file'}}], {'p': 'string'},
     {'p': 'request', 'q': 'kept'}, {'parameters': {'p': 'file', 'q': 'kept'}}),
    ('first_file_taken_whole', [{'parameters': {'p': 'a', 'unknown': 1}}], {'p': 'string'}, None,
     {'parameters': {'p': 'a', 'unknown': 1}}),
    ('later_unknown_keys_dropped', [{'parameters': {'p': 'a'}}, {'parameters': {'p': 'b', 'unknown': 1}}],
     {'p': 'string'}, None, {'parameters': {'p': 'b'}}),
    ('unknown_strategy_falls_back_to_default',
     [{'parameters': {'l': [1]}, 'parameter_merge_strategies': {'default': 'merge', 'l': 'bogus'}},
      {'parameters': {'l': [2]}}], {'l': 'comma_delimited_list'}, None, {'parameters': {'l': [1, 2]}}),
    ('null_values_are_skipped', [{'parameters': {'s': 'a'}}, {'parameters': {'s': None}}],
     {'s': 'string'}, None, {'parameters': {'s': 'a'}}),
    ('merged_numbers_given_as_strings_concatenate',
     [{'parameters': {'n': '1'}, 'parameter_merge_strategies': {'n': 'merge'}}, {'parameters': {'n': '2'}}],
     {'n': 'number'}, None, {'parameters': {'n': '12'}}),
    ('merged_number_given_as_number_fails',
     [{'parameters': {'n': 1}, 'parameter_merge_strategies': {'n': 'merge'}}, {'parameters': {'n': 2}}],
     {'n': 'number'}, None, 'Invalid parameter in environment'),
    ('merged_boolean_fails',
     [{'parameters': {'b': 'true'}, 'parameter_merge_strategies': {'b': 'merge'}}, {'parameters': {'b': 'false'}}],
     {'b': 'boolean'}, None, "Invalid merge strategy 'merge' for parameter 'b'"),
    ('comma_list_string_merge',
     [{'parameters': {'l': '1,2'}, 'parameter_merge_strategies': {'l': 'merge'}}, {'parameters': {'l': '3'}}],
     {'l': 'comma_delimited_list'}, None, {'parameters': {'l': '1,2,3'}}),
    ('json_string_merged_with_map',
     [{'parameters': {'j': {'a': 1}}, 'parameter_merge_strategies': {'j': 'merge'}},
      {'parameters': {'j': '{"b": 2}'}}], {'j': 'json'}, None, {'parameters': {'j': {'a': 1, 'b': 2}}}),
    ('event_sinks_twice_fails',
     [{'event_sinks': [{'type': 'zaqar-queue', 'target': 'q1'}]},
      {'event_sinks': [{'type': 'zaqar-queue', 'target': 'q2'}]}], {}, None, 'event_sinks'),
    ('event_sinks_once', [{'event_sinks': [{'type': 'zaqar-queue', 'target': 'q1', 'ttl': 5}]}, {}], {}, None,
     {'event_sinks': [{'type': 'zaqar-queue', 'target': 'q1', 'ttl': 5}]}),
]


def ours(envs, param_types, parameters):
    try:
        merged = merge_environments(copy.deepcopy(envs), param_types=param_types, parameters=parameters)
    except EnvironmentError_ as exc:
        return str(exc)
    return {'parameters': merged.parameters, 'parameter_defaults': merged.parameter_defaults,
            'resource_registry': merged.sections.get('resource_registry', {}),
            'event_sinks': merged.event_sinks}


@pytest.mark.parametrize('envs, param_types, parameters, expected', [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_merge(envs, param_types, parameters, expected):
    got = ours(envs, param_types, parameters)
    if isinstance(expected, str):
        assert isinstance(got, str), got
        assert expected in got
    else:
        for section, value in expected.items():
            assert got[section] == value, section


def test_error_names_the_file_and_line(tmp_path):
    one = tmp_path / 'one.yaml'
    one.write_text('parameters:\n  s: a\n')
    two = tmp_path / 'two.yaml'
    two.write_text('parameters:\n  s: b\nparameter_merge_strategies:\n  s: merge\n')
    with pytest.raises(EnvironmentError_) as err:
        merge_environments([str(one), str(two)], param_types={'s': 'string'})
    assert err.value.filename == str(two)
    assert err.value.line == 4
    assert "in file '%s'" % two in str(err.value)


def test_without_param_types_every_key_merges_by_its_value_type():
    merged = merge_environments([
        {'parameters': {'s': 'a', 'l': [1], 'j': {'a': 1}}, 'parameter_merge_strategies': {'default': 'merge'}},
        {'parameters': {'s': 'b', 'l': [2], 'j': {'b': 2}, 'new': 'x'}}])
    assert merged.parameters == {'s': 'ab', 'l': [1, 2], 'j': {'a': 1, 'b': 2}, 'new': 'x'}


def test_param_types_accept_schema_objects():
    class Schema(object):
        type = 'json'
    merged = merge_environments([
        {'parameters': {'j': {'a': 1}}, 'parameter_merge_strategies': {'j': 'merge'}},
        {'parameters': {'j': {'b': 2}}}], param_types={'j': Schema()})
    assert merged.parameters == {'j': {'a': 1, 'b': 2}}


@pytest.mark.parametrize('strategies, key, available, expected', [
    ({}, 'p', {}, 'overwrite'),
    ({'default': 'deep_merge'}, 'p', {}, 'deep_merge'),
    ({'default': 'merge', 'p': 'deep_merge'}, 'p', {}, 'deep_merge'),
    ({'default': 'merge', 'p': 'unknown'}, 'p', {}, 'merge'),
    (None, 'p', {}, 'overwrite'),
    ({'default': 'merge'}, 'p', {'p': 'overwrite'}, 'overwrite'),
])
def test_param_strategy(strategies, key, available, expected):
    assert env_merge.param_strategy(strategies, key, available) == expected


@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_table_is_what_heat_does():
    cases = [{'kind': 'merge', 'envs': c[1], 'param_types': c[2], 'parameters': c[3]} for c in CASES]
    proc = subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'heat_env_oracle.py')],
                          input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=True)
    answers = json.loads(proc.stdout)
    for case, answer in zip(CASES, answers):
        expected = case[4]
        if isinstance(expected, str):
            assert 'error' in answer, case[0]
        else:
            assert 'error' not in answer, (case[0], answer)
            for section, value in expected.items():
                assert answer['result'][section] == value, (case[0], section)
