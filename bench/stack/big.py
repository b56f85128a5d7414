# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The 10,000-resource stack (issue 12): OS::Heat::None, OS::Heat::RandomString and Neutron ports
on a cloud answering in 20 ms (``--latency-ms``); create, rerun and delete at 1,000 and 10,000
resources (``--big-sizes``), each in a child process of its own.  Reports peak RSS (target at
most 1 GB), engine CPU per resource on create and rerun, the growth from the smallest size to the
largest, and the rerun's calls per route: a rerun may list a collection a bounded number of times,
never make a call per resource.  The create's and the delete's wall times are the local cloud's
(one Neutron process makes every port in turn, its answers slower as the machine's load rises), so
the growth is also given with the engine and the cloud apart (``engine_and_cloud``)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import re

from . import calibration
from .scale import calibration_note, cpu_per_resource, growth, run_sizes

RSS_LIMIT_MB = 1024.0
BLOCK = 20      # per block: 2 ports, 9 RandomString, 9 None
PHASES = ('create', 'rerun', 'delete')


def big_template(count):
    """About ``count`` resources: one network and one subnet (a /16: room for every port), then
    blocks of 20: two ports on the network, nine RandomString, nine None each depending on one of
    the block's RandomStrings (so the graph has edges, as real stacks do).  Ports are the only
    cloud objects: at 10,000 resources a mix of Neutron objects would measure the local cloud's
    single Neutron process (~10 requests a second here under load) rather than the engine.
    Names are short and the ports name no subnet (their implicit dependency on the network's
    subnet orders them, as in Heat) so that 10,000 resources fit Heat's 512 KB template limit."""
    resources = {'net': {'type': 'OS::Neutron::Net'},
                 'sub': {'type': 'OS::Neutron::Subnet', 'properties': {
                     'network': {'get_resource': 'net'}, 'cidr': '10.128.0.0/16'}}}
    for b in range(max(1, count // BLOCK)):
        for i in range(2 * b, 2 * b + 2):
            resources['p%d' % i] = {'type': 'OS::Neutron::Port', 'properties': {
                'network': {'get_resource': 'net'}}}
        for i in range(9 * b, 9 * b + 9):
            resources['r%d' % i] = {'type': 'OS::Heat::RandomString'}
            resources['n%d' % i] = {'type': 'OS::Heat::None', 'depends_on': 'r%d' % i}
    return {'heat_template_version': '2021-04-16',
            'description': 'stack_bench big: %d resources' % len(resources),
            'resources': resources,
            'outputs': {'a_port': {'value': {'get_attr': ['p0', 'fixed_ips']}}}}


_ID = re.compile(r'\{id\}$|\{name\}$')


def rerun_calls(run):
    """The rerun's calls per route, and which of them list a collection (a GET of a route that
    does not end in an id)."""
    routes = dict(run['rerun'].get('by_route') or {})
    lists = dict((r, n) for r, n in routes.items()
                 if r.startswith('GET ') and not _ID.search(r.rstrip('/')) and 'auth' not in r)
    return {'by_route': routes, 'list_calls': lists,
            'per_resource': sum(routes.values()) / float(run['resources'])}


def print_big_row(r, header):
    if header:
        print('\n== The 10,000-resource stack (None, RandomString, ports; CPU = the engine process)')
        print('%6s %-7s %8s %8s %9s %7s %8s %8s %8s %9s %8s' % (
            'res', 'phase', 'wall s', 'CPU s', 'CPU ms/r', 'calib', 'alone s', 'cloud s', 'calls',
            'calls/r', 'RSS MB'))
        print('%6s (alone: wall time with no request at the cloud; cloud: CPU of its services)'
              % '')
    n = r['resources']
    per = cpu_per_resource(r)
    for key in PHASES:
        ph = r[key]
        print('%6d %-7s %8.2f %8.2f %9.2f %7s %8.2f %8.2f %8d %9.3f %8.0f' % (
            n, key, ph['wall_s'], ph['cpu_s'], per[key][0], calibration.column(per[key][1]),
            ph['engine_alone_s'],
            sum(ph['cloud_cpu_s'].values()), ph['calls'], ph['calls'] / float(n),
            ph['peak_rss_mb']))
    print('%6s (%s)' % ('', calibration_note(r)))
    calls = rerun_calls(r)
    print('%6s rerun calls by route: %s' % ('', calls['by_route'] or 'none'))
    print('%6s (openstacksdk %s, keystoneauth1 %s, %s)' % ('', r.get('openstacksdk'),
                                                           r.get('keystoneauth1'), r.get('python')))


def engine_and_cloud(results):
    """Growth per resource from the smallest size to the largest (x1.00 = linear), the engine's
    apart from the cloud's: the engine's CPU and its time alone (wall time with no request at the
    cloud); the cloud's CPU (its service processes), its busy time and the mean answer time of
    the route that held it longest.  At this mix one Neutron process creates (and deletes) every
    port in turn: the create's and the delete's wall times are Neutron's time per port, not the
    engine's, and on a shared machine they move with the load, which the CPU figures barely do."""
    if len(results) < 2 or 'cloud_busy_s' not in results[0]['create']:
        return {}
    small, big = results[0], results[-1]
    k = big['resources'] / float(small['resources'])
    out = {}
    print('  engine and cloud apart, per resource (x1.00 = linear growth):')
    for key in PHASES:
        a, b = dict(small[key]), dict(big[key])
        a['cloud_cpu'], b['cloud_cpu'] = sum(a['cloud_cpu_s'].values()), sum(b['cloud_cpu_s'].values())
        # the CPU outside the cyclic collector (older children report no collector time)
        for ph in (a, b):
            ph['cpu_less_gc'] = ph['cpu_s'] - ph.get('gc_s', 0.0)
        row = dict((f, b[f] / a[f] / k if a[f] > 0 else None)
                   for f in ('wall_s', 'cpu_s', 'cpu_less_gc', 'engine_alone_s', 'cloud_busy_s',
                             'cloud_cpu'))
        row['gc_s'] = [a.get('gc_s'), b.get('gc_s')]
        held = max(b['answer_ms'], key=lambda r: b['answer_ms'][r] * b['by_route'].get(r, 1),
                   default=None)
        text = ''
        if held in a['answer_ms']:
            row['route'], row['answer_ms'] = held, [a['answer_ms'][held], b['answer_ms'][held]]
            text = '; %s answered in %.0f -> %.0f ms' % (held, a['answer_ms'][held],
                                                         b['answer_ms'][held])
        out[key] = row
        print('  %-7s wall %s | engine: CPU %s (%s outside the collector; collector %.2f -> %.2f s), '
              'alone %s (%.1f -> %.1f s) | cloud: CPU %s, busy %s%s' % (
                  key, _x(row['wall_s']), _x(row['cpu_s']), _x(row['cpu_less_gc']),
                  a.get('gc_s', 0.0), b.get('gc_s', 0.0), _x(row['engine_alone_s']),
                  a['engine_alone_s'], b['engine_alone_s'], _x(row['cloud_cpu']),
                  _x(row['cloud_busy_s']), text))
    return out


def _x(ratio):
    return 'n/a' if ratio is None else 'x%.2f' % ratio


def scenario_big(cloud, workdir, args, out):
    cloud.configure(latency_ms=args.latency_ms)
    sizes = [int(s) for s in args.big_sizes.split(',') if s]
    results = run_sizes(cloud, workdir, args, sizes, 'big', print_big_row)
    for r in results:
        r['rerun_calls'] = rerun_calls(r)
    biggest = results[-1]
    # a list call whose count grows with the stack is one call per resource in disguise
    lists = [r['rerun_calls']['list_calls'] for r in results]
    bounded = all(lists[-1].get(route, 0) <= max(2, lists[0].get(route, 0)) for route in lists[-1])
    checks = {'peak_rss_mb': biggest['peak_rss_mb'],
              'rss_within_1gb': biggest['peak_rss_mb'] <= RSS_LIMIT_MB,
              'rerun_list_calls_bounded': bounded,
              'create_cpu_ms_per_resource': 1000 * biggest['create']['cpu_s'] / biggest['resources'],
              'rerun_cpu_ms_per_resource': 1000 * biggest['rerun']['cpu_s'] / biggest['resources'],
              'create_cpu_calib_per_resource': cpu_per_resource(biggest)['create'][1],
              'rerun_cpu_calib_per_resource': cpu_per_resource(biggest)['rerun'][1]}
    out['big'] = {'latency_ms': args.latency_ms, 'runs': results, 'growth': growth(results),
                  'split': engine_and_cloud(results),
                  'checks': checks, 'composition': big_template.__doc__.split('.  ')[0]}
    print('  peak RSS %.0f MB (limit %.0f): %s; rerun list calls bounded: %s'
          % (checks['peak_rss_mb'], RSS_LIMIT_MB, 'ok' if checks['rss_within_1gb'] else 'OVER',
             'yes' if bounded else 'NO'))
    if getattr(args, 'compare_python', None):
        out['big']['compared'] = compare_versions(cloud, workdir, args, biggest)


def compare_versions(cloud, workdir, args, newest):
    """The largest size again, its child under ``args.compare_python`` (another virtualenv: the
    lowest supported openstacksdk), then under this Python once more, on the same cloud: each
    phase's wall time and CPU as ratios to this Python's runs (the issue's target: within 1.2).

    The newest runs bracket the lowest one.  The cloud drifts over a run (one Neutron process on
    SQLite, its answers slower after each 10,000-port cycle) and so does a shared machine; a
    lowest run that always came second carried that drift as if it were the SDK's cost.  Against
    the mean of a run before it and one after, a steady drift cancels."""
    other = argparse.Namespace(**dict(vars(args), python=args.compare_python))
    size = [newest['resources']]
    low = run_sizes(cloud, workdir, other, size, 'big', print_big_row)[-1]
    again = run_sizes(cloud, workdir, args, size, 'big', print_big_row)[-1]
    ratios = version_ratios(low, [newest, again])
    print('  openstacksdk %s / %s at %d resources (against the mean of the runs before and '
          'after): %s' % (
              low.get('openstacksdk'), newest.get('openstacksdk'), newest['resources'], ', '.join(
                  '%s wall %.2f CPU %.2f' % (key, ratios[key]['wall'], ratios[key]['cpu'])
                  for key in PHASES)))
    return {'run': low, 'newest_again': again, 'ratios': ratios}


def version_ratios(low, newests):
    """Per phase, the low version's wall time and CPU over the mean of the newest runs'."""
    def mean(key, field):
        return sum(r[key][field] for r in newests) / float(len(newests))
    return dict((key, {'wall': low[key]['wall_s'] / mean(key, 'wall_s'),
                       'cpu': low[key]['cpu_s'] / mean(key, 'cpu_s')})
                for key in PHASES)
