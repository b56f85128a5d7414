# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nova's fake virt driver with build times: a server stays in BUILD (spawning) for
build_seconds['server'], in 'deleting' for build_seconds['server_delete'].

With guests on (`stackers-localcloud --guests`: LOCALCLOUD_GUESTS names the guests' directory),
a spawned server's user data starts running as a local process (localcloud/guests.py) once the
server is going ACTIVE, and a destroyed server's guest is stopped and its directory removed."""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

from nova import exception
from nova.virt import fake

from localcloud import guests
from localcloud.drivers import timing


def _instance(args, kwargs):
    # spawn(context, instance, ...) and destroy(context, instance, ...)
    return kwargs.get('instance', args[1] if len(args) > 1 else None)


class TimedFakeDriver(fake.FakeDriver):

    def spawn(self, *args, **kwargs):
        timing.pause('server')
        instance = _instance(args, kwargs)
        if instance is not None and timing.fails('server', instance.display_name, instance.uuid):
            # an input error aborts the build without a reschedule: the server goes to ERROR
            raise exception.InvalidInput(reason='localcloud: injected build failure')
        result = super(TimedFakeDriver, self).spawn(*args, **kwargs)
        base = guests.guests_dir()
        instance = _instance(args, kwargs)
        if base and instance is not None:
            guests.reap()
            # after spawn: the compute manager marks the server ACTIVE as this returns
            guests.start(base, instance.uuid, instance.user_data)
        return result

    def destroy(self, *args, **kwargs):
        timing.pause('server_delete')
        base = guests.guests_dir()
        instance = _instance(args, kwargs)
        if base and instance is not None:
            guests.stop(base, instance.uuid)
        return super(TimedFakeDriver, self).destroy(*args, **kwargs)
