#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack_migrate
short_description: Move a stack's record between state stores (SQLite file, Swift)
version_added: 0.2.0
description:
  - Moves the record of a stack run by M(stackers.orchestration.heat_stack) - the stack, its nested stacks, their
    resources and events - from the store of O(store_path) or O(store_url) to the store of O(to_store_path) or
    O(to_store_url); for example from the default SQLite file to Swift before running it from AWX.
  - Both stores' locks are held while it copies; the source is deleted only once the target holds everything (or
    kept with O(keep_source)), so a failure leaves the source whole. The cloud's resources are not touched.
  - Secrets are encrypted again for the target; a Swift target needs O(store_key) (or C($STACKERS_STORE_KEY)).
  - A stack already in the target is refused.
options:
  name:
    description: The stack to move.
    type: str
    required: true
  store_path:
    description: The SQLite file the stack is in (the default store when neither it nor O(store_url) is given).
    type: path
  to_store_path:
    description: The SQLite file to move it to.
    type: path
  to_store_url:
    description: The Swift store to move it to, C(swift://container/prefix) (see O(store_url)).
    type: str
  store_key:
    description: The secret the stack's secrets are encrypted with, in both stores.
    type: str
  keep_source:
    description: Keep the stack in the source store too (a copy; run it from one store only).
    type: bool
    default: false
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
  - stackers.orchestration.store
attributes:
  check_mode:
    support: full
    description: Checks that the stack exists in the source and not in the target; writes nothing.
  diff_mode:
    support: none
    description: Nothing to compare.
'''

EXAMPLES = r'''
- name: Move the web stack from this machine's store to Swift, for AWX
  stackers.orchestration.heat_stack_migrate:
    cloud: mycloud
    name: web
    to_store_url: swift://stacks/prod
    store_key: "{{ vault_store_key }}"
'''

RETURN = r'''
stack_name:
  description: The stack moved.
  returned: always
  type: str
source:
  description: The store it was in.
  returned: always
  type: str
target:
  description: The store it is in now.
  returned: always
  type: str
resources:
  description: How many resource records were moved.
  returned: when not in check mode
  type: int
events:
  description: How many events were moved.
  returned: when not in check mode
  type: int
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import migrate
except ImportError:
    migrate = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStackMigrate(StackersModule):
    argument_spec = dict(
        name=dict(type='str', required=True),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        to_store_path=dict(type='path'),
        to_store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
        keep_source=dict(type='bool', default=False),
    )
    module_kwargs = dict(supports_check_mode=True,
                         mutually_exclusive=[('store_path', 'store_url'), ('to_store_path', 'to_store_url')])

    def run(self):
        if migrate is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        request = migrate.MigrateRequest(
            p['name'], store_path=p['store_path'], store_url=p['store_url'], to_store_path=p['to_store_path'],
            to_store_url=p['to_store_url'], store_key=p['store_key'], keep_source=p['keep_source'],
            check_mode=self.check_mode)
        swift = p['store_url'] or p['to_store_url']
        return migrate.migrate(request, self.conn if swift else None)


def main():
    HeatStackMigrate()()


if __name__ == '__main__':
    main()
