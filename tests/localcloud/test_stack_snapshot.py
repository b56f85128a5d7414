# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stack snapshot and restore in real ansible-playbook runs against the local cloud's Nova,
Glance and Cinder (with cinder-backup): heat_stack_snapshot takes a snapshot of a stack holding
a server and a volume (a Nova image, a Cinder backup), the stack is changed (the server replaced
by a new boot script, the volume renamed and its metadata changed), the restore puts it back
(the server boots from the snapshot's image, the volume is restored from the backup), and the
snapshot's delete removes the image and the backup.  Every second run changes nothing.

It needs a local cloud whose Nova fake driver uploads the images of its snapshots (they become
``active``) and which runs cinder-backup."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids, wait_for  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stack_templates',
                        'snapshot_server_volume.yaml')


def _ids(result):
    return dict((r['resource_name'], r['physical_resource_id']) for r in result['resources'])


def test_snapshot_change_restore_and_delete(cloud, tmp_path):
    before = ids(cloud.resources())
    containers = set(c['name'] for c in cloud.resources()['containers'])
    store = tmp_path / 'stacks.sqlite'
    stacks = StackRunner(cloud, tmp_path, store)
    snaps = StackRunner(cloud, tmp_path, store, module='heat_stack_snapshot')
    info = StackRunner(cloud, tmp_path, store, module='heat_stack_snapshot_info')
    conn = cloud.sdk()
    image_id = backup_id = None
    try:
        made = stacks.run(name='snap', template=TEMPLATE)
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        first = _ids(made)

        taken = snaps.run(stack='snap', name='before', timeout=300)
        assert taken.get('failed') is not True, taken
        assert taken['changed'] is True and taken['stack']['stack_status'] == 'SNAPSHOT_COMPLETE'
        snapshot = taken['snapshot']
        assert (snapshot['status'], snapshot['status_reason']) == ('COMPLETE', 'Stack SNAPSHOT completed successfully')
        kept = snapshot['data']['resources']
        image_id = kept['server']['resource_data']['snapshot_image_id']
        backup_id = kept['volume']['resource_data']['backup_id']
        image = conn.image.get_image(image_id)
        assert (image.status, image.instance_uuid) == ('active', first['server'])
        backup = conn.block_storage.get_backup(backup_id)
        assert (backup.status, backup.volume_id) == ('available', first['volume'])
        assert [(e['resource_name'], e['resource_status']) for e in taken['events']
                if e['resource_name'] == 'server'] == [('server', 'SNAPSHOT_IN_PROGRESS'),
                                                       ('server', 'SNAPSHOT_COMPLETE')]
        assert snaps.run(stack='snap', name='before')['changed'] is False
        listed = info.run(stack='snap')
        assert [s['id'] for s in listed['snapshots']] == [snapshot['id']]

        changed = stacks.run(name='snap', template=TEMPLATE,
                             parameters={'marker': 'second', 'boot': '#!/bin/sh\necho second\n'})
        assert changed['stack']['stack_status'] == 'UPDATE_COMPLETE', changed['stack']
        second = _ids(changed)
        assert second['server'] != first['server'] and second['volume'] == first['volume']
        assert conn.block_storage.get_volume(first['volume']).name == 'data-second'

        planned = snaps.run(check=True, stack='snap', name='before', state='restored')
        assert planned['changed'] is True
        assert dict((p['resource_name'], p['action']) for p in planned['plan']) == {
            'server': 'replace', 'volume': 'update'}
        cloud.reset_stats()
        restored = snaps.run(stack='snap', name='before', state='restored', timeout=300)
        assert restored.get('failed') is not True, restored
        assert restored['stack']['stack_status'] == 'RESTORE_COMPLETE', restored['stack']
        routes = cloud.stats()['by_route']
        assert any(r.startswith('POST ') and '/backups/' in r and r.endswith('/restore') for r in routes), routes
        now = _ids(restored)
        assert now['volume'] == first['volume'] and now['server'] not in (first['server'], second['server'])
        server = conn.compute.get_server(now['server'])
        assert server.image['id'] == image_id
        volume = conn.block_storage.get_volume(now['volume'])
        assert volume.name == 'data-first' and volume.metadata.get('marker') == 'first'
        again = snaps.run(stack='snap', name='before', state='restored')
        assert again['changed'] is False

        gone = snaps.run(stack='snap', name='before', state='absent', timeout=300)
        assert gone['changed'] is True
        assert conn.image.find_image(image_id) is None or conn.image.get_image(image_id).status == 'deleted'
        wait_for(lambda: conn.block_storage.find_backup(backup_id) is None, timeout=120, what='backup deleted')
        assert snaps.run(stack='snap', name='before', state='absent')['changed'] is False
        assert info.run(stack='snap')['snapshots'] == []
        image_id = backup_id = None

        done = stacks.run(name='snap', state='absent')
        assert done['stack']['stack_status'] == 'DELETE_COMPLETE', done['stack']
    finally:
        if image_id:
            conn.image.delete_image(image_id, ignore_missing=True)
        if backup_id:
            conn.block_storage.delete_backup(backup_id, ignore_missing=True)
        conn.close()
        # Cinder's Swift backup driver keeps its container (volumebackups) once its backups are gone
        for name in set(c['name'] for c in cloud.resources()['containers']) - containers:
            cloud.osc('container', 'delete', '--recursive', name, check=False)
    wait_for(lambda: ids(cloud.resources()) == before, timeout=120, what='the cloud as it was')
