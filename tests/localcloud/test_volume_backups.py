# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder backups on the local cloud (real cinder-backup, Swift backup driver against the cloud's
own Swift) through the front door with the real `openstack` client, and Heat's stack snapshot
and restore built on them.

A volume's bytes are a file (drivers/cinder_fake.py; the admin API names its directory): the
test writes into it, and a backup must carry those bytes to a restored volume."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids, wait_for  # noqa: E402

STACK = """heat_template_version: 2021-04-16
resources:
  server:
    type: OS::Nova::Server
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{allocate_network: none}]
  volume:
    type: OS::Cinder::Volume
    properties:
      size: 1
"""


def _status(cloud, kind, ident, want, busy):
    def settled():
        shown = cloud.osc(*kind, 'show', ident, as_json=True)
        return shown if shown['status'] not in busy else None
    shown = wait_for(settled, timeout=120, interval=1, what='%s %s to settle' % (kind[-1], ident))
    assert shown['status'] == want, (shown.get('fail_reason'), shown)
    return shown


def _volume(cloud, *args):
    made = cloud.osc('volume', 'create', '--size', '1', *args, as_json=True)
    _status(cloud, ('volume',), made['id'], 'available', ('creating', 'restoring-backup'))
    return made['id']


def _write(cloud, volume_id, offset, data):
    with open(os.path.join(cloud.info['volumes_dir'], volume_id), 'r+b') as f:
        f.seek(offset)
        f.write(data)


def _read(cloud, volume_id, offset, size):
    with open(os.path.join(cloud.info['volumes_dir'], volume_id), 'rb') as f:
        f.seek(offset)
        return f.read(size)


def _containers(cloud):
    return {c['name'] for c in cloud.resources()['containers']}


def test_backup_restores_a_volumes_bytes_into_a_new_and_an_existing_volume(cloud):
    before, containers = ids(cloud.resources()), _containers(cloud)
    made = []
    backup = None
    try:
        made.append(_volume(cloud, 'bk-src'))
        _write(cloud, made[0], 4096, b'backed-up bytes')
        backup = cloud.osc('volume', 'backup', 'create', '--name', 'bk1', made[0], as_json=True)['id']
        shown = _status(cloud, ('volume', 'backup'), backup, 'available', ('creating',))
        assert (shown['volume_id'], shown['size']) == (made[0], 1)
        # the backup's data is in the volume owner's Swift account
        assert 'volumebackups' in _containers(cloud)
        # restore into a new volume
        made.append(_volume(cloud, '--backup', backup, 'bk-new'))
        assert _read(cloud, made[1], 4096, 15) == b'backed-up bytes'
        # and into an existing one (overwritten: the source, changed since)
        _write(cloud, made[0], 4096, b'changed, lost!!')
        cloud.osc('volume', 'backup', 'restore', '--force', backup, made[0])
        _status(cloud, ('volume',), made[0], 'available', ('restoring-backup',))
        assert _read(cloud, made[0], 4096, 15) == b'backed-up bytes'
    finally:
        if backup:
            cloud.osc('volume', 'backup', 'delete', backup, check=False)
            wait_for(lambda: backup not in {b['ID'] for b in cloud.osc('volume', 'backup', 'list',
                                                                      as_json=True)},
                     timeout=120, interval=1, what='the backup to go')
        for volume in made:
            cloud.osc('volume', 'delete', volume, check=False)
        wait_for(lambda: not set(made) & {v['ID'] for v in cloud.osc('volume', 'list', as_json=True)},
                 timeout=120, interval=1, what='the volumes to go')
        for name in _containers(cloud) - containers:
            cloud.osc('container', 'delete', '--recursive', name, check=False)
    assert ids(cloud.resources()) == before


def test_heat_snapshots_and_restores_a_stack_with_a_server_and_a_volume(cloud, tmp_path):
    """Heat's snapshot: an image of the server (Nova's compute uploads it) and a backup of the
    volume; its restore: the volume restored in place from the backup, the server rebuilt from
    the image. Heat 27's convergence delete of a stack leaves its snapshots' backups and images
    (only the legacy engine's Stack.delete deletes the snapshots): the test deletes the snapshot
    first, which removes them."""
    before, containers = ids(cloud.resources()), _containers(cloud)
    template = tmp_path / 'snap.yaml'
    template.write_text(STACK)
    name = 'snapst'
    try:
        # --wait prints the events before the stack: read it with show
        cloud.osc('stack', 'create', '--wait', '-t', str(template), name, timeout=300)
        made = cloud.osc('stack', 'show', name, as_json=True)
        assert made['stack_status'] == 'CREATE_COMPLETE', made
        snap = cloud.osc('stack', 'snapshot', 'create', '--name', 'sn1', name, as_json=True)
        shown = wait_for(lambda: (lambda s: s if s['snapshot']['status'] != 'IN_PROGRESS' else None)(
            cloud.osc('stack', 'snapshot', 'show', name, snap['ID'], as_json=True)),
            timeout=180, interval=2, what='the snapshot')
        assert shown['snapshot']['status'] == 'COMPLETE', shown['snapshot']['status_reason']
        data = shown['snapshot']['data']['resources']
        backup = data['volume']['resource_data']['backup_id']
        image = data['server']['resource_data']['snapshot_image_id']
        assert cloud.osc('volume', 'backup', 'show', backup, as_json=True)['status'] == 'available'
        assert cloud.osc('image', 'show', image, as_json=True)['status'] == 'active'
        cloud.osc('stack', 'snapshot', 'restore', name, snap['ID'])
        restored = wait_for(lambda: (lambda s: s if not s['stack_status'].endswith('IN_PROGRESS')
                                     else None)(cloud.osc('stack', 'show', name, as_json=True)),
                            timeout=180, interval=2, what='the restore')
        assert restored['stack_status'] == 'RESTORE_COMPLETE', restored['stack_status_reason']
        cloud.osc('stack', 'snapshot', 'delete', '--yes', name, snap['ID'])
        wait_for(lambda: cloud.osc('stack', 'snapshot', 'list', name, as_json=True) == [],
                 timeout=120, interval=1, what='the snapshot to go')
    finally:
        cloud.osc('stack', 'delete', '--yes', '--wait', name, timeout=300, check=False)
        cloud.wait_no_stacks()
        for name in _containers(cloud) - containers:
            cloud.osc('container', 'delete', '--recursive', name, check=False)
    wait_for(lambda: ids(cloud.resources()) == before, timeout=60, interval=2,
             what='the cloud to be as before')
