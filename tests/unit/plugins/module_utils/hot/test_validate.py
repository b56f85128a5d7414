# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    DependencyCycle, EnvironmentError_, ParameterError, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import validate

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
    assert answer['UnsupportedTypes'] == [] and answer['NotChecked'] == []


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
    (('{get_resource: net}', '{get_param: nosuch}'), TemplateError, 'nosuch', 23),
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
