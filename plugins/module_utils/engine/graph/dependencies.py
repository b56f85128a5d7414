# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The dependency graph of a stack definition.

One node per enabled resource (attribute ``definition``: its
ResourceDefinition), an edge ``A -> B`` when A requires B: get_resource,
get_attr, depends_on, and Heat's implicit dependencies (implicit_deps.py).
Create order is therefore a topological order of the *reversed* graph;
delete order follows the graph itself.

Heat's implicit dependencies can be quadratic (every port of a network on
every subnet of it): when a group of resources is required by so many that
the edges would exceed ``fan_limit``, the requirers point at one *hub* node
(a tuple, attribute ``hub``: True, no definition) that points at the group.
A hub is a pass-through: it orders exactly as the edges it replaces.
:func:`requires_map` gives each resource's requirements with hubs expanded.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import traceback

from ...errors import DependencyCycle, LocatedError, StackersError
from .implicit_deps import implicit_dependencies

try:
    import networkx as nx
except ImportError:  # reported when a graph is asked for (modules use missing_required_lib)
    nx = None
    NETWORKX_IMPORT_ERROR = traceback.format_exc()
else:
    NETWORKX_IMPORT_ERROR = None


# Above this many edges for one group, its requirers share a hub node.
FAN_LIMIT = 4096


def build_graph(stack_definition, fan_limit=FAN_LIMIT, implicit=True):
    """The networkx DiGraph of ``stack_definition``; a cycle raises
    DependencyCycle naming the resources on it.  ``implicit=False`` leaves
    Heat's implicit dependencies out, as Heat's ``template validate`` does
    (it neither computes them nor reports their cycles or errors)."""
    if nx is None:
        raise StackersError('The Python library networkx is required to order the resources',
                            import_error=NETWORKX_IMPORT_ERROR)
    stack_definition.compute_references()
    resources = stack_definition.resources
    graph = nx.DiGraph()
    graph.add_nodes_from((name, {'definition': defn}) for name, defn in resources.items())
    edges = [(name, dep) for name, defn in resources.items() for dep in defn.requires]
    if implicit:
        edges.extend(implicit_edges(graph, stack_definition, fan_limit))
    # One call for every edge: each call of networkx's has a cost of its own.
    graph.add_edges_from(edges)
    if not nx.is_directed_acyclic_graph(graph):
        raise cycle_error(stack_definition, graph)
    return graph


def add_implicit(graph, stack_definition, fan_limit=FAN_LIMIT):
    graph.add_edges_from(implicit_edges(graph, stack_definition, fan_limit))


def implicit_edges(graph, stack_definition, fan_limit=FAN_LIMIT):
    """Heat's implicit edges, in order; the hub nodes they go through are
    added to ``graph`` (the edges are not)."""
    try:
        refs, groups = implicit_dependencies(stack_definition)
    except LocatedError as err:
        _locate(stack_definition, err)
        raise
    fans = {}
    for _requirer, key in refs:
        fans[key] = fans.get(key, 0) + 1
    edges = []
    for requirer, key in refs:
        members = groups[key]
        if len(members) > 1 and fans[key] * len(members) > fan_limit:
            hub = ('implicit',) + key
            if hub not in graph:
                graph.add_node(hub, hub=True, definition=None)
                edges.extend((hub, member) for member in members)
            edges.append((requirer, hub))
        else:
            edges.extend((requirer, member) for member in members)
    return edges


def is_hub(graph, node):
    return bool(graph.nodes[node].get('hub'))


def resource_requires(graph, name):
    """The resources ``name`` requires directly (through hubs)."""
    found = set()
    for dep in graph.successors(name):
        if is_hub(graph, dep):
            found.update(graph.successors(dep))
        else:
            found.add(dep)
    return found


def requires_map(graph):
    """{resource: sorted names of the resources it requires}, hubs expanded
    (the ``requires`` of Heat's dependency report)."""
    return dict((node, sorted(resource_requires(graph, node)))
                for node, hub in graph.nodes(data='hub') if not hub)


def find_cycle(graph):
    """The resource names along one cycle of ``graph``, in order."""
    edges = nx.find_cycle(graph)
    return [edge[0] for edge in edges if not is_hub(graph, edge[0])]


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
    _locate(stack_definition, err)
    return err


def _locate(stack_definition, err):
    template = getattr(stack_definition, 'template', None)
    if template is not None and err.line is None:
        template.locate(err)
