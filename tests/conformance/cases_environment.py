# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Environment cases: parameters and parameter_defaults from environment files,
several files merged in order with parameter_merge_strategies, the resource
registry (aliases, wildcards, per-resource entries, provider templates, hooks)
and malformed environments.  Environments are passed as Heat's API takes
``environment_files``; the oracle merges them with Heat's own code."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import yaml

from cases_base import BAD, OK, UNSAID, Case, tmpl

VERSION = '2016-10-14'
NEWEST = '2021-04-16'

TYPES = {
    'string': ('one', 'two'),
    'number': (1, 2),
    'number-as-text': ('1', '2'),
    'comma_delimited_list': ('a,b', 'c'),
    'json': ({'a': {'x': 1, 'l': [1]}}, {'a': {'y': 2, 'l': [2]}, 'b': 3}),
    'boolean': (True, False),
}


def _echo(version=VERSION, ptype='string', default='tmpl-default', extra=None):
    params = {'p': {'type': ptype}}
    if default is not None:
        params['p']['default'] = default
    params.update(extra or {})
    return tmpl(version, parameters=params,
                resources={'v': {'type': 'OS::Heat::Value',
                                 'properties': {'value': {'get_param': 'p'}}}},
                outputs={'o': {'value': {'get_param': 'p'}}})


def value_cases():
    yield Case('env/params-from-env', _echo(), 'env', intent=OK,
               environments=[{'parameters': {'p': 'from-env'}}])
    yield Case('env/parameter-defaults', _echo(), 'env', intent=OK,
               environments=[{'parameter_defaults': {'p': 'env-default'}}])
    yield Case('env/parameter-defaults-no-template-default', _echo(default=None), 'env',
               intent=OK, environments=[{'parameter_defaults': {'p': 'env-default'}}])
    yield Case('env/params-beat-defaults', _echo(), 'env', intent=OK,
               environments=[{'parameters': {'p': 'param'}, 'parameter_defaults': {'p': 'dflt'}}])
    yield Case('env/user-param-vs-env', _echo(), 'env', intent=OK, params={'p': 'user'},
               environments=[{'parameters': {'p': 'env'}}])
    yield Case('env/user-param-vs-env-default', _echo(), 'env', intent=OK, params={'p': 'user'},
               environments=[{'parameter_defaults': {'p': 'env'}}])
    yield Case('env/defaults-for-undeclared', _echo(), 'env', intent=OK,
               environments=[{'parameter_defaults': {'zzz': 1}}])
    yield Case('env/params-for-undeclared', _echo(), 'env', intent=BAD,
               environments=[{'parameters': {'zzz': 1}}])
    yield Case('env/later-file-wins', _echo(), 'env', intent=OK,
               environments=[{'parameters': {'p': 'first'}}, {'parameters': {'p': 'second'}}])
    yield Case('env/later-default-wins', _echo(), 'env', intent=OK,
               environments=[{'parameter_defaults': {'p': 'first'}},
                             {'parameter_defaults': {'p': 'second'}}])
    only_a = {'type': 'string', 'default': 'a', 'constraints': [{'allowed_values': ['a']}]}
    yield Case('env/default-violates-constraint',
               tmpl(VERSION, parameters={'p': only_a}, resources={'v': {'type': 'OS::Heat::None'}}),
               'env', intent=BAD, environments=[{'parameter_defaults': {'p': 'b'}}])
    yield Case('env/typed-value-from-env', _echo(ptype='number', default=1), 'env', intent=OK,
               environments=[{'parameters': {'p': 7}}])
    yield Case('env/json-value-from-env', _echo(ptype='json', default={}), 'env', intent=OK,
               environments=[{'parameters': {'p': {'k': [1, 2]}}}])
    yield Case('env/list-value-from-env', _echo(ptype='comma_delimited_list', default=''),
               'env', intent=OK, environments=[{'parameters': {'p': ['a', 'b']}}])


def condition_cases():
    template = tmpl(VERSION, parameters={'env': {'type': 'string', 'default': 'dev'},
                                         'sizes': {'type': 'json', 'default': {}}},
                    conditions={'prod': {'equals': [{'get_param': 'env'}, 'prod']}},
                    resources={'big': {'type': 'OS::Heat::Value', 'condition': 'prod',
                                       'properties': {'value': {'get_param': ['sizes', 'big']}}},
                               'v': {'type': 'OS::Heat::Value', 'properties': {
                                   'value': {'if': ['prod', {'get_param': ['sizes', 'small']},
                                                    'none']}}}},
                    outputs={'o': {'value': {'get_attr': ['v', 'value']}}})
    sizes = {'big': 10, 'small': 1}
    yield Case('env/condition-from-defaults', template, 'env', intent=OK,
               environments=[{'parameter_defaults': {'env': 'prod', 'sizes': sizes}}])
    yield Case('env/condition-from-params', template, 'env', intent=OK,
               environments=[{'parameters': {'env': 'prod', 'sizes': sizes}}])
    yield Case('env/condition-user-beats-default', template, 'env', intent=OK,
               params={'env': 'prod'}, environments=[{'parameter_defaults': {'env': 'dev'}}])
    yield Case('env/condition-default-off', template, 'env', intent=OK,
               environments=[{'parameter_defaults': {'sizes': sizes}}])


def merge_cases():
    # A strategy binds from the first file that sets the parameter: declaring
    # it only in a later file conflicts with the implied "overwrite".
    for ptype, (first, second) in sorted(TYPES.items()):
        for strategy in ('overwrite', 'merge', 'deep_merge'):
            for section in ('parameters', 'parameter_defaults'):
                for where in ('first', 'both', 'later'):
                    envs = [{section: {'p': first}}, {section: {'p': second}}]
                    for index in {'first': (0,), 'both': (0, 1), 'later': (1,)}[where]:
                        envs[index]['parameter_merge_strategies'] = {'p': strategy}
                    if (ptype in ('boolean', 'number') and strategy != 'overwrite'
                            and where != 'later'):
                        # Heat only merges values that are strings or
                        # sequences: a number or a boolean fails.
                        intent = BAD
                    elif where == 'later' and strategy != 'overwrite':
                        intent = BAD
                    else:
                        intent = OK
                    if ptype == 'number-as-text' and intent is OK:
                        intent = UNSAID
                    yield Case('env/merge-%s-%s-%s-%s' % (ptype, strategy, section, where),
                               _echo(ptype=ptype.replace('-as-text', ''),
                                     default=None if section == 'parameters' else first),
                               'env', intent=intent, environments=envs)
        yield Case('env/merge-default-key-%s' % ptype,
                   _echo(ptype=ptype.replace('-as-text', ''), default=first), 'env',
                   intent=BAD if ptype in ('boolean', 'number') else OK,
                   environments=[{'parameter_defaults': {'p': first},
                                  'parameter_merge_strategies': {'default': 'merge'}},
                                 {'parameter_defaults': {'p': second}}])
    yield Case('env/merge-conflicting-strategies', _echo(), 'env', intent=BAD,
               environments=[{'parameters': {'p': 'a'}, 'parameter_merge_strategies': {'p': 'merge'}},
                             {'parameters': {'p': 'b'},
                              'parameter_merge_strategies': {'p': 'overwrite'}}])
    yield Case('env/merge-unknown-strategy', _echo(), 'env', intent=UNSAID,
               environments=[{'parameters': {'p': 'a'}},
                             {'parameters': {'p': 'b'}, 'parameter_merge_strategies': {'p': 'bogus'}}])
    yield Case('env/merge-three-files', _echo(ptype='comma_delimited_list', default=''), 'env',
               intent=UNSAID,
               environments=[{'parameters': {'p': 'a'}, 'parameter_merge_strategies': {'p': 'merge'}},
                             {'parameters': {'p': 'b'}},
                             {'parameters': {'p': 'c'}, 'parameter_merge_strategies': {'p': 'merge'}}])
    yield Case('env/merge-undeclared-ignored', _echo(), 'env', intent=OK,
               environments=[{'parameter_defaults': {'zzz': 'a'}},
                             {'parameter_defaults': {'zzz': 'b'},
                              'parameter_merge_strategies': {'zzz': 'merge'}}])
    yield Case('env/merge-registry-maps', _typed('My::A'), 'env', intent=OK,
               environments=[{'resource_registry': {'My::A': 'OS::Heat::Value'}},
                             {'resource_registry': {'My::B': 'OS::Heat::None'}}])


def _typed(rtype, props=None, version=VERSION, extra=None):
    resources = {'r': {'type': rtype, 'properties': props or {'value': 'v'}}}
    resources.update(extra or {})
    return tmpl(version, resources=resources,
                outputs={'o': {'value': {'get_resource': 'r'}}})


NESTED = tmpl(VERSION, parameters={'value': {'type': 'string'}},
              resources={'inner': {'type': 'OS::Heat::Value',
                                   'properties': {'value': {'get_param': 'value'}}}},
              outputs={'out': {'value': {'get_attr': ['inner', 'value']}}})
NESTED_DEFAULTED = tmpl(VERSION, parameters={'value': {'type': 'string', 'default': 'd'}},
                        resources={'inner': {'type': 'OS::Heat::None'}})


def registry_cases():
    nested = yaml.safe_dump(NESTED, sort_keys=False)
    nested_defaulted = yaml.safe_dump(NESTED_DEFAULTED, sort_keys=False)
    yield Case('env/registry-alias', _typed('My::Value'), 'env', intent=OK,
               environments=[{'resource_registry': {'My::Value': 'OS::Heat::Value'}}])
    yield Case('env/registry-alias-to-none', _typed('OS::Heat::Value', {'bogus': 1}), 'env',
               intent=OK, environments=[{'resource_registry': {'OS::Heat::Value': 'OS::Heat::None'}}])
    yield Case('env/registry-disable-unknown-type', _typed('OS::Nova::Server', {'x': 1}), 'env',
               intent=OK, environments=[{'resource_registry': {'OS::Nova::Server': 'OS::Heat::None'}}])
    yield Case('env/registry-alias-unknown-target', _typed('My::Value'), 'env', intent=BAD,
               environments=[{'resource_registry': {'My::Value': 'OS::No::Such'}}])
    yield Case('env/registry-missing', _typed('My::Value'), 'env', intent=BAD)
    yield Case('env/registry-wildcard', _typed('My::Heat::Value'), 'env', intent=UNSAID,
               environments=[{'resource_registry': {'My::Heat::*': 'OS::Heat::*'}}])
    yield Case('env/registry-per-resource', _typed('OS::Heat::Value', {'bogus': 1},
                                                   extra={'s': {'type': 'OS::Heat::Value',
                                                                'properties': {'value': 1}}}),
               'env', intent=OK,
               environments=[{'resource_registry': {'resources': {
                   'r': {'OS::Heat::Value': 'OS::Heat::None'}}}}])
    yield Case('env/registry-per-other-resource', _typed('OS::Heat::Value', {'bogus': 1}), 'env',
               intent=BAD, environments=[{'resource_registry': {'resources': {
                   'other': {'OS::Heat::Value': 'OS::Heat::None'}}}}])
    yield Case('env/registry-chain', _typed('My::A'), 'env', intent=UNSAID,
               environments=[{'resource_registry': {'My::A': 'My::B', 'My::B': 'OS::Heat::Value'}}])
    yield Case('env/registry-later-file-wins', _typed('My::A'), 'env', intent=OK,
               environments=[{'resource_registry': {'My::A': 'OS::Heat::None'}},
                             {'resource_registry': {'My::A': 'OS::Heat::Value'}}])
    yield Case('env/provider-template', _typed('My::Nested'), 'env', intent=OK,
               environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
               files={'nested.yaml': nested})
    yield Case('env/provider-template-bad-property', _typed('My::Nested', {'bogus': 'x'}), 'env',
               intent=UNSAID, environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
               files={'nested.yaml': nested})
    yield Case('env/provider-template-missing-required', _typed('My::Nested', {}), 'env',
               intent=UNSAID, environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
               files={'nested.yaml': nested})
    yield Case('env/provider-template-defaulted', _typed('My::Nested', {}), 'env', intent=OK,
               environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
               files={'nested.yaml': nested_defaulted})
    yield Case('env/provider-template-missing-file', _typed('My::Nested'), 'env', intent=UNSAID,
               environments=[{'resource_registry': {'My::Nested': 'missing.yaml'}}])
    yield Case('env/template-type-direct', _typed('nested.yaml'), 'env', intent=OK,
               files={'nested.yaml': nested})
    yield Case('env/template-type-direct-missing', _typed('missing.yaml'), 'env', intent=UNSAID)
    yield Case('env/provider-attr', tmpl(VERSION, resources={
        'r': {'type': 'My::Nested', 'properties': {'value': 'v'}}},
        outputs={'o': {'value': {'get_attr': ['r', 'out']}}}), 'env', intent=OK,
        environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
        files={'nested.yaml': nested})
    yield Case('env/provider-unknown-attr', tmpl(VERSION, resources={
        'r': {'type': 'My::Nested', 'properties': {'value': 'v'}},
        's': {'type': 'OS::Heat::Value', 'properties': {'value': {'get_attr': ['r', 'nope']}}}}),
        'env', intent=UNSAID,
        environments=[{'resource_registry': {'My::Nested': 'nested.yaml'}}],
        files={'nested.yaml': nested})
    for hook in ('pre-create', 'pre-update', 'pre-delete', 'post-create', 'bogus-hook'):
        yield Case('env/hook-%s' % hook, _typed('OS::Heat::Value'), 'env',
                   intent=BAD if hook == 'bogus-hook' else OK,
                   environments=[{'resource_registry': {'resources': {'r': {'hooks': hook}}}}])
    yield Case('env/hook-list', _typed('OS::Heat::Value'), 'env', intent=OK,
               environments=[{'resource_registry': {'resources': {
                   'r': {'hooks': ['pre-create', 'pre-update']}}}}])
    for action in ('update', 'replace', 'bogus'):
        yield Case('env/restricted-%s' % action, _typed('OS::Heat::Value'), 'env',
                   intent=BAD if action == 'bogus' else OK,
                   environments=[{'resource_registry': {'resources': {
                       'r': {'restricted_actions': action}}}}])


def malformed_cases():
    yield Case('env/unknown-section', _echo(), 'env', intent=BAD, environments=[{'bogus': {}}])
    yield Case('env/null-section', _echo(), 'env', intent=BAD, environments=['parameters:\n'])
    yield Case('env/not-a-map', _echo(), 'env', intent=BAD, environments=['- a\n- b\n'])
    yield Case('env/flat-legacy', _echo(), 'env', intent=UNSAID, environments=[{'p': 'flat'}])
    yield Case('env/empty-file', _echo(), 'env', intent=OK, environments=[''])
    yield Case('env/yaml-error', _echo(), 'env', intent=BAD, environments=['parameters: {p: [\n'])
    yield Case('env/event-sinks', _echo(), 'env', intent=UNSAID,
               environments=[{'event_sinks': [{'type': 'zaqar-queue', 'target': 'q'}]}])
    yield Case('env/encrypted-param-names', _echo(), 'env', intent=UNSAID,
               environments=[{'encrypted_param_names': ['p']}])
    yield Case('env/parameters-not-map', _echo(), 'env', intent=UNSAID,
               environments=[{'parameters': ['p']}])
    yield Case('env/registry-not-map', _echo(), 'env', intent=UNSAID,
               environments=[{'resource_registry': ['x']}])
    yield Case('env/newest-version', _echo(version=NEWEST), 'env', intent=OK,
               environments=[{'parameter_defaults': {'p': 'x'}}])


def environment_cases():
    for gen in (value_cases, condition_cases, merge_cases, registry_cases, malformed_cases):
        yield from gen()
