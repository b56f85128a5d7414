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

import io

from nova import exception
from nova.compute import task_states
from nova.image import glance
from nova.virt import fake

from localcloud import guests
from localcloud.drivers import timing
from localcloud.seed import tiny_qcow2


def _instance(args, kwargs):
    # spawn(context, instance, ...) and destroy(context, instance, ...)
    return kwargs.get('instance', args[1] if len(args) > 1 else None)


class TimedFakeDriver(fake.FakeDriver):

    def snapshot(self, context, instance, image_id, update_task_state):
        """The hypervisor's part of an image of a server, as libvirt's snapshot() does it: the
        task states image_pending_upload then image_uploading, then the disk's data and format
        sent into the image Nova made, through Nova's own image API (Glance then makes it
        active).  Nova's fake driver uploads nothing, and its image would stay queued.  The disk
        is a small valid empty qcow2 (the seed's cirros is one too)."""
        if instance.uuid not in self.instances:
            raise exception.InstanceNotRunning(instance_id=instance.uuid)
        update_task_state(task_state=task_states.IMAGE_PENDING_UPLOAD)
        update_task_state(task_state=task_states.IMAGE_UPLOADING,
                          expected_state=task_states.IMAGE_PENDING_UPLOAD)
        image_meta = instance.image_meta
        metadata = {
            'disk_format': 'qcow2',
            'container_format': (image_meta.container_format
                                 if image_meta.obj_attr_is_set('container_format') else 'bare'),
            'properties': {'image_location': 'snapshot', 'image_state': 'available'},
        }
        # purge_props=False: keep the properties Nova's API gave the image (instance_uuid,
        # base_image_ref, ...), which the update would otherwise remove
        glance.API().update(context, image_id, metadata, io.BytesIO(tiny_qcow2()),
                            purge_props=False)

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
