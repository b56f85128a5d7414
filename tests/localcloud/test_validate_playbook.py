# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_template_validate in a real ansible-playbook run against the local cloud: service-backed
custom constraints (nova.flavor, glance.image, neutron.network) are asked of the real services."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
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
