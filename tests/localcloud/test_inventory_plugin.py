# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The heat_stacks inventory plugin (issue 15, item 3) over a real stack: multi_tier.yaml's two
servers, each with a floating IP, made by heat_stack in ansible-playbook; `ansible-inventory --list`
and `--graph` show them with their floating addresses and groups, and a play over that inventory
with a local connection reaches every host (the addresses are the local cloud's fake ones: never
connected to). With `hostnames: [resource, ...]` the hosts are named by their resources.
The plugin documents only the options it uses."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess

from localcloud.harness import ROOT
from localcloud.playbook import StackRunner

MULTI_TIER = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'multi_tier.yaml')
BIN = os.path.join(ROOT, '.venv', 'bin')


def _plain(value):
    """ansible-inventory's JSON with its trust markers (strings from a plugin are unsafe) taken off."""
    if isinstance(value, dict):
        if set(value) == {'__ansible_unsafe'}:
            return value['__ansible_unsafe']
        return dict((k, _plain(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _run(cmd, env):
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout


def test_the_stacks_servers_are_hosts_with_their_floating_ips(cloud, tmp_path):
    store = str(tmp_path / 'stacks.sqlite')
    runner = StackRunner(cloud, tmp_path, store)
    created = runner.run(name='inv', template=MULTI_TIER)
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE'
    try:
        source = tmp_path / 'demo.heat_stacks.yml'
        source.write_text('plugin: stackers.orchestration.heat_stacks\ncloud: localcloud\n'
                          'store_path: %s\nstacks: [inv]\n'
                          'compose:\n  ansible_connection: "\'local\'"\n'
                          '  ansible_python_interpreter: "\'%s\'"\n'
                          'keyed_groups:\n  - key: heat_metadata.tier\n    prefix: tier\n'
                          % (store, os.path.join(BIN, 'python')))
        env = runner.env()
        listed = _plain(json.loads(_run([os.path.join(BIN, 'ansible-inventory'), '-i', str(source), '--list'], env)))
        hostvars = listed['_meta']['hostvars']
        assert len(hostvars) == 2, hostvars
        public = [o['output_value'] for o in created['stack']['outputs'] if o['output_key'] == 'public_ips'][0]
        assert sorted(v['ansible_host'] for v in hostvars.values()) == sorted(public), (public, hostvars)
        for name, hv in hostvars.items():
            assert hv['heat_stack'] == 'inv' and hv['heat_server_id'] and hv['heat_server_status'] == 'ACTIVE'
            assert {a['type'] for a in hv['heat_addresses']} == {'fixed', 'floating'}
        assert sorted(listed['heat_inv']['hosts']) == sorted(hostvars)
        assert sorted(listed['tier_web']['hosts']) == sorted(hostvars)
        assert sorted(listed['heat_meta_tier_web']['hosts']) == sorted(hostvars)
        graph = _run([os.path.join(BIN, 'ansible-inventory'), '-i', str(source), '--graph'], env)
        assert '@heat_inv:' in graph and all(name in graph for name in hostvars)
        # named by Nova by default; by resource with hostnames
        assert sorted(hv['heat_server_name'] for hv in hostvars.values()) == sorted(hostvars)
        by_resource = tmp_path / 'byres.heat_stacks.yml'
        by_resource.write_text('plugin: stackers.orchestration.heat_stacks\ncloud: localcloud\n'
                               'store_path: %s\nstacks: [inv]\nhostnames: [resource, stack_resource]\n' % store)
        renamed = _plain(json.loads(_run([os.path.join(BIN, 'ansible-inventory'), '-i', str(by_resource),
                                          '--list'], env)))
        assert sorted(renamed['_meta']['hostvars']) == ['server1', 'server2']
        assert renamed['_meta']['hostvars']['server1']['heat_resource_path'] == 'server1'

        play = tmp_path / 'reach.yml'
        play.write_text('- hosts: heat_inv\n  gather_facts: false\n  tasks:\n'
                        '    - ansible.builtin.command: echo {{ inventory_hostname }} {{ ansible_host }}\n'
                        '      changed_when: false\n')
        out = _run([os.path.join(BIN, 'ansible-playbook'), '-i', str(source), str(play)], env)
        for name in hostvars:
            assert 'ok: [%s]' % name in out
        assert 'unreachable=0' in out and 'failed=1' not in out
    finally:
        runner.run(name='inv', state='absent')
