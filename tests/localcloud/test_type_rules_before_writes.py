# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack refuses a template that breaks a rule of a type's own validate() (Heat's, as at
stack create) before its first write, with the file, line and resource named.

Each template makes a network first in dependency order, so a rule applied late would show as
a network POST in the local cloud's counters.  tests/conformance/test_type_rules.py proves each
rule against Heat 27; this proves heat_stack applies them where it matters: before any write.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import re
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.playbook import StackRunner  # noqa: E402

FIRST = """heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
"""

# name -> (the broken resource's text, its name): the first-hour traps of issue 34.
BROKEN = {
    'volume-without-size-or-source': """
  data_vol:
    type: OS::Cinder::Volume
    properties: {name: {get_attr: [net, name]}}
""",
    'volume-size-and-two-sources': """
  data_vol:
    type: OS::Cinder::Volume
    properties: {size: 1, image: cirros, snapshot_id: snap}
""",
    'group-min-above-max': """
  asg:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: 3
      max_size: 1
      resource: {type: OS::Heat::None, properties: {net: {get_resource: net}}}
""",
    'listener-https-without-tls': """
  listener:
    type: OS::Octavia::Listener
    properties: {protocol: TERMINATED_HTTPS, protocol_port: 443, loadbalancer: lb}
""",
    'pool-app-cookie-without-name': """
  pool:
    type: OS::Octavia::Pool
    properties:
      lb_algorithm: ROUND_ROBIN
      protocol: HTTP
      loadbalancer: lb
      session_persistence: {type: APP_COOKIE}
""",
    'pool-without-listener-or-lb': """
  pool:
    type: OS::Octavia::Pool
    properties: {lb_algorithm: ROUND_ROBIN, protocol: HTTP}
""",
    'l7policy-redirect-without-pool': """
  policy:
    type: OS::Octavia::L7Policy
    properties: {action: REDIRECT_TO_POOL, listener: l1}
""",
    'subnet-without-cidr-or-pool': """
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}}
""",
    'subnet-ipv6-modes-on-ipv4': """
  subnet:
    type: OS::Neutron::Subnet
    properties:
      network: {get_resource: net}
      cidr: 10.0.0.0/24
      ipv6_address_mode: slaac
      ipv6_ra_mode: slaac
""",
    'value-specs-repeat-a-property': """
  net2:
    type: OS::Neutron::Net
    properties:
      name: net2
      value_specs: {name: again}
""",
    'random-string-below-its-minimums': """
  secret:
    type: OS::Heat::RandomString
    properties:
      length: 2
      character_classes: [{class: digits, min: 2}, {class: lettersdigits, min: 2}]
""",
    'server-without-image-or-volume': """
  server:
    type: OS::Nova::Server
    properties: {flavor: m1.tiny, networks: [{network: {get_resource: net}}]}
""",
}


@pytest.fixture(scope='module')
def refused(cloud, tmp_path_factory):
    """{case: (result, writes)} of one ansible-playbook that tries every broken template."""
    workdir = tmp_path_factory.mktemp('type-rules')
    runner = StackRunner(cloud, workdir, workdir / 'stacks.sqlite')
    steps = []
    for name, text in sorted(BROKEN.items()):
        path = workdir / ('%s.yaml' % name)
        path.write_text(FIRST + text)
        steps.append({'name': name, 'template': str(path)})
    return dict(zip(sorted(BROKEN), runner.run_steps(steps)))


@pytest.mark.parametrize('name', sorted(BROKEN))
def test_refused_before_any_write_naming_file_line_and_resource(refused, name):
    result, writes = refused[name]
    resource = re.search(r'^  (\w+):', BROKEN[name], re.M).group(1)
    assert result.get('failed') is True, result
    assert writes == {}, writes
    assert re.search(r'%s\.yaml:\d+: resources\.%s[.:]' % (re.escape(name), resource),
                     result['msg']), result['msg']
    assert result.get('changed') is False
