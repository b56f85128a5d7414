# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""engine/definition/validation.py: hot/validate.py's entry points with the resource
registry and the dependency graph bound in."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import inspect as pyinspect

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import dependencies as graph
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import DependencyCycle
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import validate as hot

# The port's hidden dependency on the subnet of its network is Heat's implicit
# kind (engine/graph/implicit_deps.py), which only the engine's graph knows.
PORT_ON_SUBNET = '''heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  sub: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}
  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
'''

# A cycle only through the implicit dependency: the subnet waits for the port.
IMPLICIT_CYCLE = PORT_ON_SUBNET.replace('cidr: 10.0.0.0/24}', 'cidr: 10.0.0.0/24}, depends_on: port')


def test_signatures_are_hot_validates_without_what_the_engine_binds():
    for name in ('validate_template', 'inspect'):
        ours = pyinspect.signature(getattr(validation, name)).parameters
        theirs = pyinspect.signature(getattr(hot, name)).parameters
        bound = {'supported_types', 'dependencies', 'type_rules'}
        # the engine's: files fetched by URL before hot/ sees them, the global environment's files
        added = {'urls', 'opener', 'global_environment_dir'}
        assert [(p.name, p.default, p.kind) for p in ours.values() if p.name not in added] == \
            [(p.name, p.default, p.kind) for p in theirs.values() if p.name not in bound]


def test_dependencies_include_heats_implicit_ones_unless_asked_not_to():
    sd = hot._definition(PORT_ON_SUBNET, (), None, None, None)
    assert validation.dependencies(sd) == {'net': [], 'sub': ['net'], 'port': ['net', 'sub']}
    assert validation.dependencies(sd, implicit=False)['port'] == ['net']


def test_dependencies_expand_hubs_only_for_the_names_read(monkeypatch):
    extra = ('  sub2: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, '
             'cidr: 10.0.1.0/24}}\n')
    extra += ''.join('  p%d: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n' % i
                     for i in range(3))
    sd = hot._definition(PORT_ON_SUBNET + extra, (), None, None, None)
    build = graph.build_graph
    monkeypatch.setattr(graph, 'build_graph',  # every fan through a hub
                        lambda stack, implicit=True: build(stack, fan_limit=0, implicit=implicit))
    expanded = []
    real = graph.resource_requires
    monkeypatch.setattr(graph, 'resource_requires',
                        lambda g, name: expanded.append(name) or real(g, name))
    requires = validation.dependencies(sd)
    assert any(graph.is_hub(requires._graph, node) for node in requires._graph)
    assert expanded == [] and len(requires) == 7  # hubs are not resources
    assert requires['p1'] == ['net', 'sub', 'sub2'] and expanded == ['p1']
    with pytest.raises(KeyError):
        requires['no_such']
    on_both = ['net', 'sub', 'sub2']
    assert dict(requires) == {'net': [], 'sub': ['net'], 'sub2': ['net'], 'port': on_both,
                              'p0': on_both, 'p1': on_both, 'p2': on_both}


def test_inspect_reports_implicit_requirements():
    result = validation.inspect(PORT_ON_SUBNET)
    assert result['valid'] and result['resources']['port']['requires'] == ['net', 'sub']


def test_an_implicit_cycle_fails_create_validation_only():
    validation.validate_template(IMPLICIT_CYCLE)  # template validate: as Heat's
    with pytest.raises(DependencyCycle):
        validation.validate_template(IMPLICIT_CYCLE, strict=True)
    assert validation.inspect(IMPLICIT_CYCLE)['error']['type'] == 'DependencyCycle'


def test_supported_types_are_the_registrys_at_the_call(monkeypatch):
    assert validation.validate_template(PORT_ON_SUBNET)['UnsupportedTypes'] == []
    monkeypatch.delitem(resources.PLUGINS, 'OS::Neutron::Port')
    assert validation.validate_template(PORT_ON_SUBNET)['UnsupportedTypes'] == ['OS::Neutron::Port']


def test_the_types_run_as_nested_stacks_are_supported():
    answer = validation.validate_template('''heat_template_version: 2018-08-31
resources:
  g: {type: OS::Heat::ResourceGroup, properties: {resource_def: {type: OS::Heat::None}}}
  c: {type: OS::Heat::ResourceChain, properties: {resources: ['OS::Heat::None']}}
  s: {type: OS::Heat::Stack, properties: {template: 'heat_template_version: 2018-08-31'}}
  z: {type: OS::Zun::Container, properties: {image: x}}
''')
    assert answer['UnsupportedTypes'] == ['OS::Zun::Container']
