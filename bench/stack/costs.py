# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The minimum each resource type costs the cloud, and the bound a template's graph gives."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import re

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import (
    dependencies as graphs)
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs

BUILD = {'server': 3.0, 'volume': 1.0}   # seconds the local cloud takes to build one (scenario 1)

# ---------------------------------------------------------------------------------------------
# The minimum each resource type costs the cloud, as routes the local cloud's stats name.
#   calls:  the requests no client can avoid (any order);
#   path:   those of them that must follow one another before a dependent can start (each waits
#           for the previous answer), in order; the rest can go beside or after them;
#   build:  the local cloud's build kind the resource waits for between them.
# Why these, per type:
# - Neutron objects (Net, Subnet, Router, Port, FloatingIP, SecurityGroup): one POST; the stack
#   marks that let a killed run find what it made go in one PUT .../tags after it, because
#   Neutron refuses tags in a POST body (resources/neutron/common.py).  No dependent needs the
#   marks, so only the POST is on the path.  The POST answer already shows the status (ACTIVE /
#   DOWN): no GET.  Delete: one DELETE (Neutron deletes synchronously, 204 = gone).
# - SecurityGroup rules: one bulk POST of every rule (Neutron takes a list) after the group's
#   POST: a port in the group expects its rules -> 2 on the path, 3 calls.  No rule: 2 calls.
# - RouterInterface: one PUT add_router_interface / remove_router_interface; no tags, no GET.
# - KeyPair: one POST / DELETE (no tags, found again by name).
# - Server: POST, the build, then one GET that sees ACTIVE -> 2 serial + build.  Delete: DELETE
#   and one GET answering 404 (Nova deletes asynchronously).
# - Volume: POST, build, one GET seeing 'available'; delete: DELETE + one GET answering 404.
# - VolumeAttachment: Nova's POST os-volume_attachments, then one Cinder GET seeing 'in-use';
#   delete: DELETE os-volume_attachments + one Cinder GET seeing 'available'.
# - OS::Heat::Value and other stack-local types: nothing.
# Names that must be looked up (an image, a flavor, an external network given by name) cost one
# GET per distinct name per run (LOOKUPS), off the critical path: they can be asked at the start,
# beside the first wave of creates.  A run costs one token POST (on the path: nothing goes before
# it).  Version discovery GETs are not counted as needed (the catalog and microversions can be
# known).  A no-change rerun needs no call at all (the record says everything is there).
# ---------------------------------------------------------------------------------------------
N = 'network /v2.0/'


def _neutron(coll):
    return {'create': {'calls': {'POST ' + N + coll: 1, 'PUT ' + N + coll + '/{id}/tags': 1},
                       'path': ['POST ' + N + coll]},
            'delete': {'calls': {'DELETE ' + N + coll + '/{id}': 1},
                       'path': ['DELETE ' + N + coll + '/{id}']}}


def _serial(calls, build=None):
    """A type whose needed calls all follow one another (in this order)."""
    spec = {'calls': dict((route, 1) for route in calls), 'path': list(calls)}
    if build:
        spec['build'] = build
    return spec


VOLUME_GET = 'GET block-storage /v3/{id}/volumes/{id}'
LOCAL = {'create': _serial([]), 'delete': _serial([])}   # stack-local types: nothing
MIN = {
    'OS::Neutron::Net': _neutron('networks'),
    'OS::Neutron::Subnet': _neutron('subnets'),
    'OS::Neutron::Router': _neutron('routers'),
    'OS::Neutron::Port': _neutron('ports'),
    'OS::Neutron::FloatingIP': _neutron('floatingips'),
    'OS::Neutron::SecurityGroup': _neutron('security-groups'),   # + the rules' bulk POST, below
    'OS::Neutron::RouterInterface': {
        'create': _serial(['PUT ' + N + 'routers/{id}/add_router_interface']),
        'delete': _serial(['PUT ' + N + 'routers/{id}/remove_router_interface'])},
    'OS::Nova::KeyPair': {
        'create': _serial(['POST compute /v2.1/os-keypairs']),
        'delete': _serial(['DELETE compute /v2.1/os-keypairs/{name}'])},
    'OS::Nova::Server': {
        'create': _serial(['POST compute /v2.1/servers', 'GET compute /v2.1/servers/{id}'],
                          'server'),
        'delete': _serial(['DELETE compute /v2.1/servers/{id}', 'GET compute /v2.1/servers/{id}'],
                          'server_delete')},
    'OS::Cinder::Volume': {
        'create': _serial(['POST block-storage /v3/{id}/volumes', VOLUME_GET], 'volume'),
        'delete': _serial(['DELETE block-storage /v3/{id}/volumes/{id}', VOLUME_GET],
                          'volume_delete')},
    'OS::Cinder::VolumeAttachment': {
        'create': _serial(['POST compute /v2.1/servers/{id}/os-volume_attachments', VOLUME_GET],
                          'volume_attach'),
        'delete': _serial(['DELETE compute /v2.1/servers/{id}/os-volume_attachments/{id}',
                           VOLUME_GET])},
    'OS::Heat::Value': LOCAL, 'OS::Heat::None': LOCAL, 'OS::Heat::RandomString': LOCAL,
}
SG_RULES = 'POST ' + N + 'security-group-rules'
TOKEN = 'POST identity /v3/auth/tokens'
# (type, property path) -> the list GET that finds a name (one per distinct name per run)
LOOKUPS = {
    ('OS::Nova::Server', ('image',)): 'GET image /v2/images',
    ('OS::Nova::Server', ('flavor',)): 'GET compute /v2.1/flavors',
    ('OS::Neutron::Router', ('external_gateway_info', 'network')): 'GET ' + N + 'networks',
    ('OS::Neutron::FloatingIP', ('floating_network',)): 'GET ' + N + 'networks',
}
_UUID = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                   r'[0-9a-fA-F]{12}$')


# -- the template's graph and its lower bound ---------------------------------------------------

def stack_definition(template_path, parameters=None):
    inputs = defs.read_inputs(template_path, (), parameters or {}, None)
    sd = defs.build(inputs, 'bound')
    graph = sd.validate(strict=True, graph_builder=lambda s: graphs.build_graph(s, implicit=True))
    return sd, graph


def path_of(defn, phase):
    """(the routes that must follow one another for this resource, its build kind)."""
    spec = MIN.get(defn.type)
    if spec is None:
        raise SystemExit('stack_bench: no minimum cost for %s: add it to MIN' % defn.type)
    spec = spec[phase]
    path = list(spec['path'])
    if defn.type == 'OS::Neutron::SecurityGroup' and phase == 'create' and \
            (defn.properties or {}).get('rules'):
        path.append(SG_RULES)
    return path, spec.get('build')


def resource_cost(defn, phase, latency, builds):
    path, build = path_of(defn, phase)
    return len(path) * latency + builds.get(build, 0.0)


def longest_path(graph, cost):
    """(length, [nodes]) of the heaviest chain of requirements (edge A -> B: A requires B); hubs
    cost nothing.  The same chain bounds a delete, walked the other way."""
    finish, via = {}, {}
    import networkx
    for node in reversed(list(networkx.topological_sort(graph))):   # requirements first
        best, prev = 0.0, None
        for req in graph.successors(node):
            if finish[req] > best:
                best, prev = finish[req], req
        own = 0.0 if graphs.is_hub(graph, node) else cost(graph.nodes[node]['definition'])
        finish[node], via[node] = best + own, prev
    end = max(finish, key=lambda n: finish[n]) if finish else None
    chain = []
    while end is not None:
        if not graphs.is_hub(graph, end):
            chain.append(end)
        end = via[end]
    return (max(finish.values()) if finish else 0.0), chain


def _prop(props, path):
    for key in path:
        if not isinstance(props, dict):
            return None
        props = props.get(key)
    return props


GROUP = 'OS::Heat::ResourceGroup'


def group_members(sd, defn):
    """(count, member type) of a ResourceGroup (a nested stack: the group itself costs no call,
    its members cost what their type costs); None for any other resource."""
    if defn.type != GROUP:
        return None
    props = sd.resolve(defn.properties, defn.path + ('properties',)) if defn.properties else {}
    return int(props.get('count', 1)), props['resource_def']['type']


def resource_count(sd):
    """The stack's resources, each ResourceGroup counted as its members."""
    return sum((group_members(sd, d) or (1, None))[0] for d in sd.resources.values())


def minimum_calls(sd, phase):
    """route -> the fewest calls ``phase`` (create / delete) of the whole stack needs."""
    calls = collections.Counter({TOKEN: 1})
    names = set()
    for defn in sd.resources.values():
        group = group_members(sd, defn)
        if group:       # members' properties are not looked at: no lookups, no rules
            calls.update(dict((r, n * group[0]) for r, n in MIN[group[1]][phase]['calls'].items()))
            continue
        calls.update(MIN[defn.type][phase]['calls'])
        if phase != 'create':
            continue
        props = sd.resolve(defn.properties, defn.path + ('properties',)) if defn.properties else {}
        if defn.type == 'OS::Neutron::SecurityGroup' and (props or {}).get('rules'):
            calls[SG_RULES] += 1
        for (rtype, path), route in LOOKUPS.items():
            value = _prop(props, path) if rtype == defn.type else None
            if isinstance(value, str) and not _UUID.match(value):
                names.add((route, value))
    for route, _value in names:
        calls[route] += 1
    return dict(calls)
