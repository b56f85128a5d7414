#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack_cancel
short_description: Cancel a running create or update of a stack run by heat_stack, as C(openstack stack cancel) does
version_added: 0.2.0
description:
  - Cancels the create or update of a stack that a M(stackers.orchestration.heat_stack) run (another playbook, an AWX
    job) is doing now, as Heat's C(openstack stack cancel [--no-rollback]) does. The request is recorded in the state
    store beside the stack's lock; the run reads it at its next lease renewal (a third of the lease, at most 10
    seconds), starts no new resource, lets those in progress end, and ends the stack C(UPDATE_FAILED) (or
    C(CREATE_FAILED)) with Heat's reason C(Stack UPDATE cancelled). An update is then rolled back to its previous
    definition (C(ROLLBACK_COMPLETE)) unless O(rollback=false), whatever the run's own
    O(stackers.orchestration.heat_stack#module:rollback) option, as Heat's cancel does. The run releases the stack's
    lock; its own task fails.
  - Heat's states apply - an update in progress may be cancelled, a create in progress only with O(rollback=false)
    (Heat's C(cancel_with_rollback=False)); anything else fails with Heat's message, C(Cancelling update when stack is
    CREATE_COMPLETE is not supported.).
  - A stack left in progress by a run that is gone (killed) has no run to cancel; that fails, and the next
    M(stackers.orchestration.heat_stack) run converges the stack.
  - The cloud is used only to read a Swift store (O(store_url)).
options:
  name:
    description: The name of the stack.
    type: str
    required: true
  rollback:
    description:
      - V(true) rolls a cancelled update back to the stack's previous definition (C(openstack stack cancel)).
      - V(false) stops the create or update where it is, C(*_FAILED) (C(openstack stack cancel --no-rollback)).
    type: bool
    default: true
  wait:
    description:
      - Whether to wait until the cancelled run has ended (rollback included) and return the stack as it left it
        (C(openstack stack cancel --wait)); else the module returns once the cancel is recorded.
    type: bool
    default: true
  timeout:
    description: Seconds to wait for the run to end, with O(wait); past it the module fails (the cancel stays asked).
    type: int
    default: 180
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite).
    type: path
  store_url:
    description:
      - The Swift store keeping the stack records, C(swift://container/prefix) (see
        O(stackers.orchestration.heat_stack#module:store_url)), read and written with the cloud the auth options name.
        The request is the object C(<prefix>/<stack>.lock.cancel) beside the stack's lock.
      - Mutually exclusive with O(store_path).
    type: str
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
attributes:
  check_mode:
    support: full
    description: Checks that the stack may be cancelled now (Heat's refusals included) and asks nothing.
  diff_mode:
    support: none
    description: No diff is returned.
'''

EXAMPLES = r'''
- name: Cancel the update the deploy job is running; it rolls back
  stackers.orchestration.heat_stack_cancel:
    name: web
  register: cancelled

- name: Stop a create where it is (no rollback), without waiting for the run to end
  stackers.orchestration.heat_stack_cancel:
    name: web
    rollback: false
    wait: false

- name: Cancel a run of an AWX job that keeps its stacks in Swift
  stackers.orchestration.heat_stack_cancel:
    cloud: mycloud
    name: web
    store_url: swift://stacks/prod
'''

RETURN = r'''
stack:
  description:
    - The stack as M(stackers.orchestration.heat_stack) returns it (no outputs); with O(wait), once the cancelled run
      has ended (C(ROLLBACK_COMPLETE), C(UPDATE_FAILED), C(CREATE_FAILED); C(UPDATE_COMPLETE) when the update was
      done before it read the cancel).
    - Without O(wait) or in check mode, as it was when the cancel was asked (C(*_IN_PROGRESS)).
  returned: always
  type: dict
cancelled:
  description: What was cancelled - C(action) (C(CREATE) or C(UPDATE)), C(rollback), and C(run), the lock owner of
    the run asked (host:pid:tag).
  returned: unless in check mode
  type: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import cancel
except ImportError:
    cancel = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStackCancel(StackersModule):
    argument_spec = dict(
        name=dict(type='str', required=True),
        rollback=dict(type='bool', default=True),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
    )
    module_kwargs = dict(supports_check_mode=True, mutually_exclusive=[('store_path', 'store_url')])

    def run(self):
        if cancel is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        request = cancel.CancelRequest(p['name'], rollback=p['rollback'], wait=p['wait'], timeout=p['timeout'],
                                       store_path=p['store_path'], store_url=p['store_url'],
                                       check_mode=self.check_mode)
        # the cloud only for a Swift store: an SQLite one needs no credentials
        return cancel.cancel(request, self.conn if p['store_url'] else None)


def main():
    HeatStackCancel()()


if __name__ == '__main__':
    main()
