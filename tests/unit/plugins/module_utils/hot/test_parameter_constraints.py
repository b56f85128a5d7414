# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parameter constraints: declarations, where each kind is allowed, version
gating, default messages and descriptions.  Behaviour checked against Heat
27.0.1 (about 16,000 generated parameter declarations agree)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import parameter_constraints as pc

NEW = '2018-03-02'
OLD = '2016-10-14'
PATH = ('parameters', 'p', 'constraints')


def parse(raw, version=NEW):
    return pc.parse_constraints(raw, version, PATH)


def one(raw, version=NEW):
    made = parse([raw], version)
    assert len(made) == 1
    return made[0]


@pytest.mark.parametrize('raw, cls, attrs', [
    ({'length': {'min': 1}}, pc.Length, {'min': 1, 'max': None}),
    ({'length': {'max': 3}}, pc.Length, {'min': None, 'max': 3}),
    ({'length': {'min': '2', 'max': 4}}, pc.Length, {'min': 2, 'max': 4}),
    ({'range': {'min': 1, 'max': 5}}, pc.Range, {'min': 1, 'max': 5}),
    ({'range': {'min': '2', 'max': '4.5'}}, pc.Range, {'min': 2, 'max': 4.5}),
    ({'range': {'max': -1.5}}, pc.Range, {'min': None, 'max': -1.5}),
    ({'modulo': {'step': 2, 'offset': 1}}, pc.Modulo, {'step': 2, 'offset': 1}),
    ({'modulo': {'step': '2', 'offset': '0'}}, pc.Modulo, {'step': 2, 'offset': 0}),
    ({'modulo': {'step': -3, 'offset': -1}}, pc.Modulo, {'step': -3, 'offset': -1}),
    ({'modulo': {'step': 2.0, 'offset': 1}}, pc.Modulo, {'step': 2.0, 'offset': 1}),
    ({'allowed_values': ['a', 1]}, pc.AllowedValues, {'allowed': ['a', 1]}),
    ({'allowed_values': []}, pc.AllowedValues, {'allowed': []}),
    ({'allowed_pattern': '[a-z]+'}, pc.AllowedPattern, {'pattern': '[a-z]+'}),
    ({'custom_constraint': 'nova.flavor'}, pc.CustomConstraint, {'constraint': 'nova.flavor'}),
    # Heat does not check the name when reading: unknown names fail each value
    ({'custom_constraint': 'no.such'}, pc.CustomConstraint, {'constraint': 'no.such'}),
    ({'range': {'min': 1}, 'description': 'd'}, pc.Range, {'description': 'd'}),
])
def test_declarations(raw, cls, attrs):
    made = one(raw)
    assert type(made) is cls  # pylint: disable=unidiomatic-typecheck
    for key, value in attrs.items():
        assert getattr(made, key) == value
    assert made.path == PATH + (0,)


@pytest.mark.parametrize('raw, first', [
    # One kind per entry: modulo, range, length, allowed_values,
    # allowed_pattern, custom_constraint, the first present wins.
    ({'range': {'min': 1}, 'length': {'min': 1}}, pc.Range),
    ({'modulo': {'step': 2, 'offset': 1}, 'range': {'min': 1}}, pc.Modulo),
    ({'allowed_pattern': 'a', 'allowed_values': ['a']}, pc.AllowedValues),
    ({'custom_constraint': 'ip_addr', 'allowed_pattern': 'a'}, pc.AllowedPattern),
    ({'custom_constraint': 'ip_addr', 'length': {'max': 9}}, pc.Length),
])
def test_first_kind_wins(raw, first):
    assert type(one(raw)) is first  # pylint: disable=unidiomatic-typecheck


def test_modulo_only_from_2017_02_24():
    assert type(one({'modulo': {'step': 2, 'offset': 1}}, '2017-02-24')) is pc.Modulo  # pylint: disable=unidiomatic-typecheck
    # before, the key is accepted but means nothing
    with pytest.raises(pc.DeclarationError, match='expresses nothing'):
        parse([{'modulo': {'step': 2, 'offset': 1}}], OLD)
    assert type(one({'modulo': {'step': 2, 'offset': 1}, 'range': {'min': 5}}, OLD)) is pc.Range  # pylint: disable=unidiomatic-typecheck


@pytest.mark.parametrize('raw, words, path', [
    ({'length': {'min': 1}}, 'must be a list', PATH),
    ('abc', 'must be a list', PATH),
    ([5], 'must be a mapping', PATH + (0,)),
    ([{'lenght': {'min': 1}}], "'lenght' is not a valid key", PATH + (0, 'lenght')),
    ([{'description': 'only'}], 'expresses nothing', PATH + (0,)),
    ([{}], 'expresses nothing', PATH + (0,)),
    ([{'length': {}}], 'needs a min, a max or both', PATH + (0, 'length')),
    ([{'length': 5}], 'must be a mapping', PATH + (0, 'length')),
    ([{'length': {'mn': 1}}], "'mn' is not a valid key", PATH + (0, 'length', 'mn')),
    ([{'length': {'min': 1.5}}], 'must be an integer', PATH + (0, 'length', 'min')),
    ([{'length': {'min': '1.0'}}], 'must be an integer', PATH + (0, 'length', 'min')),
    ([{'range': {}}], 'needs a min, a max or both', PATH + (0, 'range')),
    ([{'range': {'min': 'abc'}}], 'must be a number', PATH + (0, 'range', 'min')),
    ([{'range': {'max': [1]}}], 'must be a number', PATH + (0, 'range', 'max')),
    ([{'range': {'min': 1, 'step': 2}}], "'step' is not a valid key", PATH + (0, 'range', 'step')),
    ([{'modulo': {'step': 2}}], 'both a step and an offset', PATH + (0, 'modulo')),
    ([{'modulo': {'step': 2.5, 'offset': 1}}], 'step must be an integer', PATH + (0, 'modulo', 'step')),
    ([{'modulo': {'step': 'nan', 'offset': 0}}], 'must be an integer', PATH + (0, 'modulo', 'step')),
    ([{'modulo': {'step': 0, 'offset': 0}}], 'cannot be 0', PATH + (0, 'modulo', 'step')),
    ([{'modulo': {'step': 2, 'offset': 3}}], 'smaller than the step', PATH + (0, 'modulo', 'offset')),
    ([{'modulo': {'step': 2, 'offset': -2}}], 'smaller than the step', PATH + (0, 'modulo', 'offset')),
    ([{'modulo': {'step': 2, 'offset': -1}}], 'same sign', PATH + (0, 'modulo')),
    ([{'allowed_values': 'abc'}], 'must be a list', PATH + (0, 'allowed_values')),
    ([{'allowed_values': {'a': 1}}], 'must be a list', PATH + (0, 'allowed_values')),
    ([{'allowed_pattern': 5}], 'must be a string', PATH + (0, 'allowed_pattern')),
    ([{'allowed_pattern': '[a'}], 'not a valid regular expression', PATH + (0, 'allowed_pattern')),
])
def test_declaration_errors(raw, words, path):
    with pytest.raises(pc.DeclarationError) as err:
        parse(raw, NEW if 'modulo' not in str(raw) else '2017-02-24')
    assert words in str(err.value)
    assert err.value.path == path


def test_no_constraints():
    assert parse(None) == []
    assert parse([]) == []


TYPES = ('string', 'number', 'comma_delimited_list', 'json', 'boolean')
ALLOWED = {
    'length': ('string', 'comma_delimited_list', 'json'),
    'range': ('number',),
    'modulo': ('number',),
    'allowed_values': ('string', 'number', 'boolean', 'comma_delimited_list'),
    'allowed_pattern': ('string',),
    'custom_constraint': ('string', 'number', 'boolean', 'comma_delimited_list'),
}
SAMPLES = {
    'length': {'min': 1}, 'range': {'min': 1}, 'modulo': {'step': 2, 'offset': 1},
    'allowed_values': ['a'], 'allowed_pattern': 'a', 'custom_constraint': 'ip_addr',
}


@pytest.mark.parametrize('kind, param_type', [(k, t) for k in ALLOWED for t in TYPES])
def test_where_each_kind_applies(kind, param_type):
    made = one({kind: SAMPLES[kind]})
    assert made.applies_to(param_type) is (param_type in ALLOWED[kind])


# kind, declaration, param type, value as the constraint sees it, accepted?
CHECKS = [
    ('length', {'min': 2}, 'string', 'ab', True),
    ('length', {'min': 2}, 'string', 'a', False),
    ('length', {'max': 2}, 'string', 'abc', False),
    ('length', {'min': 0, 'max': 0}, 'string', '', True),
    ('length', {'min': 1}, 'comma_delimited_list', [], False),
    ('length', {'max': 2}, 'comma_delimited_list', ['a', 'b'], True),
    ('length', {'max': 1}, 'json', {'a': 1, 'b': 2}, False),
    ('length', {'max': 1}, 'json', [1], True),
    ('length', {'min': 1}, 'string', 5, False),           # Heat fails on len(5)
    ('range', {'min': 1, 'max': 5}, 'number', '3', True),
    ('range', {'min': 1, 'max': 5}, 'number', 5, True),
    ('range', {'min': 1, 'max': 5}, 'number', 5.5, False),
    ('range', {'min': 1}, 'number', '0', False),
    ('range', {'max': 1}, 'number', True, True),          # True is 1
    ('range', {'min': 1}, 'number', 'abc', False),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 3, True),
    ('modulo', {'step': 2, 'offset': 1}, 'number', '7', True),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 4, False),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 3.5, False),
    ('modulo', {'step': 2, 'offset': 0}, 'number', 0, True),
    ('modulo', {'step': -2, 'offset': -1}, 'number', -1, True),
    ('modulo', {'step': -2, 'offset': -1}, 'number', 1, True),   # Python's %: 1 % -2 == -1
    ('allowed_values', ['a', 'b'], 'string', 'a', True),
    ('allowed_values', ['a', 'b'], 'string', 'c', False),
    ('allowed_values', [5, '6'], 'string', 5, True),      # compared as str()
    ('allowed_values', [5], 'string', '5', True),
    ('allowed_values', ['1', 2.0], 'number', '2', True),  # compared as numbers
    ('allowed_values', ['1', 2.0], 'number', 1, True),
    ('allowed_values', ['1', 2.0], 'number', '3', False),
    ('allowed_values', ['abc', 2], 'number', 2, False),   # an unreadable allowed value fails
    ('allowed_values', [True], 'boolean', '1', True),
    ('allowed_values', ['no'], 'boolean', 'false', True),
    ('allowed_values', ['yes'], 'boolean', 'off', False),
    ('allowed_values', ['a', 'b'], 'comma_delimited_list', ['a', 'b', 'a'], True),
    ('allowed_values', ['a'], 'comma_delimited_list', ['a', 'b'], False),
    ('allowed_values', [1, 2], 'comma_delimited_list', ['1', '2'], False),   # items not converted
    ('allowed_values', ['a'], 'comma_delimited_list', [], True),
    ('allowed_pattern', '[a-z]+', 'string', 'abc', True),
    ('allowed_pattern', '[a-z]+', 'string', 'abc1', False),   # the whole value must match
    ('allowed_pattern', '[a-z]+', 'string', '1abc', False),
    ('allowed_pattern', 'a|ab', 'string', 'ab', False),       # first alternative, then end check
    ('allowed_pattern', '.*', 'string', '', True),
    ('allowed_pattern', '[0-9]', 'string', 5, False),
    ('custom_constraint', 'ip_addr', 'string', '10.0.0.1', True),
    ('custom_constraint', 'ip_addr', 'string', 'nope', False),
    ('custom_constraint', 'ip_addr', 'comma_delimited_list', ['10.0.0.1'], False),  # the list is checked
    ('custom_constraint', 'json_string', 'number', 5, False),
    ('custom_constraint', 'no.such', 'string', 'x', False),
]


@pytest.mark.parametrize('kind, decl, param_type, value, ok', CHECKS)
def test_checks(kind, decl, param_type, value, ok):
    made = one({kind: decl})
    if ok:
        made.check(value, param_type)
    else:
        with pytest.raises(pc.Violation):
            made.check(value, param_type)


@pytest.mark.parametrize('kind, decl, param_type, value, words', [
    ('length', {'min': 2}, 'string', 'a', 'length 1 is out of range: it must be at least 2'),
    ('length', {'min': 1, 'max': 2}, 'comma_delimited_list', [], 'between 1 and 2'),
    ('range', {'max': 3}, 'number', 7, '7 is out of range: it must be at most 3'),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 4, '4 is not a multiple of 2 with an offset of 1'),
    ('allowed_values', ['a', 1], 'string', 'c', '"c" is not one of the allowed values ["a", 1]'),
    ('allowed_values', [1, 2], 'comma_delimited_list', ['1'], '["1"] is not one of'),
    ('allowed_values', ['x'], 'number', 1, '"x" is not a valid number'),
    ('allowed_pattern', '[a-z]+', 'string', 'a1', '"a1" does not match the allowed pattern "[a-z]+"'),
    ('custom_constraint', 'ip_addr', 'string', 'nope', "'nope' is not a valid ip_addr"),
    ('custom_constraint', 'no.such', 'string', 'x', 'no custom constraint called no.such'),
    ('length', {'min': 1}, 'string', 5, 'cannot be checked on a value of type int'),
])
def test_default_messages(kind, decl, param_type, value, words):
    with pytest.raises(pc.Violation) as err:
        one({kind: decl}).check(value, param_type)
    assert words in str(err.value)


@pytest.mark.parametrize('kind, decl, param_type, value', [
    ('length', {'min': 2}, 'string', 'a'),
    ('range', {'max': 3}, 'number', 7),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 4),
    ('allowed_values', ['a'], 'string', 'c'),
    ('allowed_pattern', '[a-z]+', 'string', 'a1'),
    ('custom_constraint', 'ip_addr', 'string', 'nope'),
])
def test_description_replaces_the_message(kind, decl, param_type, value):
    with pytest.raises(pc.Violation) as err:
        one({kind: decl, 'description': 'Please be nice'}).check(value, param_type)
    assert str(err.value) == 'Please be nice'


def test_description_does_not_hide_an_unreadable_allowed_value():
    # Heat reports the type problem, not the constraint's description.
    made = one({'allowed_values': ['x'], 'description': 'Pick one'})
    with pytest.raises(pc.Violation, match='not a valid number'):
        made.check(1, 'number')


@pytest.mark.parametrize('kind, decl, param_type, value', [
    ('range', {'max': 3}, 'number', 'secret7'),
    ('modulo', {'step': 2, 'offset': 1}, 'number', 4),
    ('allowed_values', ['a'], 'string', 'secret'),
    ('allowed_values', ['a'], 'comma_delimited_list', ['secret']),
    ('allowed_pattern', '[a-z]+', 'string', 'secret1'),
    ('custom_constraint', 'ip_addr', 'string', 'secret'),
    ('custom_constraint', 'dns_name', 'string', 'secret..label'),
    ('allowed_values', ['x'], 'number', 'secret'),
])
def test_hidden_values_are_never_quoted(kind, decl, param_type, value):
    with pytest.raises(pc.Violation) as err:
        one({kind: decl}).check(value, param_type, hidden=True)
    assert 'secret' not in str(err.value)
    assert str(value) not in str(err.value)


def test_service_constraint_reports_not_checked_or_asks_the_checker():
    made = one({'custom_constraint': 'nova.flavor'})
    assert made.check('m1.tiny', 'string') is pc.custom.NOT_CHECKED
    assert made.check('m1.tiny', 'string', checker=lambda n, v: True) is pc.custom.CHECKED
    with pytest.raises(pc.Violation, match='no flavor'):
        made.check('m1.tiny', 'string', checker=lambda n, v: 'no flavor')


@pytest.mark.parametrize('raw, api', [
    ({'length': {'min': 1, 'max': 5}}, [('MinLength', 1), ('MaxLength', 5)]),
    ({'length': {'max': 5}}, [('MaxLength', 5)]),
    ({'range': {'min': 1}}, [('MinValue', 1)]),
    ({'range': {'min': '1', 'max': '2.5'}}, [('MinValue', 1), ('MaxValue', 2.5)]),
    ({'modulo': {'step': 2, 'offset': 1}}, [('Step', 2), ('Offset', 1)]),
    ({'allowed_values': ['a', 1]}, [('AllowedValues', ['a', 1])]),
    ({'allowed_pattern': 'x+'}, [('AllowedPattern', 'x+')]),
    ({'custom_constraint': 'nova.flavor'}, [('CustomConstraint', 'nova.flavor')]),
])
def test_api_keys(raw, api):
    assert list(one(raw).api()) == api
