# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fake drivers' injected build failures alone (no cloud: the knobs file the supervisor writes):
a pattern fails every matching build; ``times`` fails the builds of that many objects and then lets
other objects build, and a rule set again (a new serial) counts again."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json

from localcloud.drivers import timing


def _knobs(tmp_path, monkeypatch, knobs):
    path = tmp_path / 'knobs.json'
    path.write_text(json.dumps(knobs))
    monkeypatch.setenv('LOCALCLOUD_KNOBS', str(path))


def test_a_pattern_fails_every_matching_build(tmp_path, monkeypatch):
    _knobs(tmp_path, monkeypatch, {'fail_builds': {'server': '^st-server1-'}})
    assert [timing.fails('server', 'st-server1-abc') for _n in range(3)] == [True] * 3
    assert not timing.fails('server', 'st-server2-abc')
    assert not timing.fails('volume', 'st-server1-abc')
    assert not timing.fails('server', None)


def test_times_fails_that_many_objects_then_lets_others_through(tmp_path, monkeypatch):
    rule = {'pattern': '^st-vol', 'times': 2}
    _knobs(tmp_path, monkeypatch, {'fail_builds': {'volume': rule}, 'fail_builds_serial': 7})
    assert not timing.fails('volume', 'other', 'o')     # no match: not counted
    assert [timing.fails('volume', 'st-vol-1', i) for i in ('a', 'b', 'c', 'd')] == [True, True, False, False]
    # a failed object's build tried again (Cinder's reschedule) fails again
    assert timing.fails('volume', 'st-vol-1', 'a') and not timing.fails('volume', 'st-vol-1', 'c')
    # the same rule set again is a new serial: its count starts again
    _knobs(tmp_path, monkeypatch, {'fail_builds': {'volume': rule}, 'fail_builds_serial': 8})
    assert [timing.fails('volume', 'st-vol-1', i) for i in ('c', 'd', 'e')] == [True, True, False]
