# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`openstack stack cancel` as playbooks/cancel.yml, from a second ansible-playbook while the first updates
the stack against the local cloud; a SIGTERM to the first; and an AWX job cancelled through ansible-runner."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT, ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

# a network, a resource whose update takes a while, and a network made after it
TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  v: {type: string}
  second: {type: string}
resources:
  first_net: {type: OS::Neutron::Net, properties: {name: cancel-first}}
  slow: {type: OS::Heat::TestResource, depends_on: first_net,
         properties: {value: {get_param: v}, action_wait_secs: {update: 10}}}
  second_net: {type: OS::Neutron::Net, depends_on: slow, properties: {name: {get_param: second}}}
'''


def _events(store_path):
    db = sqlite3.connect(store_path)
    try:
        return db.execute('SELECT resource_name, resource_action, resource_status FROM events '
                          'ORDER BY seq').fetchall()
    finally:
        db.close()


def _when(store_path, event, seen, timeout=120):
    """Waits for ``event`` recorded after the first ``seen`` events."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if event in _events(store_path)[seen:]:
            return
        time.sleep(0.2)
    raise AssertionError('no %r' % (event,))


def _lock(store_path):
    db = sqlite3.connect(store_path)
    try:
        return db.execute("SELECT lock_owner FROM stacks WHERE name='cancelled'").fetchone()[0]
    finally:
        db.close()


def _nets(conn):
    return sorted((n.id, n.name) for n in conn.network.networks() if n.name.startswith('cancel-'))


def _cancel(runner, store_path, *extra):
    cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), os.path.join(ROOT, 'playbooks', 'cancel.yml'),
           '-e', 'heat_cloud=localcloud', '-e', 'heat_store_path=%s' % store_path]
    for one in extra:
        cmd += ['-e', one]
    return subprocess.run(cmd, cwd=ROOT, env=runner.env(), capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def _ended(proc, result_file):
    proc.communicate(timeout=300)
    with open(result_file) as f:
        return json.load(f)


def _awx_job(cloud, tmp_path, runner, stack_args):
    """(thread, runner) of a heat_stack run as AWX starts a job: ansible_runner on a private data dir, asked
    every 0.5 s whether to cancel (``runner.cancel_now``)."""
    import ansible_runner
    cancel_now = threading.Event()
    (tmp_path / 'awx-job').mkdir()
    stack_args = dict(stack_args, cloud='localcloud', store_path=runner.store_path)
    thread, job = ansible_runner.run_async(
        private_data_dir=str(tmp_path / 'awx-job'), playbook=runner.playbook, quiet=True,
        extravars={'stack_args': stack_args, 'result_file': str(tmp_path / 'awx-job.json')},
        settings={'pexpect_timeout': 0.5}, cancel_callback=cancel_now.is_set,
        envvars={'ANSIBLE_COLLECTIONS_PATH': os.path.join(ROOT, '.build'), 'ANSIBLE_NOCOLOR': '1',
                 'OS_CLIENT_CONFIG_FILE': cloud.clouds_yaml, 'STACKERS_LOCK_TTL': '6',
                 'ANSIBLE_LOCALHOST_WARNING': 'false',
                 'PATH': os.path.join(ROOT, '.venv', 'bin') + os.pathsep + os.environ['PATH']})
    job.cancel_now = cancel_now
    return thread, job


def test_cancel_rolls_an_update_back_and_sigterm_stops_one_unlocked(cloud, tmp_path, monkeypatch):
    # a short lease: the running side renews it, and reads the cancel, every 2 s
    monkeypatch.setenv('STACKERS_LOCK_TTL', '6')
    template = tmp_path / 'cancel.yaml'
    template.write_text(TEMPLATE)
    store_path = str(tmp_path / 'stacks.sqlite')
    runner = StackRunner(cloud, tmp_path, store_path)
    conn = cloud.sdk()
    before = ids(cloud.resources())
    args = dict(name='cancelled', template=str(template))
    made = runner.run(parameters={'v': 'one', 'second': 'cancel-second-a'}, **args)
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made.get('msg')
    nets = _nets(conn)

    # without the stack's name the playbook refuses before any module
    refused = _cancel(runner, store_path)
    assert refused.returncode != 0 and 'Missing -e heat_stack_name=NAME' in refused.stdout
    # nothing in progress: Heat's refusal
    idle = _cancel(runner, store_path, 'heat_stack_name=cancelled')
    assert idle.returncode != 0
    assert 'Cancelling update when stack is CREATE_COMPLETE is not supported.' in idle.stdout

    # -- cancel (with rollback) from a second ansible-playbook, while 'slow' updates
    started = len(_events(store_path))
    proc, result_file = runner.start(parameters={'v': 'two', 'second': 'cancel-second-b'}, **args)
    _when(store_path, ('slow', 'UPDATE', 'IN_PROGRESS'), started)
    asked = _cancel(runner, store_path, 'heat_stack_name=cancelled')
    assert asked.returncode == 0, asked.stdout[-3000:]
    assert 'ROLLBACK_COMPLETE' in asked.stdout
    result = _ended(proc, result_file)
    assert result['failed'] is True and 'Stack UPDATE cancelled' in result['msg']
    assert result['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    order = [(e['resource_name'], e['resource_status']) for e in result['events']]
    assert ('slow', 'UPDATE_COMPLETE') in order           # in progress: let end
    cut = order.index(('cancelled', 'UPDATE_FAILED'))
    assert ('second_net', 'UPDATE_IN_PROGRESS') not in order[:cut]   # nothing new started
    assert _nets(conn) == nets                            # the second network kept its old name
    assert _lock(store_path) is None

    # -- SIGTERM to the running playbook's process group (a user cancelling the job)
    started = len(_events(store_path))
    proc, result_file = runner.start(parameters={'v': 'three', 'second': 'cancel-second-c'}, **args)
    _when(store_path, ('slow', 'UPDATE', 'IN_PROGRESS'), started)
    os.killpg(proc.pid, signal.SIGTERM)
    proc.communicate(timeout=120)
    deadline = time.monotonic() + 60
    while _lock(store_path) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lock(store_path) is None          # released by the run, not left to its lease
    events = _events(store_path)
    assert events[-1] == ('cancelled', 'UPDATE', 'FAILED')
    assert ('second_net', 'UPDATE', 'IN_PROGRESS') not in events[started:]

    # -- an AWX job cancelled through ansible-runner: it SIGKILLs ansible-playbook's process group, which
    # leaves the task's worker and the module alive in a session of their own; the run halts at its next
    # heartbeat (2 s here) as on a SIGTERM
    started = len(_events(store_path))
    thread, job = _awx_job(cloud, tmp_path, runner, dict(args, parameters={'v': 'four', 'second': 'cancel-second-d'}))
    _when(store_path, ('slow', 'UPDATE', 'IN_PROGRESS'), started)
    job.cancel_now.set()
    thread.join(60)
    assert job.status == 'canceled'
    deadline = time.monotonic() + 30
    while _lock(store_path) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lock(store_path) is None
    events = _events(store_path)
    assert events[-1] == ('cancelled', 'UPDATE', 'FAILED')
    assert ('second_net', 'UPDATE', 'IN_PROGRESS') not in events[started:]

    # -- a rerun converges; nothing was leaked or made twice
    again = runner.run(parameters={'v': 'two', 'second': 'cancel-second-b'}, **args)
    assert again['stack']['stack_status'] == 'UPDATE_COMPLETE', again.get('msg')
    assert sorted(n[1] for n in _nets(conn)) == ['cancel-first', 'cancel-second-b']
    assert set(n[0] for n in _nets(conn)) == set(n[0] for n in nets)     # renamed in place, none made twice
    gone = runner.run(state='absent', name='cancelled')
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert ids(cloud.resources()) == before
