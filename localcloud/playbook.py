# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run heat_stack in a real ansible-playbook against the local cloud and hand back its result."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess

from localcloud.harness import ROOT

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

# The modules of the collection that take no store_path.
STORELESS = ('heat_template_validate',)
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
        return self._play(cmd, result_file, timeout)

    def _play(self, cmd, result_file, timeout):
        """Run one ansible-playbook to its end (it must succeed) and read what it wrote."""
        proc = subprocess.run(cmd, cwd=ROOT, env=self.env(), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
        self.output = proc.stdout + proc.stderr
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
        with open(result_file) as f:
            return json.load(f)

    def run_steps(self, steps, timeout=900):
        """Several heat_stack runs (``steps``: their argument dicts) in ONE ansible-playbook, each
        with the cloud's write calls it caused: [(result, {route: writes})].  One Ansible start
        instead of one per step (about 2 s of CPU each, the local-cloud tests' largest cost after
        the cloud itself).  Every step runs even when an earlier one failed, so a last
        ``state: absent`` step still cleans up; a step with ``_check``/``_diff`` true runs in check
        / diff mode, and one with ``_module`` runs that module of the collection instead of
        heat_stack.  The front door's counters are read by a lookup on
        the controller (no module process), before and after each step."""
        self.count += 1
        tag = 'steps-%d' % self.count
        playbook = os.path.join(self.workdir, '%s.yml' % tag)
        result_file = os.path.join(self.workdir, 'result-%s.json' % tag)
        extra = os.path.join(self.workdir, 'vars-%s.json' % tag)
        modes, modules = [], []
        for args in steps:
            modules.append(args.pop('_module', 'heat_stack'))
            modes.append({'check': bool(args.pop('_check', False)),
                          'diff': bool(args.pop('_diff', False))})
            args.setdefault('cloud', 'localcloud')
            if modules[-1] not in STORELESS:
                args.setdefault('store_path', self.store_path)
        with open(extra, 'w') as f:
            json.dump({'steps': steps, 'modes': modes, 'result_file': result_file,
                       'stats_url': self.cloud.url + '/_localcloud/stats'}, f)
        with open(playbook, 'w') as f:
            f.write(_steps_playbook(modules))
        cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), playbook, '-e', '@' + extra]
        got = self._play(cmd, result_file, timeout)
        return [(result, _writes_between(before, after))
                for result, before, after in zip(got['results'], got['before'], got['after'])]

    def start(self, **args):
        """Start a run in the background: (Popen, result file)."""
        cmd, result_file = self.command(**args)
        proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                                start_new_session=True)
        return proc, result_file


_STATS = "{{ lookup('ansible.builtin.url', stats_url, split_lines=false) | from_json }}"


def _steps_playbook(modules):
    tasks, count = [], len(modules)
    for i, module in enumerate(modules):
        tasks.append("""
    - name: Counters before step %(i)d
      ansible.builtin.set_fact:
        before_%(i)d: "%(stats)s"

    - name: Step %(i)d
      stackers.orchestration.%(module)s: "{{ steps[%(i)d] }}"
      check_mode: "{{ modes[%(i)d].check }}"
      diff: "{{ modes[%(i)d].diff }}"
      register: result_%(i)d
      ignore_errors: true

    - name: Counters after step %(i)d
      ansible.builtin.set_fact:
        after_%(i)d: "%(stats)s"
""" % {'i': i, 'stats': _STATS, 'module': module})
    names = lambda kind: '[%s]' % ', '.join('%s_%d' % (kind, i) for i in range(count))  # noqa: E731
    return """
- name: Several heat_stack steps
  hosts: localhost
  gather_facts: false
  tasks:%s
    - name: Hand the results to the test
      ansible.builtin.copy:
        content: "{{ {'results': %s, 'before': %s, 'after': %s} | to_json }}"
        dest: "{{ result_file }}"
        mode: '0600'
""" % (''.join(tasks), names('result'), names('before'), names('after'))


def _writes_between(before, after):
    was = write_calls(before)
    return dict((route, n - was.get(route, 0)) for route, n in write_calls(after).items()
                if n - was.get(route, 0))


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
