# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parameter declarations, values, validation, hidden values and the
validate API output.  Expectations come from Heat 27.0.1 (the oracle and
heat.engine.api.format_validate_parameter); about 16,000 generated
templates agree on validity, values and output."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ParameterError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import parameters as P
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.loader import load_text

NEW = '2018-03-02'


def schema(decl, version=NEW, name='p'):
    return P.ParameterSchema.from_template(name, decl, version)


def params(decls, values=None, defaults=None, version=NEW, pseudo=None, checker=None):
    schemas = dict((n, schema(d, version, n)) for n, d in decls.items())
    return P.Parameters(schemas, values, defaults, pseudo=pseudo, checker=checker)


def valid(decls, values=None, defaults=None, version=NEW, validate_value=True):
    ps = params(decls, values, defaults, version)
    ps.validate(validate_value)
    return ps


def invalid(decls, values=None, defaults=None, version=NEW, validate_value=True):
    ps = params(decls, values, defaults, version)
    with pytest.raises(ParameterError) as err:
        ps.validate(validate_value)
    return err.value


# --- declarations ----------------------------------------------------------

def test_declaration_attributes():
    s = schema({'type': 'number', 'default': 3, 'hidden': True, 'label': 'L',
                'description': 'D', 'immutable': True, 'tags': ['a'],
                'constraints': [{'range': {'min': 1}}]})
    assert (s.name, s.type, s.default, s.hidden, s.label, s.description, s.immutable,
            s.tags) == ('p', 'number', 3, True, 'L', 'D', True, ['a'])
    assert len(s.constraints) == 1 and not s.required
    assert schema({'type': 'string'}).required


@pytest.mark.parametrize('version, key, ok', [
    ('2013-05-23', 'tags', False), ('2017-09-01', 'tags', False), ('2018-03-02', 'tags', True),
    ('2021-04-16', 'tags', True),
    ('2013-05-23', 'schema', True),   # accepted and ignored, as in Heat
    ('2013-05-23', 'immutable', True), ('2013-05-23', 'label', True), ('2013-05-23', 'hidden', True),
    ('2018-03-02', 'Type', False), ('2018-03-02', 'NoEcho', False), ('2018-03-02', 'foo', False),
])
def test_keys_by_version(version, key, ok):
    decl = {'type': 'string', key: ['x']}
    if ok:
        schema(decl, version)
    else:
        with pytest.raises(ParameterError) as err:
            schema(decl, version)
        assert "'%s' is not a valid key" % key in str(err.value)
        assert err.value.path == ('parameters', 'p', key)


@pytest.mark.parametrize('decl, words', [
    ('string', 'must be a mapping'),
    (None, 'must be a mapping'),
    ({}, 'has no type'),
    ({'default': 1}, 'has no type'),
    ({'type': 'str'}, 'invalid type'),
    ({'type': 'integer'}, 'invalid type'),
    ({'type': 'String'}, 'invalid type'),     # HOT type names are lower case
    ({'type': ['string']}, 'invalid type'),
    ({'type': 'string', 'tags': 'a'}, 'tags of parameter'),
    ({'type': 'string', 'constraints': {'length': {'min': 1}}}, 'constraints must be a list'),
    ({'type': 'str', 'constraints': 5}, 'constraints must be a list'),   # constraints come first
])
def test_declaration_errors(decl, words):
    with pytest.raises(ParameterError) as err:
        schema(decl)
    assert words in str(err.value)
    assert err.value.details['parameter'] == 'p'


@pytest.mark.parametrize('raw, hidden', [
    (True, True), (False, False), ('false', True),   # Heat takes the value's truth
    ('', False), ([1], True), (0, False),
])
def test_hidden_is_truthiness(raw, hidden):
    assert schema({'type': 'string', 'hidden': raw}).hidden is hidden


def test_errors_carry_the_line_with_a_document():
    doc = load_text('heat_template_version: 2018-03-02\n'
                    'parameters:\n'
                    '  a:\n'
                    '    type: string\n'
                    '  b:\n'
                    '    type: number\n'
                    '    foo: 1\n', 't.yaml')
    schema_a = P.ParameterSchema.from_template('a', doc.data['parameters']['a'], NEW, doc=doc)
    with pytest.raises(ParameterError) as err:
        P.ParameterSchema.from_template('b', doc.data['parameters']['b'], NEW, doc=doc)
    assert (err.value.filename, err.value.line) == ('t.yaml', 7)
    assert str(err.value).startswith('t.yaml:7: parameters.b.foo: ')
    ps = P.Parameters({'a': schema_a}, doc=doc)
    with pytest.raises(ParameterError) as err:
        ps.validate()
    assert str(err.value) == 't.yaml:3: parameters.a: The Parameter (a) was not provided.'


def test_constraint_errors_point_at_the_constraint():
    doc = load_text('heat_template_version: 2018-03-02\n'
                    'parameters:\n'
                    '  a:\n'
                    '    type: number\n'
                    '    constraints:\n'
                    '      - range: {min: 1}\n'
                    '      - allowed_values: [1, 2]\n', 't.yaml')
    ps = P.Parameters({'a': P.ParameterSchema.from_template('a', doc.data['parameters']['a'],
                                                            NEW, doc=doc)}, {'a': '3'})
    with pytest.raises(ParameterError) as err:
        ps.validate()
    assert err.value.line == 7
    assert err.value.path == ('parameters', 'a', 'constraints', 1)
    assert "Parameter 'a' is invalid: " in str(err.value)


# --- constraints on types and defaults ---------------------------------------

KINDS = {
    'length': {'length': {'min': 0}}, 'range': {'range': {'min': -100}},
    'modulo': {'modulo': {'step': 1, 'offset': 0}}, 'allowed_values': {'allowed_values': []},
    'allowed_pattern': {'allowed_pattern': '.*'}, 'custom_constraint': {'custom_constraint': 'json_string'},
}
ALLOWED = {
    'length': ('string', 'comma_delimited_list', 'json'),
    'range': ('number',), 'modulo': ('number',),
    'allowed_values': ('string', 'number', 'boolean', 'comma_delimited_list'),
    'allowed_pattern': ('string',),
    'custom_constraint': ('string', 'number', 'boolean', 'comma_delimited_list'),
}


@pytest.mark.parametrize('kind, param_type', [(k, t) for k in KINDS for t in P.TYPES])
def test_every_type_by_every_constraint(kind, param_type):
    decl = {'type': param_type, 'constraints': [KINDS[kind]]}
    if param_type in ALLOWED[kind]:
        valid({'p': decl}, validate_value=False)
    else:
        err = invalid({'p': decl}, validate_value=False)
        assert 'cannot be used on a %s parameter' % param_type in str(err)


@pytest.mark.parametrize('decl, ok', [
    ({'type': 'number', 'default': 1, 'constraints': [{'range': {'min': 5}}]}, False),
    ({'type': 'number', 'default': '7', 'constraints': [{'range': {'min': 5}}]}, True),
    ({'type': 'number', 'default': 'abc', 'constraints': [{'range': {'min': 5}}]}, False),
    ({'type': 'number', 'default': 'abc'}, True),            # unchecked without constraints ...
    ({'type': 'string', 'default': 'abc', 'constraints': [{'length': {'max': 2}}]}, False),
    ({'type': 'string', 'default': 'x', 'constraints': [{'custom_constraint': 'ip_addr'}]}, True),
    ({'type': 'string', 'default': 'x', 'constraints': [{'custom_constraint': 'no.such'}]}, True),
    ({'type': 'comma_delimited_list', 'default': 5}, False),
    ({'type': 'comma_delimited_list', 'default': '', 'constraints': [{'length': {'min': 1}}]}, True),
    ({'type': 'comma_delimited_list', 'default': [1, 2],
      'constraints': [{'allowed_values': [1, 2]}]}, False),  # items become text first
    ({'type': 'json', 'default': '{"a": 1, "b": 2}', 'constraints': [{'length': {'max': 3}}]}, False),
])
def test_defaults_are_checked_without_validating_values(decl, ok):
    # (... the default's own text length counts, not the parsed value's)
    if ok:
        valid({'p': decl}, validate_value=False)
    else:
        err = invalid({'p': decl}, validate_value=False)
        assert err.path[:3] == ('parameters', 'p', 'default') or 'cannot be used' in str(err)


# --- values ------------------------------------------------------------------

@pytest.mark.parametrize('param_type, raw, expected', [
    ('string', 5, '5'), ('number', '1', 1), ('number', '1.5', 1.5),
    ('comma_delimited_list', 'a,b', ['a', 'b']), ('comma_delimited_list', ['a', 1], ['a', '1']),
    ('json', '{"a": [1]}', {'a': [1]}), ('json', {'a': 1}, {'a': 1}), ('json', [1], [1]),
    ('boolean', 'yes', True), ('boolean', 'Off', False), ('boolean', True, True),
])
def test_typed_values(param_type, raw, expected):
    ps = valid({'p': {'type': param_type}}, {'p': raw})
    assert ps['p'] == expected


@pytest.mark.parametrize('value, default, template_default, expected', [
    ('u', 'd', 't', 'u'),
    (None, 'd', 't', 'd'),          # None counts as not given
    (None, None, 't', 't'),
    ('', 'd', 't', ''),             # an empty string is a value
    (None, 'd', None, 'd'),
])
def test_precedence(value, default, template_default, expected):
    decl = {'type': 'string'}
    if template_default is not None:
        decl['default'] = template_default
    values = {'p': value}
    defaults = {'p': default} if default is not None else {}
    assert valid({'p': decl}, values, defaults)['p'] == expected


def test_missing_value():
    err = invalid({'p': {'type': 'string'}})
    assert str(err) == 'parameters.p: The Parameter (p) was not provided.'
    assert err.details['kind'] == 'missing'
    ps = valid({'p': {'type': 'string'}}, validate_value=False)
    assert not ps.has_value('p')
    with pytest.raises(ParameterError, match=r'The Parameter \(p\) was not provided'):
        ps['p']


def test_values_must_be_declared_defaults_need_not():
    err = invalid({'p': {'type': 'string', 'default': 'a'}}, {'zz': 1})
    assert str(err) == 'parameters.zz: The Parameter (zz) was not defined in template.'
    assert err.path == ('parameters', 'zz')    # the same path in the environment
    valid({'p': {'type': 'string', 'default': 'a'}}, defaults={'zz': 1})
    # a value of None is still a value for this check
    invalid({'p': {'type': 'string', 'default': 'a'}}, {'zz': None})


def test_unknown_name_is_a_key_error_too():
    ps = valid({'p': {'type': 'string', 'default': 'a'}})
    with pytest.raises(KeyError):
        ps['nope']
    assert ps.get('nope', 'fallback') == 'fallback'
    assert 'nope' not in ps and 'p' in ps and [] not in ps


def test_values_are_copies():
    ps = valid({'p': {'type': 'json', 'default': {'a': [1]}}})
    ps['p']['a'].append(2)
    assert ps['p'] == {'a': [1]}


@pytest.mark.parametrize('param_type, raw, words', [
    ('number', 'abc', '"abc" is not a number'),
    ('number', [1], '[1] is not a number'),
    ('boolean', 'maybe', "'maybe' is not a boolean"),
    ('boolean', 1.0, "'1.0' is not a boolean"),
    ('comma_delimited_list', 5, 'comma_delimited_list takes a list'),
    ('json', 'abc', 'not valid JSON'),
])
def test_unreadable_values(param_type, raw, words):
    err = invalid({'p': {'type': param_type}}, {'p': raw})
    assert "Parameter 'p' is invalid: " in str(err) and words in str(err)


def test_an_invalid_default_without_validation_fails_when_read():
    ps = valid({'p': {'type': 'number', 'default': 'abc'}}, validate_value=False)
    with pytest.raises(ParameterError, match='not a number'):
        ps['p']


def test_custom_constraints_check_values_and_defaults_in_use():
    invalid({'p': {'type': 'string', 'default': 'x', 'constraints': [{'custom_constraint': 'ip_addr'}]}})
    valid({'p': {'type': 'string', 'default': 'x', 'constraints': [{'custom_constraint': 'ip_addr'}]}},
          {'p': '10.0.0.1'})
    err = invalid({'p': {'type': 'string', 'default': 'x',
                         'constraints': [{'custom_constraint': 'no.such'}]}})
    assert 'no custom constraint called no.such' in str(err)


def test_not_checked_service_constraints_are_listed():
    decls = {'f': {'type': 'string', 'default': 'm1', 'constraints': [{'custom_constraint': 'nova.flavor'}]},
             'i': {'type': 'string', 'default': 'cirros',
                   'constraints': [{'custom_constraint': 'glance.image'}, {'length': {'min': 1}}]}}
    ps = params(decls)
    ps.validate()
    assert ps.not_checked == [{'parameter': 'f', 'constraint': 'nova.flavor'},
                              {'parameter': 'i', 'constraint': 'glance.image'}]
    ps.validate(validate_value=False)
    assert ps.not_checked == []


def test_the_checker_is_asked_with_the_value():
    asked = []

    def checker(name, value):
        asked.append((name, value))
        return 'not in this cloud' if value == 'gone' else True
    decls = {'f': {'type': 'string', 'constraints': [{'custom_constraint': 'nova.flavor'}]}}
    ps = params(decls, {'f': 'm1'}, checker=checker)
    ps.validate()
    assert ps.not_checked == [] and asked == [('nova.flavor', 'm1')]
    ps = params(decls, {'f': 'gone'}, checker=checker)
    with pytest.raises(ParameterError, match='not in this cloud'):
        ps.validate()


# --- pseudo parameters ----------------------------------------------------------

def test_pseudo_parameters():
    ps = valid({}, version=NEW)
    assert dict(ps) == {'OS::stack_id': '', 'OS::project_id': ''}
    ps = params({}, pseudo={'OS::stack_name': 'st', 'OS::stack_id': 'abc-123', 'OS::project_id': 'proj'})
    assert dict(ps) == {'OS::stack_id': 'abc-123', 'OS::project_id': 'proj', 'OS::stack_name': 'st'}
    assert list(ps) == ['OS::stack_id', 'OS::project_id', 'OS::stack_name']
    # before a stack is stored, Heat shows its id as 'None'
    ps = params({}, pseudo={'OS::stack_name': 'st', 'OS::stack_id': None, 'OS::project_id': None})
    assert ps['OS::stack_id'] == 'None' and ps['OS::project_id'] == ''
    assert 'OS::region' not in ps


def test_pseudo_parameters_cannot_be_given_but_can_be_defaulted_or_declared():
    pseudo = {'OS::stack_name': 'st'}
    ps = params({}, {'OS::stack_name': 'x'}, pseudo=pseudo)
    with pytest.raises(ParameterError, match=r'\(OS::stack_name\) was not defined'):
        ps.validate()
    ps = params({}, defaults={'OS::stack_name': 'q'}, pseudo=pseudo)
    ps.validate()
    assert ps['OS::stack_name'] == 'q'
    ps = params({'OS::stack_name': {'type': 'string', 'default': 'zz'}}, pseudo=pseudo)
    ps.validate()
    assert ps['OS::stack_name'] == 'zz' and ps.validate_output() == {}


# --- hidden values and output ---------------------------------------------------

SECRET = 'sw0rdf1sh'


@pytest.mark.parametrize('decl, value', [
    ({'type': 'string', 'constraints': [{'allowed_pattern': '[a-z]+'}]}, SECRET),
    ({'type': 'string', 'constraints': [{'allowed_values': ['a']}]}, SECRET),
    ({'type': 'string', 'constraints': [{'custom_constraint': 'ip_addr'}]}, SECRET),
    ({'type': 'string', 'constraints': [{'custom_constraint': 'dns_name'}]}, SECRET + '..x'),
    ({'type': 'number', 'constraints': [{'range': {'max': 1}}]}, '7' + SECRET),
    ({'type': 'number'}, SECRET),
    ({'type': 'boolean'}, SECRET),
    ({'type': 'json'}, SECRET),
    ({'type': 'comma_delimited_list', 'constraints': [{'allowed_values': ['a']}]}, SECRET),
])
def test_hidden_values_never_appear_in_errors(decl, value):
    decl = dict(decl, hidden=True)
    err = invalid({'p': decl}, {'p': value})
    assert SECRET not in str(err) and SECRET not in repr(err.details)
    default_decl = dict(decl, default=value)
    ps = params({'p': default_decl})
    with pytest.raises(ParameterError) as err:
        ps.validate()
    assert SECRET not in str(err.value)


def test_hidden_defaults_never_appear_in_errors():
    err = invalid({'p': {'type': 'string', 'hidden': True, 'default': SECRET,
                         'constraints': [{'length': {'max': 3}}]}}, validate_value=False)
    assert SECRET not in str(err) and '******' in str(err)


def test_hidden_names_and_shown_values():
    ps = valid({'pw': {'type': 'string', 'hidden': True}, 'n': {'type': 'number', 'default': 2},
                'l': {'type': 'comma_delimited_list', 'default': 'a,b'},
                'j': {'type': 'json', 'default': {'a': 1}}, 'b': {'type': 'boolean', 'default': 'yes'}},
               {'pw': SECRET})
    assert ps.hidden_names() == frozenset(['pw'])
    assert ps['pw'] == SECRET        # callers get the real value
    assert ps.shown() == {'OS::stack_id': '', 'OS::project_id': '', 'pw': '******', 'n': '2',
                          'l': 'a,b', 'j': '{"a": 1}', 'b': 'True'}
    assert SECRET not in repr(ps)


def test_validate_output_shape():
    ps = valid({
        'plain': {'type': 'string'},
        'full': {'type': 'number', 'label': 'Full', 'description': 'All keys', 'default': 3,
                 'tags': ['t1', 't2'], 'immutable': True,
                 'constraints': [{'range': {'min': 1, 'max': 9}, 'description': 'one'},
                                 {'modulo': {'step': 2, 'offset': 1}},
                                 {'allowed_values': [1, 3, 5], 'description': 'two'},
                                 {'custom_constraint': 'nova.flavor'}]},
        'text': {'type': 'string', 'default': 'abc',
                 'constraints': [{'length': {'min': 1, 'max': 5}}, {'allowed_pattern': '[a-z]+'}]},
        'list': {'type': 'comma_delimited_list', 'default': 'a,b'},
        'data': {'type': 'json', 'default': {'k': 'v'}},
        'flag': {'type': 'boolean', 'default': False},
    }, {'plain': 'given', 'full': '5'})
    out = ps.validate_output()
    assert out == {
        'plain': {'Type': 'String', 'Description': '', 'NoEcho': 'false', 'Label': 'plain',
                  'Value': 'given'},
        'full': {'Type': 'Number', 'Description': 'All keys', 'NoEcho': 'false', 'Label': 'Full',
                 'Default': 3, 'Value': '5', 'Tags': ['t1', 't2'], 'MinValue': 1, 'MaxValue': 9,
                 'Step': 2, 'Offset': 1, 'AllowedValues': [1, 3, 5],
                 'CustomConstraint': 'nova.flavor', 'ConstraintDescription': 'one two'},
        'text': {'Type': 'String', 'Description': '', 'NoEcho': 'false', 'Label': 'text',
                 'Default': 'abc', 'MinLength': 1, 'MaxLength': 5, 'AllowedPattern': '[a-z]+'},
        'list': {'Type': 'CommaDelimitedList', 'Description': '', 'NoEcho': 'false',
                 'Label': 'list', 'Default': 'a,b'},
        'data': {'Type': 'Json', 'Description': '', 'NoEcho': 'false', 'Label': 'data',
                 'Default': {'k': 'v'}},
        'flag': {'Type': 'Boolean', 'Description': '', 'NoEcho': 'false', 'Label': 'flag',
                 'Default': False},
    }
    assert list(out) == ['plain', 'full', 'text', 'list', 'data', 'flag']


@pytest.mark.parametrize('value, default, shown', [
    ('', None, {}),                       # Heat shows Value only when it is truthy
    (0, 1, {'Default': 1}),
    (None, 'pd', {'Default': 'pd'}),      # parameter_defaults show as Default
])
def test_validate_output_value_and_default(value, default, shown):
    decl = {'type': 'number'} if value == 0 else {'type': 'string'}
    ps = params({'p': decl}, {'p': value}, {'p': default} if default is not None else None)
    entry = ps.validate_output()['p']
    assert dict((k, entry[k]) for k in ('Default', 'Value') if k in entry) == shown


def test_validate_output_masks_hidden_values():
    ps = params({'pw': {'type': 'string', 'hidden': True, 'default': SECRET + 'd',
                        'constraints': [{'length': {'min': 8}}]}}, {'pw': SECRET})
    entry = ps.validate_output()['pw']
    assert entry['NoEcho'] == 'true'
    assert entry['Default'] == '******' and entry['Value'] == '******'
    assert entry['MinLength'] == 8
    assert SECRET not in repr(ps.validate_output())


def test_label_and_description_taken_as_they_are():
    entry = params({'p': {'type': 'string', 'label': 5, 'description': 7}}).validate_output()['p']
    assert (entry['Label'], entry['Description']) == (5, 7)
    entry = params({'p': {'type': 'string', 'label': ''}}).validate_output()['p']
    assert entry['Label'] == 'p'


# --- immutable ------------------------------------------------------------------

def test_immutable_params_modified():
    old = valid({'a': {'type': 'string', 'immutable': True}, 'b': {'type': 'string'}},
                {'a': 'x', 'b': 'y'})
    new = valid({'a': {'type': 'string', 'immutable': True}, 'b': {'type': 'string'}},
                {'a': 'x2', 'b': 'y2'})
    assert old.immutable_params_modified(new, {'a': 'x2', 'b': 'y2'}) == ['a']
    assert old.immutable_params_modified(new, {'a': 'x'}) is None


# --- tricky cases, answers taken from the Heat oracle ---------------------------

ORACLE_CASES = [
    # (declarations, user values, parameter_defaults, version, valid, values)
    ({'x': {'type': 'comma_delimited_list', 'default': 'a, b'}}, {}, {}, NEW, True,
     {'x': ['a', ' b']}),
    ({'x': {'type': 'boolean', 'default': 'yes'}}, {}, {}, NEW, True, {'x': True}),
    ({'x': {'type': 'json'}}, {'x': ''}, {}, NEW, True, {'x': ''}),
    ({'x': {'type': 'json'}}, {'x': '5'}, {}, NEW, True, {'x': 5}),
    ({'x': {'type': 'number'}}, {'x': True}, {}, NEW, True, {'x': True}),
    ({'x': {'type': 'string'}}, {'x': {'a': 1}}, {}, NEW, True, {'x': "{'a': 1}"}),
    ({'x': {'type': 'number', 'constraints': [{'allowed_values': ['1', 2.0]}]}}, {'x': '2'}, {},
     NEW, True, {'x': 2}),
    ({'x': {'type': 'number', 'default': 1,
            'constraints': [{'range': {'max': 3}}]}}, {}, {'x': 7}, NEW, False, None),
    ({'x': {'type': 'number', 'default': 1, 'constraints': [
        {'modulo': {'step': 2, 'offset': 1}, 'range': {'min': 5}}]}}, {}, {}, '2016-10-14', False, None),
    ({'x': {'type': 'number', 'default': -1, 'constraints': [
        {'modulo': {'step': -2, 'offset': -1}}]}}, {}, {}, '2017-02-24', True, {'x': -1}),
    ({'x': {'type': 'comma_delimited_list', 'default': '1.2.3.4',
            'constraints': [{'custom_constraint': 'ip_addr'}]}}, {}, {}, NEW, False, None),
    ({'x': {'type': 'string', 'default': 'a', 'constraints': [{'custom_constraint': 'foo.bar'}]}},
     {}, {}, NEW, False, None),
    ({'x': {'type': 'string', 'default': 'a', 'hidden': 'false'}}, {}, {}, NEW, True, {'x': 'a'}),
    ({'x': {'type': 'string', 'default': 'a'}}, {'x': None}, {'x': 'b'}, NEW, True, {'x': 'b'}),
    ({'x': {'type': 'string', 'constraints': [{'length': {'min': 1}}]}}, {'x': 5}, {}, NEW, False, None),
]


@pytest.mark.parametrize('decls, values, defaults, version, ok, expected', ORACLE_CASES)
def test_oracle_cases(decls, values, defaults, version, ok, expected):
    ps = params(decls, values, defaults, version)
    if ok:
        ps.validate()
        assert dict((k, ps[k]) for k in decls) == expected
    else:
        with pytest.raises(ParameterError):
            ps.validate()
