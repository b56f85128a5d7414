# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import stack_inputs
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.environment import Environment
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.template import Template


class ReadyParameters(Mapping):
    """A Parameters-like object handed over as is."""

    def __init__(self, **values):
        self.values = values

    def __getitem__(self, name):
        return self.values[name]

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def validate(self, validate_value=True):
        pass


def test_a_ready_parameters_object_is_used_as_is():
    params = ReadyParameters(p='x')
    tmpl = Template.load('heat_template_version: 2016-10-14\n')
    assert stack_inputs.build_parameters(tmpl, None, params, 's', None, project_id=None,
                                         checker=None) is params


def test_parameters_section_must_be_a_map():
    tmpl = Template.load('heat_template_version: 2016-10-14\nparameters: [a]\n', filename='t.yaml')
    with pytest.raises(TemplateError) as err:
        stack_inputs.build_parameters(tmpl, None, None, 's', None, project_id=None, checker=None)
    assert str(err.value).startswith('t.yaml:2: parameters: ')


def test_type_lookups_are_shared_unless_the_registry_names_the_resource():
    env = Environment.load({'resource_registry': {
        'My::T': 'OS::Heat::None',
        'resources': {'special': {'My::T': 'OS::Heat::Value'}}}})
    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n'
                         '  a: {type: My::T}\n  b: {type: My::T}\n'
                         '  special: {type: My::T, properties: {value: 1}}\n', environment=env)
    res = sd.resources
    assert res['a'].type_info is res['b'].type_info
    assert res['a'].type_info.is_none
    assert res['special'].type_info.plugin == 'OS::Heat::Value'


@pytest.mark.parametrize('rtype, expected', [
    ('OS::Neutron::Net', None), ('OS::Nova::KeyPair', None), ('OS::Swift::Container', 'None'),
    ('OS::Heat::RandomString', 'r'), ('OS::Nova::Server', 'r'), ('OS::Heat::None', 'r'),
])
def test_placeholder_reference_ids(rtype, expected):
    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n  r: {type: %s}\n' % rtype)
    assert stack_inputs.placeholder_reference_id(sd.resources['r']) == expected


def test_attribute_allowed():
    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n'
                         '  v: {type: OS::Heat::Value}\n  g: {type: OS::Heat::ResourceGroup}\n'
                         '  t: {type: t.yaml}\n', files={'t.yaml': 'heat_template_version: 2016-10-14\n'})
    res = sd.resources
    assert stack_inputs.attribute_allowed(res['v'], 'value')
    assert not stack_inputs.attribute_allowed(res['v'], 'bogus')
    assert stack_inputs.attribute_allowed(res['g'], 'resource.1.anything')
    assert stack_inputs.attribute_allowed(res['t'], 'any_output')


NESTED = ('heat_template_version: 2016-10-14\nparameters:\n  value: {type: string}\n'
          '  opt: {type: string, default: d}\n')
ENV = 'resource_registry:\n  My::Nested: nested.yaml\n'


def provider_stack(props, files=None, env=ENV, **kw):
    from ansible_collections.stackers.orchestration.plugins.module_utils.hot import validate
    env = validate.load_environment([env], files=files)
    return StackDefinition('heat_template_version: 2016-10-14\nresources:\n'
                           '  r: {type: My::Nested, properties: %s}\n' % props,
                           environment=env, files=files, **kw)


@pytest.mark.parametrize('props, strict, message', [
    ('{value: v, bogus: x}', False, 'Unknown property "bogus"'),
    ('{opt: o}', True, 'Property value not assigned'),
])
def test_provider_template_properties_are_its_parameters(props, strict, message):
    sd = provider_stack(props, files={'nested.yaml': NESTED})
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=strict)
    assert message in err.value.message


def test_provider_template_ok_and_parameter_defaults_make_optional():
    provider_stack('{value: v}', files={'nested.yaml': NESTED}).validate()
    env = ENV + 'parameter_defaults:\n  value: pd\n'
    provider_stack('{}', files={'nested.yaml': NESTED}, env=env).validate()


def test_provider_template_missing():
    with pytest.raises(TemplateError) as err:
        provider_stack('{value: v}', files={}).validate()
    assert 'Could not fetch the provider template "nested.yaml"' in err.value.message


# Heat builds the type's attributes from the provider's outputs with its
# strict section check: an unknown key is an error there (only).
@pytest.mark.parametrize('version, output, message', [
    ('2016-10-14', '{value: 1, x: 2}', '"x" is not a valid keyword inside an output'),
    ('2016-04-08', '{value: 1, condition: true}', '"condition" is not a valid keyword'),
    ('2016-10-14', '{value: 1, condition: true}', None),
    ('2016-04-08', '{value: 1, description: d}', None),
])
def test_provider_template_outputs_are_read_strictly(version, output, message):
    nested = NESTED.replace('2016-10-14', version) + 'outputs:\n  o: %s\n' % output
    sd = provider_stack('{value: v}', files={'nested.yaml': nested})
    if message is None:
        sd.validate()
        return
    with pytest.raises(TemplateError) as err:
        sd.validate()
    assert message in err.value.message and err.value.filename == 'nested.yaml'


def test_provider_template_errors_point_into_it():
    with pytest.raises(TemplateError) as err:
        provider_stack('{value: v}', files={'nested.yaml': 'heat_template_version: 1999-01-01\n'}).validate()
    assert err.value.filename == 'nested.yaml' and err.value.line == 1


def test_custom_constraints_of_property_values():
    body = ('heat_template_version: 2016-10-14\nresources:\n'
            '  net: {type: OS::Neutron::Net}\n'
            '  port:\n    type: OS::Neutron::Port\n    properties:\n'
            '      network: %s\n      fixed_ips: [{ip_address: %s}]\n')
    StackDefinition(body % ('net0', '10.0.0.1')).validate()
    with pytest.raises(TemplateError) as err:
        StackDefinition(body % ('net0', 'not-an-ip')).validate()
    assert err.value.path == ('resources', 'port', 'properties', 'fixed_ips', 0, 'ip_address')
    sd = StackDefinition(body % ('net0', '10.0.0.1'))
    sd.validate()
    assert {'property': 'resources.port.properties.network', 'constraint': 'neutron.network'} \
        in sd.not_checked
    # a value that waits on another resource is not checked yet
    sd = StackDefinition(body % ('{get_resource: net}', '10.0.0.1'))
    sd.validate()
    assert not [c for c in sd.not_checked if c['constraint'] == 'neutron.network']


def test_custom_constraints_use_the_checker():
    asked = []

    def checker(name, value):
        asked.append((name, value))
        return 'no such flavor'

    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n'
                         '  s: {type: OS::Nova::Server, properties: {flavor: big}}\n', checker=checker)
    with pytest.raises(TemplateError) as err:
        sd.validate()
    assert ('nova.flavor', 'big') in asked
    assert 'no such flavor' in err.value.message


# Barbican's expiration custom constraint on resource properties (corpus
# barbican/order.yaml and secret.yaml): Heat 27 refuses a date in the past
# when the stack is created, not in template validate.
@pytest.mark.parametrize('rtype, expiration, strict, refused', [
    ('OS::Barbican::Order', '2017-12-28T19:14:44.180394', True, True),
    ('OS::Barbican::Secret', '2017-12-28T19:14:44.180394', True, True),
    ('OS::Barbican::Order', '2999-12-28T19:14:44', True, False),
    ('OS::Barbican::Order', 'not-a-date', True, True),
    ('OS::Barbican::Order', '2017-12-28T19:14:44.180394', False, False),
])
def test_barbican_expiration(rtype, expiration, strict, refused):
    props = {'OS::Barbican::Order': '{type: key, expiration: "%s"}',
             'OS::Barbican::Secret': '{expiration: "%s"}'}[rtype] % expiration
    sd = StackDefinition('heat_template_version: 2016-10-14\nresources:\n'
                         '  r: {type: %s, properties: %s}\n' % (rtype, props))
    if not refused:
        sd.validate(strict=strict)
        return
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=strict)
    assert err.value.path == ('resources', 'r', 'properties', 'expiration')
