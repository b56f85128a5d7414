# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The resource registry, table-driven; every row is also put to installed
Heat's own Environment (tools/heat_env_oracle.py) when it is available."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os
import subprocess

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    EnvironmentError_, StackersError, TemplateError, UnknownResourceType)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.environment import Environment
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.registry import (
    HEAT_DEFAULT_GLOBAL_REGISTRY, Registry)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *([os.pardir] * 5)))
ERR = 'error'


def rr(mapping, **sections):
    env = {'resource_registry': mapping}
    env.update(sections)
    return env


def plugin(name):
    return {'plugin': name}


def template(tmpl, name):
    return {'template': tmpl, 'name': name}


DRILL = rr({'OS::Food': 'fruity.yaml',
            'resources': {'a': {'OS::Fruit': 'apples.yaml', 'hooks': 'pre-create'},
                          'nested': {'b': {'OS::Fruit': 'carrots.yaml'},
                                     'nested_res': {'hooks': 'pre-create'}},
                          'nest*': {'wild': {'hooks': 'pre-delete'}},
                          '*_nomatch': {'other': {'hooks': 'pre-update'}}}},
           parameters={'gone': 'x'}, parameter_defaults={'d': 1})

# id, env, child steps, lookups [(type, resource)], expected lookups, names -> (hooks, restricted)
CASES = [
    ('alias', rr({'OS::A': 'OS::Heat::None'}), [], [('OS::A', 'r')], [plugin('OS::Heat::None')], {}),
    ('alias_chain', rr({'My::A': 'My::B', 'My::B': 'OS::Nova::Server'}), [], [('My::A', None)],
     [plugin('OS::Nova::Server')], {}),
    ('wildcard_prefix', rr({'OS::Networking::*': 'OS::Neutron::*'}), [],
     [('OS::Networking::Port', 'p'), ('OS::Networking::Nope', 'p'), ('OS::Neutron::Net', 'n')],
     [plugin('OS::Neutron::Port'), ERR, plugin('OS::Neutron::Net')], {}),
    ('wildcard_without_separator', rr({'OS::Network*': 'OS::Neutron*'}), [], [('OS::Network::Port', 'p')],
     [plugin('OS::Neutron::Port')], {}),
    ('many_to_one', rr({'OS::Nova::*': 'OS::Heat::None'}), [],
     [('OS::Nova::Server', 's'), ('OS::Cinder::Volume', 'v')],
     [plugin('OS::Heat::None'), plugin('OS::Cinder::Volume')], {}),
    ('many_to_one_no_recursion', rr({'OS::*': 'OS::Heat::None'}), [],
     [('OS::Some::Name', 'x'), ('OS::Heat::None', 'x')], [plugin('OS::Heat::None'), plugin('OS::Heat::None')], {}),
    ('glob_sorts_before_exact_name', rr({'OS::*': 'OS::Heat::None', 'OS::Nova::Server': 'OS::Heat::RandomString'}),
     [], [('OS::Nova::Server', 's')], [plugin('OS::Heat::None')], {}),
    # Entries of equal path length sort by path and '*' sorts before letters.
    ('glob_wins_whatever_the_order', rr({'OS::Nova::Server': 'OS::Heat::RandomString', 'OS::Nova::*': 'OS::Heat::None'}),
     [], [('OS::Nova::Server', 's')], [plugin('OS::Heat::None')], {}),
    ('broken_alias_falls_back_to_plugin', rr({'OS::Nova::Server': 'OS::Nope'}), [],
     [('OS::Nova::Server', 's')], [plugin('OS::Nova::Server')], {}),
    ('broken_alias_of_unknown_type', rr({'My::Type': 'OS::Nope'}), [], [('My::Type', 's')], [ERR], {}),
    ('unknown_type', rr({}), [], [('OS::Nova::Serverr', 's'), ('My::Thing', None)], [ERR, ERR], {}),
    ('hidden_type_still_resolves', rr({}), [], [('OS::Neutron::LoadBalancer', 'lb')],
     [plugin('OS::Neutron::LoadBalancer')], {}),
    ('template_value', rr({'My::Server': 'server.yaml', 'My::Tmpl': 'x.template'}), [],
     [('My::Server', 's'), ('My::Tmpl', None)], [template('server.yaml', 'My::Server'), template('x.template', 'My::Tmpl')], {}),
    ('template_key', rr({'foo.yaml': 'whatever'}), [], [('foo.yaml', 'f')], [template('foo.yaml', 'foo.yaml')], {}),
    ('type_is_a_file', rr({}), [], [('nested.yaml', 'n'), ('http://example.com/t.template', None)],
     [template('nested.yaml', 'nested.yaml'), template('http://example.com/t.template', 'http://example.com/t.template')], {}),
    ('provider_replaces_plugin', rr({'OS::Nova::Server': 'my_server.yaml'}), [], [('OS::Nova::Server', 's')],
     [template('my_server.yaml', 'OS::Nova::Server')], {}),
    ('per_resource_mapping', rr({'resources': {'db': {'OS::DBInstance': 'db.yaml'}}}), [],
     [('OS::DBInstance', 'db'), ('OS::DBInstance', 'other'), ('OS::DBInstance', None)],
     [template('db.yaml', 'OS::DBInstance'), ERR, ERR], {}),
    ('per_resource_beats_global_mapping', rr({'resources': {'my_fip': {'OS::Networking::FloatingIP': 'ip.yaml'}},
                                              'OS::Networking::FloatingIP': 'OS::Neutron::FloatingIP'}), [],
     [('OS::Networking::FloatingIP', 'my_fip'), ('OS::Networking::FloatingIP', 'other')],
     [template('ip.yaml', 'OS::Networking::FloatingIP'), plugin('OS::Neutron::FloatingIP')], {}),
    ('per_resource_glob_does_not_map_types', rr({'resources': {'web*': {'OS::Nova::Server': 'OS::Heat::None'}}}), [],
     [('OS::Nova::Server', 'web1')], [plugin('OS::Nova::Server')], {}),
    ('per_resource_alias_resolves_from_top', rr({'resources': {'s': {'OS::Nova::Server': 'My::Stub'}},
                                                 'My::Stub': 'OS::Heat::None'}), [],
     [('OS::Nova::Server', 's')], [plugin('OS::Heat::None')], {}),
    ('null_mapping_in_user_env_is_a_no_op', rr({'OS::Nova::Server': None}), [], [('OS::Nova::Server', 's')],
     [plugin('OS::Nova::Server')], {}),
    ('null_glob_removes_earlier_entries', rr({'My::A': 'OS::Heat::None', 'My::B': 'OS::Heat::None', 'My::*': None}),
     [], [('My::A', 'a')], [ERR], {}),
    ('glob_to_missing_targets', rr({'OS::Foo::*': 'OS::Bar::*'}), [], [('OS::Foo::X', 'x')], [ERR], {}),
    ('mapping_loop', rr({'A::B': 'A::C', 'A::C': 'A::B'}), [], [('A::B', 'x'), ('OS::Nova::Server', 's')],
     [ERR, plugin('OS::Nova::Server')], {}),
    ('growing_wildcard_loop', rr({'OS::A*': 'OS::AB*'}), [], [('OS::Ax', 'x')], [ERR], {}),
    ('hooks_and_restricted_actions', rr({'resources': {
        'srv': {'hooks': 'pre-create', 'restricted_actions': 'update'},
        'web_*': {'hooks': ['pre-update', 'post-delete']},
        '*': {'restricted_actions': ['replace']},
        'db?': {'hooks': []}}}), [], [], [],
     {'srv': (['pre-create'], ['replace', 'update']), 'web_1': (['post-delete', 'pre-update'], ['replace']),
      'db1': ([], ['replace']), 'SRV': ([], ['replace'])}),
    ('hooks_are_case_sensitive_globs', rr({'resources': {'[ab]x': {'hooks': 'pre-delete'}}}), [], [], [],
     {'ax': (['pre-delete'], []), 'cx': ([], [])}),
    ('child_drills_into_parent_resource', DRILL, [{'params': None, 'resource': 'nested'}],
     [('OS::Food', 'abc'), ('OS::Fruit', 'a'), ('OS::Fruit', 'b')],
     [template('fruity.yaml', 'OS::Food'), ERR, template('carrots.yaml', 'OS::Fruit')],
     {'nested_res': (['pre-create'], []), 'wild': (['pre-delete'], []), 'other': ([], []), 'a': ([], [])}),
    ('grandchild', DRILL, [{'params': None, 'resource': 'nested'}, {'params': {'x': 1}, 'resource': 'nested_res'}],
     [('OS::Food', 'abc')], [template('fruity.yaml', 'OS::Food')], {'nested_res': ([], []), 'hooks': ([], [])}),
    ('child_without_resource_name_keeps_everything', DRILL, [{'params': {'p': 1}}], [('OS::Fruit', 'a')],
     [template('apples.yaml', 'OS::Fruit')], {'a': (['pre-create'], [])}),
    ('child_drops_provider_entry', rr({'OS::Food': 'fruity.yaml'}),
     [{'params': {}, 'remove': ['OS::Food', 'abc'], 'resource': 'abc'}], [('OS::Food', 'abc')], [ERR], {}),
    ('child_drops_most_specific_entry', rr({'OS::Food': 'fruity.yaml', 'resources': {'abc': {'OS::Food': 'nutty.yaml'}}}),
     [{'params': None, 'remove': ['OS::Food', 'abc']}], [('OS::Food', 'abc')], [template('fruity.yaml', 'OS::Food')], {}),
    ('child_keeps_plugin_when_removing', rr({'OS::Food': 'OS::Heat::None'}),
     [{'params': None, 'remove': ['OS::Food', 'abc']}], [('OS::Food', 'abc')], [plugin('OS::Heat::None')], {}),
    ('child_env_params_merge_registry', rr({'OS::Food': 'carrots.yaml'}),
     [{'params': {'resource_registry': {'OS::Food': 'apples.yaml', 'OS::Fruit': 'pear.yaml'},
                  'parameters': {'a': 1}}}],
     [('OS::Food', None), ('OS::Fruit', None)], [template('apples.yaml', 'OS::Food'), template('pear.yaml', 'OS::Fruit')], {}),
]

INVALID = [
    ('bad_hook', rr({'resources': {'s': {'hooks': 'pre-foo'}}}), 'Invalid hook type "pre-foo"'),
    ('bad_hook_in_list', rr({'resources': {'s': {'hooks': ['pre-create', 'bogus']}}}), 'Invalid hook type'),
    ('hook_mapping', rr({'resources': {'s': {'hooks': {'pre-create': True}}}}), 'Invalid hook type'),
    ('bad_restricted_action', rr({'resources': {'s': {'restricted_actions': 'delete'}}}),
     'Invalid restricted_action type "delete"'),
    ('restricted_action_number', rr({'resources': {'s': {'restricted_actions': 1}}}), 'Invalid restricted_action'),
]


def ours(case_env, steps, lookups, names):
    try:
        env = Environment.load(copy.deepcopy(case_env))
        for step in steps:
            remove = env.registry.resolve(*step['remove']) if step.get('remove') else None
            env = env.child(step.get('resource'), step.get('params'), item_to_remove=remove)
    except StackersError as exc:
        return {'error': str(exc)}
    out = {'lookups': [], 'hooks': {}, 'restricted': {}}
    for type_name, resource_name in lookups:
        try:
            info = env.registry.resolve(type_name, resource_name)
        except StackersError:
            out['lookups'].append(ERR)
            continue
        out['lookups'].append(template(info.template, info.name) if info.template else plugin(info.plugin))
    for name in names:
        out['hooks'][name] = sorted(env.registry.hooks(name))
        out['restricted'][name] = sorted(env.registry.restricted_actions(name))
    out['parameters'] = env.parameters
    out['parameter_defaults'] = env.parameter_defaults
    return out


@pytest.mark.parametrize('case', CASES, ids=[c[0] for c in CASES])
def test_registry(case):
    env, steps, lookups, expected, hooks = case[1:]
    got = ours(env, steps, lookups, hooks)
    assert 'error' not in got, got
    assert got['lookups'] == expected
    for name, (hook_list, restricted) in hooks.items():
        assert (got['hooks'][name], got['restricted'][name]) == (hook_list, restricted), name


@pytest.mark.parametrize('env, message', [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_registry(env, message):
    with pytest.raises(EnvironmentError_) as err:
        Environment.load(env)
    assert message in str(err.value)


@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_table_is_what_heat_does():
    requests = [{'kind': 'registry', 'env': c[1], 'child': c[2], 'lookups': c[3], 'hooks': sorted(c[5])}
                for c in CASES]
    requests += [{'kind': 'registry', 'env': c[1]} for c in INVALID]
    proc = subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'heat_env_oracle.py')],
                          input=json.dumps(requests), capture_output=True, text=True, timeout=300, check=True)
    answers = json.loads(proc.stdout)
    for case, answer in zip(CASES, answers):
        assert 'error' not in answer, (case[0], answer)
        heat_lookups = [ERR if 'error' in a else a for a in answer['lookups']]
        assert heat_lookups == case[4], case[0]
        for name, (hook_list, restricted) in case[5].items():
            assert (answer['hooks'][name], answer['restricted'][name]) == (hook_list, restricted), (case[0], name)
        mine = ours(case[1], case[2], case[3], [])
        assert (mine['parameters'], mine['parameter_defaults']) == (
            answer['parameters'], answer['parameter_defaults']), case[0]
    for case, answer in zip(INVALID, answers[len(CASES):]):
        assert 'error' in answer, case[0]


def test_resource_info_fields():
    env = Environment.load(rr({'My::S': 'OS::Heat::None', 'My::T': 'x.yaml'}))
    info = env.registry.resolve('My::S', 'r')
    assert (info.type_name, info.name, info.plugin, info.template, info.is_none) == (
        'My::S', 'OS::Heat::None', 'OS::Heat::None', None, True)
    assert info.chain == ('My::S', 'OS::Heat::None')
    assert info.heat_type.name == 'OS::Heat::None'
    info = env.registry.resolve('My::T', 'r')
    assert (info.type_name, info.name, info.template, info.plugin, info.heat_type) == (
        'My::T', 'My::T', 'x.yaml', None, None)
    assert env.registry.resolve('OS::Designate::Domain').is_none      # removed types do nothing too
    assert not env.registry.resolve('OS::Nova::Server').is_none


def test_unknown_type_message_and_bad_type_values():
    reg = Registry()
    with pytest.raises(UnknownResourceType) as err:
        reg.resolve('OS::Nope', 'r')
    assert str(err.value) == 'The Resource Type (OS::Nope) could not be found.'
    for value, message in (('', 'Resource "r" has no type'),
                           (None, 'Non-empty resource type is required for resource "r"'),
                           (['x'], 'Resource "r" type is not a string')):
        with pytest.raises(TemplateError) as err:
            reg.resolve(value, 'r')
        assert str(err.value) == message


def test_loop_error_points_at_the_mapping():
    env = Environment.load('resource_registry:\n  "A::B": "A::C"\n  "A::C": "A::B"\n', filename='loop.yaml')
    with pytest.raises(EnvironmentError_) as err:
        env.registry.resolve('A::B', 'x')
    assert 'A::B -> A::C -> A::B' in str(err.value)
    assert err.value.filename == 'loop.yaml' and err.value.line in (2, 3)


def test_nested_path_argument_matches_child():
    env = Environment.load(copy.deepcopy(DRILL))
    assert env.registry.hooks('nested_res', nested_path=('nested',)) == {'pre-create'}
    assert env.registry.hooks('nested_res') == set()
    assert env.registry.resolve('OS::Fruit', 'b', nested_path=('nested',)).template == 'carrots.yaml'
    assert env.registry.matches_hook('wild', 'pre-delete', nested_path=('nested',))
    assert env.registry.restricted_actions('x', nested_path=('nested', 'deeper')) == set()


def test_ignore_skips_one_answer_for_facade_checks():
    env = Environment.load(rr({'OS::Nova::Server': 'server.yaml'}))
    provider = env.registry.resolve('OS::Nova::Server', 's')
    assert provider.template == 'server.yaml'
    facade = env.registry.resolve('OS::Nova::Server', 's', ignore=provider)
    assert facade.plugin == 'OS::Nova::Server'


def test_operator_default_aliases_are_opt_in():
    with pytest.raises(UnknownResourceType):
        Registry().resolve('OS::Quantum::Net')
    reg = Registry(HEAT_DEFAULT_GLOBAL_REGISTRY)
    assert reg.resolve('OS::Quantum::Net').plugin == 'OS::Neutron::Net'
    assert reg.resolve('OS::Ceilometer::Alarm').plugin == 'OS::Aodh::Alarm'
    env = Environment.load(rr({'OS::Quantum::Net': 'OS::Heat::None'}), global_registry=HEAT_DEFAULT_GLOBAL_REGISTRY)
    assert env.registry.resolve('OS::Quantum::Net').plugin == 'OS::Heat::None'     # user entries first


def test_as_dict_round_trip_and_template_entries():
    raw = {'OS::A': 'OS::Heat::None', 'T::x': 'a.yaml',
           'resources': {'r': {'hooks': ['pre-create'], 'OS::B': 'b.yaml', 'deep': {'OS::C': 'c.yaml'}}}}
    env = Environment.load(rr(copy.deepcopy(raw)))
    assert env.registry.as_dict() == raw
    assert sorted(e.value for e in env.registry.template_entries()) == ['a.yaml', 'b.yaml', 'c.yaml']
    assert env.as_dict()['resource_registry'] == raw
