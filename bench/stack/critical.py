# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenario 1: the critical path of a template against its bound, and where the time went."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import os

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import (
    dependencies as graphs)

from . import calibration
from .costs import (BUILD, TOKEN, longest_path, minimum_calls, path_of, resource_cost,
                    stack_definition)
from .runs import STACKS, drop_private, phase, route_of, servers_ready, volumes_in_use

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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

    # And with each server's build as long as Nova itself took, and each volume attachment as
    # long as the cloud took to complete it (``built``: servers_ready, attachments_done): from
    # the resource's start to the service's own timestamp, plus the one look that sees it.
    built = built or {}

    def cloud_timed(defn):
        if defn.name not in built or defn.name not in start:
            return observed(defn)
        path, _build = path_of(defn, phase_name)
        look = client[path[-1]]['mean_ms'] / 1000.0 if path[-1] in client else latency
        return max(0.0, built[defn.name] - start[defn.name]) + look
    timed_len, timed_chain = longest_path(graph, cloud_timed)

    # And with each other needed call at what the cloud took to answer that
    # resource's own request (the quickest of its route sent while the
    # resource was in progress: two ports posted together cannot be told
    # apart), not its route's mean.  Under load one answer on the chain may
    # take twice the mean (a subnet's POST beside the security group rules'),
    # which no engine could have made shorter: the mean charges it to the
    # engine, this does not (nor any slowness the engine's own extra calls
    # caused the cloud: the truth is between the two).
    sent = collections.defaultdict(list)
    for s, e, method, url in ph['_requests']:
        sent[route_of(method, url)].append((s - t0, e - s))

    def call_timed(defn):
        if defn.name in built and defn.name in start:
            return cloud_timed(defn)
        path, build = path_of(defn, phase_name)
        lo, hi = start.get(defn.name), end.get(defn.name)
        total = builds.get(build, 0.0)
        for route in path:
            took = [d for s, d in sent.get(route, ()) if lo is not None and hi is not None
                    and lo <= s <= hi]
            total += min(took) if took else (client[route]['mean_ms'] / 1000.0
                                             if route in client else latency)
        return total
    own_len, own_chain = longest_path(graph, call_timed)
    token = client.get(TOKEN, {'mean_ms': 1000 * latency})['mean_ms'] / 1000.0
    order = (lambda c: list(reversed(c))) if phase_name == 'create' else list
    return {'observed_bound_s': obs_len + token,
            'observed_chain': order(obs_chain),
            'cloud_timed_bound_s': timed_len + token, 'cloud_timed_chain': order(timed_chain),
            'call_timed_bound_s': own_len + token, 'call_timed_chain': order(own_chain),
            'cloud_took_s': dict((n, built[n] - start[n]) for n in built if n in start),
            'resources': rows, 'last_chain': list(reversed(chain)), 'client_routes': client,
            'first_request_s': first, 'last_event_s': max(end.values() or [0.0])}


def attachments_done(sd, graph, in_use):
    """Attachment resource -> when its volume turned 'in-use' (``volumes_in_use``: the volume
    resource it requires)."""
    out = {}
    for name, defn in sd.resources.items():
        if defn.type != 'OS::Cinder::VolumeAttachment':
            continue
        for req in graphs.resource_requires(graph, name):
            if req in in_use and sd.resources[req].type == 'OS::Cinder::Volume':
                out[name] = in_use[req]
    return out


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
        ready['create'].update(attachments_done(
            sd, graph, volumes_in_use(cloud, name, phases['create'])))
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
                       'minimum_calls': minimum, 'runs': runs,
                       'calibration_unit_ms': calibration.unit_ms(
                           calibration.so_far(out.get('calibration')))}
    print_critical(out['critical'])


def print_critical(c):
    b = c['bounds']
    print('\n== Scenario 1: critical path (%s, %d resources, %d ms a request, builds %s)'
          % (c['template'], c['resources'], c['latency_ms'],
             ', '.join('%s %gs' % kv for kv in sorted(c['build_seconds'].items()))))
    for key in ('create', 'delete'):
        print('bound %s %.3fs: token + %s' % (key, b[key]['bound_s'], ' -> '.join(b[key]['chain'])))
    print('%-4s %-7s %9s %9s %8s %7s %7s %7s %7s %s' % (
        'run', 'phase', 'wall s', 'bound s', 'ratio', 'calls', 'min', 'writes', 'CPU s', 'calib'))
    for i, run in enumerate(c['runs']):
        for key in ('create', 'rerun', 'delete'):
            ph = run[key]
            bound = b[key]['bound_s']
            ratio = ('%8.2f' % (ph['wall_s'] / bound)) if bound else '       -'
            print('%-4d %-7s %9.3f %9.3f %s %7d %7d %7d %7.3f %s'
                  % (i, key, ph['wall_s'], bound, ratio, ph['calls'],
                     sum(c['minimum_calls'][key].values()), ph['write_calls'], ph['cpu_s'],
                     calibration.column(calibration.units(1000 * ph['cpu_s'],
                                                          c.get('calibration_unit_ms')))))
        for key in ('create', 'delete'):
            prof = run[key]['profile']
            print('     %s against the observed-cost bound %.3fs (each needed call at this cloud\'s '
                  'answer time for its route this run): ratio %.2f; chain %s'
                  % (key, prof['observed_bound_s'], run[key]['wall_s'] / prof['observed_bound_s'],
                     ' -> '.join(prof['observed_chain'])))
            print('     %s against the cloud-timed bound %.3fs (as above, each server as long as '
                  'Nova took, each attachment as long as Cinder took to be in-use: %s): '
                  'ratio %.2f; chain %s'
                  % (key, prof['cloud_timed_bound_s'],
                     ', '.join('%s %.2fs' % kv for kv in sorted(prof['cloud_took_s'].items())),
                     run[key]['wall_s'] / prof['cloud_timed_bound_s'],
                     ' -> '.join(prof['cloud_timed_chain'])))
            print('     %s against the call-timed bound %.3fs (as above, each other call at what '
                  'the cloud took for that resource\'s own request): ratio %.2f; chain %s'
                  % (key, prof['call_timed_bound_s'], run[key]['wall_s'] / prof['call_timed_bound_s'],
                     ' -> '.join(prof['call_timed_chain'])))
        print('     rerun / create wall: %.4f (target < 0.1); rerun write calls: %d (target 0)'
              % (run['rerun']['wall_s'] / run['create']['wall_s'], run['rerun']['write_calls']))
    if len(c['runs']) > 1:
        for key in ('create', 'delete'):
            print('     %s over %d runs, ratio min / median / max: %s'
                  % (key, len(c['runs']), '; '.join(
                      '%s %s' % (label, ' / '.join('%.2f' % r for r in _spread(
                          [run[key]['wall_s'] / run[key]['profile'][field] for run in c['runs']])))
                      for label, field in (('cloud-timed', 'cloud_timed_bound_s'),
                                           ('call-timed', 'call_timed_bound_s')))))
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


def _spread(values):
    """(min, median, max) of ``values``."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0
    return ordered[0], median, ordered[-1]
