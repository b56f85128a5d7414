# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder's fake volume driver with build times and a file per volume.

Build times: a volume stays 'creating' for build_seconds['volume'], 'deleting' for
build_seconds['volume_delete'], and an attachment takes build_seconds['volume_attach'] to get its
connection.

Data: each volume is a sparse file, ``<cinder state>/volumes/<volume id>`` (a snapshot
``.../snapshots/<snapshot id>``), of 1 MiB per GiB of the volume's size (FILE_BYTES_PER_GB: Cinder's
backup reads, hashes and compresses the whole file and its restore decompresses and scans it
all; at full scale a 1 GB volume's backup took 17 s and its restore 25 s on a 2-core machine),
made at create, copied for a clone, a snapshot and a volume
from a snapshot, removed at delete.  Cinder's own backup service reads and writes it: a
connection asked for by anything but Nova's fake compute is os-brick's ``local`` connector on
that file, so `cinder-backup` attaches it as it would a block device on its host, and a backup
holds the volume's bytes and a restore writes them back.  Nova's fake compute (its connector's
initiator is ``fake``) still gets Cinder's fake iSCSI answer: it reads no data.
"""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os

from cinder.tests import fake_driver
from oslo_config import cfg

from localcloud.drivers import timing

# the scale of a volume's file (see above): its bytes per GiB of the volume's size
FILE_BYTES_PER_GB = 1 << 20
# Nova's fake virt driver's connector (nova/virt/fake.py get_volume_connector)
NOVA_FAKE_INITIATOR = 'fake'


def _from_nova(connector):
    return (connector or {}).get('initiator') == NOVA_FAKE_INITIATOR


def _path(kind, ident):
    return os.path.join(cfg.CONF.state_path, kind, ident)


def _sparse_copy(src, dst):
    """Copy ``src`` to ``dst`` keeping its holes (a volume holding nothing costs nothing)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    size = os.path.getsize(src)
    with open(src, 'rb') as fin, open(dst, 'wb') as fout:
        fout.truncate(size)
        offset = 0
        while offset < size:
            try:
                start = os.lseek(fin.fileno(), offset, os.SEEK_DATA)
            except OSError:     # ENXIO: only a hole is left
                break
            end = os.lseek(fin.fileno(), start, os.SEEK_HOLE)
            fin.seek(start)
            fout.seek(start)
            left = end - start
            while left:
                block = fin.read(min(left, 1 << 20))
                fout.write(block)
                left -= len(block)
            offset = end


def _make(path, size_gb):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.truncate(int(size_gb) * FILE_BYTES_PER_GB)


def _grow(path, size_gb):
    # a volume made from a smaller snapshot or source gets its own size
    if os.path.exists(path) and os.path.getsize(path) < int(size_gb) * FILE_BYTES_PER_GB:
        os.truncate(path, int(size_gb) * FILE_BYTES_PER_GB)


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


class TimedFakeVolumeDriver(fake_driver.FakeLoggingVolumeDriver):

    def create_volume(self, volume):
        timing.pause('volume')
        if timing.fails('volume', volume.display_name, volume.id):
            raise RuntimeError('localcloud: injected build failure')   # the volume goes to error
        result = super(TimedFakeVolumeDriver, self).create_volume(volume)
        _make(_path('volumes', volume.id), volume.size)
        return result

    def create_volume_from_snapshot(self, volume, snapshot):
        timing.pause('volume')
        result = super(TimedFakeVolumeDriver, self).create_volume_from_snapshot(volume, snapshot)
        self._copy_or_make(_path('snapshots', snapshot.id), volume)
        return result

    def create_cloned_volume(self, volume, src_vref):
        timing.pause('volume')
        result = super(TimedFakeVolumeDriver, self).create_cloned_volume(volume, src_vref)
        self._copy_or_make(_path('volumes', src_vref.id), volume)
        return result

    @staticmethod
    def _copy_or_make(source, volume):
        # a source made before volumes had files (a kept --state-dir) has none: an empty volume
        target = _path('volumes', volume.id)
        if os.path.exists(source):
            _sparse_copy(source, target)
            _grow(target, volume.size)
        else:
            _make(target, volume.size)

    def delete_volume(self, volume):
        timing.pause('volume_delete')
        result = super(TimedFakeVolumeDriver, self).delete_volume(volume)
        _remove(_path('volumes', volume.id))
        return result

    def create_snapshot(self, snapshot):
        result = super(TimedFakeVolumeDriver, self).create_snapshot(snapshot)
        source = _path('volumes', snapshot.volume_id)
        if os.path.exists(source):
            _sparse_copy(source, _path('snapshots', snapshot.id))
        else:
            _make(_path('snapshots', snapshot.id), snapshot.volume_size)
        return result

    def delete_snapshot(self, snapshot):
        result = super(TimedFakeVolumeDriver, self).delete_snapshot(snapshot)
        _remove(_path('snapshots', snapshot.id))
        return result

    def extend_volume(self, volume, new_size):
        result = super(TimedFakeVolumeDriver, self).extend_volume(volume, new_size)
        _grow(_path('volumes', volume.id), new_size)
        return result

    def validate_connector(self, connector):
        # the iSCSI target's check (an initiator name) is for Nova's connector only: Cinder's
        # own gets the file, and os-brick's local connector needs nothing from it
        if _from_nova(connector):
            return super(TimedFakeVolumeDriver, self).validate_connector(connector)
        return None

    def initialize_connection(self, volume, connector):
        if not _from_nova(connector):
            # Cinder's own services on this host (backup, restore): the volume's file
            return self._local(_path('volumes', volume['id']), volume['size'])
        timing.pause('volume_attach')
        return super(TimedFakeVolumeDriver, self).initialize_connection(volume, connector)

    def terminate_connection(self, volume, connector, **kwargs):
        if not _from_nova(connector):
            # a restore opened the file for writing (truncated) and wrote only its non-zero
            # parts: the volume keeps its size
            _grow(_path('volumes', volume['id']), volume['size'])
        return super(TimedFakeVolumeDriver, self).terminate_connection(volume, connector, **kwargs)

    def initialize_connection_snapshot(self, snapshot, connector):
        if not _from_nova(connector):
            return self._local(_path('snapshots', snapshot.id), snapshot.volume_size)
        return super(TimedFakeVolumeDriver, self).initialize_connection_snapshot(snapshot, connector)

    @staticmethod
    def _local(path, size_gb):
        if not os.path.exists(path):
            # made before volumes had files (a kept --state-dir): an empty one
            _make(path, size_gb)
        return {'driver_volume_type': 'local', 'data': {'device_path': path}}
