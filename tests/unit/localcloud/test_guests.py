# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/guests.py: a guest starts detached in its own directory; stopping it ends every
process of it and removes the directory."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import base64
import os
import sys
import time

from localcloud import guests


def _b64(text):
    return base64.b64encode(text.encode()).decode()


def _wait(predicate, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _alive(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


def test_no_user_data_starts_nothing(tmp_path):
    assert guests.start(str(tmp_path), 'srv', None) is None
    assert guests.start(str(tmp_path), 'srv', _b64('  \n')) is None
    assert os.listdir(str(tmp_path)) == []


def test_a_guest_runs_in_its_root_and_stopping_it_ends_its_processes(tmp_path):
    base = str(tmp_path / 'guests')
    script = ('#!/bin/sh\necho $$ > child.pid\n'
              # a grandchild in a session of its own: found by its environment's mark
              'setsid sleep 300 & echo $! > setsid.pid\n'
              'exec sleep 300\n')
    pid = guests.start(base, 'srv-1', _b64(script), python=sys.executable)
    d = os.path.join(base, 'srv-1')
    root = os.path.join(d, 'root')
    assert _wait(lambda: os.path.exists(os.path.join(root, 'setsid.pid')))
    with open(os.path.join(root, 'setsid.pid')) as f:
        detached = int(f.read())
    with open(os.path.join(root, 'child.pid')) as f:
        child = int(f.read())
    assert _wait(lambda: _alive(detached))
    assert os.getpgid(pid) == pid != os.getpgid(0)           # a session of its own
    assert set(guests.members(d, pid)) >= {pid, child, detached}
    assert guests.stop(base, 'srv-1') is True
    assert not os.path.exists(d)
    assert _wait(lambda: not any(_alive(p) for p in (pid, child)))
    assert _wait(lambda: not _alive(detached))
    assert guests.stop(base, 'srv-1') is False               # already gone


def test_stop_all_removes_every_guest_and_the_directory(tmp_path):
    base = str(tmp_path / 'guests')
    pids = [guests.start(base, name, _b64('#!/bin/sh\nexec sleep 300\n'), python=sys.executable)
            for name in ('a', 'b')]
    assert _wait(lambda: all(_alive(p) for p in pids))
    assert guests.stop_all(base) == 2
    assert not os.path.exists(base)
    assert _wait(lambda: not any(_alive(p) for p in pids))
    assert guests.stop_all(base) == 0


def test_a_second_start_replaces_the_first_guest(tmp_path):
    base = str(tmp_path / 'guests')
    first = guests.start(base, 'srv', _b64('#!/bin/sh\nexec sleep 300\n'), python=sys.executable)
    second = guests.start(base, 'srv', _b64('#!/bin/sh\nexec sleep 300\n'), python=sys.executable)
    assert first != second
    assert _wait(lambda: not _alive(first))
    with open(os.path.join(base, 'srv', 'pid')) as f:
        assert int(f.read()) == second
    guests.stop_all(base)


def test_the_flag_reaches_novas_driver_through_the_services_environment(tmp_path):
    """--guests -> plan['guests_dir'] -> LOCALCLOUD_GUESTS in every service's environment; without
    it, none (not even one inherited from the caller's environment)."""
    from localcloud import plan as plan_mod
    from localcloud.frontdoor import State
    from localcloud.supervisor import Supervisor
    state = str(tmp_path)
    knobs = os.path.join(state, 'knobs.json')
    on = plan_mod.build('127.0.0.1', 1, state, knobs, guests=True)
    off = plan_mod.build('127.0.0.1', 1, state, knobs)
    assert on['guests_dir'] == os.path.join(state, 'guests') and off['guests_dir'] is None
    yaml_path = os.path.join(state, 'clouds.yaml')
    env = Supervisor(on, yaml_path, State()).service_env({'PATH': '/bin'})
    assert env[guests.ENV] == on['guests_dir']
    env = Supervisor(off, yaml_path, State()).service_env({'PATH': '/bin', guests.ENV: '/elsewhere'})
    assert guests.ENV not in env


def test_the_cli_takes_guests_and_leaves_it_off_by_default():
    from localcloud import cli
    assert cli.parse_args(['--clouds-yaml', 'c.yaml', '--guests']).guests is True
    assert cli.parse_args(['--clouds-yaml', 'c.yaml']).guests is False
