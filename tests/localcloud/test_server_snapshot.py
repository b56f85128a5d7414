# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""deletion_policy Snapshot of a server in real ansible-playbook runs against the local cloud's
Nova and Glance: the stack's delete asks Nova for an image of the server named after its
physical name, waits until Glance has it active, then deletes the server; the result names the
image, which the test deletes so the cloud is left as it was.

The image's data comes from the local cloud's compute itself (localcloud/drivers/nova_fake.py
uploads a small qcow2, as libvirt would after its snapshot): the test does not help."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

TEMPLATE = """heat_template_version: 2021-04-16
resources:
  server:
    type: OS::Nova::Server
    deletion_policy: Snapshot
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{allocate_network: none}]
"""


def test_a_server_deleted_with_snapshot_policy_leaves_its_image(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = str(tmp_path / 'snap.yaml')
    with open(template, 'w') as f:
        f.write(TEMPLATE)
    conn = cloud.sdk()
    kept, server_id = [], None
    try:
        made = runner.run(name='snap1', template=template)
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        server_id = [r['physical_resource_id'] for r in made['resources']][0]
        physical_name = conn.compute.get_server(server_id).name
        assert physical_name.startswith('snap1-server-')

        # bounded: an image that never becomes active fails the delete instead of hanging the test
        gone = runner.run(name='snap1', state='absent', timeout=240)
        kept = [s['image_id'] for s in gone.get('snapshots', ())]
        assert gone['stack']['stack_status'] == 'DELETE_COMPLETE', gone['stack']
        assert gone['snapshots'] == [{'resource_name': 'server', 'resource_type': 'OS::Nova::Server',
                                      'physical_resource_id': server_id, 'image_id': kept[0]}]
        # the one image of the server, made by Nova's compute (no upload by the test) under its
        # physical name; Nova makes none of a deleted server
        assert [i.id for i in conn.image.images() if i.instance_uuid == server_id] == kept
        image = conn.image.get_image(kept[0])
        assert (image.name, image.status, image.instance_uuid) == (physical_name, 'active', server_id)
        assert conn.compute.find_server(server_id) is None
        # Heat's DELETE_COMPLETE event of the server, its shape unchanged
        done = [e for e in gone['events'] if e['resource_name'] == 'server'][-1]
        assert (done['resource_status'], done['physical_resource_id']) == ('DELETE_COMPLETE', server_id)
        assert kept[0] not in str(done)
    finally:
        for image_id in set(kept) | set(i.id for i in conn.image.images()
                                        if server_id and i.instance_uuid == server_id):
            conn.image.delete_image(image_id, ignore_missing=True)
        conn.close()
    assert ids(cloud.resources()) == before


def test_server_image_create_waits_until_active(cloud):
    """`openstack server image create --wait` ends active: the compute uploads the image's data
    itself, through the task states image_pending_upload and image_uploading (Nova's save of the
    server's next state expects image_uploading: a driver that skipped it fails the snapshot)."""
    before = ids(cloud.resources())
    server = cloud.osc('server', 'create', '--image', 'cirros', '--flavor', 'm1.tiny', '--nic',
                       'none', '--wait', 'img-src', as_json=True)
    image = None
    try:
        image = cloud.osc('server', 'image', 'create', '--name', 'img-of-src', '--wait',
                          server['id'], as_json=True, timeout=120)
        assert (image['name'], image['status']) == ('img-of-src', 'active')
        shown = cloud.osc('image', 'show', image['id'], as_json=True)
        assert (shown['disk_format'], shown['container_format']) == ('qcow2', 'bare')
        assert shown['properties']['instance_uuid'] == server['id']
        assert shown['properties']['image_type'] == 'snapshot'
        again = cloud.osc('server', 'show', server['id'], as_json=True)
        assert (again['status'], again['OS-EXT-STS:task_state']) == ('ACTIVE', None)
    finally:
        if image:
            cloud.osc('image', 'delete', image['id'], check=False)
        cloud.osc('server', 'delete', '--wait', server['id'], check=False)
    assert ids(cloud.resources()) == before
