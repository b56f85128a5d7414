# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import networkx as nx
import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import dependencies as graph
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import DependencyCycle, StackersError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition


def build(resources, version='2018-08-31', fan_limit=graph.FAN_LIMIT, implicit=True, **kw):
    text = 'heat_template_version: %s\nresources:\n%s' % (version, resources)
    sd = StackDefinition(text, **kw)
    sd.template.filename = sd.template.doc.filename = 'g.yaml'
    return graph.build_graph(sd, fan_limit=fan_limit, implicit=implicit)


def test_edges_from_every_kind_of_reference():
    g = build('  net: {type: OS::Neutron::Net}\n'
              '  sub: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}}}\n'
              '  port:\n    type: OS::Neutron::Port\n    properties:\n'
              '      network: {get_attr: [net, name]}\n'
              '      fixed_ips: [{subnet: {get_resource: sub}}]\n'
              '  wait: {type: OS::Heat::None, depends_on: [port, sub]}\n'
              '  meta: {type: OS::Heat::None, metadata: {x: {get_resource: wait}}}\n'
              '  alone: {type: OS::Heat::None}\n')
    assert sorted(g.nodes) == ['alone', 'meta', 'net', 'port', 'sub', 'wait']
    assert sorted(g.edges) == [('meta', 'wait'), ('port', 'net'), ('port', 'sub'), ('sub', 'net'),
                               ('wait', 'port'), ('wait', 'sub')]
    assert g.nodes['port']['definition'].type == 'OS::Neutron::Port'
    # create order: dependencies first
    order = list(nx.topological_sort(g.reverse()))
    assert order.index('net') < order.index('sub') < order.index('port') < order.index('wait')


def test_disabled_resources_are_not_nodes():
    g = build('  a: {type: OS::Heat::None, condition: false}\n'
              '  b: {type: OS::Heat::None, depends_on: a}\n', version='2016-10-14')
    assert list(g.nodes) == ['b'] and list(g.edges) == []


def test_references_in_a_branch_not_taken_do_not_count():
    g = build('  a: {type: OS::Heat::None}\n  b: {type: OS::Heat::None}\n'
              '  c:\n    type: OS::Heat::Value\n'
              '    properties: {value: {if: [false, {get_resource: a}, {get_resource: b}]}}\n')
    assert sorted(g.edges) == [('c', 'b')]


def test_duplicate_references_make_one_edge():
    g = build('  a: {type: OS::Heat::None}\n'
              '  b: {type: OS::Heat::Value, depends_on: a,'
              ' properties: {value: [{get_resource: a}, {get_attr: [a, show]}]}}\n')
    assert list(g.edges) == [('b', 'a')]


@pytest.mark.parametrize('resources, cycle, line', [
    ('  a: {type: OS::Heat::None, depends_on: b}\n  b: {type: OS::Heat::None, depends_on: c}\n'
     '  c: {type: OS::Heat::None, depends_on: a}\n  d: {type: OS::Heat::None, depends_on: a}\n',
     ['a', 'b', 'c'], 3),
    ('  x: {type: OS::Heat::None}\n  self: {type: OS::Heat::Value, properties: {value: {get_resource: self}}}\n',
     ['self'], 4),
    ('  p: {type: OS::Heat::Value, properties: {value: {get_attr: [q, value]}}}\n'
     '  q: {type: OS::Heat::Value, properties: {value: {get_resource: p}}}\n', ['p', 'q'], 3),
])
def test_cycles(resources, cycle, line):
    with pytest.raises(DependencyCycle) as err:
        build(resources)
    assert err.value.cycle == cycle
    assert ' -> '.join(cycle + [cycle[0]]) in err.value.message
    assert (err.value.filename, err.value.line) == ('g.yaml', line)


def test_chain_graph_is_linear_in_size():
    body = ''.join('  r%d: {type: OS::Heat::None, depends_on: [r%d]}\n' % (i, i - 1) for i in range(1, 300))
    g = build('  r0: {type: OS::Heat::None}\n' + body)
    assert g.number_of_nodes() == 300 and g.number_of_edges() == 299


def test_implicit_edges_are_edges():
    g = build('  sub: {type: OS::Neutron::Subnet, properties: {network: public, cidr: 10.0.0.0/24}}\n'
              '  port: {type: OS::Neutron::Port, properties: {network: public}}\n'
              '  other: {type: OS::Neutron::Port, properties: {network: private}}\n')
    assert sorted(g.edges) == [('port', 'sub')]
    assert graph.requires_map(g) == {'sub': [], 'port': ['sub'], 'other': []}


def _fan(count):
    # Every port and server of the network needs every subnet of it: Heat's
    # edges grow with ports x subnets.
    text = '  net: {type: OS::Neutron::Net}\n'
    for i in range(count):
        text += ('  sub%d: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net},'
                 ' cidr: 10.0.%d.0/24}}\n' % (i, i % 256))
        text += '  port%d: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n' % i
        text += ('  srv%d: {type: OS::Nova::Server, properties: {image: i, flavor: f,'
                 ' networks: [{port: {get_resource: port%d}}]}}\n' % (i, i))
    return text


@pytest.mark.parametrize('fan_limit, hubs', [(graph.FAN_LIMIT, 0), (20, 2)])
def test_big_fans_go_through_hubs(fan_limit, hubs):
    g = build(_fan(5), fan_limit=fan_limit)
    hub_nodes = [n for n in g.nodes if graph.is_hub(g, n)]
    assert len(hub_nodes) == hubs
    assert all(isinstance(n, tuple) and g.nodes[n]['definition'] is None for n in hub_nodes)
    subs = ['sub%d' % i for i in range(5)]
    deps = graph.requires_map(g)
    assert sorted(deps) == sorted(n for n in g.nodes if not graph.is_hub(g, n))
    assert deps['port3'] == sorted(['net'] + subs)
    assert deps['srv3'] == sorted(['port3'] + subs)
    assert graph.resource_requires(g, 'srv0') == set(['port0'] + subs)
    order = [n for n in nx.topological_sort(g.reverse()) if not graph.is_hub(g, n)]
    assert max(order.index(s) for s in subs) < min(order.index('port%d' % i) for i in range(5))


def test_quadratic_template_stays_linear():
    g = build(_fan(400))
    # 400 ports and 400 servers on 400 subnets: 320,000 edges in Heat.
    assert g.number_of_edges() < 5 * 1201
    assert len(graph.requires_map(g)['srv7']) == 401


@pytest.mark.parametrize('fan_limit', [graph.FAN_LIMIT, 0])
def test_cycle_through_an_implicit_edge_names_resources_only(fan_limit):
    with pytest.raises(DependencyCycle) as err:
        build('  a: {type: OS::Neutron::Subnet, depends_on: p, properties: {network: n, cidr: 10.0.0.0/24}}\n'
              '  b: {type: OS::Neutron::Subnet, properties: {network: n, cidr: 10.0.1.0/24}}\n'
              '  p: {type: OS::Neutron::Port, properties: {network: n}}\n'
              '  q: {type: OS::Neutron::Port, properties: {network: n}}\n', fan_limit=fan_limit)
    assert err.value.cycle == ['a', 'p']
    assert err.value.line == 3


def test_template_validate_leaves_implicit_dependencies_out():
    # Heat's template validate (strict_validate=False) orders by explicit
    # dependencies only: no implicit edge, cycle or property conflict.
    body = ('  a: {type: OS::Neutron::Subnet, depends_on: p, properties: {network: n, network_id: n}}\n'
            '  p: {type: OS::Neutron::Port, properties: {network: n}}\n')
    g = build(body, implicit=False)
    assert list(g.edges) == [('a', 'p')]
    with pytest.raises(StackersError):
        build(body)
