# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make chaos`: the engine under faults, kills, concurrency and a cloud that goes away, judged by
the local cloud's ledger (bench/chaos_judge.py).  Every loss figure must be 0.

1. Faults: ``runs`` lifecycles of tests/localcloud/stack_templates/multi_tier.yaml (create, update
   with a replacement, check, suspend, resume, delete), the front door answering ``--fault-rate``
   of the requests with a random fault (500, 503, 409, a dropped connection, a lost answer, a slow
   answer; ``/_localcloud/config`` ``fault_kinds``) and some builds going to ERROR
   (``fail_builds``).  A lifecycle that fails is rerun without faults: it must converge.
2. Kills: SIGKILL of a child process running the engine at a random moment of a create, an
   update, a replacement, a rollback and a delete; each followed by a rerun that converges.
3. Concurrency: ``--concurrent`` stacks created and deleted at once by as many processes on one
   store.
4. Outage (only on a cloud of its own): the cloud stopped during a create (the run must fail
   within its timeout with a clear message), started again, a rerun converges.
After each converged point and each delete the judge compares ledger, cloud and store: orphans,
duplicates, lost records.  Writes bench/results/chaos.json and prints the table.

    .venv/bin/python bench/chaos.py [--runs N] [--kill-cycles N] [--concurrent N] [--seed S]
                                    [--fault-rate 0.05] [--no-outage] [--phases kills,faults,...]
                                    [--results bench/results/chaos.json]
    CHAOS_SCALE=k multiplies runs, kill cycles and concurrency (default scale 1: ~15 min here).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)
if __package__:     # imported as bench.chaos (the unit tests, with the repository on sys.path)
    from . import chaos_judge as cj
else:               # run as bench/chaos.py: bench/ is sys.path[0]
    import chaos_judge as cj  # noqa: E402
losses, table = cj.losses, cj.table     # chaos.losses: the short form's test

MULTI_TIER = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml')
RESULTS = os.path.join(HERE, 'results', 'chaos.json')
KINDS = [500, 503, 409, 'drop', 'lost', 'slow']
# The multi-tier template's updates: in place (the servers' metadata) and with a replacement
# (port2 moves to net2: a new port, the server's interface swapped); ``off`` moves it back.
CHANGES = {'inplace': {'web_version': 'v2'}, 'on': {'second_on_net2': True},
           'off': {'second_on_net2': False}, 'fail_builds': {'server': 'server1', 'volume': 'vol1'}}
# a rollback is forced by refusing the replacement's new port
ROLLBACK_FAULT = [{'method': 'POST', 'path': '/ports$', 'status': 400, 'count': 1}]
PHASES = ('faults', 'kills', 'concurrent', 'outage')
MOMENTS = ('create', 'update', 'replace', 'rollback', 'delete')
# Share of lifecycles in which one server or volume goes to ERROR while building: ~5% of the
# template's 4 server and volume builds.
BUILD_ERRORS = 0.2


class Campaign(object):
    """The figures of one campaign and the means to get them: a cloud (localcloud.harness.Cloud), a
    directory for stores and logs, a seed."""

    def __init__(self, cloud, workdir, seed, template=MULTI_TIER, fault_rate=0.05, changes=None):
        self.cloud, self.workdir, self.seed = cloud, workdir, seed
        self.template, self.fault_rate = template, fault_rate
        self.changes = changes or CHANGES
        self.update = dict(self.changes['inplace'], **self.changes['on'])
        self.rng = random.Random(seed)
        self.store = os.path.join(workdir, 'chaos.sqlite')
        self.log = os.path.join(workdir, 'children.log')
        self.figures = {'runs': 0, 'completed_unaided': 0, 'failed_runs': [], 'faults_injected': 0,
                        'kills': 0, 'kills_missed': 0, 'unclear_failures': [], 'orphans': [],
                        'duplicates': [], 'lost': [], 'unconverged': [], 'worst_recovery_s': 0.0, 'concurrent': 0,
                        'concurrent_completed': 0, 'outage': None}
        self.carried = []
        self.progress = lambda phase: None     # main() writes the figures so far
        # how long each kill moment's action ran when a kill came too late: later kills of that
        # moment fall inside it (a kill after the action ended tests nothing)
        self.durations = {}
        # the latest moment at which a child was killed before it had sent any request
        self.quiet = {}

    # -- helpers -----------------------------------------------------------------------------
    def action(self, name, state='present', parameters=None, **extra):
        return dict(extra, name=name, state=state, store=self.store, parameters=parameters,
                    template=None if state in ('absent', 'suspended') else self.template)

    def run_here(self, action):
        conn = self.cloud.sdk()
        try:
            return cj.engine_action(conn, action)
        finally:
            conn.close()

    def faults(self, on, seed=None):
        if on:
            self.cloud.configure(fault_rate=self.fault_rate, fault_kinds=KINDS, slow_ms=1500,
                                 seed=seed if seed is not None else self.seed)
        else:
            # the front door's defaults again (503 only, 3 s slow answers): the cloud is shared with
            # what runs next (tests/localcloud: the worker's other test files)
            self.cloud.configure(fault_rate=0.0, fault_kinds=[503], slow_ms=3000)
            self.cloud.admin('POST', '/faults', [])
            self.cloud.configure(fail_builds={})

    def mark(self):
        entries = self.cloud.admin('GET', '/ledger')['entries']
        return entries[-1]['seq'] if entries else 0

    def judge(self, after, where):
        ledger = self.cloud.admin('GET', '/ledger')
        # a restarted cloud's ledger starts again: what the window saw before is carried over
        ledger['entries'] = self.carried + ledger['entries']
        verdict = cj.judge(ledger, self.cloud.resources(), [self.store], after)
        for key in ('orphans', 'duplicates', 'lost'):
            self.figures[key].extend('%s: %s' % (where, item) for item in verdict[key])
        return verdict

    def converge(self, name, parameters=None, state='present'):
        """A rerun without faults; its time is a recovery time.  True when it converged."""
        self.faults(False)
        start = time.monotonic()
        answer = self.run_here(self.action(name, state, parameters))
        took = time.monotonic() - start
        self.figures['worst_recovery_s'] = max(self.figures['worst_recovery_s'], took)
        if state == 'absent':
            ok = answer.get('status') in (None, 'DELETE_COMPLETE') and 'error' not in answer
        else:
            ok = str(answer.get('status')).endswith('_COMPLETE')
        if not ok:
            self.figures['unconverged'].append('%s %s: %s' % (name, state, answer))
        return ok

    # -- 1. faults -----------------------------------------------------------------------------
    def lifecycle(self, index):
        """One lifecycle with faults on; returns None when every step completed unaided, else
        (step, answer)."""
        name = 'chaos%d-%d' % (self.seed % 10000, index)
        seed = self.seed * 1000 + index
        after = self.mark()
        builds = self.changes.get('fail_builds') or {}
        if builds and self.rng.random() < BUILD_ERRORS:     # some builds go to ERROR while building
            kind = self.rng.choice(sorted(builds))
            # one build goes to ERROR, as a broken host would leave it; the next succeeds
            # (Heat's action_retry_limit deletes it and builds it again)
            self.cloud.configure(fail_builds={kind: {'pattern': '^%s-%s-' % (name, builds[kind]),
                                                     'times': 1}})
        self.faults(True, seed)
        update = self.update
        steps = [('create', self.action(name)),
                 ('update', self.action(name, parameters=update)),
                 ('check', self.action(name, parameters=update, check_mode=True)),
                 ('suspend', self.action(name, 'suspended')),
                 ('resume', self.action(name, parameters=update)),
                 ('delete', self.action(name, 'absent'))]
        failure = None
        try:
            for step, action in steps:
                answer = self.run_here(action)
                wanted = 'DELETE_COMPLETE' if step == 'delete' else '_COMPLETE'
                if 'error' in answer or not str(answer.get('status')).endswith(wanted):
                    failure = (step, answer)
                    if 'unexpected' in answer:
                        self.figures['unclear_failures'].append('%s %s: %s' % (name, step, answer))
                    break
                if step == 'update':
                    self.faults(False)
                    self.judge(after, name + ' after update')
                    self.faults(True, seed + 500)
        finally:
            self.faults(False)
        if failure is not None:
            # the rerun without faults: converge to the update, judge, then delete
            if failure[0] != 'delete':
                self.converge(name, update)
                self.judge(after, name + ' converged')
            self.converge(name, state='absent')
        self.judge(after, name + ' deleted')
        return failure

    def phase_faults(self, runs):
        base = self.figures['faults_injected']
        stats0 = sum(self.cloud.stats().get('injected', {}).values())

        def count_faults():
            now = sum(self.cloud.stats().get('injected', {}).values())
            self.figures['faults_injected'] = base + now - stats0

        for index in range(runs):
            failure = self.lifecycle(index)
            self.figures['runs'] += 1
            if failure is None:
                self.figures['completed_unaided'] += 1
            else:
                step, answer = failure
                self.figures['failed_runs'].append({'run': index, 'step': step, 'answer': answer})
            print('  lifecycle %d: %s' % (index, 'ok' if failure is None else
                                          'failed at %s: %s' % failure), flush=True)
            if index % 10 == 9:
                count_faults()
                self.progress('faults: %d of %d lifecycles' % (index + 1, runs))
        count_faults()

    # -- 2. kills ------------------------------------------------------------------------------
    def kill_during(self, action, window, moment=None):
        """Start ``action`` in a child, SIGKILL it after a random moment of ``window`` seconds,
        narrowed to the part of it in which the moment's action is known to talk to the cloud."""
        sent = self.cloud.stats()['requests']
        proc = cj.start_child(self.cloud, action, self.log)
        started = time.monotonic()
        low, high = window
        if moment in self.durations:
            high = min(high, 0.9 * self.durations[moment])
        if moment in self.quiet:
            low = max(low, self.quiet[moment] + 0.2)
        delay = self.rng.uniform(low, max(low + 0.2, high))
        try:
            proc.wait(delay)
        except subprocess.TimeoutExpired:
            pass     # still running, as wanted
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            if self.cloud.stats()['requests'] > sent:
                self.figures['kills'] += 1
                landed = self.figures.setdefault('kills_by_moment', {})
                landed[moment] = landed.get(moment, 0) + 1
            else:
                # killed while it was still starting (Python's imports): nothing of the action
                # had happened, so it is not counted; later kills come after that moment
                self.figures['kills_before_any_request'] = \
                    self.figures.get('kills_before_any_request', 0) + 1
                self.quiet[moment] = max(self.quiet.get(moment, 0.0), delay)
        else:
            self.figures['kills_missed'] += 1    # it had finished: the rerun still runs
            self.durations[moment] = time.monotonic() - started
        proc.wait(60)
        if proc.stdout is not None:
            proc.stdout.close()
        return delay

    def kill_moments(self, name, chosen=MOMENTS):
        """(moment, the action killed, the parameters its rerun converges to) in order: each
        starts from where the previous one's rerun left the stack."""
        inplace, on, off = self.changes['inplace'], self.changes['on'], self.changes['off']
        replaced = dict(inplace, **on)
        every = [('create', self.action(name), None),
                 ('update', self.action(name, parameters=inplace), inplace),
                 ('replace', self.action(name, parameters=replaced), replaced),
                 # moving back needs a new port, which is refused: the update rolls back
                 ('rollback', self.action(name, parameters=dict(inplace, **off), rollback=True), replaced),
                 ('delete', self.action(name, 'absent'), None)]
        return [m for m in every if m[0] in chosen]

    def phase_kills(self, cycles, window=(0.5, 6.0), moments=MOMENTS):
        for cycle in range(cycles):
            name = 'chaosk%d-%d' % (self.seed % 10000, cycle)
            after = self.mark()
            if 'create' not in moments:
                self.converge(name)          # the stack the chosen moments start from
            for moment, action, converged_params in self.kill_moments(name, moments):
                if moment == 'rollback':
                    # an update that fails (a port refused) and rolls back: killed during either
                    self.cloud.admin('POST', '/faults', ROLLBACK_FAULT)
                delay = self.kill_during(action, window, moment)
                self.cloud.admin('POST', '/faults', [])
                state = 'absent' if moment == 'delete' else 'present'
                ok = self.converge(name, converged_params, state)
                where = '%s kill at %.1fs of %s' % (name, delay, moment)
                print('  %s: %s' % (where, 'converged' if ok else 'NOT converged'), flush=True)
                self.judge(after, where)
            self.converge(name, state='absent')
            self.judge(after, name + ' deleted')

    # -- 3. concurrency ------------------------------------------------------------------------
    def raise_quotas(self, stacks):
        """Room in the project for ``stacks`` multi-tier stacks at once (the local cloud's default
        quotas hold 10 volumes and a few routers: a campaign measures the engine, not them)."""
        project = self.cloud.sdk().current_project_id      # the project the stacks run in
        conn = self.cloud.sdk('localcloud-admin')            # quotas are the admin's to set
        try:
            room = max(10, 4 * stacks)
            conn.set_volume_quotas(project, volumes=room, gigabytes=10 * room, snapshots=room)
            conn.set_network_quotas(project, network=room, subnet=room, port=4 * room, router=room,
                                    floatingip=room, security_group=room,
                                    security_group_rule=10 * room)
            conn.set_compute_quotas(project, instances=room, cores=4 * room, ram=2048 * room,
                                    key_pairs=10 * room)
        finally:
            conn.close()

    def phase_concurrent(self, count):
        self.raise_quotas(count)
        after = self.mark()
        names = ['chaosc%d-%d' % (self.seed % 10000, i) for i in range(count)]
        for state in ('present', 'absent'):
            procs = [cj.start_child(self.cloud, self.action(n, state, timeout=1200), self.log)
                     for n in names]
            answers = [cj.child_answer(p, 1500) for p in procs]
            wanted = 'CREATE_COMPLETE' if state == 'present' else 'DELETE_COMPLETE'
            done = sum(1 for a in answers if a.get('status') == wanted)
            if state == 'present':
                self.figures['concurrent'] = count
                self.figures['concurrent_completed'] = done
                self.judge(after, 'concurrent stacks created')
            for name, answer in zip(names, answers):
                if answer.get('status') != wanted:
                    self.figures['unconverged'].append('%s %s at once: %s' % (name, state, answer))
            print('  %d stacks %s at once: %d completed' % (count, state, done), flush=True)
        self.judge(after, 'concurrent stacks deleted')

    # -- 4. the cloud going away ---------------------------------------------------------------
    def phase_outage(self, restart, timeout=300):
        """``restart(stop_first)``: stops the cloud and starts it again (same port and state)."""
        name = 'chaoso%d' % (self.seed % 10000)
        after = self.mark()
        proc = cj.start_child(self.cloud, self.action(name, timeout=timeout), self.log)
        time.sleep(self.rng.uniform(2.0, 5.0))
        self.carried = [dict(e, seq=after + 1) for e in self.cloud.admin('GET', '/ledger')['entries']
                        if e['seq'] > after]
        stopped = time.monotonic()
        restart('stop')
        try:
            answer = cj.child_answer(proc, timeout + 120)
        finally:
            failed_after = time.monotonic() - stopped
        restart('start')
        after = 0
        clear = 'error' in answer or not str(answer.get('status')).endswith('_COMPLETE')
        ok = self.converge(name)
        self.judge(after, name + ' after the outage')
        self.converge(name, state='absent')
        self.judge(after, name + ' deleted')
        self.figures['outage'] = {'failed_within_s': round(failed_after, 1), 'answer': answer,
                                  'clear_failure': clear, 'rerun_converged': ok}
        print('  outage: the run ended after %.0fs: %s; rerun %s' % (
            failed_after, answer, 'converged' if ok else 'NOT converged'), flush=True)


def _own_cloud(workdir):
    from localcloud.harness import start_cloud, stop_cloud
    state = os.path.join(workdir, 'cloud-state')
    log = os.path.join(workdir, 'localcloud.log')
    cloud, proc = start_cloud(workdir, ['--state-dir', state], log)
    if cloud is None:
        with open(log) as f:
            raise SystemExit('chaos: the local cloud did not start:\n' + f.read()[-4000:])
    holder = {'cloud': cloud, 'proc': proc}

    def restart(what):
        if what == 'stop':
            stop_cloud(holder['proc'])
            return
        again, proc2 = start_cloud(workdir, ['--state-dir', state, '--port', str(cloud.port)], log)
        if again is None:
            raise SystemExit('chaos: the local cloud did not start again (see %s)' % log)
        holder['proc'] = proc2
        again.baseline = getattr(cloud, 'baseline', None)
        cloud.proc = proc2
    return cloud, holder, restart, stop_cloud


def main(argv=None):
    scale = float(os.environ.get('CHAOS_SCALE', '1'))
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--runs', type=int, default=max(1, int(round(10 * scale))))
    p.add_argument('--kill-cycles', type=int, default=max(1, int(round(2 * scale))))
    p.add_argument('--concurrent', type=int, default=max(2, int(round(6 * scale))))
    p.add_argument('--seed', type=int, default=None)
    p.add_argument('--fault-rate', type=float, default=0.05)
    p.add_argument('--no-outage', action='store_true')
    # the order of the phases (all four by default): a long campaign that may be cut short can
    # run its short phases first; the figures are written after each
    p.add_argument('--phases', default=','.join(PHASES),
                   type=lambda v: [x for x in v.split(',') if x],
                   help='comma-separated, from %s' % ','.join(PHASES))
    # two campaigns side by side (two seeds, two clouds) each write their own figures
    p.add_argument('--results', default=None, help='where the figures go (default %s)'
                   % os.path.relpath(RESULTS, ROOT))
    args = p.parse_args(argv)
    results = os.path.abspath(args.results or RESULTS)
    unknown = set(args.phases) - set(PHASES)
    if unknown:
        p.error('unknown phases %s (choose from %s)' % (sorted(unknown), ','.join(PHASES)))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10 ** 6)
    replay = ('.venv/bin/python bench/chaos.py --seed %d --runs %d --kill-cycles %d --concurrent %d '
              '--fault-rate %g%s%s' % (seed, args.runs, args.kill_cycles, args.concurrent,
                                       args.fault_rate, ' --no-outage' if args.no_outage else '',
                                       '' if args.phases == list(PHASES)
                                       else ' --phases ' + ','.join(args.phases)))
    print('chaos: seed %d (replay: %s)' % (seed, replay), flush=True)
    # a campaign stopped (SIGTERM) still stops its cloud: the finally below runs
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    workdir = tempfile.mkdtemp(prefix='chaos-')
    cloud, holder, restart, stop_cloud = _own_cloud(workdir)
    started = time.monotonic()
    campaign = Campaign(cloud, workdir, seed, fault_rate=args.fault_rate)

    def write(phase):
        """The figures so far: a campaign cut short (a session's end, a SIGKILL) still leaves
        them, marked with the phase it had reached."""
        out = {'seed': seed, 'scale': scale, 'args': vars(args), 'replay': replay,
               'wall_s': round(time.monotonic() - started, 1), 'losses': losses(campaign.figures),
               'figures': campaign.figures, 'phase': phase,
               'finished': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()) if phase == 'done' else None}
        os.makedirs(os.path.dirname(results), exist_ok=True)
        with open(results + '.part', 'w') as f:
            json.dump(out, f, indent=1, sort_keys=True, default=str)
        os.replace(results + '.part', results)
        return out

    campaign.progress = write
    steps = {'faults': ('1. faults: %d lifecycles' % args.runs,
                        lambda: campaign.phase_faults(args.runs)),
             'kills': ('2. kills: %d cycles of 5' % args.kill_cycles,
                       lambda: campaign.phase_kills(args.kill_cycles)),
             'concurrent': ('3. %d stacks at once' % args.concurrent,
                            lambda: campaign.phase_concurrent(args.concurrent)),
             'outage': ('4. the cloud stopped mid-run', lambda: campaign.phase_outage(restart))}
    if args.no_outage:
        args.phases = [x for x in args.phases if x != 'outage']
    try:
        cloud.configure(build_seconds={'server': 1, 'volume': 0.5})
        for phase in args.phases:
            write(phase)
            print(steps[phase][0], flush=True)
            steps[phase][1]()
    finally:
        stop_cloud(holder['proc'])
    out = write('done')
    figures, lost = campaign.figures, out['losses']
    print(table(figures, scale, seed))
    print('wall time %.0f s; figures in %s' % (out['wall_s'], os.path.relpath(results, ROOT)))
    if any(lost.values()):
        print('chaos: LOSSES %s\n  orphans %s\n  duplicates %s\n  lost %s\n  unconverged %s\n'
              'replay: %s' % (lost, figures['orphans'], figures['duplicates'], figures['lost'],
                              figures['unconverged'], replay))
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
