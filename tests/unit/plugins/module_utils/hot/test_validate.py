# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    DependencyCycle, EnvironmentError_, ParameterError, StackersError, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition.validation import dependencies
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import validate as hot_validate
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS


class validate(object):
    """hot/validate.py's entry points given the registry and the graph, as
    engine/definition/validation.py gives them (hot/ imports neither)."""

    @staticmethod
    def validate_template(*args, **kwargs):
        return hot_validate.validate_template(*args, supported_types=PLUGINS,
                                              dependencies=dependencies, **kwargs)

    @staticmethod
    def inspect(*args, **kwargs):
        return hot_validate.inspect(*args, dependencies=dependencies, **kwargs)


TEMPLATE = '''heat_template_version: 2018-08-31
description: A small stack
parameter_groups:
  - label: Main
    parameters: [flavor]
parameters:
  flavor:
    type: string
    default: m1.tiny
    constraints:
      - allowed_values: [m1.tiny, m1.small]
  secret:
    type: string
    hidden: true
    default: s3cr3t
conditions:
  big: {equals: [{get_param: flavor}, m1.small]}
resources:
  net: {type: OS::Neutron::Net}
  port:
    type: OS::Neutron::Port
    properties:
      network: {get_resource: net}
  extra: {type: OS::Heat::None, condition: big}
outputs:
  port_ip: {value: {get_attr: [port, fixed_ips, 0, ip_address]}}
  flavor: {value: {get_param: flavor}}
'''


def test_validate_template_answer():
    answer = validate.validate_template(TEMPLATE)
    assert answer['Description'] == 'A small stack'
    assert sorted(answer['Parameters']) == ['flavor', 'secret']
    assert answer['Parameters']['flavor']['AllowedValues'] == ['m1.tiny', 'm1.small']
    assert answer['Parameters']['secret']['NoEcho'] == 'true'
    assert 's3cr3t' not in repr(answer)
    assert answer['ParameterGroups'] == [{'label': 'Main', 'parameters': ['flavor']}]
    assert answer['Environment'] == {'parameters': {}, 'parameter_defaults': {},
                                     'resource_registry': {'resources': {}}, 'event_sinks': []}
    assert answer['UnsupportedTypes'] == []
    # what template validate leaves to stack create (the disabled resource aside)
    assert answer['NotChecked'] == [
        {'parameter': 'flavor', 'constraint': 'type'},
        {'parameter': 'flavor', 'constraint': 'allowed_values'},
        {'parameter': 'secret', 'constraint': 'type'},
        {'property': 'resources.net.properties', 'constraint': 'required'},
        {'property': 'resources.net.properties', 'constraint': 'values'},
        {'property': 'resources.port.properties', 'constraint': 'required'},
        {'property': 'resources.port.properties', 'constraint': 'values'}]


def test_strict_leaves_nothing_but_service_constraints_unchecked():
    answer = validate.validate_template(TEMPLATE, strict=True)
    assert answer['NotChecked'] == []


NEWCOMER = '''heat_template_version: 2021-04-16
parameters:
  volume_size: {type: number}
  flavor: {type: string, constraints: [{custom_constraint: nova.flavor}]}
resources:
  subnet:
    type: OS::Neutron::Subnet
    properties: {cidr: 10.0.0.0/24}
'''


def test_template_validate_names_what_it_did_not_check():
    answer = validate.validate_template(NEWCOMER, parameters={'volume_size': 'big'})
    assert answer['NotChecked'] == [
        {'parameter': 'volume_size', 'constraint': 'type'},
        {'parameter': 'flavor', 'constraint': 'required'},
        {'parameter': 'flavor', 'constraint': 'type'},
        {'parameter': 'flavor', 'constraint': 'nova.flavor'},
        {'property': 'resources.subnet.properties', 'constraint': 'required'},
        {'property': 'resources.subnet.properties', 'constraint': 'values'}]


@pytest.mark.parametrize('parameters, message', [
    ({'volume_size': 'big', 'flavor': 'm1.tiny'}, '"big" is not a number'),
    ({'volume_size': 1, 'flavor': 'm1.tiny'}, 'Property network not assigned'),
])
def test_strict_refuses_what_template_validate_leaves(parameters, message):
    with pytest.raises(StackersError, match=message):
        validate.validate_template(NEWCOMER, parameters=parameters, strict=True)


# Heat's answer has ParameterGroups only when the template has groups.
@pytest.mark.parametrize('groups, shown', [
    (None, None),
    ('parameter_groups: []\n', None),
    ('parameter_groups:\n', None),
    ('parameter_groups:\n- label: G\n  parameters: [a]\n', [{'label': 'G', 'parameters': ['a']}]),
])
def test_parameter_groups_only_when_there_are_some(groups, shown):
    text = 'heat_template_version: 2016-10-14\n' + (groups or '') + \
        'parameters:\n  a: {type: string, default: x}\n'
    answer = validate.validate_template(text)
    assert answer.get('ParameterGroups') == shown
    assert ('ParameterGroups' in answer) is (shown is not None)


def test_parameter_groups_checked_without_a_section():
    # Heat also fails on parameter names that are not strings, groups or not.
    with pytest.raises(TemplateError) as err:
        validate.validate_template('heat_template_version: 2016-10-14\nparameters:\n  1: {type: string}\n')
    assert 'not a string' in err.value.message


def test_environment_shown_as_heat_stores_it():
    env = ('parameters:\n  flavor: m1.small\n  secret: other\nparameter_defaults:\n  x: 1\n'
           'resource_registry:\n  My::Thing: OS::Heat::None\n')
    text = TEMPLATE.replace('  extra: {type: OS::Heat::None, condition: big}\n',
                            '  extra: {type: OS::Heat::None, condition: big}\n  nested: {type: nested.yaml}\n')
    answer = validate.validate_template(text, environment=[env], parameters={'secret': 'given'},
                                        files={'nested.yaml': 'heat_template_version: 2016-10-14\n'})
    shown = answer['Environment']
    assert shown['parameters'] == {'flavor': 'm1.small', 'secret': '******'}
    assert shown['parameter_defaults'] == {'x': 1}
    # Heat registers a template resource type named directly as it builds it.
    assert shown['resource_registry'] == {'resources': {}, 'My::Thing': 'OS::Heat::None',
                                          'nested.yaml': 'nested.yaml'}
    answer = validate.validate_template(TEMPLATE, parameters={'secret': 'given', 'flavor': 'm1.small'})
    assert answer['Environment']['parameters'] == {'secret': '******', 'flavor': 'm1.small'}
    assert 'given' not in repr(answer)


# Template validate as Heat's API does it: values are not checked against
# their types or constraints and a missing value is no error; undeclared
# ones are.  strict=True (stack create) checks them all.  Measured on Heat's
# engine service validate_template.
PARAMS = '''heat_template_version: 2016-10-14
parameters:
  flavor: {type: string, default: a, constraints: [{allowed_values: [a, b]}]}
  n: {type: number, default: 1, constraints: [{range: {min: 0, max: 5}}]}
  req: {type: string}
  b: {type: boolean, default: false}
  j: {type: json, default: {}}
resources:
  r: {type: OS::Heat::None}
'''


@pytest.mark.parametrize('text, values, message', [
    (PARAMS, {'req': 'x'}, None),
    (PARAMS, {}, 'req'),
    (PARAMS, {'req': 'x', 'flavor': 'c'}, 'flavor'),
    (PARAMS, {'req': 'x', 'n': 9}, 'n'),
    (PARAMS, {'req': 'x', 'n': 'abc'}, 'n'),
    (PARAMS, {'req': 'x', 'b': 'maybe'}, 'b'),
    (PARAMS, {'req': 'x', 'j': '{oops'}, 'j'),
    (PARAMS.replace('{type: OS::Heat::None}', '{type: OS::Heat::Value, properties: {value: {get_param: nosuch}}}'),
     {'req': 'x'}, 'nosuch'),
    (PARAMS + 'outputs:\n  o: {value: {get_param: req}}\n', {}, 'req'),
])
def test_parameter_values_are_checked_only_when_strict(text, values, message):
    answer = validate.validate_template(text, parameters=values)
    assert set(answer['Parameters']) == {'flavor', 'n', 'req', 'b', 'j'}
    for name, given in values.items():
        assert answer['Parameters'][name]['Value'] == given
    if message is None:
        validate.validate_template(text, parameters=values, strict=True)
        return
    with pytest.raises(StackersError) as err:
        validate.validate_template(text, parameters=values, strict=True)
    assert message in str(err.value)


@pytest.mark.parametrize('text, values, message', [
    (PARAMS, {'zzz': 1}, 'zzz'),
    # Where the template itself must use a value, Heat needs it.
    (PARAMS.replace('{type: OS::Heat::None}', '{type: OS::Heat::None, condition: c}')
     + 'conditions:\n  c: {equals: [{get_param: req}, x]}\n', {}, 'req'),
    (PARAMS.replace('{type: OS::Heat::None}', '{type: OS::Heat::None, condition: c}')
     + 'conditions:\n  c: {equals: [{get_param: n}, 1]}\n', {'n': 'abc'}, 'n'),
    (PARAMS.replace('{type: OS::Heat::None}', '{type: OS::Heat::None, deletion_policy: {get_param: nosuch}}'),
     {}, 'nosuch'),
])
def test_parameter_errors_template_validate_also_reports(text, values, message):
    with pytest.raises(StackersError) as err:
        validate.validate_template(text, parameters=values)
    assert message in str(err.value)


NESTED = 'heat_template_version: 2016-10-14\nparameters:\n  p: {type: json, default: {}}\n'
MERGE = 'parameter_defaults:\n  p: %s\nparameter_merge_strategies:\n  p: merge\n'


@pytest.mark.parametrize('files, merged', [
    # The parameter is declared by a template of the files map: merged by its type.
    ({'nested.yaml': NESTED}, {'a': 1, 'b': 2}),
    # Nobody declares it: Heat keeps the first value.
    ({}, {'a': 1}),
    # Scripts, plain YAML and CFN templates there declare nothing.
    ({'x.sh': '#!/bin/sh\n', 'c.yaml': 'a: b\n',
      'cfn.yaml': 'HeatTemplateFormatVersion: 2012-12-12\nParameters: {p: {Type: Json}}\n'}, {'a': 1}),
])
def test_environment_merge_knows_the_parameters_of_the_files_map(files, merged):
    text = 'heat_template_version: 2016-10-14\n'
    answer = validate.validate_template(text, environment=[MERGE % '{a: 1}', MERGE % '{b: 2}'],
                                        files=files)
    assert answer['Environment']['parameter_defaults'] == {'p': merged}


@pytest.mark.parametrize('content, message', [
    ('heat_template_version: 1999-01-01\n', 'version'),
    ('heat_template_version: 2016-10-14\nparameters:\n  q: {type: integer}\n', 'integer'),
    ('x' * (524288 + 1), 'size limit'),
])
def test_a_bad_template_in_the_files_map_fails_the_request(content, message):
    # As in Heat, which reads every template of the files map for its
    # parameters before anything else.
    with pytest.raises(StackersError) as err:
        validate.validate_template('heat_template_version: 2016-10-14\n', files={'other.yaml': content})
    assert message in str(err.value)
    assert err.value.filename == 'other.yaml'


def test_undeclared_parameter_in_properties_only_when_strict():
    text = TEMPLATE.replace('{get_resource: net}', '{get_param: nosuch}')
    validate.validate_template(text)
    with pytest.raises(TemplateError) as err:
        validate.validate_template(text, strict=True)
    assert 'nosuch' in err.value.message and err.value.line == 23


def test_validate_template_with_environments_and_files(tmp_path):
    env = tmp_path / 'env.yaml'
    env.write_text('parameters:\n  flavor: m1.small\nresource_registry:\n  My::Thing: OS::Heat::None\n')
    text = TEMPLATE + '  thing_out: {value: {get_file: notes.txt}}\n'
    text = text.replace('  extra: {type: OS::Heat::None, condition: big}',
                        '  extra: {type: My::Thing, condition: big}')
    answer = validate.validate_template(text, environment=[str(env)], files={'notes.txt': 'n'})
    assert answer['Parameters']['flavor']['Value'] == 'm1.small'


@pytest.mark.parametrize('mutation, cls, fragment, line', [
    (('m1.tiny, m1.small]', 'm1.tiny, m1.small]\n  flavor2: {type: strin}'), ParameterError, 'strin', None),
    (('{get_resource: net}', '{get_resource: nett}'), TemplateError, 'nett', 23),
    (('type: OS::Neutron::Net', 'type: OS::Neutron::Nett'), TemplateError, 'could not be found', 19),
    (('  extra:', '  extra0: {properties: {}}\n  extra:'), TemplateError, 'extra0', 24),
])
def test_validate_template_errors(mutation, cls, fragment, line):
    text = TEMPLATE.replace(*mutation)
    with pytest.raises(cls) as err:
        validate.validate_template(text)
    assert fragment in str(err.value)
    if line:
        assert err.value.line == line


def test_cycles_are_refused():
    text = TEMPLATE.replace('  net: {type: OS::Neutron::Net}',
                            '  net: {type: OS::Neutron::Net, depends_on: port}')
    with pytest.raises(DependencyCycle) as err:
        validate.validate_template(text)
    assert set(err.value.cycle) == {'net', 'port'}


def test_implicit_dependencies_wait_for_strict():
    # An implicit edge (a port waits on the subnets of its network) closes
    # this cycle: Heat's template validate does not see it, stack create does.
    text = ('heat_template_version: 2016-10-14\nresources:\n  net: {type: OS::Neutron::Net}\n'
            '  sub: {type: OS::Neutron::Subnet, depends_on: port, properties: '
            '{network: {get_resource: net}, cidr: 10.0.0.0/24}}\n'
            '  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n')
    validate.validate_template(text)
    with pytest.raises(DependencyCycle):
        validate.validate_template(text, strict=True)


def test_max_resources():
    with pytest.raises(TemplateError) as err:
        validate.validate_template(TEMPLATE, max_resources=2)
    assert 'at most 2' in err.value.message
    validate.validate_template(TEMPLATE, max_resources=None)


def test_bad_environment():
    with pytest.raises(EnvironmentError_):
        validate.validate_template(TEMPLATE, environment=['bogus_section: {}\n'])


def test_strict_checks_parameter_values():
    validate.validate_template(TEMPLATE, parameters={'flavor': 'm1.huge'})
    with pytest.raises(ParameterError):
        validate.validate_template(TEMPLATE, parameters={'flavor': 'm1.huge'}, strict=True)


def test_inspect_valid():
    result = validate.inspect(TEMPLATE, project_id='p1')
    assert result['valid'] and result['error'] is None
    assert result['conditions'] == {'big': False}
    assert result['resources'] == {'net': {'type': 'OS::Neutron::Net', 'requires': []},
                                   'port': {'type': 'OS::Neutron::Port', 'requires': ['net']}}
    assert result['resource_properties'] == {'net': None, 'port': {'network': None}}
    assert result['outputs'] == {'port_ip': {'unresolved': ['port']}, 'flavor': {'value': 'm1.tiny'}}
    assert result['parameters'] == {'flavor': 'm1.tiny', 'secret': 's3cr3t'}


IMPLICIT = ('heat_template_version: 2016-10-14\nresources:\n  net: {type: OS::Neutron::Net}\n'
            '  sub: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}\n'
            '  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n')


@pytest.mark.parametrize('text, valid, requires', [
    # A port waits on the subnets of its network (Heat's implicit dependency).
    (IMPLICIT, True, {'net': [], 'sub': ['net'], 'port': ['net', 'sub']}),
    # Invalid for another reason: the edges are still reported, as the oracle does.
    (IMPLICIT + 'outputs:\n  o: {value: {get_attr: [net, nosuch]}}\n', False,
     {'net': [], 'sub': ['net'], 'port': ['net', 'sub']}),
    # A cycle through an implicit edge: only the explicit edges can be shown.
    (IMPLICIT.replace('{type: OS::Neutron::Subnet,', '{type: OS::Neutron::Subnet, depends_on: port,'), False,
     {'net': [], 'sub': ['net', 'port'], 'port': ['net']}),
])
def test_inspect_reports_implicit_dependencies(text, valid, requires):
    result = validate.inspect(text)
    assert result['valid'] is valid
    assert dict((k, v['requires']) for k, v in result['resources'].items()) == requires


def test_inspect_with_resource_data():
    data = {'port': {'reference_id': 'p', 'attrs': {'fixed_ips': [{'ip_address': '10.1.1.1'}]}}}
    result = validate.inspect(TEMPLATE, resource_data=data)
    assert result['outputs']['port_ip'] == {'value': '10.1.1.1'}


@pytest.mark.parametrize('text, phase', [
    ('heat_template_version: 2012-01-01\n', 'parse'),
    (TEMPLATE.replace('{get_resource: net}', '{get_resource: nett}'), 'validate'),
])
def test_inspect_invalid(text, phase):
    result = validate.inspect(text)
    assert not result['valid']
    assert result['error']['phase'] == phase
    assert result['error']['type'] == 'TemplateError'


def test_inspect_reports_partial_results():
    text = TEMPLATE.replace('  flavor: {value: {get_param: flavor}}',
                            '  flavor: {value: {list_join: [",", "x"]}}')
    result = validate.inspect(text)
    assert result['valid']
    assert result['outputs']['flavor']['error']['phase'] == 'output'


# What hot/validate.py is given is what it uses: the supported types and the
# dependencies come from the caller, never from an import of its own.
def test_supported_types_are_the_callers():
    text = 'heat_template_version: 2018-08-31\nresources:\n  a: {type: OS::Nova::Server}\n' \
           '  b: {type: OS::Heat::None}\n  c: {type: OS::Heat::Value, properties: {value: 1}}\n'
    answer = hot_validate.validate_template(text, supported_types=(), dependencies=dependencies)
    # OS::Heat::None creates nothing: never listed.
    assert answer['UnsupportedTypes'] == ['OS::Heat::Value', 'OS::Nova::Server']
    answer = hot_validate.validate_template(text, supported_types={'OS::Nova::Server'},
                                            dependencies=dependencies)
    assert answer['UnsupportedTypes'] == ['OS::Heat::Value']


def test_dependencies_are_the_callers():
    asked = []

    def fake(stack, implicit):
        asked.append((sorted(stack.resources), implicit))
        return {'net': [], 'port': ['net'], 'extra': ['port']}

    result = hot_validate.inspect(TEMPLATE, parameters={'flavor': 'm1.small'}, dependencies=fake)
    assert asked == [(['extra', 'net', 'port'], True)]
    assert result['resources']['extra'] == {'type': 'OS::Heat::None', 'requires': ['port']}
    hot_validate.validate_template(TEMPLATE, supported_types=PLUGINS, dependencies=fake)
    hot_validate.validate_template(TEMPLATE, supported_types=PLUGINS, dependencies=fake, strict=True)
    # template validate leaves Heat's implicit dependencies out; create does not.
    assert [call[1] for call in asked[1:]] == [False, True]


def test_a_cycle_the_dependencies_find_fails_validation():
    def cyclic(stack, implicit):
        raise DependencyCycle('Circular dependency found between resources: net -> port -> net')

    with pytest.raises(DependencyCycle):
        hot_validate.validate_template(TEMPLATE, supported_types=PLUGINS, dependencies=cyclic)
    result = hot_validate.inspect(TEMPLATE, dependencies=cyclic)
    assert not result['valid'] and result['error']['type'] == 'DependencyCycle'
    # the explicit requirements still show, as without a graph
    assert result['resources']['port']['requires'] == ['net']
