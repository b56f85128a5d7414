# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.conditions import Conditions
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.template import Template


def conditions(section, version='2016-10-14', params=None):
    text = 'heat_template_version: %s\nconditions:\n%s' % (version, section)
    tmpl = Template.load(text, filename='t.yaml')
    return Conditions(tmpl, params or {})


def test_evaluation_and_references():
    conds = conditions('  a: true\n  b: {not: a}\n  c: {and: [a, {not: b}, true]}\n'
                       '  d: {or: [b, c]}\n  e: {equals: [{get_param: env}, prod]}\n',
                       params={'env': 'prod'})
    assert conds.evaluate_all() == {'a': True, 'b': False, 'c': True, 'd': True, 'e': True}
    assert dict(conds) == conds.evaluate_all()
    assert sorted(conds) == ['a', 'b', 'c', 'd', 'e'] and len(conds) == 5
    assert 'a' in conds and 'z' not in conds and ['a'] not in conds


@pytest.mark.parametrize('condition, expected', [
    (None, True), (True, True), (False, False), ('up', True), ('down', False),
    ({'not': 'up'}, False), ({'equals': [1, 1]}, True), ({'get_param': 'name'}, False),
])
def test_is_enabled(condition, expected):
    conds = conditions('  up: true\n  down: false\n', params={'name': 'down'})
    assert conds.is_enabled(condition) is expected


@pytest.mark.parametrize('condition', ['nosuch', 5, ['up']])
def test_invalid_condition_names(condition):
    conds = conditions('  up: true\n')
    with pytest.raises(TemplateError) as err:
        conds.is_enabled(condition, path=('resources', 'r', 'condition'))
    assert 'Invalid condition' in err.value.message
    assert err.value.path == ('resources', 'r', 'condition')


def test_value_does_not_parse_data():
    conds = conditions('  up: true\n')
    with pytest.raises(TemplateError):
        conds.value({'equals': [1, 1]})


@pytest.mark.parametrize('section, message, line', [
    ('  a: c1\n  c1: true\n', 'definition of condition "a" is invalid', 3),
    ('  a: "true"\n', 'definition of condition "a" is invalid', 3),
    ('  a: {foo: bar}\n', 'definition of condition "a" is invalid', 3),
    ('  a: {get_param: s}\n', 'definition of condition "a" is invalid', 3),
])
def test_definitions_must_give_booleans(section, message, line):
    conds = conditions(section, params={'s': 'true'})
    with pytest.raises(TemplateError) as err:
        conds.evaluate_all()
    conds.template.locate(err.value)
    assert message in err.value.message
    assert err.value.line == line


def test_validate_checks_types_and_functions_without_evaluating():
    conds = conditions('  a: {not: nosuch}\n')
    conds.validate()  # names are only looked up when evaluated
    with pytest.raises(TemplateError):
        conds.evaluate_all()
    conds = conditions('  a: c\n')
    with pytest.raises(TemplateError) as err:
        conds.validate()
    assert 'invalid' in err.value.message
    conds = conditions('  a: {and: [{Fn::Select: [0, [true]]}, true]}\n')
    with pytest.raises(TemplateError) as err:
        conds.validate()
    assert 'removed' in err.value.message


@pytest.mark.parametrize('section', [
    '  a: {not: a}\n',
    '  a: {not: b}\n  b: {and: [true, a]}\n',
    '  a: {or: [false, b]}\n  b: {or: [false, c]}\n  c: {not: a}\n',
])
def test_circular_definitions(section):
    conds = conditions(section)
    with pytest.raises(TemplateError) as err:
        conds.is_enabled('a')
    assert 'Circular definition' in err.value.message
    # nothing half-evaluated is remembered
    with pytest.raises(TemplateError):
        conds.is_enabled('a')


def test_short_circuit_skips_bad_operands():
    conds = conditions('  a: {and: [false, nosuch]}\n  b: {or: [true, nosuch]}\n')
    assert conds.evaluate_all() == {'a': False, 'b': True}


@pytest.mark.parametrize('version, section, message', [
    ('2016-10-14', '  a: {if: [true, true, false]}\n', 'cannot be used in a condition'),
    ('2016-10-14', '  a: {get_attr: [r, x]}\n', 'cannot be used in a condition'),
    ('2016-10-14', '  a: {yaql: {expression: "true"}}\n', 'cannot be used in a condition'),
    ('2016-10-14', '  a: {and: [true]}\n', 'at least 2'),
    ('2017-09-01', '  a: {list_join: ["", []]}\n', 'cannot be used in a condition'),
])
def test_parse_errors_even_for_unused_conditions(version, section, message):
    with pytest.raises(TemplateError) as err:
        conditions(section, version)
    assert message in err.value.message
    assert err.value.path[:2] == ('conditions', 'a')


def test_yaql_and_contains_from_2017_09_01():
    conds = conditions('  a: {yaql: {expression: "$.data > 1", data: 2}}\n'
                       '  b: {contains: [x, [x, y]]}\n', '2017-09-01')
    assert conds.evaluate_all() == {'a': True, 'b': True}


@pytest.mark.parametrize('text', [
    'heat_template_version: 2016-10-14\nconditions:\n',
    'heat_template_version: 2016-10-14\nconditions: [a]\n',
])
def test_section_must_be_a_map(text):
    with pytest.raises(TemplateError) as err:
        Conditions(Template.load(text), {})
    assert 'must be a map' in err.value.message


def test_no_conditions_section():
    conds = Conditions(Template.load('heat_template_version: 2013-05-23\n'), {})
    assert dict(conds) == {} and conds.is_enabled(None)
