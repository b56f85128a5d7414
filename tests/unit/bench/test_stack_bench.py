# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""bench/stack/: the generated stacks load as the engine loads a template, and the figures' pure
helpers (no cloud)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import re

import pytest
import yaml

from bench.peers import compare, heat_service
from bench.stack import big, composition, costs, deployments, scale
from localcloud.harness import ROOT


@pytest.mark.parametrize('mix,count', [('big', 10000), ('blocks', 1000)])
def test_a_generated_stack_fits_heats_template_limit_and_loads(tmp_path, mix, count):
    data = scale.templates()[mix](count)
    assert abs(len(data['resources']) - count) <= 2
    path = tmp_path / 't.yaml'
    with open(str(path), 'w') as f:
        yaml.safe_dump(data, f, default_flow_style=None, width=1 << 16)
    assert path.stat().st_size <= 524288       # Heat's max_template_size, which the loader keeps
    sd, graph = costs.stack_definition(str(path))
    assert len(sd.resources) == len(data['resources'])
    assert sum(costs.minimum_calls(sd, 'create').values()) > 0


def test_rerun_list_calls_are_the_gets_of_collections():
    run = {'resources': 10, 'rerun': {'by_route': {
        'GET network /v2.0/ports': 2, 'GET network /v2.0/ports/{id}': 5,
        'POST identity /v3/auth/tokens': 1}}}
    calls = big.rerun_calls(run)
    assert calls['list_calls'] == {'GET network /v2.0/ports': 2}
    assert calls['per_resource'] == 0.8


# -- bench/stack/composition.py -------------------------------------------------------------------

@pytest.mark.parametrize('count,shape', [(60, (3, 4)), (20, (2, 2)), (5, (1, 1)), (35, (1, 7))])
def test_the_flattened_resources_split_into_mids_of_equal_leaves(count, shape):
    assert composition.split(count) == shape


def _types(resources):
    return sorted(r['type'] for r in resources.values())


@pytest.mark.parametrize('count', [20, 60])
def test_flat_and_nested_hold_the_same_resources_and_load(tmp_path, count):
    files = composition.flattening_templates(count)
    mids, per_mid = composition.split(count)
    flat, leaf = files['flat.yaml']['resources'], files['leaf.yaml']['resources']
    assert len(flat) == count
    assert _types(flat) == sorted(_types(leaf) * (mids * per_mid))
    assert len(files['top.yaml']['resources']) == mids
    assert len(files['mid.yaml']['resources']) == per_mid
    where = composition.write_files(str(tmp_path), files)
    sd, _graph = costs.stack_definition(os.path.join(where, 'flat.yaml'))
    assert costs.resource_count(sd) == count
    top, _graph = costs.stack_definition(os.path.join(where, 'top.yaml'))
    assert sorted(top.resources) == ['mid%d' % i for i in range(mids)]
    # Heat is given the nested levels in its POST's files
    assert sorted(heat_service.template_files(os.path.join(where, 'top.yaml'))) == \
        ['leaf.yaml', 'mid.yaml']


WEB_TOP = """heat_template_version: 2021-04-16
resources:
  web:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: 1
      max_size: 3
      resource:
        type: member.yaml
        properties: {flavor: m1.tiny}
"""
WEB_MEMBER = """heat_template_version: 2021-04-16
parameters:
  flavor: {type: string}
resources:
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: {get_param: flavor}}
"""


def test_heat_is_given_an_autoscaling_groups_member_template(tmp_path):
    # the web tier's shape (tests/localcloud/test_autoscaled_web_tier.py): the group's member
    # is a template file the group's ``resource`` names
    (tmp_path / 'web.yaml').write_text(WEB_TOP)
    (tmp_path / 'member.yaml').write_text(WEB_MEMBER)
    assert heat_service.template_files(str(tmp_path / 'web.yaml')) == {'member.yaml': WEB_MEMBER}


@pytest.mark.parametrize('mix,extra,posts', [('rgnone', 0, {}),
                                             ('rgports', 2, {'ports': 50, 'networks': 1,
                                                             'subnets': 1})])
def test_a_resource_group_counts_as_its_members(tmp_path, mix, extra, posts):
    data = scale.templates()[mix](50)
    where = composition.write_files(str(tmp_path), {'rg.yaml': data})
    sd, _graph = costs.stack_definition(os.path.join(where, 'rg.yaml'))
    assert costs.resource_count(sd) == 50 + extra
    create = costs.minimum_calls(sd, 'create')
    assert dict((r.rsplit('/', 1)[1], n) for r, n in create.items()
                if r.startswith('POST network')) == posts
    assert costs.minimum_calls(sd, 'delete').get('DELETE network /v2.0/ports/{id}', 0) == \
        posts.get('ports', 0)


def _run(resources, wall, cpu):
    phases = dict((k, {'wall_s': wall, 'cpu_s': cpu, 'calls': resources})
                  for k in ('create', 'rerun', 'delete'))
    return dict(phases, resources=resources, peak_rss_mb=100.0)


def test_growth_per_member_is_one_when_linear():
    grown = scale.growth([_run(50, 1.0, 0.5), _run(500, 10.0, 10.0)])
    members = composition.per_member(grown)
    assert members['create'] == {'wall': 1.0, 'cpu': 2.0}
    assert set(members) == {'create', 'rerun', 'delete'}
    assert composition.per_member({}) == {}


def test_pair_ratios_are_the_medians_over_the_rounds():
    def side(create, delete, calls):
        return {'create': {'wall_s': create, 'calls': calls},
                'delete': {'wall_s': delete, 'calls': calls}}
    rounds = [{'nested': side(2.0, 1.0, 10), 'flat': side(2.0, 2.0, 10)},
              {'nested': side(3.0, 1.0, 10), 'flat': side(1.0, 2.0, 20)},
              {'nested': side(2.2, 1.0, 10), 'flat': side(2.0, 2.0, 20)}]
    summary = compare.summarize(rounds, composition.SPLIT)
    ratios = composition.pair_ratios(summary, composition.SPLIT[0])
    assert ratios == {'create_wall': 1.1, 'delete_wall': 0.5, 'create_calls': 0.5,
                      'delete_calls': 0.5}


def test_medians_are_per_action_and_skip_missing_figures():
    rounds = [{'a': {'create': {'cpu_s': c, 'wall_s': 1.0}, 'delete': {'cpu_s': c / 2}}}
              for c in (1.0, 3.0, 2.0)]
    assert composition.medians(rounds, 'a', ('cpu_s', 'engine_alone_s')) == {
        'create': {'cpu_s': 2.0}, 'delete': {'cpu_s': 1.0}}


class _FakeCloud(object):
    """Counts as the local cloud's stats do: each peer action is one call."""

    def __init__(self):
        self.calls = 0

    def reset_stats(self):
        self.calls = 0

    def stats(self):
        return {'by_route': {'POST network /v2.0/networks': self.calls}}

    def resources(self):
        return {}


class _FakePeer(object):

    def __init__(self, cloud, wall, log):
        self.cloud, self.wall, self.log = cloud, wall, log

    def create(self, name):
        return self._act('create', name)

    def delete(self, name):
        return self._act('delete', name)

    def _act(self, action, name):
        self.cloud.calls += 1
        self.log.append((action, name))
        return {'wall_s': self.wall, 'ok': True, 'cpu_s': 0.5}


def test_alternate_reverses_the_order_each_round_and_keeps_extra_figures():
    cloud, log = _FakeCloud(), []
    peers = [('flat', _FakePeer(cloud, 1.0, log)), ('nested', _FakePeer(cloud, 2.0, log))]
    rounds = compare.alternate(cloud, peers, 2, 'split', {})
    created = [n for a, n in log if a == 'create']
    assert created == ['split0-flat', 'split0-nested', 'split1-nested', 'split1-flat']
    assert rounds[1]['nested']['create']['cpu_s'] == 0.5
    assert rounds[0]['flat']['delete']['calls'] == 1
    ratios = composition.pair_ratios(compare.summarize(rounds, composition.SPLIT),
                                     composition.SPLIT[0])
    assert ratios['create_wall'] == 2.0 and ratios['delete_calls'] == 1.0


def test_both_sides_calls_leave_out_the_users_login():
    stats = {'GET identity /v3': 1, 'POST identity /v3/auth/tokens': 1,
             'POST network /v2.0/networks': 1, 'PUT network /v2.0/networks/{id}/tags': 1}
    calls, by_route, every = compare._calls('engine', {}, stats)
    assert (calls, every) == (2, 4)
    assert 'POST identity /v3/auth/tokens' not in by_route
    heat_stats = {'POST identity /v3/auth/tokens': 1, 'POST orchestration /stacks': 1,
                  'GET orchestration /stacks/{id}': 3, 'POST network /v2.0/networks': 1}
    client = {'POST identity /v3/auth/tokens': 1, 'POST orchestration /stacks': 1,
              'GET orchestration /stacks/{id}': 3}
    calls, by_route, every = compare._calls('heat', {'client_routes': client}, heat_stats)
    assert (calls, every, by_route) == (1, 6, {'POST network /v2.0/networks': 1})
    # the playbook peers are compared whole, logins and all
    assert compare._calls('playbook', {}, stats)[0] == 4


# -- bench/stack/deployments.py -------------------------------------------------------------------

def _loads(tmp_path, data):
    path = tmp_path / 't.yaml'
    with open(str(path), 'w') as f:
        yaml.safe_dump(data, f, default_flow_style=None, width=1 << 16)
    sd, _graph = costs.stack_definition(str(path))
    return sd


def test_the_deployment_templates_load_with_a_deployment_per_server_or_per_pending(tmp_path):
    data = deployments.beside_heat_template(2)
    assert len(_loads(tmp_path, data).resources) == len(data['resources']) == 7
    deploys = dict((n, r) for n, r in data['resources'].items() if r['type'] == deployments.DEPLOYMENT)
    assert sorted(deploys) == ['deploy1', 'deploy2']
    # written out: Heat's own defaults need its API
    assert all(r['properties']['signal_transport'] == 'TEMP_URL_SIGNAL' for r in deploys.values())
    pending = deployments.pending_template(5)
    assert len(_loads(tmp_path, pending).resources) == 7
    assert {r['properties']['server']['get_resource'] for n, r in pending['resources'].items()
            if n.startswith('deploy')} == {'server'}


def test_after_active_runs_from_the_last_server_complete():
    events = [(1.0, 'OS::Nova::Server', 'CREATE', 'IN_PROGRESS'),
              (4.0, 'OS::Nova::Server', 'CREATE', 'COMPLETE'),
              (6.0, 'OS::Nova::Server', 'CREATE', 'COMPLETE'),
              (7.0, 'OS::Heat::SoftwareDeployment', 'CREATE', 'COMPLETE')]
    assert deployments.after_active(events, 16.5) == 10.5
    assert deployments.after_active(events[3:], 16.5) is None


def test_poll_rates_leave_the_login_out_and_divide_by_the_pending():
    r = deployments.rates({'HEAD object-store /v1/{id}/{c}/{o}': 25,
                           'POST identity /v3/auth/tokens': 1}, 10.0, 5)
    assert (r['requests'], r['per_s'], r['per_s_per_deployment']) == (25, 2.5, 0.5)


def test_the_benchs_runs_lift_heats_resource_limit_for_the_10000_resource_stack(monkeypatch):
    """The big scenario's stacks hold up to 10,000 resources, past Heat's default
    max_resources_per_stack (1000): each run lifts it, or the scenario fails before any call."""
    from bench.stack import runs
    seen = []
    monkeypatch.setattr(runs.runner, 'run', lambda request, conn: seen.append(request) or {})

    class Cloud(object):
        def sdk(self):
            return type('Conn', (), {'close': lambda self: None})()
    runs.engine_run(Cloud(), 'big10000', '/nowhere.sqlite', 'present', template='t.yaml')
    assert seen[0].max_resources == -1 and seen[0].limits.max_resources_per_stack == -1
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.nested import (
        stacks as nesting)
    nesting._check_total(10002, seen[0].max_resources, ('resources',))     # no error


def test_the_call_timed_bound_costs_a_chain_at_its_own_answers(tmp_path):
    """Two subnets posted at once: one answered in 0.5 s (on the chain), the other in 0.1 s.
    The route's mean (0.3 s) under-costs the chain; the call-timed bound takes the chain's
    own answer (the quickest of its route sent while it was in progress: here only its own)."""
    from bench.stack import critical
    path = tmp_path / 't.yaml'
    path.write_text('heat_template_version: 2021-04-16\nresources:\n'
                    '  net: {type: OS::Neutron::Net}\n'
                    '  a: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}\n'
                    '  b: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.1.0/24}}\n')
    sd, graph = costs.stack_definition(str(path))
    url = 'http://127.0.0.1:1/networking/v2.0/'
    t0 = 100.0
    ph = {'_t0': t0, '_requests': [
        (t0 + 0.00, t0 + 0.05, 'POST', 'http://127.0.0.1:1/identity/v3/auth/tokens'),
        (t0 + 0.05, t0 + 0.25, 'POST', url + 'networks'),
        (t0 + 0.30, t0 + 0.80, 'POST', url + 'subnets'),
        (t0 + 0.90, t0 + 1.00, 'POST', url + 'subnets')],
        '_events': [(t0 + 0.05, 'net', 'OS::Neutron::Net', 'CREATE', 'IN_PROGRESS'),
                    (t0 + 0.26, 'net', 'OS::Neutron::Net', 'CREATE', 'COMPLETE'),
                    (t0 + 0.29, 'a', 'OS::Neutron::Subnet', 'CREATE', 'IN_PROGRESS'),
                    (t0 + 0.81, 'a', 'OS::Neutron::Subnet', 'CREATE', 'COMPLETE'),
                    (t0 + 0.85, 'b', 'OS::Neutron::Subnet', 'CREATE', 'IN_PROGRESS'),
                    (t0 + 1.01, 'b', 'OS::Neutron::Subnet', 'CREATE', 'COMPLETE')]}
    prof = critical.profile(ph, sd, graph, 'create', 0.02, {})
    assert prof['observed_bound_s'] == pytest.approx(0.05 + 0.2 + 0.3)
    assert prof['call_timed_bound_s'] == pytest.approx(0.05 + 0.2 + 0.5)
    assert prof['call_timed_chain'] == ['net', 'a']
    assert critical._spread([1.2, 1.0, 1.1, 3.0]) == (1.0, pytest.approx(1.15), 3.0)


def test_a_profiled_phase_returns_its_figures_and_leaves_its_threads_stats(tmp_path):
    import pstats
    import threading

    def in_worker(n):
        return sum(range(n))

    def work(n):
        # the engine's steps run in threads the phase starts: they are profiled too
        out = []
        worker = threading.Thread(target=lambda: out.append(in_worker(n)))
        worker.start()
        worker.join()
        return out[0]

    assert scale._profiled(None, 'big10-create', work, 10) == 45
    assert not list(tmp_path.iterdir())
    assert scale._profiled(str(tmp_path / 'p'), 'big10-create', work, 10) == 45
    names = set(name for (_f, _l, name) in pstats.Stats(str(tmp_path / 'p' / 'big10-create.prof')).stats)
    assert {'work', 'in_worker'} <= names
    assert threading.getprofile() is None      # the hook is gone after the phase


def test_the_observer_times_the_collector_only_while_a_phase_is_observed():
    import gc
    from bench.stack import runs
    obs = runs.Observer()
    try:
        gc.collect()
        assert obs.gc_runs == [0, 0, 0] and obs.gc_s == 0.0
        obs.start()
        gc.collect()
        obs.stop()
        assert obs.gc_runs[2] == 1 and obs.gc_s > 0
        gc.collect()
        assert obs.gc_runs[2] == 1
        obs.start()
        assert obs.gc_runs == [0, 0, 0] and obs.gc_s == 0.0
    finally:
        obs.stop()
        gc.callbacks.remove(obs._collecting)


def test_growth_apart_from_the_collector_is_per_resource(capsys):
    def size(n, cpu, gc_s):
        phase = {'wall_s': cpu, 'cpu_s': cpu, 'gc_s': gc_s, 'engine_alone_s': cpu,
                 'cloud_busy_s': 1.0, 'cloud_cpu_s': {'neutron': 1.0}, 'answer_ms': {}, 'by_route': {}}
        return dict(resources=n, create=phase, rerun=phase, delete=phase)
    # 10x the resources: CPU x12, the collector's 0.1 -> 3.0 s of it; x10 outside it
    rows = big.engine_and_cloud([size(1000, 1.0, 0.1), size(10000, 12.0, 3.0)])
    assert rows['rerun']['cpu_s'] == pytest.approx(1.2)
    assert rows['rerun']['cpu_less_gc'] == pytest.approx(1.0)
    assert rows['rerun']['gc_s'] == [0.1, 3.0]
    assert 'x1.20 (x1.00 outside the collector; collector 0.10 -> 3.00 s)' in capsys.readouterr().out
    # a child of an older bench reports no collector time: its CPU counts whole
    old = size(1000, 1.0, 0.0)
    del old['rerun']['gc_s']
    assert big.engine_and_cloud([old, size(10000, 10.0, 0.0)])['rerun']['cpu_less_gc'] == pytest.approx(1.0)


def test_best_of_keeps_the_run_with_the_least_cpu_and_every_runs_cpu():
    runs = iter([{'cpu_s': 0.37, 'calls': 2}, {'cpu_s': 0.23, 'calls': 2}])
    best = scale.best_of(2, lambda: next(runs))
    assert best == {'cpu_s': 0.23, 'calls': 2, 'cpu_s_runs': [0.37, 0.23]}
    assert scale.best_of(1, lambda: {'cpu_s': 1.0}) == {'cpu_s': 1.0, 'cpu_s_runs': [1.0]}


def test_the_lowest_sdk_is_compared_to_the_mean_of_the_newest_runs_around_it():
    def run(wall, cpu):
        phase = {'wall_s': wall, 'cpu_s': cpu}
        return dict(create=phase, rerun=phase, delete=phase)
    # the cloud slowed from 10 s to 14 s over the three runs: the lowest, in the middle, is even
    ratios = big.version_ratios(run(12.0, 3.0), [run(10.0, 2.0), run(14.0, 4.0)])
    assert set(ratios) == {'create', 'rerun', 'delete'}
    assert ratios['delete'] == {'wall': pytest.approx(1.0), 'cpu': pytest.approx(1.0)}
    # against the first newest run alone it would have read 1.2 / 1.5
    assert big.version_ratios(run(12.0, 3.0), [run(10.0, 2.0)])['create'] == {
        'wall': pytest.approx(1.2), 'cpu': pytest.approx(1.5)}


def test_compare_versions_runs_the_newest_again_after_the_lowest(monkeypatch):
    import argparse
    calls = []

    def fake_run_sizes(_cloud, _workdir, args, sizes, mix, _printer):
        calls.append((args.python, sizes, mix))
        wall = {'low': 12.0, None: 14.0}[args.python]
        phase = {'wall_s': wall, 'cpu_s': 1.0}
        return [dict(resources=sizes[0], openstacksdk=args.python, create=phase, rerun=phase,
                     delete=phase)]
    monkeypatch.setattr(big, 'run_sizes', fake_run_sizes)
    newest = dict(resources=10002, create={'wall_s': 10.0, 'cpu_s': 1.0})
    newest['rerun'] = newest['delete'] = newest['create']
    args = argparse.Namespace(python=None, compare_python='low')
    out = big.compare_versions(None, '/w', args, newest)
    assert calls == [('low', [10002], 'big'), (None, [10002], 'big')]
    assert out['ratios']['delete']['wall'] == pytest.approx(1.0)
    assert out['newest_again']['delete']['wall_s'] == 14.0


class _Volume:
    def __init__(self, name, status, updated_at):
        self.name, self.status, self.updated_at = name, status, updated_at


class _Admin:
    """The admin connection volumes_in_use asks: the volumes of every project."""
    def __init__(self, volumes):
        self.block_storage = self
        self.volumes_listed = volumes
        self.query = None

    def volumes(self, **query):
        self.query = query
        return iter(self.volumes_listed)

    def close(self):
        pass


class _Cloud:
    def __init__(self, admin):
        self.admin = admin

    def sdk(self, name):
        assert name == 'localcloud-admin'
        return self.admin


def test_an_attachment_is_charged_until_cinder_marked_its_volume_in_use():
    import datetime
    from bench.stack import critical, runs
    t0 = datetime.datetime(2026, 12, 7, 5, 0, 0, tzinfo=datetime.timezone.utc).timestamp()
    admin = _Admin([_Volume('crit0-vol1-abcdefghijkl', 'in-use', '2026-12-07T05:00:04.500000'),
                    _Volume('crit0-vol2-abcdefghijkm', 'available', '2026-12-07T05:00:03'),
                    _Volume('crit1-vol1-abcdefghijkn', 'in-use', '2026-12-07T05:00:09'),
                    _Volume('someone-else', 'in-use', '2026-12-07T05:00:01')])
    in_use = runs.volumes_in_use(_Cloud(admin), 'crit0', {'_clock0': t0})
    # only this stack's volumes, and only those in use: an available one was never attached
    assert in_use == {'vol1': pytest.approx(4.5)}
    assert admin.query == {'details': True, 'all_projects': True}
    sd, graph = costs.stack_definition(os.path.join(
        ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml'))
    # att1 attaches vol1 to server1: it takes vol1's time, never the server's
    done = critical.attachments_done(sd, graph, {'vol1': 4.5, 'server1': 3.0, 'vol3': 1.0})
    assert done == {'att1': 4.5}


# -- CPU in calibration units and against Heat's (bench/stack/calibration.py) ----------------------

def test_a_scale_row_prints_each_cpu_figure_in_calibration_units(capsys):
    run = dict(_run(1000, 10.0, 5.13), rss_before_mb=50.0, write_calls=0,
               minimum_calls={'create': 1, 'rerun': 0, 'delete': 1},
               calibration={'unit_ms': 2.5, 'runs_ms': [2.5]})
    for phase in ('create', 'rerun', 'delete'):
        run[phase]['write_calls'] = 0
    assert scale.cpu_per_resource(run)['create'] == pytest.approx((5.13, 2.052))
    scale.print_scale_row(run, header=True)
    out = capsys.readouterr().out
    assert 'calib' in out.splitlines()[2]
    assert re.search(r'create +10\.00 +5\.13 +5\.13 +x2\.05 ', out)
    assert 'one unit of the calibration workload here' in out
    # a child of an older bench has no calibration: '-'
    del run['calibration']
    assert scale.cpu_per_resource(run)['create'][1] is None
    scale.print_scale_row(run, header=False)
    assert re.search(r'create +10\.00 +5\.13 +5\.13 +- ', capsys.readouterr().out)


def test_peers_give_the_engines_cpu_over_heats_per_action():
    def side(cpu, heat_cpu):
        return {'engine': {'create': {'wall_s': 1.0, 'calls': 10, 'cpu_s': cpu},
                           'delete': {'wall_s': 1.0, 'calls': 10, 'cpu_s': cpu / 2}},
                'heat': {'create': {'wall_s': 2.0, 'calls': 20, 'cpu_s': heat_cpu},
                         'delete': {'wall_s': 2.0, 'calls': 20, 'cpu_s': heat_cpu}}}
    rounds = [side(1.0, 4.0), side(3.0, 4.0), side(2.0, 5.0)]
    summary = compare.summarize(rounds)
    assert summary['engine']['create']['cpu_s'] == 2.0
    assert summary['engine/heat']['create']['cpu_ratio'] == pytest.approx(0.5)
    assert summary['engine/heat']['delete']['cpu_ratio'] == pytest.approx(0.25)
    result = {'summary': summary, 'calibration_unit_ms': 2.5}
    lines = compare.cpu_lines(result)
    assert 'engine 2000.00 ms (x800 calib), heat 4000 ms   engine / heat: 0.50' in lines[1]
    # a round without Heat's CPU (its process not readable): no ratio, no CPU lines
    del rounds[0]['heat']['create']['cpu_s']
    summary = compare.summarize(rounds)
    assert 'cpu_s' not in summary['heat']['create']
    assert 'cpu_ratio' not in summary['engine/heat']['create']
    assert compare.cpu_lines({'summary': summary, 'calibration_unit_ms': None})[1].endswith(
        'heat n/a   engine / heat: n/a')
