# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Property checks, table-driven; each row is also validated by Heat itself
through the project's Heat oracle (tests/conformance/heat_offline.py, run by
.heat-venv's Python) when that venv is there (`make heat-venv`)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    TemplateError, UnknownResourceType)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.properties import (
    check_value, is_function, validate_properties, validate_update_policy)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *(['..'] * 5)))
HEAT_PYTHON = os.environ.get('HEAT_ORACLE_PYTHON') or os.path.join(ROOT, '.heat-venv', 'bin', 'python')
ORACLE = os.path.join(ROOT, 'tests', 'conformance', 'heat_offline.py')
P = {'get_param': 'p'}          # the oracle's template declares a string parameter p
OK = None
# Heat lets Python's own conversion error through for these.
HEAT_WORDS_DIFFER = ('integer_from_list', 'properties_not_a_map')
HEAT_SKIP = ('unresolved_function_trusted',)

# id, type, properties, None (valid) or (message, path below the resource)
CASES = [
    ('integer_from_text', 'OS::Heat::RandomString', {'length': '12'}, OK),
    ('integer_not_a_number', 'OS::Heat::RandomString', {'length': 'abc'},
     ("Value 'abc' is not an integer", 'properties.length')),
    ('integer_out_of_range', 'OS::Heat::RandomString', {'length': 0},
     ('0 is out of range (min: 1, max: 512)', 'properties.length')),
    ('integer_from_list', 'OS::Heat::RandomString', {'length': [1]}, ('not an integer', 'properties.length')),
    ('unknown_property', 'OS::Heat::RandomString', {'lenght': 3}, ('Unknown Property lenght', 'properties.lenght')),
    ('allowed_value', 'OS::Heat::RandomString', {'sequence': 'octdigits'}, OK),
    # Heat's translation drops the old property before anything checks it.
    ('dropped_old_property_unchecked', 'OS::Heat::RandomString', {'sequence': 'emoji'}, OK),
    ('not_allowed_value', 'OS::Nova::Server', {'flavor': 'm1', 'flavor_update_policy': 'BOGUS'},
     ('"BOGUS" is not an allowed value ["RESIZE", "REPLACE"]', 'properties.flavor_update_policy')),
    ('missing_required', 'OS::Nova::Server', {'image': 'cirros'}, ('Property flavor not assigned', 'properties')),
    ('function_values_trusted', 'OS::Nova::Server', {'flavor': P, 'name': P, 'networks': [{'network': P}, {'port': P}]}, OK),
    # Heat knows p's value while validating; we check before functions resolve.
    ('unresolved_function_trusted', 'OS::Nova::Server', {'flavor': 'm1', 'networks': [P], 'metadata': P}, OK),
    ('function_for_required', 'OS::Neutron::Port', {'network': P}, OK),
    ('string_from_int_and_bool', 'OS::Nova::Server', {'flavor': 1, 'name': True}, OK),
    ('string_from_float', 'OS::Nova::Server', {'flavor': 'm1', 'name': 1.5},
     ('Value must be a string; got 1.5', 'properties.name')),
    ('string_from_map', 'OS::Nova::Server', {'flavor': {'a': 1}}, ('Value must be a string', 'properties.flavor')),
    ('null_string', 'OS::Nova::Server', {'flavor': 'm1', 'name': None}, OK),
    ('list_expected', 'OS::Nova::Server', {'flavor': 'm1', 'networks': {'network': 'n'}},
     ('is not a list', 'properties.networks')),
    ('list_item_unknown_key', 'OS::Nova::Server', {'flavor': 'm1', 'networks': [{'network': 'n'}, {'bogus': 1}]},
     ('Unknown Property bogus', 'properties.networks[1].bogus')),
    ('list_item_wrong_type', 'OS::Nova::Server', {'flavor': 'm1', 'networks': [{'network': 'n', 'tag': []}]},
     ('Value must be a string', 'properties.networks[0].tag')),
    ('map_expected', 'OS::Nova::Server', {'flavor': 'm1', 'metadata': [1]}, ('is not a map', 'properties.metadata')),
    ('free_map', 'OS::Nova::Server', {'flavor': 'm1', 'metadata': {'any': {'thing': [1]}}}, OK),
    ('old_name_moves_to_new', 'OS::Neutron::Port', {'network_id': 'n', 'fixed_ips': [{'subnet_id': 's'}]}, OK),
    ('old_and_new_names', 'OS::Neutron::Port', {'network_id': 'n', 'network': 'n'},
     ('Cannot define the following properties at the same time', 'properties.network')),
    ('old_nested_name', 'OS::Nova::Server', {'flavor': 'm1', 'networks': [{'uuid': 'n'}]}, OK),
    ('port_needs_network', 'OS::Neutron::Port', {'name': 'p'}, ('Property network not assigned', 'properties')),
    ('boolean_text', 'OS::Neutron::Port', {'network': 'n', 'admin_state_up': 'True'}, OK),
    ('boolean_bad', 'OS::Neutron::Port', {'network': 'n', 'admin_state_up': 'yes'},
     ('"yes" is not a valid boolean', 'properties.admin_state_up')),
    ('boolean_from_number', 'OS::Neutron::Port', {'network': 'n', 'admin_state_up': 1},
     ('is not a valid boolean', 'properties.admin_state_up')),
    ('allowed_integer_from_text', 'OS::Neutron::Subnet', {'network': 'n', 'ip_version': '6'}, OK),
    ('allowed_integer_bad', 'OS::Neutron::Subnet', {'network': 'n', 'ip_version': 5},
     ('5 is not an allowed value [4, 6]', 'properties.ip_version')),
    ('volume_size_range', 'OS::Cinder::Volume', {'size': -1}, ('-1 is out of range (min: 1', 'properties.size')),
    ('length_constraint', 'OS::Heat::ResourceGroup', {'resource_def': {'type': 'OS::Heat::None'}, 'index_var': 'ab'},
     ('length (2) is out of range (min: 3', 'properties.index_var')),
    ('nested_required', 'OS::Heat::ResourceGroup', {'resource_def': {'properties': {}}},
     ('Property type not assigned', 'properties.resource_def')),
    ('pattern', 'OS::Neutron::TaaS::TapFlow', {'tap_service': 't', 'port': 'p', 'vlan_filter': '1-4,x'},
     ('does not match pattern', 'properties.vlan_filter')),
    ('pattern_ok', 'OS::Neutron::TaaS::TapFlow', {'tap_service': 't', 'port': 'p', 'vlan_filter': '1-4,7'}, OK),
    ('none_accepts_anything', 'OS::Heat::None', {'whatever': [1, {'x': 2}]}, OK),
    ('removed_type_accepts_anything', 'OS::Designate::Domain', {'name': 1.5}, OK),
    ('not_implemented', 'AWS::EC2::Instance', {'ImageId': 'i', 'InstanceType': 'm1', 'Tenancy': 'default'},
     ('Property Tenancy not implemented yet', 'properties.Tenancy')),
    ('properties_not_a_map', 'OS::Heat::RandomString', ['length'], ('must be a map', 'properties')),
]


@pytest.mark.parametrize('type_name, props, expected', [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validate_properties(type_name, props, expected):
    if expected is OK:
        validate_properties(type_name, props, ('resources', 'r'))
        return
    with pytest.raises(TemplateError) as err:
        validate_properties(type_name, props, ('resources', 'r'))
    message, where = expected
    assert message in err.value.message
    assert str(err.value).startswith('resources.r.' + where + ': ')


def test_unknown_type():
    with pytest.raises(UnknownResourceType):
        validate_properties('OS::Nope', {}, ('resources', 'r'))


@pytest.mark.parametrize('value, expected', [
    ({'get_param': 'x'}, True), ({'Fn::Join': ['', []]}, True), ({'get_param': 'x', 'b': 1}, False),
    ({'not_a_function': 1}, False), ('get_param', False), ([{'get_attr': ['a', 'b']}], False),
])
def test_is_function(value, expected):
    assert is_function(value) is expected


def _template(type_name, props):
    return json.dumps({'heat_template_version': '2018-08-31',
                       'parameters': {'p': {'type': 'string', 'default': 'x'}},
                       'resources': {'r': {'type': type_name, 'properties': props}}})


@pytest.mark.skipif(not (os.path.exists(HEAT_PYTHON) and os.path.exists(ORACLE)), reason='no .heat-venv for the Heat oracle: make heat-venv')
def test_table_is_what_heat_does():
    lines = '\n'.join(json.dumps({'id': c[0], 'template_text': _template(c[1], c[2]), 'params': {}})
                      for c in CASES)
    proc = subprocess.run([HEAT_PYTHON, '-W', 'ignore', ORACLE, '--batch'], input=lines, capture_output=True, text=True,
                          timeout=300, check=True)
    answers = dict((a['id'], a) for a in (json.loads(line) for line in proc.stdout.splitlines() if line.strip()))
    for case in CASES:
        if case[0] in HEAT_SKIP:
            continue
        answer = answers[case[0]]
        if case[3] is OK:
            assert answer['valid'], (case[0], answer['error'])
        else:
            assert not answer['valid'], case[0]
            message = answer['error']['message']
            # We point at the offending key itself, Heat sometimes at its parent.
            parts = message.split(': ', 2)
            if parts[0] == 'Property error':
                assert ('resources.r.' + case[3][1]).startswith(parts[1]), (case[0], message)
            if case[0] not in HEAT_WORDS_DIFFER:
                assert case[3][0] in message, (case[0], message)


NESTED_PARAMS = {
    'name': {'type': 'string'},
    'size': {'type': 'number', 'default': 1, 'constraints': [{'range': {'min': 1, 'max': 10}}]},
    'flag': {'type': 'boolean', 'default': False},
    'items': {'type': 'comma_delimited_list', 'default': []},
    'data': {'type': 'json', 'default': {}},
    'colour': {'type': 'string', 'default': 'red', 'constraints': [{'allowed_values': ['red', 'blue']}]},
}

# id, properties, parameter_defaults, None or (message, path below the resource)
PROVIDER = [
    ('all_given', {'name': 'n', 'size': '3', 'flag': 'true', 'items': 'a,b', 'data': '{"a": 1}'}, None, OK),
    ('list_and_map_forms', {'name': 'n', 'items': ['a'], 'data': [1, 2]}, None, OK),
    ('missing_required', {'size': 2}, None, ('Property name not assigned', 'properties')),
    ('required_met_by_parameter_defaults', {}, {'name': 'x'}, OK),
    ('unknown', {'name': 'n', 'nope': 1}, None, ('Unknown Property nope', 'properties.nope')),
    ('out_of_range', {'name': 'n', 'size': 11}, None, ('11 is out of range (min: 1, max: 10)', 'properties.size')),
    ('not_a_number', {'name': 'n', 'size': 'big'}, None, ("Value 'big' is not a number", 'properties.size')),
    ('not_allowed', {'name': 'n', 'colour': 'green'}, None, ('"green" is not an allowed value', 'properties.colour')),
    ('not_boolean', {'name': 'n', 'flag': 'maybe'}, None, ('is not a valid boolean', 'properties.flag')),
    ('map_from_number', {'name': 'n', 'data': 5}, None, ('is not a map', 'properties.data')),
]


@pytest.mark.parametrize('props, defaults, expected', [c[1:] for c in PROVIDER], ids=[c[0] for c in PROVIDER])
def test_validate_provider_properties(props, defaults, expected):
    from ansible_collections.stackers.orchestration.plugins.module_utils.hot.properties import (
        validate_provider_properties)
    if expected is OK:
        validate_provider_properties(NESTED_PARAMS, props, ('resources', 'r'), defaults)
        return
    with pytest.raises(TemplateError) as err:
        validate_provider_properties(NESTED_PARAMS, props, ('resources', 'r'), defaults)
    assert expected[0] in err.value.message
    assert str(err.value).startswith('resources.r.' + expected[1] + ': ')


def test_provider_schema_flags():
    from ansible_collections.stackers.orchestration.plugins.module_utils.hot.properties import provider_schema
    schema = provider_schema(NESTED_PARAMS)
    assert schema['name'].required and schema['name'].update_allowed
    assert not schema['size'].required and schema['size'].type == 'Number'
    assert schema['items'].allow_conversion and schema['data'].type == 'Map'
    assert schema['colour'].constraint('allowed_values').values == ('red', 'blue')


@pytest.mark.skipif(not (os.path.exists(HEAT_PYTHON) and os.path.exists(ORACLE)), reason='no .heat-venv for the Heat oracle: make heat-venv')
def test_provider_table_is_what_heat_does():
    nested = json.dumps({'heat_template_version': '2018-08-31', 'parameters': NESTED_PARAMS})
    lines = []
    for case in PROVIDER:
        env = {'resource_registry': {'My::Nested': 'nested.yaml'}}
        if case[2]:
            env['parameter_defaults'] = case[2]
        lines.append(json.dumps({'id': case[0], 'template_text': json.dumps({
            'heat_template_version': '2018-08-31',
            'resources': {'r': {'type': 'My::Nested', 'properties': case[1]}}}),
            'params': env, 'files': {'nested.yaml': nested}}))
    proc = subprocess.run([HEAT_PYTHON, '-W', 'ignore', ORACLE, '--batch'], input='\n'.join(lines), capture_output=True,
                          text=True, timeout=300, check=True)
    answers = dict((a['id'], a) for a in (json.loads(line) for line in proc.stdout.splitlines() if line.strip()))
    for case in PROVIDER:
        answer = answers[case[0]]
        if case[3] is OK:
            assert answer['valid'], (case[0], answer['error'])
        else:
            assert not answer['valid'], case[0]
            parts = answer['error']['message'].split(': ', 2)
            assert parts[0] == 'Property error', (case[0], answer['error'])
            assert ('resources.r.' + case[3][1]).startswith(parts[1]), (case[0], answer['error'])


@pytest.mark.parametrize('code, value, message', [
    ('n', 'abc', 'is not a number'),
    ('n', '2', None),
    ('m', [1], 'is not a map'),
    ('l', 'a,b', 'is not a list'),
    ('b', 'TRUE', None),
    ('s', {'a': 1}, 'Value must be a string'),
])
def test_check_value_of_one_schema(code, value, message):
    schema = rt.PropertySchema((code, 'r'))
    path = ('resources', 'r', 'properties', 'p')
    if message is None:
        check_value(schema, value, path)
        return
    with pytest.raises(TemplateError) as err:
        check_value(schema, value, path)
    assert message in err.value.message and err.value.path == path


POLICY = {'rolling': rt.PropertySchema(('m', '', None, None, {
    'size': ('i', '', 1, (('r', 1, None),)), 'pause': ('n', '', 0)}))}


@pytest.mark.parametrize('policy, unconstrained, message, path', [
    ({'rolling': {'size': 2, 'pause': '1.5'}}, (), None, None),
    ({'rolling': None}, (), None, None),
    ({}, (), None, None),
    ({'bogus': 1}, (), 'Unknown Property bogus', ()),
    ({'rolling': {'size': 0}}, (), 'out of range', ('rolling', 'size')),
    # A value still waiting on a resource: converted, constraints skipped.
    ({'rolling': {'size': 0}}, ('rolling',), None, None),
    ({'rolling': {'size': 'x'}}, ('rolling',), 'is not an integer', ('rolling', 'size')),
    ([1], (), 'must be a map', ()),
])
def test_validate_update_policy(policy, unconstrained, message, path):
    base = ('resources', 'r')
    if message is None:
        validate_update_policy(POLICY, policy, base, unconstrained)
        return
    with pytest.raises(TemplateError) as err:
        validate_update_policy(POLICY, policy, base, unconstrained)
    assert message in err.value.message
    assert err.value.path == base + ('update_policy',) + path


def test_no_update_policy_schema_refuses_every_key():
    with pytest.raises(TemplateError):
        validate_update_policy({}, {'rolling_update': {}}, ())
    validate_update_policy({}, {}, ())
