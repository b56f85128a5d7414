# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenario 3 of stack_bench: our engine and its peers, same cloud, same run, alternating.

Every peer creates and deletes the same infrastructure (multi_tier.yaml, or its hand-written
openstack.cloud playbook) at scenario 1's latency and build times.  Rounds alternate the peers
(each round in the reverse order of the one before, so a drift of the shared machine does not
favour one), and the cloud must be back to its baseline after every delete.  The pairs compared:

- our engine in-process vs the Heat service (both: from the first request to the stack settled).
  Each side's CPU is its process's over the phase: the engine's is this process's (``cpu_s``),
  Heat's its service process's less the bench's polls (heat_service.py); their ratio is the
  engine's CPU over Heat's for the same stack, a figure that means the same on any machine.
  Each side's calls are what it sends the cloud for the stack, the user's login taken off both:
  Heat's count leaves out the bench's own requests to Heat (its token, the stack's POST and its
  polls), and the engine's leaves out its login (identity version discovery and the token), which
  stand where the Heat client's token stands.  ``calls_all`` keeps everything a side sent.
- our heat_stack module in ansible-playbook vs the openstack.cloud playbook (both: the whole
  ansible-playbook run, as a user waits for it).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import statistics
import time

from localcloud.harness import ids, wait_for
try:    # stack_bench.py's name for it (bench/ on sys.path): its Sampler is the one running
    from stack import calibration  # noqa: E402
except ImportError:    # imported as bench.peers (the unit tests)
    from bench.stack import calibration  # noqa: E402

from . import heat_service, openstack_cloud, ours

PEERS = (('engine', ours.Engine), ('heat', heat_service.Peer),
         ('playbook', ours.Playbook), ('openstack.cloud', openstack_cloud.Peer))
PAIRS = (('engine', 'heat'), ('playbook', 'openstack.cloud'))
# a peer's own figures kept beside the wall time and the calls when it gives them: Heat's time by
# its database and its process's CPU; an engine run's CPU and its time alone (bench/stack/runs.py
# phase())
EXTRA = ('heat_reported_s', 'cpu_s', 'engine_alone_s', 'cloud_busy_s', 'process_cpu_s',
         'poll_cpu_ms')


# the engine's login, as openstacksdk makes it: the identity version discovery and the token
LOGIN = {'GET identity /v3': 1, 'POST identity /v3/auth/tokens': 1}


def _calls(key, result, by_route):
    """(calls for the stack, by route, every call the side sent)."""
    if key == 'heat':
        every = sum(by_route.values())
        by_route, _services = heat_service.heat_calls(by_route, result.get('client_routes') or {})
        return sum(by_route.values()), dict(by_route), every
    every = sum(by_route.values())
    if key == 'engine':
        by_route = heat_service.heat_calls(by_route, LOGIN)[0]
    return sum(by_route.values()), dict(by_route), every


def _phase(cloud, key, peer, action, stack_name):
    cloud.reset_stats()
    result = getattr(peer, action)(stack_name)
    calls, by_route, every = _calls(key, result, cloud.stats()['by_route'])
    out = {'wall_s': result['wall_s'], 'ok': result['ok'], 'detail': result.get('detail'),
           'calls': calls, 'calls_all': every, 'by_route': by_route}
    for figure in EXTRA:
        if result.get(figure) is not None:
            out[figure] = result[figure]
    if not result['ok']:
        raise RuntimeError('%s %s of %s: %s' % (key, action, stack_name, result.get('detail')))
    return out


def scenario_peers(cloud, workdir, args, out, latency_ms, builds):
    baseline = ids(cloud.resources())
    only = set(getattr(args, 'peers', None).split(',')) if getattr(args, 'peers', None) else None
    peers = [(key, cls(cloud, workdir)) for key, cls in PEERS if only is None or key in only]
    names = dict((key, peer.name) for key, peer in peers)
    # Heat's first stack loads most of its code: one unmeasured create and delete, as the engine
    # had its warm-up in this process
    cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
    heat = dict(peers).get('heat')
    if heat is not None:
        heat.create('peerwarm')
        heat.delete('peerwarm')
    cloud.configure(latency_ms=latency_ms, build_seconds=dict(builds))
    rounds = alternate(cloud, peers, args.peer_rounds, 'peer', baseline)
    result = {'peers': names, 'rounds': rounds, 'latency_ms': latency_ms, 'builds': dict(builds),
              'order': [k for k, _p in peers], 'summary': summarize(rounds),
              'calibration_unit_ms': calibration.unit_ms(
                  calibration.so_far(out.get('calibration')))}
    out['peers'] = result
    print_peers(result)
    return result


def alternate(cloud, peers, count, prefix, baseline):
    """``count`` rounds of every peer (``[(key, peer)]``) creating and deleting its stack
    (``<prefix><round>-<key>``), each round in the reverse order of the one before; the cloud must
    be back to ``baseline`` (ids(cloud.resources()) taken before any warm-up: a peer's warm-up
    delete may still be settling) after every delete.  Per round: key -> {'create', 'delete'}."""
    rounds = []
    for i in range(count):
        order = peers if i % 2 == 0 else list(reversed(peers))
        row = {}
        for key, peer in order:
            stack_name = '%s%d-%s' % (prefix, i, key.replace('.', '-'))
            try:
                row[key] = {'create': _phase(cloud, key, peer, 'create', stack_name)}
                row[key]['delete'] = _phase(cloud, key, peer, 'delete', stack_name)
            except BaseException:
                peer.cleanup(stack_name)
                raise
            t0 = time.monotonic()
            wait_for(lambda: ids(cloud.resources()) == baseline, timeout=120, interval=0.2,
                     what='the cloud back to its baseline after %s' % key)
            row[key]['settled_after_s'] = time.monotonic() - t0
        rounds.append(row)
    return rounds


def summarize(rounds, pairs=PAIRS):
    """Per peer and action the medians over the rounds; per pair (ours, peer) their ratios."""
    summary = {}
    for key in rounds[0]:
        summary[key] = {}
        for action in ('create', 'delete'):
            walls = [r[key][action]['wall_s'] for r in rounds]
            calls = [r[key][action]['calls'] for r in rounds]
            summary[key][action] = {'wall_s': statistics.median(walls), 'walls': walls,
                                    'calls': statistics.median(calls)}
            cpus = [r[key][action].get('cpu_s') for r in rounds]
            if all(c is not None for c in cpus):
                summary[key][action].update(cpu_s=statistics.median(cpus), cpus=cpus)
    for ours_key, peer_key in pairs:
        if ours_key not in summary or peer_key not in summary:
            continue
        pair = summary.setdefault('%s/%s' % (ours_key, peer_key), {})
        for action in ('create', 'delete'):
            a, b = summary[ours_key][action], summary[peer_key][action]
            pair[action] = {
                'wall_ratio': a['wall_s'] / b['wall_s'] if b['wall_s'] else None,
                'calls_ratio': a['calls'] / b['calls'] if b['calls'] else None}
            cpu = calibration.cpu_ratio(a.get('cpu_s'), b.get('cpu_s'))
            if cpu is not None:
                pair[action]['cpu_ratio'] = cpu
    return summary


def print_peers(result):
    s = result['summary']
    print('\n== Scenario 3: peers on the same cloud, alternating (%d rounds; %d ms a request, '
          'builds %s; medians)' % (len(result['rounds']), result['latency_ms'], ', '.join(
              '%s %gs' % kv for kv in sorted(result['builds'].items()))))
    print('  %-16s %-58s %9s %7s %9s %7s' % (
        'peer', 'what', 'create s', 'calls', 'delete s', 'calls'))
    for key in result['order']:
        c, d = s[key]['create'], s[key]['delete']
        print('  %-16s %-58s %9.2f %7d %9.2f %7d' % (
            key, result['peers'][key][:58], c['wall_s'], c['calls'], d['wall_s'], d['calls']))
    print('  ratios ours / peer (below 1: ours is faster, makes fewer calls; engine and Heat: '
          'calls for the stack, the login left out on both sides)')
    for ours_key, peer_key in PAIRS:
        if '%s/%s' % (ours_key, peer_key) not in s:
            continue
        pair = s['%s/%s' % (ours_key, peer_key)]
        print('  %-28s create: wall %.2f, calls %.2f   delete: wall %.2f, calls %.2f' % (
            '%s / %s' % (ours_key, peer_key), pair['create']['wall_ratio'],
            pair['create']['calls_ratio'], pair['delete']['wall_ratio'],
            pair['delete']['calls_ratio']))
    # the rounds themselves: a median hides whether one round (after which peer?) was slow
    for key in result['order']:
        print('  %-16s rounds: create %s s, delete %s s' % (key, ', '.join(
            '%.2f' % w for w in s[key]['create']['walls']), ', '.join(
            '%.2f' % w for w in s[key]['delete']['walls'])))
    for line in cpu_lines(result):
        print(line)
    heat = [r['heat'] for r in result['rounds'] if 'heat' in r and 'heat_reported_s' in r['heat']['create']]
    if heat:
        print('  Heat by its own event times: create %s s, delete %s s' % (
            ', '.join('%.2f' % r['create']['heat_reported_s'] for r in heat),
            ', '.join('%.2f' % r['delete'].get('heat_reported_s', float('nan')) for r in heat)))


def cpu_lines(result, pair=PAIRS[0]):
    """The CPU figures of the engine and Heat (medians), each in calibration units of this process
    where it is ours, and the engine's over Heat's for the same stack."""
    s = result['summary']
    ours_key, peer_key = pair
    if '%s/%s' % pair not in s or 'cpu_s' not in s[ours_key]['create']:
        return []
    unit = result.get('calibration_unit_ms')
    ratios = s['%s/%s' % pair]
    lines = ['  CPU for the stack (medians; %s: this process; %s: its service process, the '
             "bench's polls taken off)" % (ours_key, peer_key)]
    for action in ('create', 'delete'):
        a, b = s[ours_key][action], s[peer_key][action]
        lines.append('  %-7s %s %s, %s %s   %s / %s: %s' % (
            action, ours_key, calibration.cpu_text(1000 * a['cpu_s'], unit, 'ms'), peer_key,
            '%.0f ms' % (1000 * b['cpu_s']) if b.get('cpu_s') is not None else 'n/a', ours_key,
            peer_key, '%.2f' % ratios[action]['cpu_ratio'] if 'cpu_ratio' in ratios[action]
            else 'n/a'))
    return lines
