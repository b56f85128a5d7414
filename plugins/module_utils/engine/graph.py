# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The dependency graph of a stack definition.

One node per enabled resource (attribute ``definition``: its
ResourceDefinition), an edge ``A -> B`` when A requires B (get_resource,
get_attr, depends_on).  Create order is therefore a topological order of
the *reversed* graph; delete order follows the graph itself.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import traceback

from ..errors import DependencyCycle, StackersError

try:
    import networkx as nx
except ImportError:  # reported when a graph is asked for (modules use missing_required_lib)
    nx = None
    NETWORKX_IMPORT_ERROR = traceback.format_exc()
else:
    NETWORKX_IMPORT_ERROR = None


def build_graph(stack_definition):
    """The networkx DiGraph of ``stack_definition``; a cycle raises
    DependencyCycle naming the resources on it."""
    if nx is None:
        raise StackersError('The Python library networkx is required to order the resources',
                            import_error=NETWORKX_IMPORT_ERROR)
    stack_definition.compute_references()
    resources = stack_definition.resources
    graph = nx.DiGraph()
    graph.add_nodes_from((name, {'definition': defn}) for name, defn in resources.items())
    graph.add_edges_from((name, dep) for name, defn in resources.items()
                         for dep in defn.requires)
    if not nx.is_directed_acyclic_graph(graph):
        raise cycle_error(stack_definition, graph)
    return graph


def find_cycle(graph):
    """The resource names along one cycle of ``graph``, in order."""
    edges = nx.find_cycle(graph)
    return [edge[0] for edge in edges]


def cycle_error(stack_definition, graph):
    cycle = find_cycle(graph)
    # Report from the cycle member defined first in the template, so the
    # message is stable and the line points at something in the loop.
    order = dict((name, i) for i, name in enumerate(stack_definition.resources))
    start = min(range(len(cycle)), key=lambda i: order.get(cycle[i], 0))
    cycle = cycle[start:] + cycle[:start]
    text = ' -> '.join(cycle + [cycle[0]])
    err = DependencyCycle('Circular dependency found between resources: %s' % text,
                          cycle=cycle, path=('resources', cycle[0]))
    template = getattr(stack_definition, 'template', None)
    if template is not None:
        template.locate(err)
    return err
