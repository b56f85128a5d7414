#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack_snapshot_info
short_description: List or show the snapshots of a stack run by heat_stack, as C(openstack stack snapshot list|show)
version_added: 0.2.0
description:
  - Without O(name) and O(id), the stack's snapshots oldest first (C(openstack stack snapshot list)); with one of them,
    that snapshot (C(openstack stack snapshot show)); M(stackers.orchestration.heat_stack_snapshot) takes them.
  - Only the state store is read; the cloud is used only to read a Swift store (O(store_url)).
options:
  stack:
    description: The name of the stack. A stack that is not in the store fails, naming it.
    type: str
    required: true
  name:
    description: The snapshot's name; of two of one name, the newer.
    type: str
  id:
    description: The snapshot's id.
    type: str
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite). A store that does not exist holds no stack; it is not created.
    type: path
  store_url:
    description:
      - The Swift store keeping the stack records, C(swift://container/prefix) (see
        O(stackers.orchestration.heat_stack#module:store_url)), read with the cloud the auth options name.
      - Mutually exclusive with O(store_path).
    type: str
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
attributes:
  check_mode:
    support: full
    description: Reads only.
  diff_mode:
    support: none
    description: No diff is returned.
'''

EXAMPLES = r'''
- name: The snapshots of stack web
  stackers.orchestration.heat_stack_snapshot_info:
    stack: web
  register: taken

- name: One of them
  stackers.orchestration.heat_stack_snapshot_info:
    stack: web
    name: before-upgrade
  register: one
'''

RETURN = r'''
snapshots:
  description: The snapshots, oldest first, each as RV(snapshot).
  returned: without name and id
  type: list
  elements: dict
snapshot:
  description:
    - The snapshot as Heat's API shows it - C(id), C(name), C(action), C(status), C(status_reason), C(data) (the
      stack's template, environment with hidden values C(******), files, and per resource its C(resource_data)) and
      C(creation_time).
  returned: with name or id
  type: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import snapshots
except ImportError:
    snapshots = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStackSnapshotInfo(StackersModule):
    argument_spec = dict(
        stack=dict(type='str', required=True),
        name=dict(type='str'),
        id=dict(type='str'),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
    )
    module_kwargs = dict(supports_check_mode=True, mutually_exclusive=[('store_path', 'store_url'), ('name', 'id')])

    def run(self):
        if snapshots is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        request = snapshots.SnapshotInfoRequest(p['stack'], name=p['name'], snapshot_id=p['id'],
                                                store_path=p['store_path'], store_url=p['store_url'])
        # the cloud only for a Swift store: an SQLite one needs no credentials
        return snapshots.info(request, self.conn if p['store_url'] else None)


def main():
    HeatStackSnapshotInfo()()


if __name__ == '__main__':
    main()
