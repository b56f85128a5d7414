#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_stack
short_description: Create, update, check, suspend, resume and delete OpenStack Heat stacks without a Heat service
version_added: 0.1.0
description:
  - Runs a Heat Orchestration Template (HOT) the way Heat does, with no Heat service in the cloud. The collection
    parses the template, builds the dependency graph and creates, updates and deletes every resource through the
    cloud's own APIs, in parallel.
  - The stack's record (resources, events, outputs) is kept in a local state store (an SQLite file, see
    O(store_path)).
  - Check mode is Heat's C(stack check) plus a plan; diff mode shows what changes per resource.
  - A running create or update is cancelled from another process by M(stackers.orchestration.heat_stack_cancel)
    (Heat's C(openstack stack cancel)). A SIGTERM or SIGINT to the module's process (an AWX job cancelled, a
    C(kill)) ends the run the same way without rollback - the steps running end, nothing else starts, the stack
    ends C(*_FAILED) with C(Stack UPDATE cancelled) (or C(CREATE)) and its lock is released; a second signal acts
    as usual. A SIGKILL leaves the lock to its lease.
options:
  name:
    description: The stack's name. Heat's rules apply - it starts with a letter and holds letters, digits, C(_), C(-) and C(.).
    type: str
    required: true
  state:
    description:
      - C(present) creates the stack or updates it to the template. A suspended stack is resumed first; with nothing
        else changed it ends C(RESUME_COMPLETE), as Heat's C(stack resume) leaves it.
      - C(absent) deletes the stack and every resource it made (deletion policies honoured).
      - C(suspended) suspends every resource (servers are suspended) in reverse dependency order.
    type: str
    choices: [present, absent, suspended]
    default: present
  template:
    description:
      - Path to the HOT template. Required with O(state=present) unless O(existing=true).
    type: path
  environment:
    description: Environment files, merged in order (the C(-e) options of C(openstack stack create)).
    type: list
    elements: path
    default: []
  parameters:
    description: Parameter values, applied on top of the environment files' C(parameters).
    type: dict
    default: {}
  files:
    description:
      - Contents of files the template reads with C(get_file), keyed by the name it uses.
      - Names not given here are read from disk beneath the template's directory (and O(files_allowed_paths)) only.
    type: dict
    default: {}
  timeout:
    description: Seconds the whole stack action may take (Heat's C(timeout_mins), in seconds). Past it the
      stack fails with C(Timed out) and, with O(rollback), rolls back.
    type: int
    default: 3600
  rollback:
    description:
      - On a failed create, delete what was made; on a failed update, converge back to the previous
        template, environment and parameters (Heat's C(--enable-rollback) / C(--rollback enabled)).
    type: bool
    default: false
  existing:
    description:
      - Heat's PATCH update (C(openstack stack update --existing)) - reuse the stored template, environment and
        parameters, merging what is given.
    type: bool
    default: false
  clear_parameters:
    description: With O(existing), parameters to drop from the stored ones (back to their defaults).
    type: list
    elements: str
    default: []
  tags:
    description: The stack's tags.
    type: list
    elements: str
  max_concurrency:
    description:
      - How many resource steps (calls to the cloud) may run at once. A resource waiting for the cloud (a building
        server) holds no slot, so hundreds may build at the same time.
      - Heat runs every resource whose dependencies are met; this bounds the requests instead.
      - Steps of resources that exist only in the stack record (C(OS::Heat::None), C(OS::Heat::RandomString),
        C(OS::Heat::Value)...) make no request and take no slot; they run beside the others.
    type: int
    default: 10
  action_retry_limit:
    description:
      - "How many times a resource whose object goes to an error status while it is created (a server or volume in
        C(ERROR), Heat's C(ResourceInError)) is deleted and created again before its create fails, as Heat's
        C(action_retry_limit) in C(heat.conf). Each try waits 2**n seconds and up to 2 more; the events show
        C(CREATE_FAILED), C(DELETE_IN_PROGRESS), C(DELETE_COMPLETE) and C(CREATE_IN_PROGRESS) again."
      - When every try is spent, the first failure is the resource's. C(0) never retries.
      - A refused request or an invalid property is never retried this way.
    type: int
    default: 5
  nested_depth:
    description:
      - How many levels of nested stacks' resources the returned C(resources) lists, as
        C(openstack stack resource list --nested-depth N) lists them. C(0) lists the stack's own resources only.
      - Each nested one also has C(parent_resource) (the resource of the stack above that holds its stack),
        C(stack_name) and C(stack_id) (its own stack).
      - Events always include the nested stacks' (with their C(stack_name)).
    type: int
    default: 0
  converge:
    description:
      - Read every recorded resource from the cloud before updating (Heat's C(--converge)); resources found gone or
        in error are replaced, as after Heat's C(stack check).
    type: bool
    default: false
  store_path:
    description:
      - The SQLite file keeping stack records. Defaults to C($STACKERS_STORE), else
        C(~/.local/state/stackers/stacks.sqlite).
    type: path
  store_key:
    description:
      - A secret that encrypts the secrets kept in the store. Without it (and without C($STACKERS_STORE_KEY)),
        hidden parameter values are not stored at all (an O(existing) update needs them again), and generated
        secrets (random strings, private keys) are encrypted with a key file beside the store (C(<store_path>.key)).
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
  - stackers.orchestration.limits
attributes:
  check_mode:
    support: full
    description: Reads the cloud (stack check) and returns RV(plan); nothing is changed or written.
  diff_mode:
    support: full
    description: Returns before/after properties per resource, replacements called out.
'''

EXAMPLES = r'''
- name: Create or update a stack
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    template: templates/web.yaml
    environment:
      - templates/env/prod.yaml
    parameters:
      flavor: m1.small
  register: web

- name: Show an output
  ansible.builtin.debug:
    msg: "{{ web.stack.outputs | selectattr('output_key', '==', 'url') | map(attribute='output_value') | first }}"

- name: What would an update do (stack check and plan)
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    template: templates/web.yaml
  check_mode: true
  register: plan

- name: Change one parameter, keep everything else as stored
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    existing: true
    parameters:
      flavor: m1.medium

- name: Suspend it
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    state: suspended

- name: Delete it
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    state: absent
'''

RETURN = r'''
stack:
  description:
    - The stack as Heat's API shows it - C(id), C(stack_name), C(stack_status), C(stack_status_reason),
      C(creation_time), C(updated_time), C(parameters) (hidden values masked), C(outputs) (a list of
      C(output_key), C(output_value), C(description)), C(tags), C(timeout_mins), C(disable_rollback).
    - In check mode C(stack_status) is C(CHECK_COMPLETE) or C(CHECK_FAILED).
  returned: when the stack exists
  type: dict
resources:
  description:
    - The stack's resources (C(resource_name), C(resource_type), C(physical_resource_id),
      C(resource_status), C(resource_status_reason), C(updated_time), C(required_by)).
    - With O(nested_depth), those of its nested stacks follow, each with C(parent_resource), C(stack_name) and
      C(stack_id).
  returned: always
  type: list
  elements: dict
events:
  description:
    - This run's events in the order they happened, in the shape of Heat's API, as
      M(stackers.orchestration.heat_stack_info) lists them - C(id), C(resource_name), C(logical_resource_id),
      C(physical_resource_id), C(resource_status) (action and status joined, C(CREATE_COMPLETE)),
      C(resource_status_reason), C(event_time); a nested stack's also C(stack_name).
    - A rerun that changes nothing has none.
  returned: always
  type: list
  elements: dict
plan:
  description:
    - In check mode, what a run would do per resource - C(resource_name), C(resource_type), C(action) (one of
      C(create), C(update), C(replace), C(delete), C(keep)) and C(reason), why.
    - "C(reason) is C(new) for a create, C(unchanged) for a keep, C(not in the template) for a delete, and for an
      update or a replacement the properties that changed and, for a replacement, the rule of the type that needs
      it (C(changed: image; replaced: image cannot change in place))."
  returned: check mode
  type: list
  elements: dict
  sample:
    - {resource_name: server, resource_type: 'OS::Nova::Server', action: update,
       reason: 'changed: flavor; updated in place'}
    - {resource_name: port, resource_type: 'OS::Neutron::Port', action: replace,
       reason: 'changed: network; replaced: network cannot change in place'}
    - {resource_name: old, resource_type: 'OS::Heat::Value', action: delete, reason: not in the template}
diff:
  description:
    - In diff mode, Ansible's list of diffs, one per resource that changes, which C(--diff) shows under its
      headers; each has C(resource_name), C(action), C(before_header) (the resource's name and type),
      C(after_header) (with the action and its reason), C(before) and C(after) (the resource's properties).
  returned: diff mode, when something changes
  type: list
  elements: dict
check:
  description: In check mode, Heat's stack check per recorded resource - C(resource_status) C(CHECK_COMPLETE) or
    C(CHECK_FAILED) with the reason, and C(drift), the properties whose live value differs.
  returned: check mode
  type: list
  elements: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import (
    StackersModule,
    hidden_parameters,
    limits_argument_spec,
    limits_from,
)
from ansible_collections.stackers.orchestration.plugins.module_utils.cloud_checker import CloudChecker
from ansible_collections.stackers.orchestration.plugins.module_utils.url_opener import url_opener

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.events import api_events
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import cancel, runner
except ImportError:
    runner = api_events = cancel = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


def diff_view(changes):
    """Ansible's list of diffs, one per resource that changes: its properties
    before and after, under headers naming the resource and what happens to
    it (a replacement is a new physical resource)."""
    out = []
    for change in changes:
        name = '%s (%s)' % (change['resource_name'], change['resource_type'])
        out.append({'resource_name': change['resource_name'], 'action': change['action'],
                    'before_header': name,
                    'after_header': '%s: %s, %s' % (name, change['action'], change['reason']),
                    'before': change['before'] if change['before'] is not None else {},
                    'after': dict(change['after']) if change['after'] is not None else {}})
    return out


class HeatStack(StackersModule):
    argument_spec = dict(
        name=dict(type='str', required=True),
        state=dict(type='str', default='present', choices=['present', 'absent', 'suspended']),
        template=dict(type='path'),
        environment=dict(type='list', elements='path', default=[]),
        parameters=dict(type='dict', default={}),
        files=dict(type='dict', default={}),
        timeout=dict(type='int', default=3600),
        rollback=dict(type='bool', default=False),
        existing=dict(type='bool', default=False),
        clear_parameters=dict(type='list', elements='str', default=[], no_log=False),
        tags=dict(type='list', elements='str'),
        max_concurrency=dict(type='int', default=10),
        action_retry_limit=dict(type='int', default=5),
        nested_depth=dict(type='int', default=0),
        converge=dict(type='bool', default=False),
        store_path=dict(type='path'),
        store_url=dict(type='str'),
        store_key=dict(type='str', no_log=True),
        lock_timeout=dict(type='int', default=0),
    )
    argument_spec.update(limits_argument_spec())
    module_kwargs = dict(supports_check_mode=True)

    def run(self):
        if runner is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        hidden = hidden_parameters(p['template'])
        self.hide(hidden)
        if p['state'] == 'present' and not p['template'] and not p['existing']:
            self.fail('state=present needs a template (or existing=true)')
        conn = self.learned_conn = self.conn
        project_id = conn.current_project_id if hasattr(conn, 'current_project_id') else None
        request = runner.StackRequest(
            name=p['name'], state=p['state'], template=p['template'],
            environment=p['environment'], parameters=p['parameters'], files=p['files'],
            timeout=p['timeout'], rollback=p['rollback'], existing=p['existing'],
            clear_parameters=p['clear_parameters'], tags=p['tags'],
            max_concurrency=p['max_concurrency'], limits=limits_from(p),
            action_retry_limit=max(0, p['action_retry_limit']),
            files_allowed_paths=p['files_allowed_paths'], files_allowed_urls=p['files_allowed_urls'],
            url_opener=url_opener(p),
            nested_depth=p['nested_depth'], store_path=p['store_path'], store_url=p['store_url'],
            store_key=p['store_key'], lock_timeout=p['lock_timeout'], converge=p['converge'],
            check_mode=self.check_mode, diff=self.ansible._diff, project_id=project_id,
            checker=CloudChecker(conn),
            region_name=getattr(getattr(conn, 'config', None), 'region_name', None),
            cancel=cancel.CancelToken())
        # A SIGTERM (an AWX job cancelled, a kill) ends the run as a cancel
        # does, its lock released, instead of killing it with the lock held
        # until its lease runs out.
        with cancel.on_termination(request.cancel):
            result = runner.run(request, conn)
        result['events'] = api_events(result.get('events'))
        status = (result.get('stack') or {}).get('stack_status') or ''
        if self.ansible._diff and result.get('diff') is not None:
            result['diff'] = diff_view(result['diff'])
        if result.get('failed_reason') and not self.check_mode:
            self.fail('Stack %s failed and was rolled back (%s): %s'
                      % (p['name'], status, result['failed_reason']), **result)
        if status.endswith('_FAILED') and not self.check_mode:
            self.fail('Stack %s %s: %s' % (p['name'], status, result['stack'].get('stack_status_reason')),
                      **result)
        return result


def main():
    HeatStack()()


if __name__ == '__main__':
    main()
