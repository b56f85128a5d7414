# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One local cloud for the whole session (started by the real `stackers-localcloud` command).

Every call into the cloud carries a timeout; the cloud is stopped with SIGTERM at the end and the
test session checks that its front door is gone.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import socket
import sys

import pytest

# pytest runs in importlib mode here (it adds no test directory to sys.path)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import CLOUD_PY, process_gone, put_sink, start_cloud, stop_cloud  # noqa: E402


def _front_door_closed(port):
    try:
        socket.create_connection(('127.0.0.1', port), timeout=2).close()
        return False
    except OSError:
        return True


def _start(workdir, args):
    """(Cloud, process) of a cloud started in ``workdir``; skips without .venv-cloud and fails with
    its log's tail when it does not get ready."""
    if not os.path.exists(CLOUD_PY):
        pytest.skip('the local cloud needs .venv-cloud: run `make cloud-venv`')
    log_path = os.path.join(workdir, 'localcloud.log')
    c, proc = start_cloud(workdir, args, log_path)
    if c is None:
        with open(log_path) as f:
            pytest.fail('local cloud did not start:\n' + f.read()[-5000:])
    return c, proc


@pytest.fixture(scope='session')
def cloud(tmp_path_factory):
    c, proc = _start(str(tmp_path_factory.mktemp('localcloud')), ['--with-heat'])
    try:
        # what a fresh cloud holds, before any test made anything
        c.baseline = c.resources()
        c.info = c.admin('GET', '/')
        yield c
    finally:
        c.close_osc()
        stop_cloud(proc)
        assert proc.returncode == 0, 'stackers-localcloud exited with %s' % proc.returncode
        # nothing it started is left: neither the front door nor any service process
        assert _front_door_closed(c.port)
        info = getattr(c, 'info', {'services': {}, 'pids': {}})
        for name, svc in info['services'].items():
            assert _front_door_closed(int(svc['internal'].split(':')[2].split('/')[0])), name
        for name, pid in info['pids'].items():
            assert process_gone(pid), name


@pytest.fixture(scope='session')
def guests_cloud(tmp_path_factory):
    """A second cloud, with guests (--guests, --with-heat, a kept --state-dir to look into the
    guests' directories), shared by the modules that need guests: they are one unit of work
    (GROUPS below), so one worker starts it once."""
    workdir = str(tmp_path_factory.mktemp('guests'))
    state = os.path.join(workdir, 'state')
    c, proc = _start(workdir, ['--guests', '--with-heat', '--state-dir', state])
    c.guests = os.path.join(state, 'guests')
    c.conn = c.sdk()
    c.started = []      # (guest dir, pid) of every guest a test saw running
    try:
        assert c.admin('GET', '/')['guests_dir'] == c.guests
        yield c
    finally:
        c.close_osc()
        stop_cloud(proc)
        assert proc.returncode == 0
        # the cloud's guests go with it: processes and directories
        assert not os.path.exists(c.guests)
        for d, pid in c.started:
            assert process_gone(pid), d


@pytest.fixture(scope='module')
def sink():
    with put_sink() as server:
        yield server


# How `make cloud-test` spreads files over its workers (--dist loadfile --no-loadscope-reorder):
# each file is one unit (its tests share their cloud's state, in order), except that the files
# using guests_cloud form one unit, so one worker starts that cloud once. Units go out heaviest
# first (seconds each took in one CI run, 2 workers; estimated after the runs sharing
# ansible-playbook starts), so no long file starts last and leaves the
# other worker idle; a file not listed counts as short. (xdist's own --dist loadgroup cannot do
# this: with pytest 9 the group it appends to a test's node id is lost, and tests go out one by
# one.)
GROUPS = {'test_guests.py': 'guests', 'test_software_deployments.py': 'guests'}
SECONDS = {
    'test_corpus_stacks.py': 560, 'guests': 380, 'test_heat_peer_composition.py': 200,
    'test_heat_stack_faults.py': 300, 'test_heat_stack_playbook.py': 150, 'test_resource_plugins.py': 130,
    'test_heat_peer_abandon.py': 170, 'test_heat_peer_adopt.py': 160, 'test_autoscaled_web_tier.py': 70,
    'test_quick_reference_playbooks.py': 140, 'test_stack_snapshot.py': 120,
    'test_nested_stacks.py': 60, 'test_scenario_osc.py': 58, 'test_wait_conditions.py': 55,
    'test_state_dir.py': 50, 'test_volume_backups.py': 45, 'test_server_snapshot.py': 45,
    'test_hooks_and_unhealthy.py': 45, 'test_resource_group_volumes.py': 35, 'test_type_catalogue.py': 70,
    'test_plugins_keystone.py': 60, 'test_neutron_more_types.py': 70,
}


def _unit(path):
    name = os.path.basename(path)
    return GROUPS.get(name, name)


def pytest_collection_modifyitems(config, items):
    # a stable sort: the tests of one file keep their order
    items.sort(key=lambda item: -SECONDS.get(_unit(str(item.fspath)), 10))


def pytest_xdist_make_scheduler(config, log):
    """xdist's hook for a scheduler of our own: loadfile's, with our units for its scopes."""
    if config.getvalue('dist') != 'loadfile':
        return None
    from xdist.scheduler import LoadFileScheduling

    class _Units(LoadFileScheduling):
        def _split_scope(self, nodeid):
            return _unit(nodeid.split('::', 1)[0])
    return _Units(config, log)
