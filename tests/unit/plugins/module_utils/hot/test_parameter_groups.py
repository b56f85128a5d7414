# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""parameter_groups rules and output (checked against Heat 27.0.1)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.loader import load_text
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.parameter_groups import (
    validate_parameter_groups)

NAMES = ['a', 'b', 'c']


@pytest.mark.parametrize('raw', [
    [{'label': 'G', 'description': 'd', 'parameters': ['a', 'b']}, {'parameters': ['c']}],
    [{'parameters': []}],
    [{'parameters': ['OS::stack_id', 'OS::project_id']}],   # Heat counts these as declared
    [{'parameters': ['a'], 'foo': 1}],                       # other keys are free
    [{'parameters': ['a']}, {'label': 'empty', 'parameters': []}],
])
def test_valid_groups_are_shown_as_written(raw):
    assert validate_parameter_groups(raw, NAMES) is raw


@pytest.mark.parametrize('raw', [None, [], {}, ''])
def test_nothing_to_show(raw):
    assert validate_parameter_groups(raw, NAMES) is None


@pytest.mark.parametrize('raw, words, path', [
    ({'a': 1}, 'must be a list', ('parameter_groups',)),
    ('abc', 'must be a list', ('parameter_groups',)),
    (['abc'], 'must be a mapping', ('parameter_groups', 0)),
    ([{'label': 'G'}], "group 'G' has no parameters list", ('parameter_groups', 0)),
    ([{'parameters': None}], 'has no parameters list', ('parameter_groups', 0)),
    ([{'label': 'G', 'parameters': 'a'}], 'must be a list', ('parameter_groups', 0, 'parameters')),
    ([{'label': 'G', 'parameters': ['a']}, {'label': 'H', 'parameters': ['a']}],
     "parameter a is in more than one parameter group (again in group 'H')",
     ('parameter_groups', 1, 'parameters', 0)),
    ([{'parameters': ['a', 'b', 'a']}], 'more than one parameter group',
     ('parameter_groups', 0, 'parameters', 2)),
    ([{'parameters': ['a', 'zz']}], 'parameter zz', ('parameter_groups', 0, 'parameters', 1)),
    ([{'parameters': ['OS::stack_name']}], 'not a declared parameter',
     ('parameter_groups', 0, 'parameters', 0)),
    ([{'parameters': [{'a': 1}]}], 'not a declared parameter',
     ('parameter_groups', 0, 'parameters', 0)),
])
def test_errors(raw, words, path):
    with pytest.raises(TemplateError) as err:
        validate_parameter_groups(raw, NAMES)
    assert words in str(err.value)
    assert str(err.value).startswith(
        '.'.join(str(p) for p in path[:1]))
    assert err.value.path == path
    assert 'Parameter Groups error' in str(err.value)


def test_a_declared_os_name_counts():
    validate_parameter_groups([{'parameters': ['OS::stack_name']}], ['OS::stack_name'])


@pytest.mark.parametrize('names', [[1], ['a', None], ['a', True]])
def test_parameter_names_must_be_text_even_without_groups(names):
    # Heat fails on such templates while checking groups (it joins the names)
    with pytest.raises(TemplateError, match='is not a string'):
        validate_parameter_groups(None, names)


def test_errors_carry_the_line():
    doc = load_text('heat_template_version: 2018-03-02\n'
                    'parameter_groups:\n'
                    '- label: G\n'
                    '  parameters:\n'
                    '  - a\n'
                    '  - nope\n'
                    'parameters:\n'
                    '  a: {type: string}\n', 't.yaml')
    with pytest.raises(TemplateError) as err:
        validate_parameter_groups(doc.data['parameter_groups'], doc.data['parameters'], doc)
    assert (err.value.filename, err.value.line) == ('t.yaml', 6)
    assert str(err.value).startswith('t.yaml:6: parameter_groups[0].parameters[1]: ')
