# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import UnsupportedResourceType
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import (
    validation as validate)

TEMPLATE = """heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
  nothing:
    type: OS::Heat::None
  alias:
    type: My::Server
"""


def test_a_type_without_plugin_is_refused_naming_the_resource():
    with pytest.raises(UnsupportedResourceType) as exc:
        resources.require_supported('OS::Zun::Container', 'box')
    assert 'resource "box": OS::Zun::Container' in str(exc.value)
    assert not resources.is_supported('OS::Zun::Container')


def test_a_registered_plugin_is_supported(monkeypatch):
    class Plugin(object):
        pass
    monkeypatch.setitem(resources.PLUGINS, 'OS::Test::Thing', Plugin)
    assert resources.is_supported('OS::Test::Thing')
    assert resources.require_supported('OS::Test::Thing') is Plugin


def test_validate_lists_known_types_without_plugin_through_aliases(monkeypatch):
    env = {'resource_registry': {'My::Server': 'OS::Nova::Server'}}
    monkeypatch.delitem(resources.PLUGINS, 'OS::Neutron::Net')
    monkeypatch.delitem(resources.PLUGINS, 'OS::Nova::Server')
    answer = validate.validate_template(TEMPLATE, environment=[env])
    # OS::Heat::None creates nothing, so it needs no plugin.
    assert answer['UnsupportedTypes'] == ['OS::Neutron::Net', 'OS::Nova::Server']
    monkeypatch.setitem(resources.PLUGINS, 'OS::Neutron::Net', object)
    assert validate.validate_template(TEMPLATE, environment=[env])['UnsupportedTypes'] == ['OS::Nova::Server']


def test_the_core_types_of_the_stack_engine_are_registered():
    for name in ('OS::Heat::Value', 'OS::Heat::None', 'OS::Heat::RandomString', 'OS::Heat::TestResource',
                 'OS::Heat::Delay', 'OS::Nova::Server', 'OS::Nova::KeyPair', 'OS::Nova::ServerGroup',
                 'OS::Nova::Flavor', 'OS::Neutron::Net', 'OS::Neutron::ProviderNet', 'OS::Neutron::Subnet',
                 'OS::Neutron::Router', 'OS::Neutron::RouterInterface', 'OS::Neutron::Port',
                 'OS::Neutron::FloatingIP', 'OS::Neutron::FloatingIPAssociation', 'OS::Neutron::SecurityGroup',
                 'OS::Neutron::SecurityGroupRule', 'OS::Neutron::ExtraRouteSet', 'OS::Neutron::Trunk',
                 'OS::Neutron::QoSPolicy', 'OS::Cinder::Volume', 'OS::Cinder::VolumeAttachment',
                 'OS::Cinder::VolumeType'):
        plugin = resources.require_supported(name)
        assert plugin.type_name == name


def test_every_plugin_gives_its_cheap_attributes_without_a_request():
    """What the engine caches when a resource settles (every attribute but
    the costly and uncached ones) costs no request beyond the live object: a
    plugin whose attributes make one must declare them costly_attributes."""
    from unittest import mock
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext
    for type_name, cls in sorted(resources.PLUGINS.items()):
        plugin = cls()
        conn = mock.MagicMock(name='conn')
        ctx = ResourceContext(conn=conn, stack_id='sid', stack_name='st', name='r', type_name=type_name,
                              physical_name='st-r-abc', physical_id='11111111-2222-3333-4444-555555555555')
        live = {'id': ctx.physical_id, 'name': 'n', 'status': 'ACTIVE', 'network_id': 'net',
                'fixed_ips': [{'subnet_id': 'sub', 'ip_address': '10.0.0.5'}],
                'addresses': {'private': [{'addr': '10.0.0.5', 'version': 4}]}}
        cheap = [n for n in plugin.heat_type().attributes
                 if n not in plugin.costly_attributes and n not in plugin.uncached_attributes]
        attrs = plugin.attributes(ctx, live, names=set(cheap)) or {}
        assert conn.mock_calls == [], (type_name, conn.mock_calls)
        assert set(cheap) <= set(attrs), type_name
        assert set(plugin.costly_attributes) <= set(plugin.heat_type().attributes), type_name


def test_costly_attributes_declared():
    assert resources.PLUGINS['OS::Heat::Value']().costly_attributes == ()
    assert resources.PLUGINS['OS::Neutron::Net']().costly_attributes == ('segments',)
    assert resources.PLUGINS['OS::Neutron::ProviderNet']().costly_attributes == ('segments',)
    assert sorted(resources.PLUGINS['OS::Neutron::Port']().costly_attributes) == ['network', 'subnets']
    assert sorted(resources.PLUGINS['OS::Nova::Server']().costly_attributes) == ['addresses', 'networks', 'show']
