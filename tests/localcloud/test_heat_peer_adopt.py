# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""--with-heat: issue 35's proof of the move out of Heat (playbooks/adopt_from_heat.yml).

The bench's multi-tier stack (servers, volumes and their attachments, ports, floating IPs, a
security group, a router) with a 2-level nested stack, a ResourceGroup, an AutoScalingGroup and
its scaling policy, made by the local cloud's Heat through the openstack client (which sends
the nested templates under their file:// URLs), is moved into the store with nothing made or
deleted, then run by heat_stack from the user's own files: a rerun, a scaling signal, an update
that replaces one port, the delete.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sqlite3
import subprocess

import yaml

from localcloud.harness import ROOT, ids, wait_for
from localcloud.playbook import StackRunner

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stack_templates')


def _files(tmp_path):
    """top.yaml (multi_tier.yaml with adopt/extras.yaml), mid.yaml, leaf.yaml, env.yaml."""
    with open(os.path.join(HERE, 'multi_tier.yaml')) as f:
        top = yaml.safe_load(f)
    with open(os.path.join(HERE, 'adopt', 'extras.yaml')) as f:
        top['resources'].update(yaml.safe_load(f))
    (tmp_path / 'top.yaml').write_text(yaml.safe_dump(top, sort_keys=False))
    for name in ('mid.yaml', 'leaf.yaml', 'env.yaml'):
        with open(os.path.join(HERE, 'heat_peer', name)) as f:
            (tmp_path / name).write_text(f.read())
    return top


def _play(cloud, book, variables, check=True):
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, ANSIBLE_NOCOLOR='1',
               ANSIBLE_CALLBACK_RESULT_FORMAT='json')
    env.pop('OS_CLOUD', None)
    proc = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'),
                           os.path.join(ROOT, 'playbooks', book), '-e', json.dumps(variables)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL, check=False)
    if check:
        assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
        return proc.stdout
    return proc


def _stacks_in(store):
    db = sqlite3.connect(str(store))
    try:
        return db.execute('SELECT name FROM stacks').fetchall()
    finally:
        db.close()


def _objects(cloud):
    found = ids(cloud.resources())
    found.pop('stacks', None)       # Heat's own records: the move takes the stack out of Heat
    return found


def _cloud_writes(stats):
    return [r for r in stats['by_route'] if r.split()[0] in ('POST', 'PUT', 'PATCH', 'DELETE')
            and 'orchestration' not in r and 'identity' not in r]


def _physical(resources):
    """The cloud objects' ids among a resource list's (nested stacks' own ids left out)."""
    return sorted(r['physical_resource_id'] for r in resources
                  if r['physical_resource_id'] and '.yaml' not in r['resource_type']
                  and not r['resource_type'].startswith(('OS::Heat::ResourceGroup',
                                                         'OS::Heat::AutoScalingGroup', 'My::')))


def test_multi_tier_with_nested_and_groups_moves_out_of_heat(cloud, tmp_path):
    top = _files(tmp_path)
    names = {'heat_cloud': 'localcloud', 'heat_stack_name': 'moved',
             'heat_store_path': str(tmp_path / 'stacks.sqlite')}
    cloud.osc('stack', 'create', '-t', tmp_path / 'top.yaml', '-e', tmp_path / 'env.yaml', 'moved',
              '--wait', timeout=400)
    try:
        shown = cloud.osc('stack', 'show', 'moved', as_json=True)
        assert shown['stack_status'] == 'CREATE_COMPLETE', shown['stack_status_reason']
        in_heat = _physical(cloud.osc('stack', 'resource', 'list', 'moved', '-n', '5', as_json=True))
        before = _objects(cloud)
        cloud.reset_stats()
        out = _play(cloud, 'adopt_from_heat.yml', names)
        assert '"unchanged": true' in out, out[-4000:]
        assert _cloud_writes(cloud.stats()) == []
        assert _objects(cloud) == before
        assert cloud.osc('stack', 'list', '--nested', as_json=True) == []
    finally:
        if cloud.osc('stack', 'list', as_json=True):
            cloud.osc('stack', 'delete', 'moved', '--yes', '--wait', timeout=400, check=False)

    # the user's own files (mid.yaml where Heat keeps file:///.../mid.yaml), a scale-up
    # signal, an update that replaces the spare port (to net2), the delete: one playbook
    top['resources']['spare']['properties']['network'] = {'get_resource': 'net2'}
    (tmp_path / 'top2.yaml').write_text(yaml.safe_dump(top, sort_keys=False))
    run = dict(name='moved', template=str(tmp_path / 'top.yaml'),
               environment=[str(tmp_path / 'env.yaml')])
    runner = StackRunner(cloud, tmp_path, names['heat_store_path'])
    steps = runner.run_steps([
        dict(run),
        dict(_module='heat_stack_info', name='moved', nested_depth=5),
        dict(_module='heat_resource_signal', stack='moved', resource='up'),
        dict(run, template=str(tmp_path / 'top2.yaml')),
        dict(name='moved', state='absent')])
    (rerun, writes), (info, _), (signalled, grown), (updated, replaced), (deleted, _) = steps
    assert rerun['changed'] is False and writes == {}, (rerun.get('msg'), writes)
    assert rerun['stack']['stack_status'] == 'ADOPT_COMPLETE'
    assert _physical(info['resources']) == in_heat      # the ids Heat had, every one
    assert signalled['stack']['outputs'] is not None and grown == {'POST network /v2.0/ports': 1}, \
        (signalled.get('msg'), grown)
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', updated.get('msg')
    assert replaced == {'POST network /v2.0/ports': 1, 'DELETE network /v2.0/ports/{id}': 1}, replaced
    assert deleted['stack'] is None or deleted['stack']['stack_status'] == 'DELETE_COMPLETE', \
        deleted.get('msg')
    wait_for(lambda: ids(cloud.resources()) == ids(cloud.baseline), timeout=120,
             what='the moved stack\'s resources to be gone')


def test_a_dry_run_reads_the_cloud_and_names_what_is_missing(cloud, tmp_path):
    """adopt_from_heat.yml's heat_dry_run reads each object as the adopt does: a port deleted
    behind Heat's back fails it, named; Heat and the store are left as they were."""
    conn = cloud.sdk()
    conn.orchestration.create_stack(name='drymove', template=(
        'heat_template_version: 2018-08-31\nresources:\n  net: {type: OS::Neutron::Net}\n'
        '  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}\n'))
    store = tmp_path / 'stacks.sqlite'
    try:
        wait_for(lambda: cloud.osc('stack', 'show', 'drymove', as_json=True)['stack_status']
                 == 'CREATE_COMPLETE', timeout=300, what='Heat\'s create')
        port = [r for r in cloud.osc('stack', 'resource', 'list', 'drymove', as_json=True)
                if r['resource_name'] == 'port'][0]['physical_resource_id']
        conn.network.delete_port(port)
        proc = _play(cloud, 'adopt_from_heat.yml', {'heat_cloud': 'localcloud', 'heat_dry_run': True,
                                                    'heat_stack_name': 'drymove',
                                                    'heat_store_path': str(store)}, check=False)
        assert proc.returncode != 0 and 'resources.port' in proc.stdout and port in proc.stdout, \
            proc.stdout[-3000:]
        assert not store.exists() or _stacks_in(store) == []
        assert [s['Stack Name'] for s in cloud.osc('stack', 'list', as_json=True)] == ['drymove']
    finally:
        cloud.osc('stack', 'delete', 'drymove', '--yes', '--wait', timeout=400, check=False)
        conn.close()
