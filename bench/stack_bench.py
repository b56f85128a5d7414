# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack engine against the local cloud: critical path, peers, scale, a 10,000-resource stack
and composition.

Starts its own local cloud (a free port, a fresh state directory) and drives the engine in-process
through ``engine.run.runner.run(StackRequest(...), conn)`` with an openstacksdk connection made from
the cloud's clouds.yaml (a fresh one per phase, as every playbook run authenticates again).

1. Critical path: tests/localcloud/stack_templates/multi_tier.yaml (or ``--template``) at 20 ms a
   request, server build 3 s, volume build 1 s.  The lower bound is the longest path through the
   dependency graph the engine builds (implicit dependencies included, hubs free), each resource
   costing the round trips that must follow one another x latency plus its build time (table
   ``MIN`` in bench/stack/costs.py), plus one round trip for the token.  Create, no-change rerun and delete wall times are printed as
   ratios to it, the API calls per route (the cloud's /_localcloud/stats, reset before each phase)
   against the minimum, and where the create's and the delete's time went (each resource's wait
   and duration along the chain that finished last, and the client-side latency per route).
2. Scale: generated stacks of 100, 500 and 1,000 resources at zero latency, each size in a child
   process of its own (so its peak RSS is its own): create, rerun, delete wall time, engine CPU
   per resource (process CPU time of that child: engine + openstacksdk; the cloud runs in other
   processes), peak memory, API calls per resource, and the growth from the smallest size to the
   largest as ratios.  The no-change rerun runs twice and keeps its run of least CPU (its CPU at
   1,000 resources is a few tenths of a second and moves with the machine's load); the collector's
   CPU time is given apart (``gc_s``).  ``--scenario scale10k``: OS::Heat::None, RandomString and ports at 1,000 and
   10,000 resources (``--big-sizes``) on a cloud answering in ``--latency-ms``: peak RSS, CPU per
   resource, growth, and the rerun's calls per route (bench/stack/big.py).  ``--python`` runs these
   children under another virtualenv's Python (its openstacksdk), e.g. .venv-compat-low/bin/python.
   ``--compare-python`` (by default .venv-compat-low's Python when `make compat-venv-low` made it)
   runs the largest size once more under that Python, then again under this one, and prints each
   phase's ratio of the lowest supported openstacksdk to the mean of the two newest runs around it
   (so the cloud's drift over the run does not count as the SDK's cost).

3. Peers (bench/peers/compare.py): our engine in-process vs the local cloud's real Heat service
   (convergence), and our heat_stack module in ansible-playbook vs a playbook of openstack.cloud
   2.6.0 per-resource modules, creating and deleting scenario 1's infrastructure at its latency
   and build times, alternating in ``--peer-rounds`` rounds; ratios ours / peer for wall time and
   API calls.  The cloud runs Heat (``--with-heat``) only when this scenario or the next is
   asked for.
4. Composition (bench/stack/composition.py, ``--scenario composition``): (a) the autoscaled web
   tier (Octavia load balancer + an AutoScalingGroup of 2 server + pool member nested stacks) and
   a 3-level nested stack, the templates of tests/localcloud/test_autoscaled_web_tier.py and
   test_nested_stacks.py, each by our engine in-process and by the local cloud's real Heat,
   alternating in ``--peer-rounds`` rounds at scenario 1's latency and build times: wall time and
   API calls, ratios ours / Heat; (b) flattening: ``--flat-size`` resources (networks, subnets,
   ports) as one flat template and split over 3 levels of template resources, our engine,
   alternating: wall time nested / flat (target at most 1.1); (c) a ResourceGroup of
   ``--rg-sizes`` members (OS::Heat::None, then ports), each size in a child process as scenario
   2: create, rerun, delete wall time, engine CPU per member and the growth per member from the
   smallest size to the largest (x1.00 = linear).  Its figures go under the key ``composition``.
5. Deployments (bench/stack/deployments.py, ``--scenario deployments``; the cloud then runs guests:
   --guests): a deployment template by our engine and by the local cloud's real Heat, the servers'
   guests running the real agents for both: the time from the servers ACTIVE to the stack
   COMPLETE, ratio ours / Heat; and the poll cost of 1 and 5 deployments pending on one server,
   in requests per second of waiting (the front door's counters), per deployment.
6. Adopt (bench/stack/adopt.py, ``--scenario adopt``): a stack of ``--adopt-size`` resources
   (1,000) made by the local cloud's real Heat and abandoned there, then adopted from that one
   abandon data by our engine and by Heat's ``stack adopt``, alternating in ``--peer-rounds``
   rounds: wall time and calls, ratio ours / Heat of the medians.

Every CPU figure is printed with its ratio to a fixed calibration workload run in the same process
(``x2.05 calib``: bench/stack/calibration.py), and in the peers the engine's CPU for the stack over
the local cloud's Heat's for the same stack, so that a figure means the same on any machine.

Every figure goes to bench/results/stack_bench.json.  Every stack is deleted and the cloud
stopped, on failure too.  The machine is shared: wall times are noisy.

    .venv/bin/python bench/stack_bench.py [--quick] [--scenario critical|scale|peers|scale10k|
                                                      composition|deployments|adopt|all]
                                          [--sizes 100,500,1000] [--latency-ms 20] [--repeat N]
                                          [--flat-size 60] [--rg-sizes 50,500]

``--quick``: scale 50,100, scale10k 100,1,000, flattening 20 resources, ResourceGroup 10,50,
adopt 200 resources.
"""


from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)
sys.path.insert(1, os.path.join(ROOT, 'tests', 'localcloud'))
from localcloud.harness import ids, start_cloud, stop_cloud  # noqa: E402

from stack import calibration  # noqa: E402
from stack.costs import BUILD  # noqa: E402
from stack.runs import OBSERVER, STACKS, engine_run  # noqa: E402

MULTI_TIER = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml')
RESULTS = os.path.join(ROOT, 'bench', 'results', 'stack_bench.json')
COMPARE_PYTHON = os.path.join(ROOT, '.venv-compat-low', 'bin', 'python')
SCENARIOS = ('critical', 'scale', 'peers', 'scale10k', 'composition', 'deployments', 'adopt',
             'all')


def _terminate(signum, _frame):
    raise KeyboardInterrupt('signal %d' % signum)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--scenario', choices=SCENARIOS, default='all')
    ap.add_argument('--peer-rounds', type=int, default=3,
                    help='peers: alternating rounds (medians: one slow round moves no ratio)')
    ap.add_argument('--peers', default=None,
                    help='peers: only these (comma-separated keys, e.g. engine,heat: a quicker look '
                         'at one pair)')
    ap.add_argument('--quick', action='store_true',
                    help='small sizes: scale 50,100, flattening 20, ResourceGroup 10,50')
    ap.add_argument('--sizes', default=None, help='scale sizes, comma-separated (100,500,1000)')
    ap.add_argument('--big-sizes', default='1000,10000',
                    help='scale10k sizes, comma-separated (1000,10000)')
    ap.add_argument('--flat-size', type=int, default=None,
                    help='composition: resources flat vs nested (60)')
    ap.add_argument('--rg-sizes', default=None,
                    help='composition: ResourceGroup members, comma-separated (50,500)')
    ap.add_argument('--python', default=None,
                    help="scale children's Python (another virtualenv's openstacksdk)")
    ap.add_argument('--compare-python', default=COMPARE_PYTHON if os.path.exists(COMPARE_PYTHON)
                    else None, help='scale10k: the largest size again under this Python (default: '
                    '.venv-compat-low/bin/python when it exists); "" for none')
    ap.add_argument('--adopt-size', type=int, default=None,
                    help='adopt: the stack\'s resources (1000; --quick 200)')
    ap.add_argument('--latency-ms', type=int, default=20)
    ap.add_argument('--repeat', type=int, default=3,
                    help='critical path runs (their ratios are noisy: the spread is printed)')
    ap.add_argument('--template', default=MULTI_TIER)
    ap.add_argument('--json', default=RESULTS)
    ap.add_argument('--profile', default=None, metavar='DIR',
                    help='scale, scale10k: each child phase run under cProfile, its stats written '
                         'to DIR/<mix><size>-<phase>.prof (read with pstats; slows the run)')
    ap.add_argument('--child-scale', type=int, help=argparse.SUPPRESS)
    ap.add_argument('--child-mix', default='blocks', help=argparse.SUPPRESS)
    ap.add_argument('--url', help=argparse.SUPPRESS)
    ap.add_argument('--clouds-yaml', help=argparse.SUPPRESS)
    ap.add_argument('--workdir', help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    OBSERVER.install()
    if args.child_scale:
        from stack.scale import scale_child
        return scale_child(args)
    if args.sizes is None:
        args.sizes = '50,100' if args.quick else '100,500,1000'
        if args.quick and args.big_sizes == '1000,10000':
            args.big_sizes = '100,1000'
    if args.flat_size is None:
        args.flat_size = 20 if args.quick else 60
    if args.rg_sizes is None:
        args.rg_sizes = '10,50' if args.quick else '50,500'
    if args.adopt_size is None:
        args.adopt_size = 200 if args.quick else 1000
    args.template = os.path.abspath(args.template)

    signal.signal(signal.SIGTERM, _terminate)
    workdir = tempfile.mkdtemp(prefix='stack_bench-')
    log = os.path.join(workdir, 'localcloud.log')
    started = time.monotonic()
    # the Heat service only when it is measured (scenarios 3 and 4): one more process on the machine
    heat = ['--with-heat'] if args.scenario in ('peers', 'composition', 'deployments', 'adopt',
                                                'all') else []
    # guests (servers running their user data) only for the deployments: the others' servers have
    # none, so they would start no guest, but a cloud without guests is the one they were measured on
    heat += ['--guests'] if args.scenario in ('deployments', 'all') else []
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
        # the calibration workload in this process, where critical and peers run the engine
        # (the scale children calibrate in theirs): in a row now, in a thread of its own while the
        # scenarios run, in a row at the end (calibration.py)
        out['calibration'] = calibration.calibrate()
        sampler = calibration.Sampler().start()
        if args.scenario in ('critical', 'all'):
            from stack.critical import scenario_critical
            scenario_critical(cloud, workdir, args, out)
        if args.scenario in ('peers', 'all'):
            from peers.compare import scenario_peers
            scenario_peers(cloud, workdir, args, out, args.latency_ms, BUILD)
        if args.scenario in ('scale', 'all'):
            from stack.scale import scenario_scale
            scenario_scale(cloud, workdir, args, out)
        if args.scenario in ('scale10k', 'all'):
            from stack.big import scenario_big
            scenario_big(cloud, workdir, args, out)
        if args.scenario in ('composition', 'all'):
            from stack.composition import scenario_composition
            scenario_composition(cloud, workdir, args, out)
        if args.scenario in ('deployments', 'all'):
            from stack.deployments import scenario_deployments
            scenario_deployments(cloud, workdir, args, out)
        if args.scenario in ('adopt', 'all'):
            from stack.adopt import scenario_adopt
            scenario_adopt(cloud, workdir, args, out)
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
        if 'calibration' in out:
            out['calibration'] = calibration.merged(out['calibration'], sampler.stop(),
                                                    calibration.calibrate())
            print('\ncalibration (this process): one unit of the calibration workload %.3f ms of '
                  'CPU (bench/stack/calibration.py)' % out['calibration']['unit_ms'])
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
