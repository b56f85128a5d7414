# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder's fake volume driver with build times: a volume stays 'creating' for
build_seconds['volume'], 'deleting' for build_seconds['volume_delete'], and an attachment
takes build_seconds['volume_attach'] to get its connection."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

from cinder.tests import fake_driver

from localcloud.drivers import timing


class TimedFakeVolumeDriver(fake_driver.FakeLoggingVolumeDriver):

    def create_volume(self, volume):
        timing.pause('volume')
        if timing.fails('volume', volume.display_name, volume.id):
            raise RuntimeError('localcloud: injected build failure')   # the volume goes to error
        return super(TimedFakeVolumeDriver, self).create_volume(volume)

    def create_volume_from_snapshot(self, volume, snapshot):
        timing.pause('volume')
        return super(TimedFakeVolumeDriver, self).create_volume_from_snapshot(volume, snapshot)

    def create_cloned_volume(self, volume, src_vref):
        timing.pause('volume')
        return super(TimedFakeVolumeDriver, self).create_cloned_volume(volume, src_vref)

    def delete_volume(self, volume):
        timing.pause('volume_delete')
        return super(TimedFakeVolumeDriver, self).delete_volume(volume)

    def initialize_connection(self, volume, connector):
        timing.pause('volume_attach')
        return super(TimedFakeVolumeDriver, self).initialize_connection(volume, connector)
