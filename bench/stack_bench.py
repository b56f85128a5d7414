# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack engine against the local cloud: critical path, peers and scale (issue 5, parts 1-3).

Starts its own local cloud (a free port, a fresh state directory) and drives the engine in-process
through ``engine.runner.run(StackRequest(...), conn)`` with an openstacksdk connection made from
the cloud's clouds.yaml (a fresh one per phase, as every playbook run authenticates again).

1. Critical path: tests/localcloud/stack_templates/multi_tier.yaml (or ``--template``) at 20 ms a
   request, server build 3 s, volume build 1 s.  The lower bound is the longest path through the
   dependency graph the engine builds (implicit dependencies included, hubs free), each resource
   costing the round trips that must follow one another x latency plus its build time (table ``MIN`` below),
   plus one round trip for the token.  Create, no-change rerun and delete wall times are printed as
   ratios to it, the API calls per route (the cloud's /_localcloud/stats, reset before each phase)
   against the minimum, and where the create's and the delete's time went (each resource's wait
   and duration along the chain that finished last, and the client-side latency per route).
2. Scale: generated stacks of 100, 500 and 1,000 resources at zero latency, each size in a child
   process of its own (so its peak RSS is its own): create, rerun, delete wall time, engine CPU
   per resource (process CPU time of that child: engine + openstacksdk; the cloud runs in other
   processes), peak memory, API calls per resource, and the growth from the smallest size to the
   largest as ratios.

3. Peers (bench/peers/compare.py): our engine in-process vs the local cloud's real Heat service
   (convergence), and our heat_stack module in ansible-playbook vs a playbook of openstack.cloud
   2.6.0 per-resource modules, creating and deleting scenario 1's infrastructure at its latency
   and build times, alternating in ``--peer-rounds`` rounds; ratios ours / peer for wall time and
   API calls.  The cloud runs Heat (``--with-heat``) only when this scenario is asked for.

Every figure goes to bench/results/stack_bench.json.  Every stack is deleted and the cloud
stopped, on failure too.  The machine is shared: wall times are noisy.

    .venv/bin/python bench/stack_bench.py [--quick] [--scenario critical|scale|peers|all]
                                          [--sizes 100,500,1000] [--latency-ms 20] [--repeat N]
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import collections
import datetime
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)
sys.path.insert(1, os.path.join(ROOT, 'tests', 'localcloud'))
from lc_helpers import Cloud, ids, start_cloud, stop_cloud  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.engine import graph as graphs  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine import events as engine_events  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine import runner  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine import definition as defs  # noqa: E402

MULTI_TIER = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml')
RESULTS = os.path.join(ROOT, 'bench', 'results', 'stack_bench.json')
BUILD = {'server': 3.0, 'volume': 1.0}

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
    'OS::Heat::Value': {'create': _serial([]), 'delete': _serial([])},
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


def minimum_calls(sd, phase):
    """route -> the fewest calls ``phase`` (create / delete) of the whole stack needs."""
    calls = collections.Counter({TOKEN: 1})
    names = set()
    for defn in sd.resources.values():
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


# -- observing a run (the bench process only: the engine's code is untouched) --------------------

class Observer(object):
    """Monotonic times of the engine's events and of every HTTP request the SDK makes."""

    def __init__(self):
        self.events = []
        self.requests = []
        self.lock = threading.Lock()
        self.on = False

    def install(self):
        from keystoneauth1 import session as ks_session
        record = engine_events.EventLog._record
        request = ks_session.Session._send_request    # absolute URLs, one per HTTP request
        obs = self

        def _record(run, event):
            if obs.on:
                with obs.lock:
                    obs.events.append((time.monotonic(), event['resource_name'],
                                       event['resource_type'], event['resource_action'],
                                       event['resource_status']))
            return record(run, event)

        def _request(sess, url, method, *args, **kwargs):
            start = time.monotonic()
            try:
                return request(sess, url, method, *args, **kwargs)
            finally:
                if obs.on:
                    with obs.lock:
                        obs.requests.append((start, time.monotonic(), method, url))

        engine_events.EventLog._record = _record
        ks_session.Session._send_request = _request

    def start(self):
        with self.lock:
            self.events, self.requests, self.on = [], [], True

    def stop(self):
        self.on = False


OBSERVER = Observer()


def route_of(method, url):
    """A client URL as the cloud's stats name its route (ids as {id})."""
    path = re.sub(r'^https?://[^/]+', '', url).split('?')[0]
    parts = [p for p in path.split('/') if p != '']
    service = parts[0] if parts else ''
    rest = ['{id}' if (_UUID.match(p) or re.match(r'^[0-9a-f]{32}$', p)) else p for p in parts[1:]]
    if len(rest) > 2 and rest[-2] == 'os-keypairs':
        rest[-1] = '{name}'
    return '%s %s /%s%s' % (method.upper(), SERVICES.get(service, service), '/'.join(rest),
                            '/' if path.endswith('/') and rest else '')


# the front door's path prefix -> the service name its stats use
SERVICES = {'volume': 'block-storage', 'networking': 'network'}


# -- running the engine ----------------------------------------------------------------------------

def engine_run(cloud, name, store, state, template=None, parameters=None):
    conn = cloud.sdk()
    try:
        result = runner.run(runner.StackRequest(
            name, state=state, template=template, parameters=parameters, store_path=store,
            timeout=1800), conn)
    finally:
        conn.close()
    stack = result.get('stack') or {}
    if stack and not str(stack.get('stack_status', '')).endswith('_COMPLETE'):
        raise RuntimeError('%s of %s: %s: %s' % (state, name, stack.get('stack_status'),
                                                 stack.get('stack_status_reason')))
    return result


def phase(cloud, name, store, state, template=None, parameters=None):
    """One run of the engine, measured: wall, CPU of this process, calls per route."""
    cloud.reset_stats()
    OBSERVER.start()
    clock0 = time.time()
    wall0, cpu0 = time.monotonic(), time.process_time()
    try:
        result = engine_run(cloud, name, store, state, template, parameters)
    finally:
        wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
        OBSERVER.stop()
    stats = cloud.stats()
    routes = dict(stats.get('by_route') or {})
    writes = sum(n for r, n in routes.items() if r.split(' ', 1)[0] in ('POST', 'PUT', 'PATCH',
                                                                         'DELETE')
                 and r != TOKEN)
    return {'wall_s': wall, 'cpu_s': cpu, 'calls': stats.get('requests', sum(routes.values())),
            'by_route': routes, 'write_calls': writes, 'changed': result.get('changed'),
            'status': (result.get('stack') or {}).get('stack_status'),
            '_events': list(OBSERVER.events), '_requests': list(OBSERVER.requests), '_t0': wall0,
            '_clock0': clock0}


def drop_private(ph):
    """A phase's figures without what only its profile reads (kept out of the JSON)."""
    for k in ('_events', '_requests', '_t0', '_clock0'):
        ph.pop(k, None)


def servers_ready(cloud, stack, phase_name, ph):
    """Resource name -> seconds into the phase at which Nova itself had the server built
    (``launched_at``) or gone (``terminated_at``), by Nova's clock (this machine's).  Here a
    server takes well over the configured build time from its POST to ACTIVE: the conductor,
    the scheduler and Neutron's port binding come before the fake driver's timed spawn."""
    admin = cloud.sdk('localcloud-admin')
    try:
        query = {'all_projects': True}
        if phase_name == 'delete':
            query['deleted_only'] = True
        servers = list(admin.compute.servers(details=True, **query))
    finally:
        admin.close()
    named = re.compile(r'^%s-(.+)-[a-z0-9]{12}$' % re.escape(stack))
    out = {}
    for server in servers:
        match = named.match(server.name or '')
        stamp = server.launched_at if phase_name == 'create' else server.terminated_at
        if not match or not stamp:
            continue
        when = datetime.datetime.fromisoformat(str(stamp).replace('Z', ''))
        at = when.replace(tzinfo=datetime.timezone.utc).timestamp() - ph['_clock0']
        out[match.group(1)] = max(at, out.get(match.group(1), at))
    return out


# -- scenario 1 ----------------------------------------------------------------------------------

def profile(ph, sd, graph, phase_name, latency, builds, built=None):
    """Where a phase's time went: per resource its wait (from its last requirement done to its own
    start) and its duration against its minimum, along the chain that finished last; and the
    client-side latency per route."""
    t0 = ph['_t0']
    start, end, types = {}, {}, {}
    for t, res, rtype, _action, status in ph['_events']:
        if rtype == 'OS::Heat::Stack':
            continue
        types[res] = rtype
        if status == 'IN_PROGRESS' and res not in start:
            start[res] = t - t0
        elif status == 'COMPLETE':
            end[res] = t - t0
    reqs = {}
    for node in graph.nodes:
        if not graphs.is_hub(graph, node):
            reqs[node] = set(graphs.resource_requires(graph, node))
    if phase_name == 'delete':       # a resource goes after every resource that requires it
        before = dict((n, set()) for n in reqs)
        for n, rs in reqs.items():
            for r in rs:
                before.setdefault(r, set()).add(n)
    else:
        before = reqs
    rows = []
    for res in sorted(end, key=lambda r: end[r]):
        ready = max([end.get(b, 0.0) for b in before.get(res, ())] or [0.0])
        defn = sd.resources.get(res)
        rows.append({'resource': res, 'type': types[res], 'ready_s': ready,
                     'start_s': start.get(res, ready), 'end_s': end[res],
                     'wait_s': start.get(res, ready) - ready,
                     'duration_s': end[res] - start.get(res, ready),
                     'min_s': resource_cost(defn, phase_name, latency, builds) if defn else 0.0})
    by = dict((r['resource'], r) for r in rows)
    chain, node = [], (rows[-1]['resource'] if rows else None)
    while node is not None:
        chain.append(node)
        preds = [b for b in before.get(node, ()) if b in by]
        node = max(preds, key=lambda b: by[b]['end_s']) if preds else None
    lat = collections.defaultdict(list)
    for s, e, method, url in ph['_requests']:
        lat[route_of(method, url)].append(e - s)
    client = dict((r, {'count': len(v), 'mean_ms': 1000 * sum(v) / len(v),
                       'max_ms': 1000 * max(v)}) for r, v in lat.items())
    first = min([s for s, _e, _m, _u in ph['_requests']] or [t0]) - t0
    # The bound again with each needed call costed at what this cloud answered it in, this run
    # (mean client-side time of its route): what a perfect engine would do against this cloud.
    def observed(defn):
        path, build = path_of(defn, phase_name)
        return (sum(client[r]['mean_ms'] / 1000.0 for r in path if r in client)
                + builds.get(build, 0.0))
    obs_len, obs_chain = longest_path(graph, observed)

    # And with each server's build as long as Nova itself took (``built``: servers_ready): from
    # the server's start to Nova's own timestamp, plus the one look that sees it.
    built = built or {}

    def cloud_timed(defn):
        if defn.name not in built or defn.name not in start:
            return observed(defn)
        path, _build = path_of(defn, phase_name)
        look = client[path[-1]]['mean_ms'] / 1000.0 if path[-1] in client else latency
        return max(0.0, built[defn.name] - start[defn.name]) + look
    timed_len, timed_chain = longest_path(graph, cloud_timed)
    token = client.get(TOKEN, {'mean_ms': 1000 * latency})['mean_ms'] / 1000.0
    order = (lambda c: list(reversed(c))) if phase_name == 'create' else list
    return {'observed_bound_s': obs_len + token,
            'observed_chain': order(obs_chain),
            'cloud_timed_bound_s': timed_len + token, 'cloud_timed_chain': order(timed_chain),
            'server_builds_s': dict((n, built[n] - start[n]) for n in built if n in start),
            'resources': rows, 'last_chain': list(reversed(chain)), 'client_routes': client,
            'first_request_s': first, 'last_event_s': max(end.values() or [0.0])}


def scenario_critical(cloud, workdir, args, out):
    latency = args.latency_ms / 1000.0
    cloud.configure(latency_ms=args.latency_ms, build_seconds=dict(BUILD))
    sd, graph = stack_definition(args.template)
    bounds = {}
    for name in ('create', 'delete'):
        length, chain = longest_path(
            graph, lambda d, p=name: resource_cost(d, p, latency, BUILD))
        bounds[name] = {'bound_s': length + latency, 'chain': list(reversed(chain))
                        if name == 'create' else chain}
    bounds['rerun'] = {'bound_s': 0.0, 'chain': []}
    minimum = {'create': minimum_calls(sd, 'create'), 'delete': minimum_calls(sd, 'delete'),
               'rerun': {}}
    runs = []
    for i in range(args.repeat):
        name = 'crit%d' % i
        store = os.path.join(workdir, 'crit%d.sqlite' % i)
        STACKS.append((name, store))
        phases = {}
        phases['create'] = phase(cloud, name, store, 'present', args.template)
        ready = {'create': servers_ready(cloud, name, 'create', phases['create'])}
        phases['rerun'] = phase(cloud, name, store, 'present', args.template)
        phases['delete'] = phase(cloud, name, store, 'absent')
        ready['delete'] = servers_ready(cloud, name, 'delete', phases['delete'])
        STACKS.remove((name, store))
        for key in ('create', 'delete'):
            phases[key]['profile'] = profile(phases[key], sd, graph, key, latency, BUILD,
                                             ready[key])
        for ph in phases.values():
            drop_private(ph)
        runs.append(phases)
    out['critical'] = {'template': os.path.relpath(args.template, ROOT),
                       'latency_ms': args.latency_ms, 'build_seconds': dict(BUILD),
                       'resources': len(sd.resources), 'bounds': bounds,
                       'minimum_calls': minimum, 'runs': runs}
    print_critical(out['critical'])


def print_critical(c):
    b = c['bounds']
    print('\n== Scenario 1: critical path (%s, %d resources, %d ms a request, builds %s)'
          % (c['template'], c['resources'], c['latency_ms'],
             ', '.join('%s %gs' % kv for kv in sorted(c['build_seconds'].items()))))
    for key in ('create', 'delete'):
        print('bound %s %.3fs: token + %s' % (key, b[key]['bound_s'], ' -> '.join(b[key]['chain'])))
    print('%-4s %-7s %9s %9s %8s %7s %7s %7s %s' % ('run', 'phase', 'wall s', 'bound s', 'ratio',
                                                  'calls', 'min', 'writes', 'CPU s'))
    for i, run in enumerate(c['runs']):
        for key in ('create', 'rerun', 'delete'):
            ph = run[key]
            bound = b[key]['bound_s']
            ratio = ('%8.2f' % (ph['wall_s'] / bound)) if bound else '       -'
            print('%-4d %-7s %9.3f %9.3f %s %7d %7d %7d %.3f'
                  % (i, key, ph['wall_s'], bound, ratio, ph['calls'],
                     sum(c['minimum_calls'][key].values()), ph['write_calls'], ph['cpu_s']))
        for key in ('create', 'delete'):
            prof = run[key]['profile']
            print('     %s against the observed-cost bound %.3fs (each needed call at this cloud\'s '
                  'answer time for its route this run): ratio %.2f; chain %s'
                  % (key, prof['observed_bound_s'], run[key]['wall_s'] / prof['observed_bound_s'],
                     ' -> '.join(prof['observed_chain'])))
            print('     %s against the cloud-timed bound %.3fs (as above, each server as long as '
                  'Nova took: %s): ratio %.2f; chain %s'
                  % (key, prof['cloud_timed_bound_s'],
                     ', '.join('%s %.2fs' % kv for kv in sorted(prof['server_builds_s'].items())),
                     run[key]['wall_s'] / prof['cloud_timed_bound_s'],
                     ' -> '.join(prof['cloud_timed_chain'])))
        print('     rerun / create wall: %.4f (target < 0.1); rerun write calls: %d (target 0)'
              % (run['rerun']['wall_s'] / run['create']['wall_s'], run['rerun']['write_calls']))
    run = c['runs'][-1]
    for key in ('create', 'delete'):
        got, want = run[key]['by_route'], c['minimum_calls'][key]
        print('\n%s: API calls per route (last run) vs minimum' % key)
        print('  %-62s %6s %6s %6s' % ('route', 'calls', 'min', 'extra'))
        for route in sorted(set(got) | set(want)):
            print('  %-62s %6d %6d %+6d' % (route, got.get(route, 0), want.get(route, 0),
                                            got.get(route, 0) - want.get(route, 0)))
        print('  %-62s %6d %6d %+6d' % ('total', sum(got.values()), sum(want.values()),
                                        sum(got.values()) - sum(want.values())))
    for key in ('create', 'delete'):
        prof = run[key]['profile']
        by = dict((r['resource'], r) for r in prof['resources'])
        print('\n%s profile (last run): first request at %.3fs, last resource done at %.3fs, '
              'stack done at %.3fs' % (key, prof['first_request_s'], prof['last_event_s'],
                                       run[key]['wall_s']))
        print('  the chain that finished last: resource, ready (its last requirement done), '
              'wait to start, duration vs its minimum')
        for res in prof['last_chain']:
            r = by[res]
            print('  %-12s %-30s ready %6.3f wait %6.3f took %6.3f min %6.3f (+%.3f)'
                  % (res, r['type'], r['ready_s'], r['wait_s'], r['duration_s'], r['min_s'],
                     r['duration_s'] - r['min_s']))
        per_type = collections.defaultdict(list)
        for r in prof['resources']:
            per_type[r['type']].append(r)
        print('  per type: count, mean duration vs minimum, mean wait')
        for t in sorted(per_type):
            rs = per_type[t]
            print('  %-30s %3d took %6.3f min %6.3f wait %6.3f'
                  % (t, len(rs), sum(r['duration_s'] for r in rs) / len(rs),
                     sum(r['min_s'] for r in rs) / len(rs), sum(r['wait_s'] for r in rs) / len(rs)))
        print('  client-side latency per route: count, mean ms, max ms')
        routes = sorted(prof['client_routes'].items(),
                        key=lambda kv: -kv[1]['count'] * kv[1]['mean_ms'])
        for route, v in routes:
            print('  %-62s %4d %8.1f %8.1f' % (route, v['count'], v['mean_ms'], v['max_ms']))


# -- scenario 2 ----------------------------------------------------------------------------------

def scale_template(count):
    """About ``count`` resources in blocks of 10: a network, its subnet, a security group with one
    rule, four ports on the subnet in the group, three OS::Heat::Value reading port addresses
    (attributes on the path); outputs list one value a block.  No server and no volume: their
    cost is build time and polling, which scenario 1 measures, and at this count the cloud's
    single Nova and Cinder processes (and Neutron's port binding for each server) would be what
    is measured rather than the engine's per-resource cost."""
    resources, outputs = {}, []
    for b in range(max(1, count // 10)):
        p = 'b%d_' % b
        resources[p + 'net'] = {'type': 'OS::Neutron::Net'}
        resources[p + 'subnet'] = {'type': 'OS::Neutron::Subnet', 'properties': {
            'network': {'get_resource': p + 'net'},
            'cidr': '10.%d.%d.0/24' % (b // 256 % 256, b % 256)}}
        resources[p + 'sg'] = {'type': 'OS::Neutron::SecurityGroup', 'properties': {
            'rules': [{'protocol': 'tcp', 'port_range_min': 22, 'port_range_max': 22}]}}
        for i in range(4):
            resources[p + 'port%d' % i] = {'type': 'OS::Neutron::Port', 'properties': {
                'network': {'get_resource': p + 'net'},
                'fixed_ips': [{'subnet': {'get_resource': p + 'subnet'}}],
                'security_groups': [{'get_resource': p + 'sg'}]}}
        for i in range(3):
            resources[p + 'value%d' % i] = {'type': 'OS::Heat::Value', 'properties': {
                'type': 'string',
                'value': {'get_attr': [p + 'port%d' % i, 'fixed_ips', 0, 'ip_address']}}}
        outputs.append({'get_attr': [p + 'value0', 'value']})
    return {'heat_template_version': '2021-04-16',
            'description': 'stack_bench scale: %d resources' % len(resources),
            'resources': resources, 'outputs': {'first_ips': {'value': outputs}}}


def rss_mb():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) / 1024.0
    return float('nan')


def scale_child(args):
    """One size, in its own process: prints its figures as one JSON line."""
    import yaml
    cloud = Cloud(args.url, args.clouds_yaml, None, args.workdir)
    count = args.child_scale
    data = scale_template(count)
    path = os.path.join(args.workdir, 'scale%d.yaml' % count)
    with open(path, 'w') as f:
        yaml.safe_dump(data, f)
    name, store = 'scale%d' % count, os.path.join(args.workdir, 'scale%d.sqlite' % count)
    sd, _graph = stack_definition(path)
    minimum = {'create': sum(minimum_calls(sd, 'create').values()),
               'delete': sum(minimum_calls(sd, 'delete').values()), 'rerun': 0}
    base = rss_mb()
    out = {'resources': len(data['resources']), 'rss_before_mb': base, 'minimum_calls': minimum}
    try:
        for key, state in (('create', 'present'), ('rerun', 'present'), ('delete', 'absent')):
            ph = phase(cloud, name, store, state, path if state == 'present' else None)
            drop_private(ph)
            out[key] = ph
    finally:
        if 'delete' not in out:
            try:
                engine_run(cloud, name, store, 'absent')
            except Exception as exc:  # noqa: B902 - reported; the parent checks the cloud
                out['cleanup_error'] = str(exc)
    out['peak_rss_mb'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print('RESULT ' + json.dumps(out))
    return 0


def scenario_scale(cloud, workdir, args, out):
    cloud.configure(latency_ms=0)
    sizes = [int(s) for s in args.sizes.split(',') if s]
    results = []
    for count in sizes:
        cmd = [sys.executable, os.path.abspath(__file__), '--child-scale', str(count),
               '--url', cloud.url, '--clouds-yaml', cloud.clouds_yaml, '--workdir', workdir]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600,
                              stdin=subprocess.DEVNULL)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith('RESULT ')]
        if proc.returncode != 0 or not line:
            # the child could not clean up: delete here with its store
            STACKS.append(('scale%d' % count, os.path.join(workdir, 'scale%d.sqlite' % count)))
            raise RuntimeError('scale %d failed (%s):\n%s' % (count, proc.returncode,
                                                              proc.stderr[-4000:]))
        results.append(json.loads(line[-1][len('RESULT '):]))
        print_scale_row(results[-1], header=len(results) == 1)
    growth = {}
    if len(results) > 1:
        small, big = results[0], results[-1]
        k = big['resources'] / float(small['resources'])
        for key in ('create', 'rerun', 'delete'):
            growth[key] = {'wall': big[key]['wall_s'] / small[key]['wall_s'],
                           'cpu': big[key]['cpu_s'] / small[key]['cpu_s'],
                           'calls': big[key]['calls'] / float(max(1, small[key]['calls']))}
        growth['peak_rss'] = big['peak_rss_mb'] / small['peak_rss_mb']
        growth['resources'] = k
        print('\ngrowth %d -> %d resources (x%.1f; linear = x%.1f):'
              % (small['resources'], big['resources'], k, k))
        for key in ('create', 'rerun', 'delete'):
            g = growth[key]
            print('  %-7s wall x%.2f  CPU x%.2f  calls x%.2f  (CPU per resource x%.2f)'
                  % (key, g['wall'], g['cpu'], g['calls'], g['cpu'] / k))
        print('  peak RSS x%.2f' % growth['peak_rss'])
    out['scale'] = {'latency_ms': 0, 'runs': results, 'growth': growth,
                    'composition': 'blocks of 10: Net, Subnet, SecurityGroup (1 rule), 4 Ports, '
                                   '3 OS::Heat::Value (get_attr of a port address); no server'}


def print_scale_row(r, header):
    if header:
        print('\n== Scenario 2: scale (zero latency; CPU = this engine process; '
              'RSS = peak of the process)')
        print('%6s %-7s %8s %8s %9s %8s %7s %9s %7s %7s' % (
            'res', 'phase', 'wall s', 'CPU s', 'CPU ms/r', 'calls', 'min', 'calls/r', 'writes',
            'RSS MB'))
    n = r['resources']
    for key in ('create', 'rerun', 'delete'):
        ph = r[key]
        print('%6d %-7s %8.2f %8.2f %9.2f %8d %7d %9.2f %7d %7s' % (
            n, key, ph['wall_s'], ph['cpu_s'], 1000 * ph['cpu_s'] / n, ph['calls'],
            r['minimum_calls'][key], ph['calls'] / float(n), ph['write_calls'],
            '%.0f' % r['peak_rss_mb'] if key == 'delete' else ''))
    print('%6s (RSS before create %.0f MB, peak %.0f MB)' % ('', r['rss_before_mb'],
                                                             r['peak_rss_mb']))


# -- main ----------------------------------------------------------------------------------------

STACKS = []     # (name, store) of stacks that may exist in the cloud: deleted on the way out


def _terminate(signum, _frame):
    raise KeyboardInterrupt('signal %d' % signum)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--scenario', choices=('critical', 'scale', 'peers', 'all'), default='all')
    ap.add_argument('--peer-rounds', type=int, default=2, help='peers: alternating rounds')
    ap.add_argument('--quick', action='store_true', help='scale sizes 50,100 only')
    ap.add_argument('--sizes', default=None, help='scale sizes, comma-separated (100,500,1000)')
    ap.add_argument('--latency-ms', type=int, default=20)
    ap.add_argument('--repeat', type=int, default=1, help='critical path runs')
    ap.add_argument('--template', default=MULTI_TIER)
    ap.add_argument('--json', default=RESULTS)
    ap.add_argument('--child-scale', type=int, help=argparse.SUPPRESS)
    ap.add_argument('--url', help=argparse.SUPPRESS)
    ap.add_argument('--clouds-yaml', help=argparse.SUPPRESS)
    ap.add_argument('--workdir', help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    OBSERVER.install()
    if args.child_scale:
        return scale_child(args)
    if args.sizes is None:
        args.sizes = '50,100' if args.quick else '100,500,1000'
    args.template = os.path.abspath(args.template)

    signal.signal(signal.SIGTERM, _terminate)
    workdir = tempfile.mkdtemp(prefix='stack_bench-')
    log = os.path.join(workdir, 'localcloud.log')
    started = time.monotonic()
    # the Heat service only when it is measured (scenario 3): it is one more process on the machine
    heat = ['--with-heat'] if args.scenario in ('peers', 'all') else []
    cloud, proc = start_cloud(workdir, heat + ['--latency-ms', '0'] + sum(
        (['--build-seconds', '%s=%g' % kv] for kv in sorted(BUILD.items())), []), log)
    if cloud is None:
        with open(log) as f:
            sys.stderr.write('stack_bench: the local cloud did not start:\n' + f.read()[-4000:])
        shutil.rmtree(workdir, ignore_errors=True)
        return 1
    out = {'started': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
           'host': {'cpus': os.cpu_count(), 'loadavg_before': os.getloadavg()},
           'cloud_start_s': time.monotonic() - started}
    print('local cloud up in %.1fs at %s (workdir %s)' % (out['cloud_start_s'], cloud.url, workdir))
    rc = 0
    try:
        baseline = ids(cloud.resources())
        _open_quotas(cloud)
        out['warmup'] = warm_up(cloud, workdir, args.template)
        if args.scenario in ('critical', 'all'):
            scenario_critical(cloud, workdir, args, out)
        if args.scenario in ('peers', 'all'):
            from peers.compare import scenario_peers
            scenario_peers(cloud, workdir, args, out, args.latency_ms, BUILD)
        if args.scenario in ('scale', 'all'):
            scenario_scale(cloud, workdir, args, out)
        left = dict((k, len(v - baseline.get(k, set())))
                    for k, v in ids(cloud.resources()).items())
        out['left_in_cloud'] = dict((k, v) for k, v in left.items() if v)
        if out['left_in_cloud']:
            print('\nLEFT IN THE CLOUD after the deletes: %s' % out['left_in_cloud'])
            rc = 1
    except BaseException as exc:  # noqa: B902 - reported after the cleanup below
        out['error'] = '%s: %s' % (type(exc).__name__, exc)
        sys.stderr.write('stack_bench: %s\n' % out['error'])
        rc = 1
    finally:
        try:
            cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
        except Exception:  # noqa: B902 - a dead cloud: the deletes below fail and say so
            pass
        for name, store in list(STACKS):
            try:
                engine_run(cloud, name, store, 'absent')
            except Exception as exc:  # noqa: B902 - the cloud is stopped anyway
                sys.stderr.write('stack_bench: cleanup of %s failed: %s\n' % (name, exc))
        stop_cloud(proc)
        out['host']['loadavg_after'] = os.getloadavg()
        out['total_s'] = time.monotonic() - started
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        with open(args.json, 'w') as f:
            json.dump(out, f, indent=1, sort_keys=True)
        print('\nfigures: %s (total %.0fs)' % (os.path.relpath(args.json, ROOT), out['total_s']))
        if rc == 0:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print('kept %s (the cloud log is there)' % workdir)
    return rc


def warm_up(cloud, workdir, template):
    """The template created and deleted once, unmeasured, at zero latency and build time: the
    first requests of a fresh cloud (and of this process) cost more than the later ones.  On a
    fresh cloud the first concurrent network creates have been refused ('rule:create_network is
    disallowed by policy') while the same creates pass a moment later: a failed attempt is
    recorded and tried again."""
    cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
    errors = []
    for attempt in range(3):
        name, store = 'warmup%d' % attempt, os.path.join(workdir, 'warmup%d.sqlite' % attempt)
        STACKS.append((name, store))
        try:
            engine_run(cloud, name, store, 'present', template)
            engine_run(cloud, name, store, 'absent')
            STACKS.remove((name, store))
            break
        except RuntimeError as exc:
            errors.append(str(exc))
            engine_run(cloud, name, store, 'absent')
            STACKS.remove((name, store))
    else:
        raise RuntimeError('warm-up failed 3 times: %s' % errors)
    for err in errors:
        print('warm-up: %s (tried again)' % err)
    return {'errors': errors}


def _open_quotas(cloud):
    """The demo project's Neutron quotas lifted (the defaults, 100 networks and 10 security
    groups, are below the 1,000-resource stack), as an operator would for a big stack."""
    admin = cloud.sdk('localcloud-admin')
    try:
        project = admin.identity.find_project('demo', ignore_missing=False)
        admin.network.update_quota(project.id, networks=-1, subnets=-1, ports=-1,
                                   security_groups=-1, security_group_rules=-1, routers=-1,
                                   floating_ips=-1)
    finally:
        admin.close()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
