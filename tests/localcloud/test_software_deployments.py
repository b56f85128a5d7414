# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Software deployments through real heat-agents, in real ansible-playbook runs of heat_stack.

The session's cloud with guests (conftest.py's guests_cloud): each server (user_data_format SOFTWARE_CONFIG, our default
POLL_TEMP_URL) runs the real os-collect-config, which reads the server's deployments document
through its GET TempURL, runs the real heat-config `script` hook and PUTs the result with
heat-config-notify to the deployment's TempURL (our default TEMP_URL_SIGNAL).  One script config
with inputs (one of them a hidden parameter) and two declared outputs is deployed to two servers:

- the outputs reach the stack outputs, deploy_action CREATE;
- a rerun with no change writes nothing;
- an input change runs it again with deploy_action UPDATE;
- a non-zero exit fails it with Heat's reason;
- delete runs the DELETE action (``actions`` asks for it: the script tells a local sink) and
  leaves nothing in Swift or the cloud;
- the hidden input is never in the results, the events or the store in clear, but is in the
  document the guest reads (Heat's contract);
- beside them, an ``ansible`` group config (a playbook) deployed to the second server runs through
  heat-agents' real ansible hook (hook-ansible.py, with the .venv's ansible-playbook as its
  install.d's ``install-packages ansible``): its output and deploy_action reach the stack outputs.

A SoftwareDeploymentGroup of three servers: its deploy_stdouts and an output's map reach the stack
outputs; an input change under rolling_update max_batch_size 1 updates one member after another;
delete leaves nothing.

The same template through the role instead of agents (playbooks/deploy.yml): the servers' images have no
agent (their user data removes Heat's metadata before an agent could read it), the role applies the
deployments over a local connection in a root directory per host, and the stack's outputs are the agent
run's; a second run re-signals nothing.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT, wait_for  # noqa: E402
from localcloud.playbook import StackRunner, outputs, write_calls  # noqa: E402

SECRET = 'pa55-hunter2-w0rd'

TEMPLATE = """
heat_template_version: 2018-08-31
parameters:
  who: {type: string, default: alice}
  fail: {type: string, default: '0'}
  sink: {type: string}
  secret: {type: string, hidden: true}
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.31.0.0/24}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: who}, {name: fail}, {name: sink}, {name: secret}]
      outputs: [{name: greeting}, {name: action}]
      config: |
        #!/bin/sh
        echo "hello $who from $deploy_action"
        printf "hello $who" > $heat_outputs_path.greeting
        printf "$deploy_action" > $heat_outputs_path.action
        [ "${#secret}" = %(length)d ] || { echo "the secret did not arrive" >&2; exit 9; }
        if [ "$deploy_action" = DELETE ]; then
          /usr/bin/curl -s -X PUT "$sink/deleted-$deploy_resource_name" --data-binary "$deploy_server_id"
        fi
        if [ "$fail" != 0 ] && [ "$deploy_action" != DELETE ]; then
          echo "failing on purpose" >&2; exit $fail
        fi
  server1:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG
  server2:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG
      software_config_transport: POLL_TEMP_URL
  deploy1:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server1}
      actions: [CREATE, UPDATE, DELETE]
      input_values: &values
        who: {get_param: who}
        fail: {get_param: fail}
        sink: {get_param: sink}
        secret: {get_param: secret}
  deploy2:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server2}
      signal_transport: TEMP_URL_SIGNAL
      input_values: *values
outputs:
  greeting1: {value: {get_attr: [deploy1, greeting]}}
  greeting2: {value: {get_attr: [deploy2, greeting]}}
  action1: {value: {get_attr: [deploy1, action]}}
  action2: {value: {get_attr: [deploy2, action]}}
  stdout1: {value: {get_attr: [deploy1, deploy_stdout]}}
  code2: {value: {get_attr: [deploy2, deploy_status_code]}}
  stderr1: {value: {get_attr: [deploy1, deploy_stderr]}}
""" % {'length': len(SECRET)}


# An `ansible` group deployment beside the script ones, on server2 (added for the agents' run only: the
# role's run keeps one deployment per host).  Its input does not follow `who`, so later runs keep it.
ANSIBLE_PART = """
  ansible_config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: ansible
      inputs: [{name: who}]
      outputs: [{name: result}]
      config: |
        - hosts: localhost
          connection: local
          gather_facts: false
          vars: {ansible_python_interpreter: "{{ ansible_playbook_python }}"}
          tasks:
            - name: The output, where the hook reads it
              ansible.builtin.copy:
                content: "{{ who }} via ansible, {{ deploy_action }}"
                dest: "{{ heat_outputs_path }}.result"
                mode: "0600"
  deploy_ansible:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: ansible_config}
      server: {get_resource: server2}
      input_values: {who: carol}
outputs:
  ansible_result: {value: {get_attr: [deploy_ansible, result]}}
  ansible_code: {value: {get_attr: [deploy_ansible, deploy_status_code]}}
"""


def _agent_template():
    return TEMPLATE.replace('\noutputs:\n', ANSIBLE_PART, 1)


@pytest.fixture(scope='module')
def gcloud(guests_cloud):
    """The session's cloud with guests; what it held before this module's tests is the baseline."""
    guests_cloud.baseline = guests_cloud.resources()
    return guests_cloud


def _names(objects):
    return sorted((o['container'], o['name']) for o in objects)


def _swift(cloud):
    res = cloud.resources()
    return sorted(c['name'] for c in res.get('containers', ())), res.get('objects', ())


def _document_holding_secret(cloud):
    conn = cloud.sdk()
    for container in conn.object_store.containers():
        for obj in conn.object_store.objects(container.name):
            body = conn.object_store.download_object(obj.name, container=container.name)
            if b'"deployments"' in body and SECRET.encode() in body:
                return json.loads(body)
    return None


def test_script_deployments_through_real_heat_agents(gcloud, sink, tmp_path):
    store = str(tmp_path / 'stacks.sqlite')
    runner = StackRunner(gcloud, tmp_path, store)
    template = tmp_path / 'deploy.yaml'
    template.write_text(_agent_template())
    params = {'sink': sink.url, 'secret': SECRET}
    args = dict(name='deploys', template=str(template), timeout=600)

    created = runner.run(parameters=params, **args)
    stack = created['stack']
    assert stack['stack_status'] == 'CREATE_COMPLETE', (stack['stack_status_reason'],
                                                        outputs(created))
    out = outputs(created)
    assert out['greeting1'] == out['greeting2'] == 'hello alice'
    assert out['action1'] == out['action2'] == 'CREATE'
    assert out['stdout1'] == 'hello alice from CREATE\n'
    assert out['code2'] == 0
    # heat-agents' ansible hook ran the playbook with the inputs as its variables
    assert (out['ansible_result'], out['ansible_code']) == ('carol via ansible, CREATE', 0)
    # the guest's document holds the hidden value in clear: the agent must read it
    document = _document_holding_secret(gcloud)
    assert document is not None and document['os-collect-config']['collectors'] == [
        'ec2', 'request', 'local']

    gcloud.reset_stats()
    again = runner.run(parameters=params, **args)
    assert again['changed'] is False
    assert write_calls(gcloud.stats()) == {}

    updated = runner.run(parameters=dict(params, who='bob'), **args)
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', updated['stack']['stack_status_reason']
    out = outputs(updated)
    assert out['greeting1'] == out['greeting2'] == 'hello bob'
    assert out['action1'] == out['action2'] == 'UPDATE'

    failed = runner.run(parameters=dict(params, fail='3'), **args)
    assert failed.get('failed') is True
    assert failed['stack']['stack_status'] == 'UPDATE_FAILED'
    reason = failed['stack']['stack_status_reason']
    assert ('Deployment to server failed: deploy_status_code : Deployment exited with non-zero '
            'status code: 3') in reason, reason

    # the failed deployments are replaced (Heat's rule for FAILED resources): deploy1's old one
    # runs its DELETE action with its own (failing) values, which the script lets pass
    back = runner.run(parameters=params, **args)
    assert back['stack']['stack_status'] == 'UPDATE_COMPLETE', back['stack']['stack_status_reason']
    assert outputs(back)['action1'] == 'CREATE'

    everything = json.dumps([created, again, updated, failed, back])
    assert SECRET not in everything
    with open(store, 'rb') as f:
        assert SECRET.encode() not in f.read()

    sink.got.clear()
    gone = runner.run(name='deploys', state='absent')
    assert gone.get('failed') is not True, gone.get('msg')
    # deploy1's actions ask for DELETE: its script ran before the deployment went
    assert sink.got.get('/deleted-deploy1'), sink.got
    assert '/deleted-deploy2' not in sink.got
    assert SECRET not in json.dumps(gone)
    containers, objects = _swift(gcloud)
    assert containers == sorted(c['name'] for c in gcloud.baseline.get('containers', ()))
    # the guests' cloud is shared: what other modules left there is in the baseline
    assert _names(objects) == _names(gcloud.baseline.get('objects', ()))
    assert len(gcloud.resources().get('servers', ())) == len(gcloud.baseline.get('servers', ()))


# The servers are made one after another: three guests spawned at the same instant once lost one to
# Nova's "No valid host was found" on this 2-core cloud (the group's deployments still start together).
GROUP_TEMPLATE = """
heat_template_version: 2018-08-31
parameters:
  who: {type: string, default: alice}
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.32.0.0/24}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: who}]
      outputs: [{name: greeting}]
      config: |
        #!/bin/sh
        echo "hello $who on $deploy_resource_name"
        printf "hello $who" > $heat_outputs_path.greeting
%(servers)s
  deploys:
    type: OS::Heat::SoftwareDeploymentGroup
    update_policy: {rolling_update: {max_batch_size: 1}}
    properties:
      config: {get_resource: config}
      input_values: {who: {get_param: who}}
      servers: {%(map)s}
outputs:
  stdouts: {value: {get_attr: [deploys, deploy_stdouts]}}
  greetings: {value: {get_attr: [deploys, greeting]}}
  codes: {value: {get_attr: [deploys, deploy_status_codes]}}
""" % {'servers': ''.join("""
  server%d:
    type: OS::Nova::Server
    depends_on: %s
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG""" % (i, prev) for i, prev in (
    (1, 'subnet'), (2, 'server1'), (3, 'server2'))),
       'map': ', '.join('s%d: {get_resource: server%d}' % (i, i) for i in (1, 2, 3))}


def _member_updates(result):
    """(member, status) of the group's members' UPDATE events, in the order they happened."""
    return [(e['resource_name'], e['resource_status']) for e in result['events']
            if e['resource_name'] in ('s1', 's2', 's3') and e['resource_status'].startswith('UPDATE_')]


def test_a_deployment_group_through_real_heat_agents_updates_in_rolling_batches(gcloud, tmp_path):
    runner = StackRunner(gcloud, tmp_path, str(tmp_path / 'stacks.sqlite'))
    template = tmp_path / 'group.yaml'
    template.write_text(GROUP_TEMPLATE)
    args = dict(name='deploygroup', template=str(template), timeout=300)

    created = runner.run(**args)
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE', (
        created['stack']['stack_status_reason'], outputs(created))
    out = outputs(created)
    assert out['stdouts'] == dict(('s%d' % i, 'hello alice on s%d\n' % i) for i in (1, 2, 3))
    assert out['greetings'] == {'s1': 'hello alice', 's2': 'hello alice', 's3': 'hello alice'}
    assert out['codes'] == {'s1': 0, 's2': 0, 's3': 0}

    updated = runner.run(parameters={'who': 'bob'}, **args)
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', (
        updated['stack']['stack_status_reason'])
    assert outputs(updated)['greetings'] == {'s1': 'hello bob', 's2': 'hello bob', 's3': 'hello bob'}
    # max_batch_size 1: each member's update ends before the next one's starts, last key first
    assert _member_updates(updated) == [
        ('s3', 'UPDATE_IN_PROGRESS'), ('s3', 'UPDATE_COMPLETE'),
        ('s2', 'UPDATE_IN_PROGRESS'), ('s2', 'UPDATE_COMPLETE'),
        ('s1', 'UPDATE_IN_PROGRESS'), ('s1', 'UPDATE_COMPLETE')], updated['events']

    gone = runner.run(name='deploygroup', state='absent')
    assert gone.get('failed') is not True, gone.get('msg')
    containers, objects = _swift(gcloud)
    assert containers == sorted(c['name'] for c in gcloud.baseline.get('containers', ()))
    assert _names(objects) == _names(gcloud.baseline.get('objects', ()))
    assert len(gcloud.resources().get('servers', ())) == len(gcloud.baseline.get('servers', ()))


# An image without the agent: its user data removes the metadata Heat wrote before anything reads it, so
# the deployments stay pending until the role applies them.
NO_AGENT = """#!/bin/sh
rm -f "$LOCALCLOUD_GUEST_ROOT/var/lib/heat-cfntools/cfn-init-data"
"""

# what the role applies from outside, in a root directory per host over a local connection
INVENTORY = """
plugin: stackers.orchestration.heat_stacks
cloud: localcloud
store_path: %(store)s
stacks: [roled]
compose:
  ansible_connection: "'local'"
  ansible_python_interpreter: "'%(python)s'"
  software_deployment_root: "'%(hosts)s/' ~ heat_resource"
"""


def _role_template():
    # no DELETE action: nothing would apply it while the stack is deleted
    text = TEMPLATE.replace('actions: [CREATE, UPDATE, DELETE]', 'actions: [CREATE, UPDATE]')
    return text.replace('      user_data_format: SOFTWARE_CONFIG\n',
                        '      user_data_format: SOFTWARE_CONFIG\n      user_data: {get_param: no_agent}\n')


def _deploy_playbook(gcloud, tmp_path, store, verbose=False, job=False):
    """deploy.yml's run, or with ``job`` the same through the role stackers.orchestration.stack
    (stack_job.yml, an AWX job template's playbook: stack_deploy auto finds the deployments)."""
    extra = tmp_path / ('job-vars.json' if job else 'deploy-vars.json')
    parameters = {'sink': 'http://127.0.0.1:9/unused', 'secret': SECRET, 'no_agent': NO_AGENT}
    if job:
        extra.write_text(json.dumps({
            'stack_name': 'roled', 'stack_template': str(tmp_path / 'roled.yaml'), 'stack_cloud': 'localcloud',
            'stack_store_path': store, 'stack_timeout': 300, 'stack_parameters': parameters}))
    else:
        extra.write_text(json.dumps({
            'heat_stack_name': 'roled', 'heat_template': str(tmp_path / 'roled.yaml'), 'heat_cloud': 'localcloud',
            'heat_store_path': store, 'heat_timeout': 300, 'heat_parameters': parameters}))
    playbook = os.path.join(ROOT, 'playbooks', 'stack_job.yml' if job else 'deploy.yml')
    cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), '-i', str(tmp_path / 'roled.heat_stacks.yml'),
           playbook, '-e', '@%s' % extra] + (['-vvv'] if verbose else [])
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=gcloud.clouds_yaml, ANSIBLE_NOCOLOR='1')
    env.pop('OS_CLOUD', None)
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=400,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    return proc.stdout + proc.stderr


def test_the_same_deployments_through_the_role_without_agents(gcloud, tmp_path):
    store = str(tmp_path / 'stacks.sqlite')
    (tmp_path / 'roled.yaml').write_text(_role_template().replace(
        'parameters:\n', 'parameters:\n  no_agent: {type: string}\n', 1))
    (tmp_path / 'roled.heat_stacks.yml').write_text(INVENTORY % {
        'store': store, 'python': os.path.join(ROOT, '.venv', 'bin', 'python'), 'hosts': tmp_path / 'hosts'})

    # the first run through the role stack (the AWX job template's playbook), the rerun through deploy.yml
    log = _deploy_playbook(gcloud, tmp_path, store, job=True)
    info = StackRunner(gcloud, tmp_path, store, module='heat_stack_info').run(name='roled')
    assert info['stack']['stack_status'] == 'CREATE_COMPLETE', info['stack']['stack_status_reason']
    out = outputs(info)
    # the agent run's outputs
    assert out['greeting1'] == out['greeting2'] == 'hello alice'
    assert out['action1'] == out['action2'] == 'CREATE'
    assert out['stdout1'] == 'hello alice from CREATE\n'
    assert out['code2'] == 0
    assert '"stdout1": "hello alice from CREATE\\n"' in log
    # each host's work is under its own root, recorded as the agent records it
    for server in ('server1', 'server2'):
        records = list((tmp_path / 'hosts' / server / 'var/lib/heat-config/deployed').iterdir())
        assert len(records) == 1 and SECRET not in records[0].read_text()
    assert SECRET not in log

    # again: every deployment is applied already, nothing is signalled, the cloud sees no write
    gcloud.reset_stats()
    log = _deploy_playbook(gcloud, tmp_path, store, verbose=True)
    assert write_calls(gcloud.stats()) == {}
    assert '"applied": false' in log and '"applied": true' not in log
    assert SECRET not in log, log[max(0, log.find(SECRET) - 3000):log.find(SECRET) + 200]

    gone = StackRunner(gcloud, tmp_path, store).run(name='roled', state='absent')
    assert gone.get('failed') is not True, gone.get('msg')
    containers, objects = _swift(gcloud)
    assert containers == sorted(c['name'] for c in gcloud.baseline.get('containers', ()))
    assert _names(objects) == _names(gcloud.baseline.get('objects', ()))
    assert len(gcloud.resources().get('servers', ())) == len(gcloud.baseline.get('servers', ()))
