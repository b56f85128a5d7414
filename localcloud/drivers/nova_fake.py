# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nova's fake virt driver with build times: a server stays in BUILD (spawning) for
build_seconds['server'], in 'deleting' for build_seconds['server_delete']."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

from nova.virt import fake

from localcloud.drivers import timing


class TimedFakeDriver(fake.FakeDriver):

    def spawn(self, *args, **kwargs):
        timing.pause('server')
        return super(TimedFakeDriver, self).spawn(*args, **kwargs)

    def destroy(self, *args, **kwargs):
        timing.pause('server_delete')
        return super(TimedFakeDriver, self).destroy(*args, **kwargs)
