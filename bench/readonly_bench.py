# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read-only calls beside a read: one heat_stack_info task and one parse of a
heat_stacks inventory, each against ``ansible.builtin.ping``'s task time.

A SQLite store is made first by the engine in this process, with no cloud: a
stack of Heat types (OS::Heat::RandomString, Value, None) and three
OS::Nova::Server rows added to its record, so that the inventory has hosts
(without a cloud, hosts have no address; neither heat_stack_info nor the
inventory then calls the cloud).  Each round is one ``ansible-playbook`` run
of a ping task and a heat_stack_info task (their order alternating from round
to round), their times taken by a callback (bench/readonly/callbacks/task_times.py)
from each task's start to its result, then one inventory parse in a fresh
process (bench/readonly/parse_inventory.py).  The machine may be shared, so
what is compared is the ratio within a round; the table gives the median and
the spread of the ratios over the rounds.

    .venv/bin/python bench/readonly_bench.py [--rounds N]
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import conftest  # noqa: E402,F401  (makes ansible_collections.stackers.orchestration importable)

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store  # noqa: E402

VENV_BIN = os.path.join(ROOT, '.venv', 'bin')
HERE = os.path.join(ROOT, 'bench', 'readonly')
RESULTS = os.path.join(ROOT, 'bench', 'results', 'readonly.json')
STACK = 'bench'
SERVERS = 3
TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  pw: {type: string, hidden: true, default: bench-secret}
resources:
  word: {type: OS::Heat::RandomString, properties: {length: 12}}
  value: {type: OS::Heat::Value, properties: {value: {get_attr: [word, value]}}}
  nothing: {type: OS::Heat::None}
outputs:
  word: {value: {get_attr: [value, value]}}
'''
PLAY = '''- hosts: localhost
  gather_facts: false
  tasks:
%s
'''
TASKS = {
    'ping': '    - name: ping\n      ansible.builtin.ping:\n',
    'info': ('    - name: info\n      stackers.orchestration.heat_stack_info:\n'
             '        store_path: %(store)s\n        name: %(stack)s\n'),
}


def make_store(work):
    """The store: the stack run by the engine, then its servers' rows."""
    template = os.path.join(work, 'bench.yaml')
    with open(template, 'w') as f:
        f.write(TEMPLATE)
    store_path = os.path.join(work, 'stacks.sqlite')
    runner.run(runner.StackRequest(STACK, template=template, store_path=store_path), None)
    store = Store(store_path)
    try:
        stack = store.get_stack(STACK)
        for i in range(SERVERS):
            store.save_resource(ResourceRow(
                uuid=str(uuid.uuid4()), name='server%d' % i, stack_id=stack['id'], type='OS::Nova::Server',
                physical_id=str(uuid.uuid4()), action='CREATE', status='COMPLETE',
                status_reason='state changed', properties={}, data={}))
    finally:
        store.close()
    return store_path


def environment(times_file):
    env = dict(os.environ)
    env.update(PATH=VENV_BIN + os.pathsep + env.get('PATH', ''), ANSIBLE_CONFIG=os.path.join(ROOT, 'ansible.cfg'),
               ANSIBLE_CALLBACK_PLUGINS=os.path.join(HERE, 'callbacks'), ANSIBLE_CALLBACKS_ENABLED='task_times',
               ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED='true', READONLY_BENCH_TIMES=times_file,
               PYTHONWARNINGS='ignore')
    return env


def play_round(work, store_path, order):
    """{task: seconds} of one ansible-playbook run of the tasks in ``order``."""
    playbook = os.path.join(work, 'play.yml')
    with open(playbook, 'w') as f:
        f.write(PLAY % ''.join(TASKS[t] % {'store': store_path, 'stack': STACK} for t in order))
    times_file = os.path.join(work, 'times.json')
    subprocess.run([os.path.join(VENV_BIN, 'ansible-playbook'), '-i', 'localhost,', '-c', 'local',
                    '-e', 'ansible_python_interpreter=%s' % os.path.join(VENV_BIN, 'python'), playbook], cwd=ROOT,
                   env=environment(times_file), check=True, stdout=subprocess.DEVNULL)
    with open(times_file) as f:
        found = json.load(f)
    failed = [t for t in found if not t['ok']]
    if failed:
        raise SystemExit('readonly_bench: a task failed: %s' % failed)
    return dict((t['task'], t['seconds']) for t in found)


def parse_inventory(work, store_path):
    source = os.path.join(work, 'bench.heat_stacks.yml')
    with open(source, 'w') as f:
        f.write('plugin: stackers.orchestration.heat_stacks\nstore_path: %s\n' % store_path)
    out = subprocess.run([os.path.join(VENV_BIN, 'python'), os.path.join(HERE, 'parse_inventory.py'), source],
                         cwd=ROOT, env=environment(os.devnull), check=True, capture_output=True, text=True)
    parsed = json.loads(out.stdout.strip().splitlines()[-1])
    if parsed['hosts'] != SERVERS:
        raise SystemExit('readonly_bench: the inventory has %s hosts, not %d' % (parsed['hosts'], SERVERS))
    return parsed['seconds']


def spread(values):
    return '%.2f (%.2f-%.2f)' % (statistics.median(values), min(values), max(values))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    args = parser.parse_args(argv)
    rounds = []
    with tempfile.TemporaryDirectory(prefix='readonly-bench-') as work:
        store_path = make_store(work)
        for i in range(args.rounds):
            order = ('ping', 'info') if i % 2 == 0 else ('info', 'ping')
            times = play_round(work, store_path, order)
            times['inventory'] = parse_inventory(work, store_path)
            rounds.append(times)
            print('round %d: ping %.2f s, heat_stack_info %.2f s, inventory parse %.2f s'
                  % (i + 1, times['ping'], times['info'], times['inventory']))
    info_ratio = [r['info'] / r['ping'] for r in rounds]
    inventory_ratio = [r['inventory'] / r['ping'] for r in rounds]
    print()
    print('| %d rounds: median (min-max) | seconds | ratio to ping |' % len(rounds))
    print('|---|---|---|')
    print('| ansible.builtin.ping task | %s | 1 |' % spread([r['ping'] for r in rounds]))
    print('| heat_stack_info task (SQLite store) | %s | %s |' % (spread([r['info'] for r in rounds]),
                                                              spread(info_ratio)))
    print('| heat_stacks inventory parse (SQLite store, %d hosts) | %s | %s |'
          % (SERVERS, spread([r['inventory'] for r in rounds]), spread(inventory_ratio)))
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, 'w') as f:
        json.dump({'rounds': rounds, 'info_ratio': info_ratio, 'inventory_ratio': inventory_ratio}, f, indent=1)


if __name__ == '__main__':
    main()
