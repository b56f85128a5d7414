#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack_snapshot
short_description: Take, delete or restore a snapshot of a stack run by heat_stack, as C(openstack stack snapshot) does
version_added: 0.2.0
description:
  - Heat's stack snapshots for the stacks of M(stackers.orchestration.heat_stack), with Heat's semantics and data.
  - O(state=present) takes one (C(openstack stack snapshot create)) - under the stack's lock the stack goes
    C(SNAPSHOT_IN_PROGRESS) and each resource C(SNAPSHOT_IN_PROGRESS) then C(SNAPSHOT_COMPLETE) (Heat's events), each
    server gets a Nova image and each volume a Cinder backup, as Heat takes them; the stack ends
    C(SNAPSHOT_COMPLETE). The snapshot keeps the stack's template, environment, files and parameters (hidden values
    encrypted in the state store, as the stack's are) and each resource's snapshot data. A C(COMPLETE) snapshot of
    that name already there is the answer, unchanged.
  - O(state=absent) deletes it and its images and backups (C(openstack stack snapshot delete)); every snapshot of
    that name goes. Heat refuses to delete a snapshot being taken, and so does this module while a run holds the
    stack.
  - O(state=restored) restores the stack to it (C(openstack stack restore)) - the stack is updated to the snapshot's
    template, environment and parameters, each server's C(image) being the snapshot's image and each volume's
    C(backup_id) the snapshot's backup (Heat's handle_restore), recorded as C(RESTORE_IN_PROGRESS) then
    C(RESTORE_COMPLETE). A volume is restored from its backup in place; a resource the snapshot's properties cannot
    update in place is replaced, made from the image or backup. A stack already restored to it changes nothing.
  - Deleting the stack (M(stackers.orchestration.heat_stack) O(stackers.orchestration.heat_stack#module:state=absent))
    deletes its snapshots, images and backups included, as Heat does.
  - M(stackers.orchestration.heat_stack_snapshot_info) lists and shows them.
options:
  stack:
    description: The name of the stack.
    type: str
    required: true
  name:
    description:
      - The snapshot's name. Required with O(state=present).
      - Heat allows two snapshots of one name; O(state=restored) then needs O(id).
    type: str
  id:
    description: The snapshot's id, instead of O(name), with O(state=absent) or O(state=restored).
    type: str
  state:
    description:
      - V(present) takes the snapshot, V(absent) deletes it, V(restored) restores the stack to it.
    type: str
    choices: [present, absent, restored]
    default: present
  timeout:
    description: Seconds the snapshot, its delete or the restore may take. Past it the stack fails with C(Timed out).
    type: int
    default: 3600
  max_concurrency:
    description: How many resources are worked on at once.
    type: int
    default: 10
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite).
    type: path
  store_key:
    description:
      - The secret the stack's secrets were stored with (see M(stackers.orchestration.heat_stack)). A restore needs it
        for a stack with hidden parameters, whose values the snapshot keeps only under it.
    type: str
  lock_timeout:
    description: Seconds to wait for another run holding the stack's lock; 0 fails at once.
    type: int
    default: 0
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
  - stackers.orchestration.store
  - stackers.orchestration.resource_plugins
attributes:
  check_mode:
    support: full
    description:
      - O(state=present) answers what would be snapshotted (RV(plan)); O(state=absent) the snapshots that would go;
        O(state=restored) the plan of the restore as M(stackers.orchestration.heat_stack) answers it in check mode.
  diff_mode:
    support: full
    description: With O(state=restored), each resource's properties before and after, as heat_stack's diff.
'''

EXAMPLES = r'''
- name: Take a snapshot before a risky change
  stackers.orchestration.heat_stack_snapshot:
    cloud: mycloud
    stack: web
    name: before-upgrade

- name: Put the stack back as it was
  stackers.orchestration.heat_stack_snapshot:
    cloud: mycloud
    stack: web
    name: before-upgrade
    state: restored

- name: Delete the snapshot, its images and backups
  stackers.orchestration.heat_stack_snapshot:
    cloud: mycloud
    stack: web
    name: before-upgrade
    state: absent
'''

RETURN = r'''
snapshot:
  description:
    - The snapshot as Heat's API shows it (C(openstack stack snapshot show)) - C(id), C(name), C(action), C(status),
      C(status_reason), C(data) and C(creation_time); C(data) holds the stack's template, environment (hidden
      values C(******)), files and, per resource, C(resource_data) naming its image (C(snapshot_image_id)) or backup
      (C(backup_id)).
    - None in check mode with O(state=present).
  returned: with state present or restored
  type: dict
snapshots:
  description: The snapshots deleted (or, in check mode, that would be), as RV(snapshot).
  returned: with state absent
  type: list
  elements: dict
stack:
  description: The stack as M(stackers.orchestration.heat_stack) returns it, after the snapshot or the restore.
  returned: with state present or restored
  type: dict
events:
  description: This run's events, as M(stackers.orchestration.heat_stack) returns them.
  returned: when the stack was snapshotted or restored
  type: list
  elements: dict
plan:
  description:
    - In check mode, with O(state=present), the resources that would get an image or a backup
      (C(resource_name), C(resource_type), C(action) C(snapshot)); with O(state=restored), heat_stack's plan.
  returned: in check mode
  type: list
  elements: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import (
    StackersModule,
    diff_view,
    resource_plugins_argument_spec,
)
from ansible_collections.stackers.orchestration.plugins.module_utils.cloud_checker import CloudChecker

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.events import api_events
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import snapshot
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
except ImportError:
    snapshot = api_events = plugin_loader = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStackSnapshot(StackersModule):
    argument_spec = dict(
        stack=dict(type='str', required=True),
        name=dict(type='str'),
        id=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'absent', 'restored']),
        timeout=dict(type='int', default=3600),
        max_concurrency=dict(type='int', default=10),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
        lock_timeout=dict(type='int', default=0),
    )
    argument_spec.update(resource_plugins_argument_spec())
    module_kwargs = dict(supports_check_mode=True, mutually_exclusive=[('store_path', 'store_url'), ('name', 'id')],
                         required_one_of=[('name', 'id')], required_if=[('state', 'present', ('name',))])

    def run(self):
        if snapshot is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        # a stack made with plugin types snapshots, restores and deletes them with their plugins
        plugin_loader.load(plugin_loader.configured_dirs(p['resource_plugin_dirs']))
        conn = self.learned_conn = self.conn
        request = snapshot.SnapshotRequest(
            p['stack'], name=p['name'], snapshot_id=p['id'], state=p['state'], store_path=p['store_path'],
            store_url=p['store_url'], store_key=p['store_key'], timeout=p['timeout'],
            max_concurrency=p['max_concurrency'], lock_timeout=p['lock_timeout'], check_mode=self.check_mode,
            diff=self.ansible._diff, project_id=getattr(conn, 'current_project_id', None),
            checker=CloudChecker(conn), region_name=getattr(getattr(conn, 'config', None), 'region_name', None))
        result = snapshot.snapshot(request, conn)
        if 'events' in result:
            result['events'] = api_events(result['events'])
        if self.ansible._diff and result.get('diff') is not None:
            result['diff'] = diff_view(result['diff'])
        status = (result.get('stack') or {}).get('stack_status') or ''
        if status.endswith('_FAILED') and not self.check_mode:
            self.fail('Stack %s %s: %s' % (p['stack'], status, result['stack'].get('stack_status_reason')),
                      **result)
        return result


def main():
    HeatStackSnapshot()()


if __name__ == '__main__':
    main()
