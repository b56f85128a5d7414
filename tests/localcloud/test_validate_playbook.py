# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_template_validate in a real ansible-playbook run against the local cloud: service-backed
custom constraints (nova.flavor, glance.image, neutron.network) are asked of the real services; and
playbooks/validate.yml, strict by default, refuses what only stack create would have refused."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import json
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT  # noqa: E402

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  flavor:
    type: string
    constraints: [{custom_constraint: nova.flavor}]
  image:
    type: string
    constraints: [{custom_constraint: glance.image}]
  network:
    type: string
    constraints: [{custom_constraint: neutron.network}]
resources:
  choice:
    type: OS::Heat::Value
    properties:
      value: {list_join: ['/', [{get_param: flavor}, {get_param: image}, {get_param: network}]]}
"""

PLAYBOOK = """
- name: Validate against the local cloud
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Values that exist in the cloud
      stackers.orchestration.heat_template_validate:
        cloud: localcloud
        strict: true
        template: "{{ playbook_dir }}/template.yaml"
        parameters: {flavor: m1.tiny, image: cirros, network: public}
      register: good

    - name: A flavor the cloud does not have
      stackers.orchestration.heat_template_validate:
        cloud: localcloud
        strict: true
        template: "{{ playbook_dir }}/template.yaml"
        parameters: {flavor: m1.nope, image: cirros, network: public}
      register: bad
      ignore_errors: true

    - name: Without a cloud the same constraints are reported as not checked
      stackers.orchestration.heat_template_validate:
        strict: true
        template: "{{ playbook_dir }}/template.yaml"
        parameters: {flavor: m1.nope, image: cirros, network: public}
      register: offline

    - name: Check what each run said
      ansible.builtin.assert:
        that:
          - good is succeeded
          - good.not_checked == []
          - good.Parameters.flavor.Value == 'm1.tiny'
          - bad is failed
          - "'m1.nope' in bad.msg and 'could not be found' in bad.msg"
          - offline is succeeded
          - offline.not_checked | map(attribute='constraint') | sort == ['glance.image', 'neutron.network', 'nova.flavor']
"""


def test_service_constraints_are_checked_in_the_cloud(cloud, tmp_path):
    (tmp_path / 'template.yaml').write_text(TEMPLATE)
    (tmp_path / 'validate.yml').write_text(PLAYBOOK)
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, ANSIBLE_NOCOLOR='1')
    env.pop('OS_CLOUD', None)
    run = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), str(tmp_path / 'validate.yml')],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert 'failed=0' in run.stdout


NEWCOMER = """heat_template_version: 2021-04-16
parameters:
  volume_size: {type: number, default: 1}
resources:
  volume:
    type: OS::Cinder::Volume
    properties: {size: {get_param: volume_size}}
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {cidr: 10.0.0.0/24%s}
"""


def _validate_book(cloud, tmp_path, template, **variables):
    (tmp_path / 'newcomer.yaml').write_text(template)
    variables = dict({'heat_cloud': 'localcloud', 'heat_template': str(tmp_path / 'newcomer.yaml')}, **variables)
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, ANSIBLE_NOCOLOR='1',
               ANSIBLE_CALLBACK_RESULT_FORMAT='json')
    env.pop('OS_CLOUD', None)
    return subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'),
                           os.path.join(ROOT, 'playbooks', 'validate.yml'), '-e', json.dumps(variables)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def test_the_validate_playbook_refuses_what_stack_create_would(cloud, tmp_path):
    good = _validate_book(cloud, tmp_path, NEWCOMER % ', network: {get_resource: net}')
    assert good.returncode == 0, good.stdout[-4000:] + good.stderr[-2000:]
    assert '"not_checked": []' in good.stdout
    no_network = _validate_book(cloud, tmp_path, NEWCOMER % '')
    assert no_network.returncode == 2 and 'Property network not assigned' in no_network.stdout, \
        no_network.stdout[-4000:]
    big = _validate_book(cloud, tmp_path, NEWCOMER % ', network: {get_resource: net}',
                         heat_parameters={'volume_size': 'big'})
    assert big.returncode == 2 and '"big" is not a number' in big.stdout, big.stdout[-4000:]


def test_template_validate_alone_says_what_it_left_unchecked(cloud, tmp_path):
    run = _validate_book(cloud, tmp_path, NEWCOMER % '', heat_strict=False,
                         heat_parameters={'volume_size': 'big'})
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    shown = run.stdout.split('TASK [Show the template', 1)[1].split('ok: [localhost] => ', 1)[1]
    not_checked = json.JSONDecoder().raw_decode(shown)[0]['msg']['not_checked']
    assert {'parameter': 'volume_size', 'constraint': 'type'} in not_checked
    assert {'property': 'resources.subnet.properties', 'constraint': 'required'} in not_checked
