#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_store_rotate_key
short_description: Rotate the key that encrypts the secrets of a stack state store
version_added: 0.2.0
description:
  - Decrypts every secret of a state store (hidden parameter values, the stacks' outputs, generated
    secrets such as random strings and private keys) with the current key and encrypts it with a new one.
  - An SQLite store (O(store_path)) is rotated in one transaction.
  - A Swift store (O(store_url)) is rotated stack by stack, each under its lock, its kept versions included. Both
    keys are user secrets there. Every value is read with the new key first and the old one second, so a rotation
    stopped half-way (a kill, a stack held by a run) is finished by running the same task again.
  - The current key is O(store_key) (or C($STACKERS_STORE_KEY)), else the key file beside the store
    (C(<store_path>.key)). The new key is O(new_store_key); without it a new key file is written.
  - Refused while a run holds one of the store's stacks. Hidden parameter values are kept only under a user key, so
    rotating from O(store_key) to a key file drops them (the next O(stackers.orchestration.heat_stack#module:existing)
    update asks for them again).
options:
  store_path:
    description:
      - The SQLite state store. Defaults to C($STACKERS_STORE), else C(~/.local/state/stackers/stacks.sqlite).
    type: path
  store_url:
    description:
      - The Swift state store, C(swift://container/prefix) (see O(stackers.orchestration.heat_stack#module:store_url)),
        read and written with the cloud the auth options name.
      - Mutually exclusive with O(store_path).
    type: str
  store_key:
    description: The secret the store's secrets are encrypted with now; without it, its key file.
    type: str
  new_store_key:
    description: The secret to encrypt them with from now on; without it, a new key file beside the store.
    type: str
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
attributes:
  check_mode:
    support: full
    description: Decrypts every secret with the current key (a wrong key fails) and writes nothing.
  diff_mode:
    support: none
    description: Nothing to compare.
'''

EXAMPLES = r'''
- name: Rotate the store's key
  stackers.orchestration.heat_store_rotate_key:
    store_key: "{{ old_store_key }}"
    new_store_key: "{{ new_store_key }}"

- name: Rotate the key of the Swift store AWX jobs share
  stackers.orchestration.heat_store_rotate_key:
    cloud: prod
    store_url: swift://stacks/prod
    store_key: "{{ old_store_key }}"
    new_store_key: "{{ new_store_key }}"
'''

RETURN = r'''
store_path:
  description: The SQLite store whose key was rotated.
  returned: when O(store_url) is not given
  type: str
store_url:
  description: The Swift store whose key was rotated.
  returned: when O(store_url) is given
  type: str
stacks:
  description: How many stacks the store holds.
  returned: always
  type: int
secrets:
  description: How many encrypted values were re-encrypted (or, in check mode, decrypted).
  returned: always
  type: int
'''

import os
import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import (rotate,
                                                                                              rotate_swift)
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.backends import open_store
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import default_store_path
except ImportError:
    rotate = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStoreRotateKey(StackersModule):
    argument_spec = dict(
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
        new_store_key=dict(type='str', no_log=True),
    )
    module_kwargs = dict(supports_check_mode=True, mutually_exclusive=[('store_path', 'store_url')])

    def run(self):
        if rotate is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        path = p['store_path'] or default_store_path()
        old = p['store_key'] or os.environ.get('STACKERS_STORE_KEY')
        if p['store_url']:
            store = open_store(store_url=p['store_url'], conn=self.conn)
            try:
                counts = rotate_swift.rotate_swift_key(store, old, p['new_store_key'], check_mode=self.check_mode)
            finally:
                store.close()
            return dict(changed=not self.check_mode and counts['secrets'] > 0, store_url=p['store_url'], **counts)
        counts = rotate.rotate_key(path, old, p['new_store_key'], check_mode=self.check_mode)
        return dict(changed=not self.check_mode and counts['secrets'] > 0, store_path=path, **counts)


def main():
    HeatStoreRotateKey()()


if __name__ == '__main__':
    main()
