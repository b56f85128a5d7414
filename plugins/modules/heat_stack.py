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
      - C(abandoned) is Heat's C(openstack stack abandon) - the stack's record (its nested stacks' too) is removed
        and every cloud resource is left as it is; RV(abandon_data) is what C(openstack stack adopt --adopt-file)
        reads. In check mode nothing is removed (Heat's C(openstack stack export)). A stack whose hidden
        parameters were given needs the O(store_key) it was written with.
    type: str
    choices: [present, absent, suspended, abandoned]
    default: present
  template:
    description:
      - Path to the HOT template. Required with O(state=present) unless O(existing=true) or O(adopt_data).
    type: path
  adopt_data:
    description:
      - "Heat's stack adopt (C(openstack stack adopt --adopt-file)): Heat's abandon data of a stack, as
        C(openstack stack abandon) prints it (a dict), from which the stack's record is made. The template,
        environment, files and parameters are the data's (O(parameters) are merged over its parameters), each
        resource takes the physical id (C(resource_id)) and data (C(resource_data)) the data gives it, nested
        stacks included."
      - Each resource's object is read from the cloud, and a missing one fails the adopt naming it; nothing in the
        cloud is created, changed or deleted. The stack ends C(ADOPT_COMPLETE), with Heat's events
        (C(Stack ADOPT started), each resource C(ADOPT_IN_PROGRESS) and C(ADOPT_COMPLETE)).
      - Refused when the store holds a stack of that name, and for a stack or resource whose status in the data
        is not C(COMPLETE). A failed adopt keeps no record.
      - Secrets in it (hidden parameters, random strings, private keys) are stored as any other secret of the
        store (see O(store_key)) and masked in what the module returns.
      - Afterwards O(template) (or O(existing=true)) manages the stack; a run with the same template changes
        nothing.
      - Only with O(state=present). M(stackers.orchestration.heat_service_abandon) reads it from a Heat service.
    type: dict
  environment:
    description: Environment files, merged in order (the C(-e) options of C(openstack stack create)).
    type: list
    elements: path
    default: []
  global_environment_dir:
    description:
      - A directory of environment files every stack gets before its own O(environment) files, as Heat's
        C(environment_dir) (C(/etc/heat/environment.d)) gives each stack the global environment - its C(*.yaml)
        files, in the order of their names. The stack's own files, and O(parameters), win over them.
      - Defaults to C($STACKERS_GLOBAL_ENVIRONMENT_DIR); neither set, there is none. A directory named but missing
        fails.
      - An operator's global C(resource_registry) (a type mapped to a provider template, say) goes here; so may
        C(parameter_defaults) common to every stack. M(stackers.orchestration.heat_stack) and
        M(stackers.orchestration.heat_template_validate) take it; set it once with C(module_defaults) or the
        environment variable.
    type: path
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
      - Compare the template with the cloud rather than the record (Heat's C(--converge)). Every recorded resource is
        read before updating; resources found gone or in error are replaced, as after Heat's C(stack check), and
        properties whose live value drifted from what the stack set are put back, in place where the type's
        update rules allow, else by a replacement.
      - "In check mode the plan names the drifted properties (C(drifted: name; updated in place))."
      - Without it the record is trusted, and drift (which check mode lists in C(check)) changes nothing.
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
  - stackers.orchestration.resource_plugins
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

- name: Hand it to a Heat service (then openstack stack adopt --adopt-file web.json web)
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: web
    state: abandoned
  no_log: true
  register: abandoned

- name: Keep the abandon data
  ansible.builtin.copy:
    content: "{{ abandoned.abandon_data | to_json }}"
    dest: web.json
    mode: '0600'
  no_log: true

- name: A stack using a resource type of your own (docs/plugins.md)
  stackers.orchestration.heat_stack:
    cloud: mycloud
    name: pages
    template: examples/plugins/swift_object/template.yaml
    resource_plugin_dirs:
      - examples/plugins/swift_object

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
snapshots:
  description:
    - What the run's deletes kept of resources whose C(deletion_policy) is C(Snapshot) (the stack's delete, a
      resource removed from the template or replaced, a rollback) - C(resource_name), C(resource_type),
      C(physical_resource_id) (the object deleted), and C(image_id), the Glance image of an C(OS::Nova::Server),
      or C(backup_id), the Cinder backup of an C(OS::Cinder::Volume); a nested stack's also C(stack_name).
    - The engine keeps no record of them once the resource is deleted; deleting them is the user's.
  returned: when a delete kept a snapshot
  type: list
  elements: dict
  sample:
    - {resource_name: server, resource_type: 'OS::Nova::Server', physical_resource_id: 9c5d2e1a-7b4f-4e8a-9d3c-1f2e3a4b5c6d,
       image_id: 5e0f9b3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b}
diff:
  description:
    - In diff mode, Ansible's list of diffs, one per resource that changes, which C(--diff) shows under its
      headers; each has C(resource_name), C(action), C(before_header) (the resource's name and type),
      C(after_header) (with the action and its reason), C(before) and C(after) (the resource's properties).
  returned: diff mode, when something changes
  type: list
  elements: dict
abandon_data:
  description:
    - With O(state=abandoned), Heat's abandon data of the stack - C(name), C(id), C(action), C(status),
      C(environment) (the user environment, hidden parameter values in clear), C(files), C(template) (a dict),
      C(resources) (per resource C(name), C(resource_id), C(type), C(action), C(status), C(metadata),
      C(resource_data); a nested stack's resource is its nested stack's abandon data), C(project_id),
      C(stack_user_project_id), C(tags).
    - It holds the stack's secrets in clear, as Heat's does (hidden parameter values, generated strings, private
      keys); run the task with C(no_log) and write the data to a file only the user reads (a warning says so
      otherwise).
  returned: with O(state=abandoned), when the stack existed
  type: dict
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
    diff_view,
    hidden_parameters,
    limits_argument_spec,
    secret_strings,
    limits_from,
    resource_plugins_argument_spec,
)
from ansible_collections.stackers.orchestration.plugins.module_utils.cloud_checker import CloudChecker
from ansible_collections.stackers.orchestration.plugins.module_utils.url_opener import url_opener

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.events import api_events
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import cancel, runner
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
except ImportError:
    runner = api_events = cancel = plugin_loader = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatStack(StackersModule):
    argument_spec = dict(
        name=dict(type='str', required=True),
        state=dict(type='str', default='present', choices=['present', 'absent', 'suspended', 'abandoned']),
        template=dict(type='path'),
        adopt_data=dict(type='dict'),
        environment=dict(type='list', elements='path', default=[]),
        global_environment_dir=dict(type='path'),
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
    argument_spec.update(resource_plugins_argument_spec())
    module_kwargs = dict(supports_check_mode=True)

    def run(self):
        if runner is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        # the users' types, before anything reads the template or the cloud
        plugin_loader.load(plugin_loader.configured_dirs(p['resource_plugin_dirs']))
        hidden = hidden_parameters(p['template'])
        self.hide(hidden)
        if p['adopt_data'] is not None:
            self._hide_adopt_secrets(p['adopt_data'])
            if p['state'] != 'present' or p['template'] or p['existing']:
                self.fail('adopt_data goes with state=present, without template and existing')
        elif p['state'] == 'present' and not p['template'] and not p['existing']:
            self.fail('state=present needs a template (or existing=true)')
        conn = self.learned_conn = self.conn
        project_id = conn.current_project_id if hasattr(conn, 'current_project_id') else None
        request = runner.StackRequest(
            name=p['name'], state=p['state'], template=p['template'],
            environment=p['environment'], global_environment_dir=p['global_environment_dir'],
            parameters=p['parameters'], files=p['files'],
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
            adopt_data=p['adopt_data'], cancel=cancel.CancelToken())
        # A SIGTERM (an AWX job cancelled, a kill) ends the run as a cancel
        # does, its lock released, instead of killing it with the lock held
        # until its lease runs out.
        with cancel.on_termination(request.cancel):
            result = runner.run(request, conn)
        result['events'] = api_events(result.get('events'))
        status = (result.get('stack') or {}).get('stack_status') or ''
        if self.ansible._diff and result.get('diff') is not None:
            result['diff'] = diff_view(result['diff'])
        if result.get('abandon_data') and not self.ansible.no_log and \
                self.secrets_returned(result['abandon_data']):
            self.ansible.warn('abandon_data holds the stack\'s secrets in clear (as Heat\'s abandon '
                              'data does): run this task with no_log: true')
        if result.get('failed_reason') and not self.check_mode:
            self.fail('Stack %s failed and was rolled back (%s): %s'
                      % (p['name'], status, result['failed_reason']), **result)
        if status.endswith('_FAILED') and not self.check_mode:
            self.fail('Stack %s %s: %s' % (p['name'], status, result['stack'].get('stack_status_reason')),
                      **result)
        return result

    def _hide_adopt_secrets(self, data):
        """Mask the secrets Heat's abandon data holds in clear (hidden
        parameters' values, the resources' secret data) from the start, so
        that an early failure prints none of them."""
        values = []
        for stack in _stacks_of(data):
            declared = (stack.get('template') or {}).get('parameters') or {}
            given = (stack.get('environment') or {}).get('parameters') or {}
            for name, schema in declared.items():
                if isinstance(schema, dict) and str(schema.get('hidden')).lower() == 'true':
                    values.extend([given.get(name), schema.get('default')])
            for entry in (stack.get('resources') or {}).values():
                if isinstance(entry, dict) and 'template' not in entry:
                    found = entry.get('resource_data') or {}
                    values.extend(found.get(key) for key in SECRET_DATA_KEYS)
                    if entry.get('type') == 'OS::Heat::RandomString':
                        values.append(found.get('value'))
        self.ansible.no_log_values.update(secret_strings(values))


# Heat's resource_data keys that hold secrets (data_set(..., redact=True)
# in Heat's plugins: random_string.py, keypair.py, server_base.py,
# stack_user.py, wait_condition_handle.py)
SECRET_DATA_KEYS = ('private_key', 'password', 'secret_key', 'access_key', 'token',
                    'credential_id')


def _stacks_of(data):
    """A stack's abandon data and its nested stacks' (their resources'
    entries are their abandon dicts)."""
    if not isinstance(data, dict):
        return
    yield data
    for entry in (data.get('resources') or {}).values():
        if isinstance(entry, dict) and 'template' in entry:
            yield from _stacks_of(entry)


def main():
    HeatStack()()


if __name__ == '__main__':
    main()
