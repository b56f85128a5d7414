# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The chaos campaign's kill timing and its figures written as it goes (no cloud: the child is a
``sleep`` and the cloud answers nothing)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import subprocess

from bench import chaos, chaos_judge as cj


class _Counter(object):
    """A cloud whose request count grows each time it is read while ``talking``: the child
    has sent requests by the time it is killed."""

    def __init__(self):
        self.requests = 0
        self.talking = True

    def stats(self):
        if self.talking:
            self.requests += 1
        return {'requests': self.requests}


def _sleeping_children(monkeypatch, seconds):
    monkeypatch.setattr(cj, 'start_child', lambda cloud, action, log: subprocess.Popen(
        ['sleep', str(seconds)], stdout=subprocess.PIPE, text=True))


def test_a_kill_that_came_too_late_brings_the_next_ones_inside_the_action(monkeypatch, tmp_path):
    # every action lasts 0.4 s: the first kill (window 1.0-1.5 s) misses it, and from then on the
    # window shrinks to what the action was seen to last, so the kills land
    _sleeping_children(monkeypatch, 0.4)
    campaign = chaos.Campaign(_Counter(), str(tmp_path), 7)
    campaign.kill_during({}, (1.0, 1.5), 'delete')
    assert campaign.figures['kills'] == 0 and campaign.figures['kills_missed'] == 1
    assert 0.3 < campaign.durations['delete'] < 0.9
    delays = [campaign.kill_during({}, (0.05, 6.0), 'delete') for _n in range(4)]
    assert all(d < 0.9 * campaign.durations['delete'] for d in delays)
    assert campaign.figures['kills'] == 4 and campaign.figures['kills_by_moment'] == {'delete': 4}
    # another moment keeps the whole window until it too is seen to end early
    assert 'create' not in campaign.durations


def test_a_kill_before_the_child_sent_anything_is_not_counted_and_later_ones_come_later(
        monkeypatch, tmp_path):
    _sleeping_children(monkeypatch, 3)
    cloud = _Counter()
    cloud.talking = False            # the child is still importing: no request reached the cloud
    campaign = chaos.Campaign(cloud, str(tmp_path), 7)
    first = campaign.kill_during({}, (0.1, 0.3), 'create')
    assert campaign.figures['kills'] == 0 and campaign.figures['kills_before_any_request'] == 1
    assert campaign.quiet['create'] == first
    cloud.talking = True
    later = campaign.kill_during({}, (0.1, 0.3), 'create')
    assert later >= first + 0.2 and campaign.figures['kills'] == 1


def test_the_table_says_which_kills_were_not_counted():
    figures = {'runs': 2, 'completed_unaided': 2, 'faults_injected': 5, 'kills': 48,
               'kills_missed': 3, 'kills_before_any_request': 2, 'unclear_failures': [], 'concurrent_completed': 2,
               'concurrent': 2, 'orphans': [], 'duplicates': [], 'lost': [], 'unconverged': [],
               'worst_recovery_s': 1.0}
    row = [line for line in cj.table(figures, 1, 9).splitlines() if 'kills' in line]
    assert row and row[0].endswith(
        '| 48 (not counted: 3 after the action had ended, 2 before its first request) |')


def test_figures_so_far_survive_a_campaign_cut_short(monkeypatch, tmp_path):
    results = tmp_path / 'results' / 'chaos.json'
    monkeypatch.setattr(chaos, 'RESULTS', str(results))

    class Cloud(object):
        port = 1

        def configure(self, **_):
            pass

        def stats(self):
            return {'injected': {'503': 3}}

    def own_cloud(workdir):
        return Cloud(), {'proc': None}, None, lambda proc: None

    def lifecycle(self, index):
        if index == 10:
            raise KeyboardInterrupt       # the session ends here
        return None

    monkeypatch.setattr(chaos, '_own_cloud', own_cloud)
    monkeypatch.setattr(chaos.Campaign, 'lifecycle', lifecycle)
    try:
        chaos.main(['--seed', '5', '--runs', '20'])
    except KeyboardInterrupt:
        pass
    out = json.loads(results.read_text())
    assert out['phase'] == 'faults: 10 of 20 lifecycles' and out['finished'] is None
    assert out['figures']['runs'] == 10 and out['figures']['completed_unaided'] == 10
    assert out['seed'] == 5 and '--seed 5' in out['replay']


def test_phases_run_in_the_order_asked_and_the_replay_says_it(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(chaos, 'RESULTS', str(tmp_path / 'chaos.json'))
    ran = []
    for phase in ('faults', 'kills', 'concurrent', 'outage'):
        monkeypatch.setattr(chaos.Campaign, 'phase_' + phase,
                            lambda self, *a, _p=phase: ran.append(_p))
    monkeypatch.setattr(chaos, '_own_cloud', lambda workdir: (
        type('Cloud', (), {'configure': lambda self, **_: None})(), {'proc': None}, None,
        lambda proc: None))
    assert chaos.main(['--seed', '3', '--phases', 'kills,outage,faults']) == 0
    assert ran == ['kills', 'outage', 'faults']
    assert '--phases kills,outage,faults' in capsys.readouterr().out
    ran[:] = []
    assert chaos.main(['--seed', '3', '--no-outage']) == 0
    assert ran == ['faults', 'kills', 'concurrent']


def test_results_go_where_asked_so_two_campaigns_can_run_side_by_side(monkeypatch, tmp_path):
    monkeypatch.setattr(chaos, 'RESULTS', str(tmp_path / 'default.json'))
    for phase in ('faults', 'kills', 'concurrent', 'outage'):
        monkeypatch.setattr(chaos.Campaign, 'phase_' + phase, lambda self, *a: None)
    monkeypatch.setattr(chaos, '_own_cloud', lambda workdir: (
        type('Cloud', (), {'configure': lambda self, **_: None})(), {'proc': None}, None,
        lambda proc: None))
    mine = tmp_path / 'side' / 'b.json'
    assert chaos.main(['--seed', '7', '--phases', 'faults', '--results', str(mine)]) == 0
    out = json.loads(mine.read_text())
    assert out['seed'] == 7 and out['phase'] == 'done'
    assert not (tmp_path / 'default.json').exists()
    assert '--results' not in out['replay']     # a replay writes to the default place
