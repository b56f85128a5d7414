# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parameter cases: types and the values they accept (as defaults and as user
values), constraints per type and version, declaration keys, parameter groups."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from cases_base import BAD, OK, UNSAID, VERSIONS, Case, tmpl

# Parameters are judged the same way in most versions: a few spread-out ones
# keep the case count down, the version-specific rules get every version.
SAMPLE_VERSIONS = ('2013-05-23', '2016-10-14', '2018-08-31', '2021-04-16')

# type -> [(label, value, intent)] for user values (strings, as the CLI sends
# them, and data, as an environment file can hold them).
VALUES = {
    'string': [('text', 'abc', OK), ('empty', '', OK), ('int', 42, UNSAID),
               ('list', ['a'], UNSAID), ('map', {'a': 1}, UNSAID)],
    'number': [('int-str', '5', OK), ('float-str', '5.5', OK), ('neg', '-3', OK),
               ('int', 7, OK), ('exp', '1e3', UNSAID), ('word', 'abc', BAD),
               ('empty', '', UNSAID), ('list', [1], UNSAID)],
    'comma_delimited_list': [('csv', 'a,b', OK), ('spaces', ' a , b ', OK),
                             ('one', 'a', OK), ('empty', '', OK), ('list', ['a', 'b'], OK),
                             ('number', 42, UNSAID), ('map', {'a': 1}, UNSAID)],
    'json': [('map-str', '{"a": 1}', OK), ('list-str', '[1, 2]', OK), ('map', {'a': [1]}, OK),
             ('list', [1, 2], OK), ('bad-json', 'not json', BAD), ('scalar-str', '"x"', UNSAID),
             ('number', 5, UNSAID), ('empty', '', UNSAID)],
    'boolean': [('true', 'true', OK), ('false', 'false', OK), ('yes', 'yes', OK),
                ('off', 'off', OK), ('one', '1', OK), ('zero', '0', OK), ('t', 't', OK),
                ('upper', 'TRUE', OK), ('bool', True, OK), ('int', 1, UNSAID),
                ('maybe', 'maybe', BAD), ('two', '2', BAD), ('empty', '', UNSAID)],
}

# (type, label, constraint list, [(value, intent)], since or None)
CONSTRAINTS = [
    ('string', 'length', [{'length': {'min': 2, 'max': 4}}],
     [('abc', OK), ('ab', OK), ('abcd', OK), ('a', BAD), ('abcde', BAD)], None),
    ('string', 'length-min', [{'length': {'min': 2}}], [('ab', OK), ('a', BAD)], None),
    ('string', 'length-max', [{'length': {'max': 1}}], [('a', OK), ('ab', BAD)], None),
    ('comma_delimited_list', 'length', [{'length': {'min': 2}}], [('a,b', OK), ('a', BAD)], None),
    ('json', 'length', [{'length': {'max': 1}}], [('{"a": 1}', OK), ('{"a": 1, "b": 2}', BAD)], None),
    ('number', 'range', [{'range': {'min': 1, 'max': 10}}],
     [('5', OK), ('1', OK), ('10', OK), ('0', BAD), ('11', BAD), ('10.5', BAD)], None),
    ('number', 'range-float', [{'range': {'min': 1.5}}], [('2', OK), ('1', BAD)], None),
    ('number', 'modulo', [{'modulo': {'step': 2, 'offset': 1}}], [('3', OK), ('4', BAD)], '2017-02-24'),
    ('string', 'allowed-values', [{'allowed_values': ['a', 'b']}], [('a', OK), ('c', BAD)], None),
    ('number', 'allowed-values', [{'allowed_values': [1, 2]}], [('2', OK), ('3', BAD)], None),
    ('comma_delimited_list', 'allowed-values', [{'allowed_values': ['a', 'b']}],
     [('a,b', OK), ('a,c', BAD)], None),
    ('string', 'pattern', [{'allowed_pattern': '[a-z]+'}],
     [('abc', OK), ('abc1', BAD), ('ABC', BAD), ('', BAD)], None),
    ('string', 'two-constraints', [{'length': {'max': 3}}, {'allowed_pattern': '[a-z]*'}],
     [('ab', OK), ('abcd', BAD), ('A', BAD)], None),
    ('string', 'described', [{'allowed_values': ['a'], 'description': 'only a'}],
     [('a', OK), ('b', BAD)], None),
    ('string', 'ip-addr', [{'custom_constraint': 'ip_addr'}],
     [('10.0.0.1', OK), ('::1', OK), ('10.0.0.256', BAD), ('x', BAD)], None),
    ('string', 'net-cidr', [{'custom_constraint': 'net_cidr'}],
     [('10.0.0.0/24', OK), ('10.0.0.0/33', BAD), ('x', BAD)], None),
    ('string', 'ip-or-cidr', [{'custom_constraint': 'ip_or_cidr'}],
     [('10.0.0.1', OK), ('10.0.0.0/8', OK), ('x', BAD)], None),
    ('string', 'mac-addr', [{'custom_constraint': 'mac_addr'}],
     [('00:11:22:33:44:55', OK), ('zz', BAD)], None),
    ('string', 'iso-8601', [{'custom_constraint': 'iso_8601'}],
     [('2020-01-01T00:00:00Z', OK), ('nope', BAD)], None),
    ('string', 'cron', [{'custom_constraint': 'cron_expression'}],
     [('* * * * *', OK), ('x y', BAD)], None),
    ('string', 'dns-name', [{'custom_constraint': 'dns_name'}],
     [('a.example.com', OK), ('-bad-.com', BAD)], None),
    ('string', 'dns-domain', [{'custom_constraint': 'dns_domain'}],
     [('example.com.', OK), ('a..b', BAD)], None),
    ('string', 'expiration', [{'custom_constraint': 'expiration'}],
     [('2999-01-01T00:00:00Z', OK), ('2000-01-01T00:00:00Z', BAD)], None),
    ('string', 'json-string', [{'custom_constraint': 'json_string'}],
     [('{"a": 1}', OK), ('{x', BAD)], None),
    ('string', 'service-unchecked', [{'custom_constraint': 'nova.flavor'}], [('m1.tiny', OK)], None),
    ('string', 'image-unchecked', [{'custom_constraint': 'glance.image'}], [('cirros', OK)], None),
]

# (label, declaration, intent, since): declaration problems (the template is
# wrong whatever the value).
DECLARATIONS = [
    ('range-on-string', {'type': 'string', 'default': 'a', 'constraints': [{'range': {'min': 1}}]}, BAD, None),
    ('length-on-number', {'type': 'number', 'default': 1, 'constraints': [{'length': {'min': 1}}]}, BAD, None),
    ('pattern-on-number', {'type': 'number', 'default': 1,
                           'constraints': [{'allowed_pattern': '[0-9]'}]}, UNSAID, None),
    ('length-on-boolean', {'type': 'boolean', 'default': True,
                           'constraints': [{'length': {'min': 1}}]}, UNSAID, None),
    ('modulo-too-early', {'type': 'number', 'default': 1,
                          'constraints': [{'modulo': {'step': 2, 'offset': 1}}]}, BAD, ('<', '2017-02-24')),
    ('modulo-no-offset', {'type': 'number', 'default': 1,
                          'constraints': [{'modulo': {'step': 2}}]}, BAD, '2017-02-24'),
    ('modulo-on-string', {'type': 'string', 'default': 'a',
                          'constraints': [{'modulo': {'step': 2, 'offset': 0}}]}, BAD, '2017-02-24'),
    ('range-not-number', {'type': 'number', 'default': 1,
                          'constraints': [{'range': {'min': 'a'}}]}, BAD, None),
    ('range-empty', {'type': 'number', 'default': 1, 'constraints': [{'range': {}}]}, UNSAID, None),
    ('length-inverted', {'type': 'string', 'default': 'a',
                         'constraints': [{'length': {'min': 3, 'max': 1}}]}, UNSAID, None),
    ('constraints-not-list', {'type': 'string', 'default': 'a',
                              'constraints': {'length': {'min': 1}}}, BAD, None),
    ('constraint-unknown', {'type': 'string', 'default': 'a', 'constraints': [{'bogus': 1}]}, BAD, None),
    ('constraint-two-kinds', {'type': 'string', 'default': 'a',
                              'constraints': [{'length': {'min': 1}, 'allowed_values': ['a']}]}, UNSAID, None),
    ('allowed-values-not-list', {'type': 'string', 'default': 'a',
                                 'constraints': [{'allowed_values': 'a'}]}, UNSAID, None),
    ('pattern-bad-regex', {'type': 'string', 'default': 'a',
                           'constraints': [{'allowed_pattern': '[a-'}]}, UNSAID, None),
    ('custom-unknown', {'type': 'string', 'default': 'a',
                        'constraints': [{'custom_constraint': 'no.such'}]}, BAD, None),
    ('custom-on-number', {'type': 'number', 'default': 1,
                          'constraints': [{'custom_constraint': 'ip_addr'}]}, UNSAID, None),
    ('type-missing', {'default': 'a'}, BAD, None),
    ('type-unknown', {'type': 'integer', 'default': 1}, BAD, None),
    ('type-cfn-name', {'type': 'String', 'default': 'a'}, BAD, None),
    ('key-unknown', {'type': 'string', 'default': 'a', 'bogus': 1}, BAD, None),
    ('label-description', {'type': 'string', 'default': 'a', 'label': 'L', 'description': 'D'}, OK, None),
    ('hidden', {'type': 'string', 'default': 'secret', 'hidden': True}, OK, None),
    ('hidden-string', {'type': 'string', 'default': 'secret', 'hidden': 'yes'}, UNSAID, None),
    ('immutable', {'type': 'string', 'default': 'a', 'immutable': True}, OK, None),
    ('immutable-not-bool', {'type': 'string', 'default': 'a', 'immutable': 'sure'}, UNSAID, None),
    ('tags', {'type': 'string', 'default': 'a', 'tags': ['role']}, OK, '2018-03-02'),
    ('tags-too-early', {'type': 'string', 'default': 'a', 'tags': ['role']}, BAD, ('<', '2018-03-02')),
    ('tags-not-list', {'type': 'string', 'default': 'a', 'tags': 'role'}, UNSAID, '2018-03-02'),
    ('not-a-map', 'string', BAD, None),
    ('null', None, UNSAID, None),
    ('default-violates', {'type': 'string', 'default': 'abc',
                          'constraints': [{'length': {'max': 2}}]}, BAD, None),
    ('default-wrong-type', {'type': 'number', 'default': 'abc'}, BAD, None),
    ('default-null', {'type': 'string', 'default': None}, UNSAID, None),
    ('default-list-for-csv', {'type': 'comma_delimited_list', 'default': ['a', 'b']}, OK, None),
    ('default-map-for-json', {'type': 'json', 'default': {'a': 1}}, OK, None),
    ('default-bad-json', {'type': 'json', 'default': '{bad'}, BAD, None),
    ('default-bool-word', {'type': 'boolean', 'default': 'maybe'}, BAD, None),
    ('default-number-for-string', {'type': 'string', 'default': 5}, UNSAID, None),
]


def _applies(since, version):
    if since is None:
        return True
    if isinstance(since, tuple):
        return version < since[1]
    return version >= since


def _echo(version, declaration, name='p'):
    return tmpl(version, parameters={name: declaration},
                resources={'v': {'type': 'OS::Heat::Value',
                                 'properties': {'value': {'get_param': name}}}},
                outputs={'o': {'value': {'get_param': name}}})


def value_cases():
    for version in SAMPLE_VERSIONS:
        for ptype, values in sorted(VALUES.items()):
            for label, value, intent in values:
                yield Case('param/%s/%s/value-%s' % (version, ptype, label),
                           _echo(version, {'type': ptype}), 'param', intent=intent,
                           params={'p': value})
                # The same value as the template's default.
                yield Case('param/%s/%s/default-%s' % (version, ptype, label),
                           _echo(version, {'type': ptype, 'default': value}), 'param',
                           intent=intent)
            yield Case('param/%s/%s/missing' % (version, ptype),
                       _echo(version, {'type': ptype}), 'param', intent=BAD)


def constraint_cases():
    for version in SAMPLE_VERSIONS + ('2017-02-24',):
        for ptype, label, constraints, values, since in CONSTRAINTS:
            if not _applies(since, version):
                continue
            for index, (value, intent) in enumerate(values):
                decl = {'type': ptype, 'constraints': constraints}
                yield Case('param/%s/constraint-%s-%s/%d' % (version, ptype, label, index),
                           _echo(version, decl), 'param', intent=intent, params={'p': value})


def declaration_cases():
    for version in VERSIONS:
        for label, decl, intent, since in DECLARATIONS:
            if not _applies(since, version):
                continue
            version_specific = since is not None
            if not version_specific and version not in SAMPLE_VERSIONS:
                continue
            yield Case('param/%s/decl-%s' % (version, label), _echo(version, decl), 'param',
                       intent=intent)


def misc_cases():
    for version in SAMPLE_VERSIONS:
        base = {'type': 'string', 'default': 'a'}
        yield Case('param/%s/undeclared-user-param' % version, _echo(version, base), 'param',
                   intent=BAD, params={'p': 'x', 'other': 'y'})
        yield Case('param/%s/same-name-as-resource' % version, _echo(version, base, name='v'),
                   'param', intent=BAD)
        yield Case('param/%s/parameters-not-map' % version,
                   tmpl(version, parameters=['p'], resources={'v': {'type': 'OS::Heat::None'}}),
                   'param', intent=BAD)
        yield Case('param/%s/parameters-null' % version,
                   {'heat_template_version': version, 'parameters': None,
                    'resources': {'v': {'type': 'OS::Heat::None'}}}, 'param', intent=UNSAID)
        yield Case('param/%s/pseudo-stack-name' % version,
                   tmpl(version, outputs={'o': {'value': {'get_param': 'OS::stack_name'}}}),
                   'param', intent=OK)
        yield Case('param/%s/declares-pseudo' % version,
                   _echo(version, base, name='OS::stack_name'), 'param', intent=UNSAID)
        hidden = {'type': 'string', 'hidden': True, 'default': 'secret'}
        yield Case('param/%s/hidden-user-value' % version, _echo(version, hidden), 'param',
                   intent=OK, params={'p': 'other-secret'})
        yield Case('param/%s/value-violates-allowed' % version,
                   _echo(version, {'type': 'string', 'constraints': [{'allowed_values': ['a']}]}),
                   'param', intent=BAD, params={'p': 'b'})


GROUP_PARAMS = {'a': {'type': 'string', 'default': 'a'}, 'b': {'type': 'string', 'default': 'b'}}
GROUPS = [
    ('valid', [{'label': 'G', 'description': 'd', 'parameters': ['a', 'b']}], OK),
    ('two-groups', [{'label': 'G1', 'parameters': ['a']}, {'label': 'G2', 'parameters': ['b']}], OK),
    ('unlabelled', [{'parameters': ['a']}], OK),
    ('param-twice', [{'label': 'G1', 'parameters': ['a']}, {'label': 'G2', 'parameters': ['a']}], BAD),
    ('unknown-param', [{'label': 'G', 'parameters': ['zzz']}], BAD),
    ('no-parameters-key', [{'label': 'G'}], BAD),
    ('parameters-not-list', [{'label': 'G', 'parameters': 'a'}], BAD),
    ('not-a-list', {'label': 'G', 'parameters': ['a']}, UNSAID),
    ('group-not-map', ['a'], UNSAID),
    ('empty', [], OK),
]


def group_cases():
    for version in SAMPLE_VERSIONS:
        for label, groups, intent in GROUPS:
            yield Case('param/%s/groups-%s' % (version, label),
                       tmpl(version, parameter_groups=groups, parameters=dict(GROUP_PARAMS),
                            resources={'v': {'type': 'OS::Heat::None'}}), 'param', intent=intent)


def parameter_cases():
    for gen in (value_cases, constraint_cases, declaration_cases, misc_cases, group_cases):
        yield from gen()
