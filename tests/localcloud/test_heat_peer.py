# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""--with-heat: the real Heat drives the same local cloud through the front door."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

from localcloud.harness import ids, wait_for

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
