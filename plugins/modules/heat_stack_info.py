#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack_info
short_description: List and show stacks run by heat_stack, as the C(openstack stack) commands do
version_added: 0.2.0
description:
  - Answers what C(openstack stack list), C(stack show), C(stack resource list), C(stack resource show),
    C(stack event list), C(stack output show), C(stack template show), C(stack environment show) and
    C(stack failures list) answer, in the shapes of Heat's API, for the stacks M(stackers.orchestration.heat_stack)
    keeps in its state store.
  - Only the state store is read; the cloud is not called, no lock is taken and nothing is written. It may run
    while M(stackers.orchestration.heat_stack) changes the same stack; it then sees the record as of that run's
    last committed change.
  - Without O(name), RV(stacks) lists the stacks. With O(name), RV(stack), RV(resources) and RV(events) show
    that stack, and the other options add what they ask for.
  - Hidden parameter values are shown as C(******), as Heat shows them.
options:
  name:
    description:
      - The stack to show. Without it, the stacks are listed.
      - A stack that is not in the store fails, naming the stack and the store (but with O(follow)).
    type: str
  filters:
    description:
      - Without O(name), which stacks to list, as C(openstack stack list --property KEY=VALUE --tags) selects them.
      - C(name), C(status) and C(action) take a value or a list of values; C(status) matches C(COMPLETE) as well as
        C(CREATE_COMPLETE), C(action) matches C(CREATE).
      - C(tags) lists the stacks holding every tag given, C(tags_any) those holding at least one.
    type: dict
    default: {}
  show_nested:
    description: Without O(name), list nested stacks too, each with its C(parent) (C(openstack stack list --nested)).
    type: bool
    default: false
  nested_depth:
    description:
      - How many levels of nested stacks RV(resources) and RV(events) reach, as C(--nested-depth N) of
        C(openstack stack resource list) and C(stack event list). C(0) shows the stack's own only.
      - With a depth, each resource and event has the C(stack_name) of its stack, and the resources of a nested
        stack their C(parent_resource).
    type: int
    default: 0
  resource_filters:
    description:
      - Which resources RV(resources) lists, as C(openstack stack resource list --filter KEY=VALUE).
      - Keys C(name), C(type) (matches part of the type name, as Heat does), C(status), C(action) and
        C(physical_resource_id), each a value or a list of values.
    type: dict
    default: {}
  resource:
    description: A resource of the stack to show in RV(resource) (C(openstack stack resource show)).
    type: str
  event_resource:
    description: List only this resource's events (C(openstack stack event list --resource)); not with O(nested_depth).
    type: str
  marker:
    description: List only the events after the event of this id (C(--marker)).
    type: str
  limit:
    description: List at most this many events (C(--limit)).
    type: int
  sort:
    description:
      - Order of RV(events), as C(--sort KEY[:asc|desc]) of C(openstack stack event list); several keys sort on
        each in turn. C(:desc) alone is by time, newest first. Without it, events are listed oldest first.
      - Keys C(event_time), C(resource_name), C(logical_resource_id), C(resource_status), C(resource_status_reason),
        C(physical_resource_id), C(id).
    type: list
    elements: str
  output:
    description: An output of the stack to show in RV(output) (C(openstack stack output show)).
    type: str
  follow:
    description:
      - One look of C(openstack stack event list --follow) at stack O(name) - give C({}) to the first look, then
        to each next one the RV(follow) the last answered, until its C(done) is true. C(playbooks/events.yml)
        with C(-e follow=true) is that loop.
      - Each look returns in RV(events) only the events not returned before (oldest first, each once, O(nested_depth)
        levels down), in RV(stack) the stack as RV(stacks) lists them, and in RV(follow) the state for the next look.
      - A stack not in the store yet is waited for (no failure; RV(stack) is absent) and its create followed. A
        stack in progress is followed to the end of its action. A stack that is not in progress at the first look
        shows its events so far, then the follow goes on through its next action (an update, a suspend, a delete)
        to that action's end, as C(openstack stack event list --follow) does.
      - A stack deleted while followed is read by its id from what its delete left in the store (for a day), so its
        last events and C(DELETE_COMPLETE) are shown and the follow ends. A stack that left the store with nothing
        kept (moved by M(stackers.orchestration.heat_stack_migrate)) fails, naming it.
      - With O(nested_depth), a nested stack deleted while followed (its holder deleted, or dropped by an update) is
        read from what its delete left (for a day, under its top-level stack), so its events, its delete's too, are
        shown once each. The first look's events so far include the nested stacks deleted in the last day, which
        the list without O(follow) leaves out, as Heat does.
      - A rerun of M(stackers.orchestration.heat_stack) that changes nothing records nothing, so it is no action to
        follow - the follow goes on waiting.
      - Not with O(event_resource), O(marker), O(limit) or O(sort).
    type: dict
  template:
    description: Return the stack's template in RV(template) (C(openstack stack template show)).
    type: bool
    default: false
  environment:
    description: Return the stack's environment in RV(environment) (C(openstack stack environment show)).
    type: bool
    default: false
  failures:
    description: Return the stack's failed resources in RV(failures) (C(openstack stack failures list)).
    type: bool
    default: false
  hooks:
    description:
      - Return the resources held at a hook in RV(hooks) (C(openstack stack hook poll)); with O(nested_depth), those
        of nested stacks too.
      - The stack must be in progress (a run ended at hooks); the hook is its action's - C(pre-create),
        C(pre-update) or C(pre-delete), as heatclient polls.
    type: bool
    default: false
  export:
    description:
      - Return stack O(name)'s Heat abandon data in RV(abandon_data) without removing anything (C(openstack stack
        export)), as M(stackers.orchestration.heat_stack) with O(stackers.orchestration.heat_stack#module:state=abandoned)
        answers it in check mode - that module is what runs (the data needs each resource type's plugin, which this
        one does not load). The data holds the stack's secrets in clear, as Heat's does; a warning says so unless the
        task has C(no_log).
      - Takes only O(name), the store and the cloud options.
    type: bool
    default: false
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite). A store that does not exist holds no stack; it is not created.
    type: path
  store_key:
    description: The secret the stack's secrets were stored with (see M(stackers.orchestration.heat_stack)); needed
      to read the outputs of a stack created with one.
    type: str
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
  - stackers.orchestration.store
notes:
  - The auth options are accepted so that C(module_defaults) set for the collection apply; the cloud is not called
    (but for reading a O(store_url) store in Swift).
  - The stack's description, parameters (the pseudo parameter C(OS::project_id), the project it was created in,
    included) and environment show as M(stackers.orchestration.heat_stack) recorded them with the stack. A stack
    recorded by a release before they were kept shows the parameters given and no environment, until any
    M(stackers.orchestration.heat_stack) run on it (a rerun with the same inputs changes nothing else).
attributes:
  check_mode:
    support: full
    description: Reads only; the same answer in check mode.
  diff_mode:
    support: none
    description: Nothing changes, so there is nothing to compare.
'''

EXAMPLES = r'''
- name: List the stacks (openstack stack list)
  stackers.orchestration.heat_stack_info:
    filters:
      status: COMPLETE
  register: listed

- name: Show a stack with its resources and events two levels down
  stackers.orchestration.heat_stack_info:
    name: web
    nested_depth: 2
  register: web

- name: Print the outputs
  ansible.builtin.debug:
    msg: "{{ web.stack.outputs | items2dict(key_name='output_key', value_name='output_value') }}"

- name: Why did it fail (openstack stack failures list)
  stackers.orchestration.heat_stack_info:
    name: web
    failures: true
  register: failed

- name: One look of a follower (playbooks/events.yml -e follow=true loops on it)
  stackers.orchestration.heat_stack_info:
    name: web
    follow: "{{ last_look.follow | default({}) }}"
  register: last_look

- name: The last five events of one server, newest first
  stackers.orchestration.heat_stack_info:
    name: web
    event_resource: server
    sort: [":desc"]
    limit: 5

- name: Heat's abandon data, nothing removed (openstack stack export)
  stackers.orchestration.heat_stack_info:
    name: web
    export: true
  no_log: true
  register: exported
'''

RETURN = r'''
abandon_data:
  description:
    - With O(export), Heat's abandon data of the stack, as M(stackers.orchestration.heat_stack) returns it with
      O(stackers.orchestration.heat_stack#module:state=abandoned) - what C(openstack stack adopt --adopt-file) reads.
  returned: with export
  type: dict
stacks:
  description:
    - Without O(name), the stacks newest first, as Heat's API lists them - C(id), C(stack_name), C(description),
      C(stack_status), C(stack_status_reason), C(creation_time), C(updated_time), C(parent), C(tags).
  returned: without name
  type: list
  elements: dict
follow:
  description:
    - With O(follow), what the next look needs - give it back as O(follow). Its C(done) is true once the action
      followed has ended and the stack is no longer in progress; C(stack_id) is the stack's once seen.
  returned: with follow
  type: dict
stack:
  description:
    - With O(follow), the stack as RV(stacks) lists it (C(DELETE_COMPLETE) once deleted); absent until it exists.
    - The stack as C(openstack stack show) shows it - C(id), C(stack_name), C(description), C(stack_status),
      C(stack_status_reason), C(creation_time), C(updated_time), C(parameters) (hidden values C(******)),
      C(outputs) (C(output_key), C(output_value), C(description), C(output_error) when it has none), C(tags),
      C(timeout_mins), C(disable_rollback), C(parent).
  returned: with name, once the stack exists
  type: dict
resources:
  description:
    - The stack's resources as C(openstack stack resource list) lists them - C(resource_name), C(resource_type),
      C(physical_resource_id), C(resource_status), C(resource_status_reason), C(creation_time), C(updated_time),
      C(required_by); with O(nested_depth) also C(stack_name), C(stack_id) and for nested ones C(parent_resource).
  returned: with name, not with follow
  type: list
  elements: dict
events:
  description:
    - The stack's events, oldest first unless O(sort), as C(openstack stack event list) lists them - C(id),
      C(resource_name), C(logical_resource_id), C(physical_resource_id), C(resource_status) (C(CREATE_COMPLETE)),
      C(resource_status_reason), C(event_time); with O(nested_depth) also C(stack_name).
    - With O(follow), only those no look returned before.
  returned: with name
  type: list
  elements: dict
resource:
  description: The resource O(resource) as C(openstack stack resource show) shows it - as in RV(resources), plus
    C(description), C(metadata) and C(attributes) (those the store recorded).
  returned: with resource
  type: dict
output:
  description: The output O(output) - C(output_key), C(output_value), C(description) (and C(output_error)).
  returned: with output
  type: dict
template:
  description: The stack's template, as data.
  returned: with template
  type: dict
environment:
  description: The stack's environment - C(parameters), C(parameter_defaults), C(resource_registry),
    C(event_sinks) (hidden values C(******)).
  returned: with environment
  type: dict
hooks:
  description:
    - The events of the resources a hook of the stack's action holds, oldest first, each as in RV(events); a
      hook cleared since is not listed. Clear one with M(stackers.orchestration.heat_resource_signal), its
      O(stackers.orchestration.heat_resource_signal#module:data) naming C(unset_hook).
  returned: with hooks
  type: list
  elements: dict
failures:
  description:
    - The failed resources of a FAILED stack, keyed by their dotted path from the stack's name; a nested stack's
      failed resource stands for its holder - C(resource_type), C(physical_resource_id), C(status),
      C(status_reason), and a software deployment's C(deploy_stdout), C(deploy_stderr), C(deploy_status_code)
      when recorded.
  returned: with failures
  type: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import info
except ImportError:
    info = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStackInfo(StackersModule):
    argument_spec = dict(
        name=dict(type='str'),
        filters=dict(type='dict', default={}),
        show_nested=dict(type='bool', default=False),
        nested_depth=dict(type='int', default=0),
        resource_filters=dict(type='dict', default={}),
        resource=dict(type='str'),
        event_resource=dict(type='str'),
        marker=dict(type='str'),
        limit=dict(type='int'),
        sort=dict(type='list', elements='str'),
        output=dict(type='str'),
        template=dict(type='bool', default=False),
        environment=dict(type='bool', default=False),
        failures=dict(type='bool', default=False),
        hooks=dict(type='bool', default=False),
        export=dict(type='bool', default=False),
        follow=dict(type='dict'),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
    )
    module_kwargs = dict(supports_check_mode=True)

    def run(self):
        if info is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        if p['export']:
            self.fail('export is answered by the heat_stack_info action plugin on the controller, which runs '
                      'stackers.orchestration.heat_stack instead: run this module through Ansible')
        request = info.InfoRequest(
            p['name'], store_path=p['store_path'], store_url=p['store_url'], store_key=p['store_key'], filters=p['filters'],
            show_nested=p['show_nested'], nested_depth=p['nested_depth'],
            resource_filters=p['resource_filters'], resource=p['resource'],
            event_resource=p['event_resource'], marker=p['marker'], limit=p['limit'], sort=p['sort'],
            output=p['output'], template=p['template'], environment=p['environment'],
            failures=p['failures'], hooks=p['hooks'], follow=p['follow'])
        return info.info(request, self.conn if p['store_url'] else None)


def main():
    HeatStackInfo()()


if __name__ == '__main__':
    main()
