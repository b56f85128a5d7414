# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run heat_stack in a real ansible-playbook against the local cloud and hand back its result."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess

from lc_helpers import ROOT

PLAYBOOK = """
- name: One heat_stack task
  hosts: localhost
  gather_facts: false
  tasks:
    - name: The stack
      stackers.orchestration.heat_stack: "{{ stack_args }}"
      register: result
      ignore_errors: true

    - name: Hand the result to the test
      ansible.builtin.copy:
        content: "{{ result | to_json }}"
        dest: "{{ result_file }}"
        mode: '0600'
      check_mode: false
"""

WRITE_METHODS = ('POST', 'PUT', 'PATCH', 'DELETE')


def write_calls(stats):
    """{route: count} of the cloud requests that change something (auth tokens excluded)."""
    return dict((route, n) for route, n in stats['by_route'].items()
                if route.split(' ')[0] in WRITE_METHODS and '/auth/tokens' not in route)


class StackRunner(object):
    """``run(check=False, diff=False, **heat_stack_args)`` → the registered result (a dict)."""

    def __init__(self, cloud, workdir, store_path, module='heat_stack'):
        self.cloud = cloud
        self.workdir = str(workdir)
        self.store_path = str(store_path)
        self.playbook = os.path.join(self.workdir, '%s.yml' % module)
        with open(self.playbook, 'w') as f:
            f.write(PLAYBOOK.replace('stackers.orchestration.heat_stack:',
                                     'stackers.orchestration.%s:' % module))
        self.count = 0

    def command(self, check=False, diff=False, verbosity=0, **args):
        self.count += 1
        args.setdefault('cloud', 'localcloud')
        args.setdefault('store_path', self.store_path)
        tag = '%s-%d' % (os.path.basename(self.playbook)[:-4], self.count)
        result_file = os.path.join(self.workdir, 'result-%s.json' % tag)
        extra = os.path.join(self.workdir, 'vars-%s.json' % tag)
        with open(extra, 'w') as f:
            json.dump({'stack_args': args, 'result_file': result_file}, f)
        cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), self.playbook, '-e', '@' + extra]
        if check:
            cmd.append('--check')
        if diff:
            cmd.append('--diff')
        if verbosity:
            cmd.append('-' + 'v' * verbosity)
        return cmd, result_file

    def env(self):
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=self.cloud.clouds_yaml, ANSIBLE_NOCOLOR='1')
        env.pop('OS_CLOUD', None)
        return env

    def run(self, check=False, diff=False, timeout=900, verbosity=0, **args):
        """The registered result; ``self.output`` keeps what ansible-playbook printed."""
        cmd, result_file = self.command(check=check, diff=diff, verbosity=verbosity, **args)
        proc = subprocess.run(cmd, cwd=ROOT, env=self.env(), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
        self.output = proc.stdout + proc.stderr
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
        with open(result_file) as f:
            return json.load(f)

    def start(self, **args):
        """Start a run in the background: (Popen, result file)."""
        cmd, result_file = self.command(**args)
        proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                                start_new_session=True)
        return proc, result_file


def outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def plan(result):
    return dict((p['resource_name'], p['action']) for p in result['plan'])


def stack_objects(cloud, stack_id):
    """Every live cloud object carrying this stack's mark (tags or metadata)."""
    found = []
    for kind, items in cloud.resources().items():
        for item in items:
            text = json.dumps(item)
            if stack_id in text:
                found.append((kind, item.get('id') or item.get('name')))
    return found
