# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenario 4 (composition, issue 13): nested stacks and groups, three ways.

1. Beside Heat: the autoscaled web tier (tests/localcloud/test_autoscaled_web_tier.py's TOP and
   MEMBER: an Octavia load balancer, listener, pool and monitor in front of an AutoScalingGroup of
   two member.yaml, a server and its pool member each) and the 3-level nested stack
   (tests/localcloud/test_nested_stacks.py's templates), each created and deleted by our engine
   in-process and by the local cloud's real Heat, alternating (peers/compare.py), at scenario 1's
   latency and build times: wall time and API calls, ratios ours / Heat.
2. Flattening: the same resources (networks, subnets, ports) as one flat template and split over
   three levels of template resources (top -> mid -> leaf), our engine alone, alternating: wall
   time nested / flat.  Our nested stacks are walked in their parent's walk, so nesting should add
   no wait (target: at most 1.1).
3. ResourceGroup: OS::Heat::None members (the engine alone: no cloud call) and Neutron ports, each
   size in a child process of its own (scale.run_sizes, so its CPU and RSS are its own), at zero
   latency as scenario 2: create, rerun and delete wall time, engine CPU per member, and the
   growth per member from the smallest size to the largest (x1.00 = linear).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import functools
import os
import statistics

import yaml

from localcloud.harness import ids

from .costs import BUILD, GROUP
from .runs import drop_private, engine_run, phase
from .scale import growth, print_scale_row, run_sizes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LEAF_SIZE = 5       # a leaf: network, subnet, three ports
PAIR = (('engine', 'heat'),)
SPLIT = (('nested', 'flat'),)


# -- templates ------------------------------------------------------------------------------------

def _hot(resources, outputs):
    return {'heat_template_version': '2021-04-16', 'resources': resources, 'outputs': outputs}


def leaf_resources(prefix):
    """A leaf's resources, names prefixed: a network, its subnet and three ports on the subnet
    (real Neutron calls, and a chain of two waits: the ports wait for the subnet, which waits for
    the network).  Every leaf uses the same CIDR: Neutron lets networks overlap."""
    net, sub = prefix + 'net', prefix + 'sub'
    res = {net: {'type': 'OS::Neutron::Net'},
           sub: {'type': 'OS::Neutron::Subnet', 'properties': {
               'network': {'get_resource': net}, 'cidr': '10.0.0.0/24'}}}
    for i in range(LEAF_SIZE - 2):
        res['%sport%d' % (prefix, i)] = {'type': 'OS::Neutron::Port', 'properties': {
            'network': {'get_resource': net}, 'fixed_ips': [{'subnet': {'get_resource': sub}}]}}
    return res


def split(count):
    """(mids, leaves per mid) for ``count`` resources in leaves of LEAF_SIZE: three mids when the
    leaves divide by three (60 resources: 3 x 4 leaves), else two, else one."""
    leaves = max(1, count // LEAF_SIZE)
    mids = next(m for m in (3, 2, 1) if leaves % m == 0 and leaves >= m)
    return mids, leaves // mids


def flattening_templates(count):
    """File name -> template: ``flat.yaml`` (every leaf's resources in one template) and
    ``top.yaml`` -> ``mid.yaml`` -> ``leaf.yaml`` (the same resources, one leaf a nested stack
    two levels down).  Both output every network, as a list of lists in the same shape."""
    mids, per_mid = split(count)
    flat, flat_nets = {}, []
    for m in range(mids):
        nets = []
        for leaf in range(per_mid):
            prefix = 'm%d_l%d_' % (m, leaf)
            flat.update(leaf_resources(prefix))
            nets.append({'get_resource': prefix + 'net'})
        flat_nets.append(nets)
    mid = dict(('leaf%d' % i, {'type': 'leaf.yaml'}) for i in range(per_mid))
    top = dict(('mid%d' % i, {'type': 'mid.yaml'}) for i in range(mids))
    return {
        'flat.yaml': _hot(flat, {'nets': {'value': flat_nets}}),
        'top.yaml': _hot(top, {'nets': {'value': [{'get_attr': [mid_, 'nets']}
                                                  for mid_ in sorted(top)]}}),
        'mid.yaml': _hot(mid, {'nets': {'value': [{'get_attr': [leaf, 'net']}
                                                  for leaf in sorted(mid)]}}),
        'leaf.yaml': _hot(leaf_resources(''), {'net': {'value': {'get_resource': 'net'}}})}


def rg_template(member, count):
    """A ResourceGroup of ``count`` members: OS::Heat::None (``member`` 'none': no cloud call,
    the engine alone) or Neutron ports on one network (a /16: room for every port), the group
    after the subnet so that every port gets an address.  The output reads every member's id."""
    group = {'type': GROUP, 'properties': {'count': count,
                                           'resource_def': {'type': 'OS::Heat::None'}}}
    resources = {'group': group}
    if member == 'ports':
        resources['net'] = {'type': 'OS::Neutron::Net'}
        resources['sub'] = {'type': 'OS::Neutron::Subnet', 'properties': {
            'network': {'get_resource': 'net'}, 'cidr': '10.132.0.0/16'}}
        group['depends_on'] = 'sub'
        group['properties']['resource_def'] = {'type': 'OS::Neutron::Port', 'properties': {
            'network': {'get_resource': 'net'}}}
    return _hot(resources, {'refs': {'value': {'get_attr': ['group', 'refs']}}})


# the scale children's mixes (scale.templates): a child makes rg_template(member, its size)
RG_MIXES = {'rgnone': functools.partial(rg_template, 'none'),
            'rgports': functools.partial(rg_template, 'ports')}


def write_files(directory, files):
    """Each template (text, or a document dumped as YAML) into ``directory``; the directory."""
    os.makedirs(directory, exist_ok=True)
    for name, doc in files.items():
        with open(os.path.join(directory, name), 'w') as f:
            f.write(doc if isinstance(doc, str) else
                    yaml.safe_dump(doc, default_flow_style=None, width=1 << 16))
    return directory


# -- figures --------------------------------------------------------------------------------------

def per_member(grown):
    """growth() of a group's sizes -> per phase the per-member wall and CPU growth (x1.00 =
    linear: each member costs at the largest size what it cost at the smallest)."""
    return dict((key, {'wall': grown[key]['wall_per_resource'],
                       'cpu': grown[key]['cpu_per_resource']})
                for key in ('create', 'rerun', 'delete') if key in grown)


def pair_ratios(summary, pair):
    """compare.summarize()'s ratios of one pair, flat: {'create_wall': .., 'delete_calls': ..}."""
    ratios = summary['%s/%s' % pair]
    return dict(('%s_%s' % (action, what), ratios[action]['%s_ratio' % what])
                for action in ('create', 'delete') for what in ('wall', 'calls'))


def medians(rounds, key, figures):
    """Per action the median over the rounds of each of ``key``'s figures (those it has)."""
    return dict((action, dict((f, statistics.median(r[key][action][f] for r in rounds))
                              for f in figures if f in rounds[0][key][action]))
                for action in ('create', 'delete'))


# -- the three parts ------------------------------------------------------------------------------

class MeasuredEngine(object):
    """Our engine in-process in the peers' interface (bench/peers/__init__.py), each run measured by
    runs.phase(): its CPU time and its time alone (no request at the cloud) beside its wall time.
    Nesting that added waits would show as time alone: the engine idle between requests."""
    name = 'stackers.orchestration engine (in-process runner.run, runs.phase)'

    def __init__(self, cloud, store, template):
        self.cloud, self.store, self.template = cloud, store, template

    def create(self, stack_name):
        return self._run(stack_name, 'present', self.template)

    def delete(self, stack_name):
        return self._run(stack_name, 'absent')

    def cleanup(self, stack_name):
        engine_run(self.cloud, stack_name, self.store, 'absent')

    def _run(self, stack_name, state, template=None):
        ph = phase(self.cloud, stack_name, self.store, state, template)   # raises when failed
        drop_private(ph)
        return dict(ph, ok=True, detail=ph['status'])


def _warm(peers, name):
    """One unmeasured create and delete by each peer (Heat's first nested stack loads code; so
    may ours), at the zero latency and build time the caller set."""
    for key, peer in peers:
        try:
            for action in ('create', 'delete'):
                done = getattr(peer, action)('%s-%s' % (name, key))
                if not done['ok']:
                    raise RuntimeError('warm-up %s of %s by %s: %s' % (action, name, key,
                                                                       done.get('detail')))
        except BaseException:
            peer.cleanup('%s-%s' % (name, key))
            raise


def beside_heat(cloud, workdir, args, baseline):
    from peers import compare, heat_service, ours
    import test_autoscaled_web_tier as web
    import test_nested_stacks as nested
    cases = (('webtier', {'web.yaml': web.TOP, 'member.yaml': web.MEMBER}, 'web.yaml',
              'tests/localcloud/test_autoscaled_web_tier.py'),
             ('nested3', {'top.yaml': nested.TOP, 'mid.yaml': nested.MID,
                          'leaf.yaml': nested.LEAF}, 'top.yaml',
              'tests/localcloud/test_nested_stacks.py'))
    results = {}
    for key, files, top, source in cases:
        path = os.path.join(write_files(os.path.join(workdir, key), files), top)
        peers = [('engine', ours.Engine(cloud, workdir, path)),
                 ('heat', heat_service.Peer(cloud, workdir, template=path))]
        cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
        _warm(peers, key + 'warm')
        cloud.configure(latency_ms=args.latency_ms, build_seconds=dict(BUILD))
        rounds = compare.alternate(cloud, peers, args.peer_rounds, key, baseline)
        summary = compare.summarize(rounds, PAIR)
        results[key] = {'source': source, 'peers': dict((k, p.name) for k, p in peers),
                        'rounds': rounds, 'summary': summary,
                        'ratios': pair_ratios(summary, PAIR[0])}
    return results


def flattening(cloud, workdir, args, baseline):
    from peers import compare
    files = flattening_templates(args.flat_size)
    where = write_files(os.path.join(workdir, 'flattening'), files)
    store = os.path.join(workdir, 'flattening.sqlite')
    peers = [('flat', MeasuredEngine(cloud, store, os.path.join(where, 'flat.yaml'))),
             ('nested', MeasuredEngine(cloud, store, os.path.join(where, 'top.yaml')))]
    cloud.configure(latency_ms=args.latency_ms)
    # at least five rounds: a run of a few seconds against the one Neutron process of a shared
    # machine varies by tens of per cent from one run to the next, and the target (1.1) is close
    rounds = compare.alternate(cloud, peers, max(5, args.peer_rounds), 'split', baseline)
    summary = compare.summarize(rounds, SPLIT)
    mids, per_mid = split(args.flat_size)
    own = dict((key, medians(rounds, key, ('cpu_s', 'engine_alone_s'))) for key, _p in peers)
    return {'resources': len(files['flat.yaml']['resources']), 'mids': mids,
            'leaves_per_mid': per_mid, 'leaf_size': LEAF_SIZE, 'rounds': rounds,
            'summary': summary, 'ratios': pair_ratios(summary, SPLIT[0]), 'target_wall': 1.1,
            'engine': own}


def resource_groups(cloud, workdir, args):
    cloud.configure(latency_ms=0)
    sizes = [int(s) for s in args.rg_sizes.split(',') if s]
    out = {}
    for mix, what in (('rgnone', 'OS::Heat::None'), ('rgports', 'OS::Neutron::Port')):
        title = ('== Scenario 4c: a ResourceGroup of %s (zero latency; res = members%s; CPU = '
                 'the engine process)' % (what, ' + network + subnet' if mix == 'rgports' else ''))
        results = run_sizes(cloud, workdir, args, sizes, mix,
                            functools.partial(print_scale_row, title=title))
        grown = growth(results)
        out[mix] = {'member': what, 'runs': results, 'growth': grown,
                    'per_member': per_member(grown)}
    return out


def scenario_composition(cloud, workdir, args, out):
    baseline = ids(cloud.resources())
    res = out['composition'] = {'latency_ms': args.latency_ms, 'build_seconds': dict(BUILD)}
    res['beside_heat'] = beside_heat(cloud, workdir, args, baseline)
    print_beside_heat(res)
    res['flattening'] = flattening(cloud, workdir, args, baseline)
    print_flattening(res['flattening'], args.latency_ms)
    res['resource_group'] = resource_groups(cloud, workdir, args)
    print_resource_groups(res['resource_group'])


# -- tables ---------------------------------------------------------------------------------------

def print_beside_heat(res):
    print('\n== Scenario 4a: composition beside Heat (%d ms a request, builds %s; medians of %d '
          'rounds; ratios ours / Heat, below 1: ours is faster, makes fewer calls; calls for the '
          'stack, the login left out on both sides)'
          % (res['latency_ms'], ', '.join('%s %gs' % kv for kv in sorted(res['build_seconds']
                                                                         .items())),
             len(next(iter(res['beside_heat'].values()))['rounds'])))
    print('  %-9s %-7s %9s %9s %7s %7s %7s %7s' % (
        'stack', 'phase', 'ours s', 'Heat s', 'ratio', 'calls', 'Heat', 'ratio'))
    for key, r in res['beside_heat'].items():
        s = r['summary']
        for action in ('create', 'delete'):
            a, b = s['engine'][action], s['heat'][action]
            print('  %-9s %-7s %9.2f %9.2f %7.2f %7d %7d %7.2f' % (
                key, action, a['wall_s'], b['wall_s'], r['ratios'][action + '_wall'],
                a['calls'], b['calls'], r['ratios'][action + '_calls']))


def print_flattening(r, latency_ms):
    s = r['summary']
    print('\n== Scenario 4b: flattening, our engine (%d resources flat, and as %d x %d leaves of '
          '%d under 3 levels of template resources; %d ms a request; medians of %d rounds)'
          % (r['resources'], r['mids'], r['leaves_per_mid'], r['leaf_size'], latency_ms,
             len(r['rounds'])))
    print('  %-7s %8s %8s %7s %7s %7s %8s %8s %8s' % (
        'phase', 'flat s', 'nested s', 'ratio', 'calls', 'calls', 'ratio', 'alone s',
        'CPU s'))
    print('  %-7s %8s %8s %7s %7s %7s %8s %8s %8s' % (
        '', '', '', '', 'flat', 'nested', '', 'flat/nest', 'flat/nest'))
    for action in ('create', 'delete'):
        f, n = s['flat'][action], s['nested'][action]
        ef, en = r['engine']['flat'][action], r['engine']['nested'][action]
        print('  %-7s %8.2f %8.2f %7.2f %7d %7d %7.2f %4.2f/%-4.2f %4.2f/%-4.2f' % (
            action, f['wall_s'], n['wall_s'], r['ratios'][action + '_wall'], f['calls'],
            n['calls'], r['ratios'][action + '_calls'], ef['engine_alone_s'],
            en['engine_alone_s'], ef['cpu_s'], en['cpu_s']))
    print('  nested / flat wall, target <= %.1f; alone: the engine\'s time with no request at '
          'the cloud' % r['target_wall'])


def print_resource_groups(groups):
    print('\n== Scenario 4c: ResourceGroup growth per member, smallest size to largest '
          '(x1.00 = linear)')
    for mix, r in groups.items():
        if not r['per_member']:
            continue
        g = r['growth']
        print('  %-18s %d -> %d members: %s' % (r['member'], g['from'], g['to'], '  '.join(
            '%s wall x%.2f CPU x%.2f' % (key, v['wall'], v['cpu'])
            for key, v in r['per_member'].items())))
