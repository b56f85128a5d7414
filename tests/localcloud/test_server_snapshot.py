# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""deletion_policy Snapshot of a server in real ansible-playbook runs against the local cloud's
Nova and Glance: the stack's delete asks Nova for an image of the server named after its
physical name, waits until Glance has it active, then deletes the server; the result names the
image, which the test deletes so the cloud is left as it was.

The local cloud's compute is Nova's fake virt driver, whose snapshot() uploads no data: the image
Nova makes stays ``queued``.  The test does the hypervisor's part: it uploads a small valid
qcow2 into that image (Glance then makes it active), as libvirt would after its snapshot."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402
from localcloud.seed import tiny_qcow2  # noqa: E402

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


def _upload_when_nova_made_it(conn, server_id, seen, stop):
    """The hypervisor's part of the snapshot: the format and data of the image Nova made of the
    server (the fake driver leaves it queued, with neither)."""
    try:
        while not stop.is_set():
            for image in conn.image.images():
                if image.instance_uuid == server_id and image.status == 'queued':
                    # seen before the upload: the delete must still be waiting for it then
                    seen.append((image.id, image.name,
                                 conn.compute.find_server(server_id) is not None))
                    image = conn.image.update_image(image, disk_format='qcow2',
                                                    container_format='bare')
                    answer = image.upload(conn.image, data=tiny_qcow2())
                    assert answer.status_code == 204, answer.text
                    return
            time.sleep(0.5)
    except Exception as exc:  # noqa: B902 - the test reports it; the delete then times out
        seen.append(('upload failed', repr(exc), None))


def test_a_server_deleted_with_snapshot_policy_leaves_its_image(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = str(tmp_path / 'snap.yaml')
    with open(template, 'w') as f:
        f.write(TEMPLATE)
    conn = cloud.sdk()
    kept, stop, seen = [], threading.Event(), []
    try:
        made = runner.run(name='snap1', template=template)
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        server_id = [r['physical_resource_id'] for r in made['resources']][0]
        physical_name = conn.compute.get_server(server_id).name
        assert physical_name.startswith('snap1-server-')

        uploader = threading.Thread(target=_upload_when_nova_made_it,
                                    args=(conn, server_id, seen, stop), daemon=True)
        uploader.start()
        # bounded: an image that never becomes active fails the delete instead of hanging the test
        gone = runner.run(name='snap1', state='absent', timeout=240)
        kept = [s['image_id'] for s in gone.get('snapshots', ())]
        assert gone['stack']['stack_status'] == 'DELETE_COMPLETE', gone['stack']
        assert gone['snapshots'] == [{'resource_name': 'server', 'resource_type': 'OS::Nova::Server',
                                      'physical_resource_id': server_id, 'image_id': seen[0][0]}]
        # the image was made while the server still existed, under its physical name
        assert seen == [(seen[0][0], physical_name, True)]
        image = conn.image.get_image(seen[0][0])
        assert (image.name, image.status, image.instance_uuid) == (physical_name, 'active', server_id)
        assert conn.compute.find_server(server_id) is None
        # Heat's DELETE_COMPLETE event of the server, its shape unchanged
        done = [e for e in gone['events'] if e['resource_name'] == 'server'][-1]
        assert (done['resource_status'], done['physical_resource_id']) == ('DELETE_COMPLETE', server_id)
        assert seen[0][0] not in str(done)
    finally:
        stop.set()
        for image_id in set(kept) | set(s[0] for s in seen):
            conn.image.delete_image(image_id, ignore_missing=True)
        conn.close()
    assert ids(cloud.resources()) == before
