# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import subprocess

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import UnknownResourceType
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types_data

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *([os.pardir] * 5)))


@pytest.mark.parametrize('name, known', [
    ('OS::Nova::Server', True),
    ('AWS::EC2::Instance', True),
    ('OS::Heat::None', True),
    ('OS::Neutron::LoadBalancer', True),      # hidden, still registered
    ('OS::Nova::server', False),              # names are case sensitive
    ('OS::Quantum::Net', False),              # only an operator alias
    ('My::Custom', False),
    ('server.yaml', False),
    (None, False),
    (42, False),
])
def test_is_known(name, known):
    assert rt.is_known(name) is known


def test_unknown_type_raises_heats_message():
    with pytest.raises(UnknownResourceType) as err:
        rt.heat_type('OS::Nope::Thing')
    assert str(err.value) == 'The Resource Type (OS::Nope::Thing) could not be found.'


@pytest.mark.parametrize('name, status', [
    ('OS::Nova::Server', rt.SUPPORTED),
    ('OS::Neutron::LoadBalancer', rt.HIDDEN),
    ('OS::Designate::Domain', rt.HIDDEN),
    ('OS::Aodh::Alarm', rt.DEPRECATED),
    ('OS::Neutron::ExtraRoute', rt.UNSUPPORTED),
    ('AWS::EC2::Instance', rt.SUPPORTED),
])
def test_support_status(name, status):
    assert rt.heat_type(name).status == status


def test_catalogue_size_and_listing():
    names = rt.type_names()
    assert len(names) == len(rt.TYPES) > 190
    assert all(n.startswith(('OS::', 'AWS::')) for n in names)
    listed = rt.type_names([rt.SUPPORTED, rt.DEPRECATED, rt.UNSUPPORTED])
    assert 'OS::Neutron::LoadBalancer' not in listed
    assert 'OS::Nova::Server' in listed


def test_nova_server_properties():
    server = rt.heat_type('OS::Nova::Server')
    assert server.required_properties() == ['flavor']
    assert {'flavor', 'image', 'name', 'metadata', 'networks', 'user_data'} <= set(
        server.update_allowed_properties())
    assert 'key_name' not in server.update_allowed_properties()
    flavor = server.properties['flavor']
    assert flavor.type == rt.STRING and flavor.required and flavor.update_allowed
    assert flavor.custom_constraints == ('nova.flavor',)
    policy = server.properties['flavor_update_policy']
    assert policy.default == 'RESIZE'
    assert policy.constraint('allowed_values').values == ('RESIZE', 'REPLACE')
    assert server.properties['admin_user'].status == rt.HIDDEN


def test_nested_schemas():
    server = rt.heat_type('OS::Nova::Server')
    networks = server.properties['networks']
    assert networks.type == rt.LIST
    item = networks.schema
    assert item.type == rt.MAP
    assert item.schema['network'].custom_constraints == ('neutron.network',)
    assert item.schema['fixed_ip'].custom_constraints == ('ip_addr',)
    bdm = server.properties['block_device_mapping_v2'].schema.schema
    assert bdm['ephemeral_size'].constraint('range').min == 1
    assert bdm['ephemeral_size'].constraint('range').max is None


def test_ranges_lengths_and_defaults():
    rand = rt.heat_type('OS::Heat::RandomString')
    length = rand.properties['length']
    assert (length.type, length.default) == (rt.INTEGER, 32)
    assert (length.constraint('range').min, length.constraint('range').max) == (1, 512)
    assert rand.properties['character_classes'].default == [{'class': 'lettersdigits', 'min': 1}]
    subnet = rt.heat_type('OS::Neutron::Subnet')
    assert subnet.properties['ip_version'].constraint('allowed_values').values == (4, 6)
    assert subnet.required_properties() == ['network']


def test_port_attributes():
    port = rt.heat_type('OS::Neutron::Port')
    assert {'fixed_ips', 'mac_address', 'network_id', 'subnets', 'status', 'show'} <= set(port.attributes)
    assert port.has_attribute('fixed_ips')
    assert not port.has_attribute('bogus')
    assert port.attributes['show'].type == rt.MAP


@pytest.mark.parametrize('name, is_none, nested, any_attr', [
    ('OS::Heat::None', True, False, True),
    ('OS::Designate::Domain', True, False, True),   # removed types are NoneResources
    ('OS::Heat::ResourceGroup', False, True, True),
    ('OS::Heat::Stack', False, False, False),       # a remote stack, not a nested one
    ('OS::Nova::Server', False, False, False),
])
def test_type_flags(name, is_none, nested, any_attr):
    typ = rt.heat_type(name)
    assert (typ.is_none, typ.is_nested, typ.any_attribute) == (is_none, nested, any_attr)


@pytest.mark.parametrize('name, keys', [
    ('OS::Heat::ResourceGroup', {'rolling_update': ['max_batch_size', 'min_in_service', 'pause_time'],
                                 'batch_create': ['max_batch_size', 'pause_time']}),
    ('OS::Heat::SoftwareDeploymentGroup', {'rolling_update': ['max_batch_size', 'pause_time'],
                                           'batch_create': ['max_batch_size', 'pause_time']}),
    ('AWS::AutoScaling::AutoScalingGroup', {
        'AutoScalingRollingUpdate': ['MaxBatchSize', 'MinInstancesInService', 'PauseTime']}),
    ('OS::Heat::InstanceGroup', {'RollingUpdate': ['MaxBatchSize', 'MinInstancesInService', 'PauseTime']}),
    # Heat's own autoscaling group takes its rolling updates as a property.
    ('OS::Heat::AutoScalingGroup', {}),
    ('OS::Heat::None', {}),
    ('OS::Nova::Server', {}),
])
def test_update_policy_schemas(name, keys):
    policy = rt.heat_type(name).update_policy
    assert dict((k, sorted(v.schema)) for k, v in policy.items()) == keys
    for schema in policy.values():
        assert schema.type == rt.MAP and not schema.required


def test_update_policy_values_and_constraints():
    rolling = rt.heat_type('OS::Heat::ResourceGroup').update_policy['rolling_update'].schema
    assert (rolling['max_batch_size'].type, rolling['max_batch_size'].default) == (rt.INTEGER, 1)
    assert rolling['max_batch_size'].constraint('range').min == 1
    assert rolling['pause_time'].type == rt.NUMBER
    aws = rt.heat_type('AWS::AutoScaling::AutoScalingGroup').update_policy
    assert aws['AutoScalingRollingUpdate'].schema['PauseTime'].default == 'PT0S'


def test_every_entry_decodes():
    for name in rt.type_names():
        typ = rt.heat_type(name)
        for prop in typ.properties.values():
            assert prop.type in rt.PROPERTY_TYPES
            assert not (prop.update_allowed and prop.immutable)
        assert 'show' in typ.attributes
        for prop in typ.update_policy.values():
            assert prop.type in rt.PROPERTY_TYPES


def test_generated_file_is_compact_and_short_lined():
    path = resource_types_data.__file__.replace('.pyc', '.py')
    with open(path) as handle:
        text = handle.read()
    assert len(text) < 200000
    assert max(len(line) for line in text.splitlines()) <= 160


@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_generated_file_is_current(tmp_path):
    out = tmp_path / 'data.py'
    subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'gen_resource_types.py'), str(out)],
                   check=True, timeout=300, capture_output=True)
    with open(os.path.join(ROOT, 'plugins', 'module_utils', 'hot', 'resource_types_data.py')) as handle:
        assert out.read_text() == handle.read()
