# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import networkx as nx
import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine import graph
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import DependencyCycle
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition


def build(resources, version='2018-08-31', **kw):
    text = 'heat_template_version: %s\nresources:\n%s' % (version, resources)
    sd = StackDefinition(text, **kw)
    sd.template.filename = sd.template.doc.filename = 'g.yaml'
    return graph.build_graph(sd)


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
