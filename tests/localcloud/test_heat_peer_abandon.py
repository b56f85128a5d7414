# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""--with-heat: a stack made by heat_stack, abandoned (state: abandoned) and adopted by the
local cloud's real Heat from that data, with no cloud object made or deleted by the move."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json

from localcloud.harness import ids, wait_for
from localcloud.playbook import StackRunner

PORT = """heat_template_version: 2018-08-31
parameters:
  network: {type: string}
resources:
  port:
    type: OS::Neutron::Port
    properties: {network: {get_param: network}}
outputs:
  port_id: {value: {get_resource: port}}
"""

TEMPLATE = """heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  sub:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.61.0.0/24}
  secret: {type: OS::Heat::RandomString, properties: {length: 16}}
  held:
    type: port.yaml
    depends_on: sub
    properties: {network: {get_resource: net}}
"""


def test_abandoned_stack_adopted_by_heat(cloud, tmp_path):
    (tmp_path / 'port.yaml').write_text(PORT)
    template = tmp_path / 'top.yaml'
    template.write_text(TEMPLATE)
    runner = StackRunner(cloud, tmp_path, tmp_path / 'store.sqlite')
    made = runner.run(name='moved', template=str(template))
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE'
    before = _objects(cloud)
    try:
        checked = runner.run(check=True, name='moved', state='abandoned')
        assert checked['changed'] and checked['abandon_data']['name'] == 'moved'
        # openstack stack export: heat_stack_info's export answers the same, removes nothing
        info = StackRunner(cloud, tmp_path, tmp_path / 'store.sqlite', module='heat_stack_info')
        exported = info.run(name='moved', export=True)
        assert exported['changed'] is False and exported['abandon_data'] == checked['abandon_data']
        assert info.run(name='moved')['stack']['stack_status'] == 'CREATE_COMPLETE'
        result = runner.run(name='moved', state='abandoned')
        assert result['changed'] is True
        data = result['abandon_data']
        assert data == checked['abandon_data']
        assert runner.run(name='moved', state='abandoned')['changed'] is False
        adopt_file = tmp_path / 'moved.json'
        adopt_file.write_text(json.dumps(data))
        cloud.osc('stack', 'adopt', '--adopt-file', str(adopt_file), 'moved', '--wait', timeout=400)
        stack = cloud.osc('stack', 'show', 'moved', as_json=True)
        assert stack['stack_status'] == 'ADOPT_COMPLETE', stack['stack_status_reason']
        resources = cloud.osc('stack', 'resource', 'list', 'moved', '--nested-depth', '1',
                              as_json=True)
        physical = dict((r['resource_name'], r['physical_resource_id']) for r in resources)
        assert physical['net'] == data['resources']['net']['resource_id']
        assert physical['sub'] == data['resources']['sub']['resource_id']
        assert physical['port'] == data['resources']['held']['resources']['port']['resource_id']
        # nothing was made or deleted by the move (Heat's own stack record aside)
        assert _objects(cloud) == before
        # Heat manages it now: an update, then the delete of everything
        cloud.osc('stack', 'update', '--existing', 'moved', '--wait', timeout=400)
        assert cloud.osc('stack', 'show', 'moved', as_json=True)['stack_status'] == 'UPDATE_COMPLETE'
    finally:
        cloud.osc('stack', 'delete', 'moved', '--yes', '--wait', timeout=400, check=False)
    cloud.wait_no_stacks()
    wait_for(lambda: ids(cloud.resources()) == ids(cloud.baseline), timeout=120,
             what="the adopted stack's resources to be gone")


def _objects(cloud):
    """The cloud's objects, without Heat's stack records (the adopted stack is one)."""
    return dict((kind, found) for kind, found in ids(cloud.resources()).items() if kind != 'stacks')
