#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_resource_signal
short_description: Signal a resource of a stack run by heat_stack, as C(openstack stack resource signal) does
version_added: 0.2.0
description:
  - Sends a signal to a resource of a stack that M(stackers.orchestration.heat_stack) runs. An C(OS::Heat::ScalingPolicy)
    scales its C(OS::Heat::AutoScalingGroup) as Heat does, and the stack is run again with the group at its new size
    (members go failed first, then oldest; whatever reads the group follows).
  - Heat's refusals are kept, checked in Heat's order - the group not complete, no change of capacity, a scaling in
    progress, the cooldown. A refused signal changes nothing; RV(signal) says why.
  - The stack is run from the definition its store keeps; hidden parameters need O(store_key) as for an
    C(existing) update of M(stackers.orchestration.heat_stack).
  - A wait's handle (C(OS::Heat::WaitConditionHandle), C(OS::Heat::SwiftSignalHandle),
    C(AWS::CloudFormation::WaitConditionHandle), C(OS::Heat::UpdateWaitConditionHandle)) gets O(data) as a signal
    body PUT to its Swift TempURL, as an agent sends it. This takes no lock and only reads the store, so it works
    while another M(stackers.orchestration.heat_stack) run waits on that handle; that run notices the signal.
  - >-
    O(data) C({unset_hook: pre-create}) (or C(pre-update), C(pre-delete), C(post-create), C(post-update)) clears
    a hook, as
    C(openstack stack hook clear) sends it. A run of M(stackers.orchestration.heat_stack) that reaches a resource
    held by an environment C(hooks) entry records Heat's event (C(CREATE paused until Hook pre-create is cleared))
    and ends with the stack C(*_IN_PROGRESS), reason C(Paused at hooks of: <names>), once everything not behind the
    hook is done (Heat keeps waiting instead; no process waits here). Clearing records Heat's event
    (C(Hook pre-create is cleared)); the next run of the same action goes past the hook, once - a later action is
    held again, as in Heat. Clearing a hook that is not pending fails with Heat's message. No lock is taken.
  - >-
    O(mark_unhealthy) sets the resource C(CHECK_FAILED) with O(reason), as Heat's C(openstack stack resource
    mark unhealthy) does, so the next converge of M(stackers.orchestration.heat_stack) replaces it (its check
    mode plan says C(replace)); C(false) brings a C(CHECK_FAILED) resource back to C(CHECK_COMPLETE). It takes
    the stack's lock.
options:
  stack:
    description: The name of the stack.
    type: str
    required: true
  resource:
    description:
      - The name of the resource to signal (a top-level resource of the stack).
      - To clear a hook or mark a resource, a resource of a nested stack may be named by its path from the
        stack, C(parent/child) as C(openstack stack hook clear) takes it, and a top-level one by its physical id.
    type: str
    required: true
  data:
    description:
      - The signal's data, as Heat's signal API takes it. A scaling policy acts whatever the alarm state it
        carries, as in Heat.
      - For a wait's handle, the signal body - C(status) (SUCCESS or FAILURE), C(reason), C(data), C(id) (C(Status),
        C(Reason), C(Data), C(UniqueId) for the AWS handles); without it, an empty body (a success, for the
        OpenStack handles).
      - >-
        C({unset_hook: <hook>}) clears the hook pending on the resource (see the description).
    type: dict
  mark_unhealthy:
    description:
      - V(true) marks the resource unhealthy (C(CHECK_FAILED)), so the next converge replaces it; V(false) marks a
        C(CHECK_FAILED) resource healthy again (C(CHECK_COMPLETE)). Omitted, the resource is signalled.
      - Not with O(data).
    type: bool
  reason:
    description: The reason recorded with O(mark_unhealthy) (Heat's C(resource_status_reason)), which it needs; Heat's default
      C(state changed by resource_mark_unhealthy api) when omitted.
    type: str
  max_concurrency:
    description: How many resource actions run at once when the stack runs again.
    type: int
    default: 10
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite).
    type: path
  store_key:
    description: The secret the stack's secrets were stored with (see M(stackers.orchestration.heat_stack)).
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
    description: Says in RV(signal) what the signal would do; nothing is changed.
  diff_mode:
    support: none
    description: No diff is returned.
'''

EXAMPLES = r'''
- name: Scale the web tier out by its policy
  stackers.orchestration.heat_resource_signal:
    cloud: mycloud
    stack: web
    resource: scale_up
  register: scaled

- name: Tell a wait condition the work is done (while the heat_stack run waits)
  stackers.orchestration.heat_resource_signal:
    cloud: mycloud
    stack: app
    resource: wait_handle
    data: {status: SUCCESS, id: db, data: ready}

- name: Let the paused create go on past the pre-create hook of a nested stack's server
  stackers.orchestration.heat_resource_signal:
    cloud: mycloud
    stack: app
    resource: tier/server
    data: {unset_hook: pre-create}

- name: The database server is broken; the next heat_stack run replaces it
  stackers.orchestration.heat_resource_signal:
    cloud: mycloud
    stack: app
    resource: db_server
    mark_unhealthy: true
    reason: disk lost

- name: Would a scale-in happen now (cooldown, minimum size)?
  stackers.orchestration.heat_resource_signal:
    cloud: mycloud
    stack: web
    resource: scale_down
  check_mode: true
'''

RETURN = r'''
stack:
  description: The stack as M(stackers.orchestration.heat_stack) returns it, read after the signal was handled
    (outputs included).
  returned: always
  type: dict
signal:
  description: What the signal did - C(resource), C(group), C(size) (the group's size before), C(new_size) (when it
    scales) or C(refused) (Heat's reason when it does not), and C(removed) (the names of the members a scale-in
    removes, failed ones first, then the oldest; in check mode too). For a wait's handle, C(resource) and C(handle)
    (its type). For a hook, C(resource) and C(unset_hook); for a mark, C(resource) and C(mark_unhealthy).
  returned: always
  type: dict
resources:
  description: When the stack ran again, its resources as M(stackers.orchestration.heat_stack) returns them.
  returned: when the group scaled
  type: list
  elements: dict
events:
  description:
    - When the stack ran again, that run's events (the group's members included, with their C(stack_name)).
    - For a hook cleared or a mark, the event recorded (C(stack_name) for a nested resource); none in check mode or
      when nothing changed.
    - Each in the shape of Heat's API, as M(stackers.orchestration.heat_stack) returns them - C(id), C(resource_name),
      C(logical_resource_id), C(physical_resource_id), C(resource_status) (C(CREATE_COMPLETE)),
      C(resource_status_reason), C(event_time).
  returned: when the group scaled, a hook was cleared or a resource marked
  type: list
  elements: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import (
    StackersModule,
    resource_plugins_argument_spec,
)
from ansible_collections.stackers.orchestration.plugins.module_utils.cloud_checker import CloudChecker

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.events import api_events
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import signal
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
except ImportError:
    signal = api_events = plugin_loader = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatResourceSignal(StackersModule):
    argument_spec = dict(
        stack=dict(type='str', required=True),
        resource=dict(type='str', required=True),
        data=dict(type='dict'),
        max_concurrency=dict(type='int', default=10),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
        lock_timeout=dict(type='int', default=0),
        mark_unhealthy=dict(type='bool'),
        reason=dict(type='str'),
    )
    argument_spec.update(resource_plugins_argument_spec())
    module_kwargs = dict(supports_check_mode=True, mutually_exclusive=[('data', 'mark_unhealthy')],
                         required_by={'reason': 'mark_unhealthy'})

    def run(self):
        if signal is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        # a signal may run the stack (a scaling policy resizes its group): the users' types first
        plugin_loader.load(plugin_loader.configured_dirs(p['resource_plugin_dirs']))
        conn = self.conn
        project_id = conn.current_project_id if hasattr(conn, 'current_project_id') else None
        request = signal.SignalRequest(
            p['stack'], p['resource'], data=p['data'], store_path=p['store_path'], store_url=p['store_url'],
            store_key=p['store_key'], lock_timeout=p['lock_timeout'],
            max_concurrency=p['max_concurrency'], check_mode=self.check_mode,
            mark_unhealthy=p['mark_unhealthy'], reason=p['reason'],
            project_id=project_id, checker=CloudChecker(conn))
        result = signal.signal(request, conn)
        if 'events' in result:
            result['events'] = api_events(result['events'])
        status = (result.get('stack') or {}).get('stack_status') or ''
        if status.endswith('_FAILED') and not self.check_mode and 'new_size' in result['signal']:
            self.fail('Stack %s %s after the signal: %s'
                      % (p['stack'], status, result['stack'].get('stack_status_reason')), **result)
        return result


def main():
    HeatResourceSignal()()


if __name__ == '__main__':
    main()
