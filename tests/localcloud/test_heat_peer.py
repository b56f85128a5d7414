# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""--with-heat: the real Heat drives the same local cloud through the front door."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sqlite3
import subprocess


from localcloud.harness import ROOT, ids, wait_for

TEMPLATE = """
heat_template_version: 2018-08-31
parameters:
  cidr: {type: string, default: 10.60.0.0/24}
resources:
  net:
    type: OS::Neutron::Net
  sub:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: {get_param: cidr}}
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, networks: [{subnet: {get_resource: sub}}]}
  volume:
    type: OS::Cinder::Volume
    properties: {size: 1}
  attachment:
    type: OS::Cinder::VolumeAttachment
    properties: {instance_uuid: {get_resource: server}, volume_id: {get_resource: volume}}
  container:
    type: OS::Swift::Container
outputs:
  address:
    value: {get_attr: [server, first_address]}
"""


def test_heat_stack_create_and_delete(cloud, tmp_path):
    template = tmp_path / 'stack.yaml'
    template.write_text(TEMPLATE)
    cloud.reset_stats()
    try:
        # with --wait the client prints events before the result: read the stack afterwards
        cloud.osc('stack', 'create', '-t', str(template), 'peer-stack', '--wait', timeout=400)
        stack = cloud.osc('stack', 'show', 'peer-stack', as_json=True)
        assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
        address = cloud.osc('stack', 'output', 'show', 'peer-stack', 'address', as_json=True)
        assert address['output_value'].startswith('10.60.0.')
        routes = cloud.stats()['by_route']
        # Heat's own calls come through the front door like any client's
        assert routes.get('POST compute /v2.1/servers') == 1
        assert routes.get('POST network /v2.0/networks') == 1
    finally:
        cloud.osc('stack', 'delete', 'peer-stack', '--yes', '--wait', timeout=400, check=False)
    cloud.wait_no_stacks()
    wait_for(lambda: ids(cloud.resources()) == ids(cloud.baseline), timeout=120,
             what='the stack\'s resources to be gone')


def test_heat_refuses_a_key_pair_without_public_key(cloud, tmp_path):
    # The reference for heat_stack's own refusal (test_heat_stack_playbook.py): the local Nova
    # speaks 2.92+, where it generates no key pairs.
    template = tmp_path / 'kp.yaml'
    template.write_text('heat_template_version: 2021-04-16\nresources:\n'
                        '  key: {type: OS::Nova::KeyPair, properties: {name: generated-key}}\n')
    refused = cloud.osc('stack', 'create', '-t', str(template), 'kp-stack', check=False)
    assert refused.returncode != 0
    assert 'The public_key property is required by the nova API version currently used.' in \
        refused.stderr, refused.stderr
    assert cloud.osc('stack', 'list', as_json=True) == []


# A stack the real Heat makes, moved into the store by playbooks/adopt_from_heat.yml (issue 35).
ADOPT_TOP = """
heat_template_version: 2018-08-31
parameters:
  length: {type: number, default: 12}
resources:
  net:
    type: OS::Neutron::Net
  sub:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.61.0.0/24}
  port:
    type: OS::Neutron::Port
    properties: {network: {get_resource: net}, fixed_ips: [{subnet: {get_resource: sub}}]}
  secret:
    type: OS::Heat::RandomString
    properties: {length: {get_param: length}}
  inner:
    type: nested.yaml
    properties: {label: {get_attr: [secret, value]}}
outputs:
  secret: {value: {get_attr: [secret, value]}}
  inner_net: {value: {get_attr: [inner, net_id]}}
"""
ADOPT_NESTED = """
heat_template_version: 2018-08-31
parameters:
  label: {type: string}
resources:
  net:
    type: OS::Neutron::Net
outputs:
  net_id: {value: {get_resource: net}}
"""


def _play(cloud, tmp_path, book, variables, check=False):
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, ANSIBLE_NOCOLOR='1',
               ANSIBLE_CALLBACK_RESULT_FORMAT='json')
    env.pop('OS_CLOUD', None)
    cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), os.path.join(ROOT, 'playbooks', book),
           '-e', json.dumps(variables)] + (['--check'] if check else [])
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL, check=False)


def _ok(proc):
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    return proc.stdout


def test_adopt_from_heat_moves_the_stack_into_the_store(cloud, tmp_path):
    (tmp_path / 'top.yaml').write_text(ADOPT_TOP)
    (tmp_path / 'nested.yaml').write_text(ADOPT_NESTED)
    store = str(tmp_path / 'stacks.sqlite')
    names = {'heat_cloud': 'localcloud', 'heat_stack_name': 'moved', 'heat_store_path': store}
    conn = cloud.sdk()
    # made through the SDK, the template resource named as the template names it (the openstack
    # client would send it under its file:// URL)
    conn.orchestration.create_stack(name='moved', template=ADOPT_TOP,
                                    files={'nested.yaml': ADOPT_NESTED})
    try:
        wait_for(lambda: cloud.osc('stack', 'show', 'moved', as_json=True)['stack_status']
                 in ('CREATE_COMPLETE', 'CREATE_FAILED'), timeout=300, what='Heat\'s create')
        shown = cloud.osc('stack', 'show', 'moved', as_json=True)
        assert shown['stack_status'] == 'CREATE_COMPLETE', shown['stack_status_reason']
        secret = dict((o['output_key'], o['output_value']) for o in shown['outputs'])['secret']
        before = _objects(cloud)

        # a dry run leaves Heat and the store alone
        out = _ok(_play(cloud, tmp_path, 'adopt_from_heat.yml', dict(names, heat_dry_run=True)))
        assert '"dry_run": true' in out and _stack_rows(store) == {}, out[-4000:]
        assert [s['Stack Name'] for s in cloud.osc('stack', 'list', as_json=True)] == ['moved']

        cloud.reset_stats()
        out = _ok(_play(cloud, tmp_path, 'adopt_from_heat.yml', names))
        assert '"unchanged": true' in out, out[-4000:]
        assert _objects(cloud) == before
        writes = [r for r in cloud.stats()['by_route']
                  if r.split()[0] in ('POST', 'PUT', 'PATCH', 'DELETE') and 'orchestration' not in r
                  and 'identity' not in r]
        assert writes == [], writes
        assert cloud.osc('stack', 'list', as_json=True) == []   # Heat no longer lists it
        assert secret not in out
    finally:
        if cloud.osc('stack', 'list', as_json=True):
            cloud.osc('stack', 'delete', 'moved', '--yes', '--wait', timeout=400, check=False)

    stack_vars = dict(names, heat_template=str(tmp_path / 'top.yaml'))
    # the same template: nothing changes, nothing is written
    cloud.reset_stats()
    out = _ok(_play(cloud, tmp_path, 'stack.yml', stack_vars))
    assert 'ADOPT_COMPLETE' in out and '"changed": true' not in out, out[-4000:]
    writes = [r for r in cloud.stats()['by_route'] if r.split()[0] in ('POST', 'PUT', 'PATCH', 'DELETE')
              and 'identity' not in r]
    assert writes == [], writes
    assert _objects(cloud) == before

    # an update that replaces one resource (a longer string), the others kept
    out = _ok(_play(cloud, tmp_path, 'stack.yml', dict(stack_vars, heat_parameters={'length': 20})))
    assert 'UPDATE_COMPLETE' in out, out[-4000:]
    assert _objects(cloud) == before
    rows = _stack_rows(store)
    assert rows['secret'] == ('CREATE', 'COMPLETE'), rows     # the replacement's create
    assert rows['net'] == rows['port'] == ('ADOPT', 'COMPLETE'), rows

    # state absent deletes every object Heat made
    _ok(_play(cloud, tmp_path, 'delete.yml', names))
    wait_for(lambda: ids(cloud.resources()) == ids(cloud.baseline), timeout=120,
             what='the moved stack\'s resources to be gone')


def _objects(cloud):
    """The cloud's objects by kind, without Heat's own stacks (the move takes the stack out of Heat)."""
    found = ids(cloud.resources())
    found.pop('stacks', None)
    return found


def _stack_rows(store):
    """name -> (action, status) of the top stack's current rows, read from the SQLite store."""
    if not os.path.exists(store):
        return {}
    db = sqlite3.connect(store)
    try:
        stack = db.execute("SELECT id FROM stacks WHERE name='moved'").fetchone()
        if stack is None:
            return {}
        return dict((r[0], (r[1], r[2])) for r in db.execute(
            "SELECT name, action, status FROM resources WHERE stack_id=? AND role='current'", stack))
    finally:
        db.close()
