#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_resource_type_info
short_description: List and show the resource types, as C(openstack orchestration resource type list/show) do
version_added: 0.2.0
description:
  - Answers what C(openstack orchestration resource type list) and C(resource type show) answer, in the shapes of
    Heat's API, for every resource type Heat 27 knows and each type the collection's plugins add. Each type is
    marked RV(resource_types[].supported_here) - whether M(stackers.orchestration.heat_stack) can create it
    (a resource plugin of the collection or of the user's O(resource_plugin_dirs), or a group or stack it runs as
    a nested stack). Heat knows more types than
    the collection creates; M(stackers.orchestration.heat_template_validate) accepts them all, M(stackers.orchestration.heat_stack)
    refuses the others before it calls the cloud.
  - Without O(name), RV(resource_types) lists the types (Heat's HIDDEN ones never). With O(name),
    RV(resource_type) shows one, and with O(template_type) RV(template) is a template that uses it.
  - Nothing is read from the cloud or the state store; the connection options are taken (and unused) so that the
    module is in the action group C(stackers.orchestration.openstack) with the others. Heat lists only the types whose service is in the cloud's
    catalog and that the policy lets the user see; this list is Heat's with every service there (see the
    collection's docs/differences.md).
  - Heat's descriptions (a type's doc, its properties' and attributes' descriptions, its support status message)
    are Heat's own text and are not carried - the keys are there, with C('') (a type's C(description) is Heat's
    own C(No description available); a support status C(message) is C('') where Heat has one, null where it has
    none). A type of the user's plugins carries its own texts - its class's doc, the descriptions its schemas
    declare. See the collection's docs/differences.md.
  - M(stackers.orchestration.heat_template_version_info) answers C(template version list) and
    C(template function list).
options:
  name:
    description:
      - The resource type to show (C(openstack orchestration resource type show TYPE)), e.g. C(OS::Nova::Server).
        Without it, the types are listed.
      - An unknown type fails with Heat's message; a HIDDEN type fails as C(TYPE is not supported.).
    type: str
  filters:
    description: Heat's filters of the list (C(resource type list --filter KEY=VALUE)), all given must match.
    type: dict
    suboptions:
      name:
        description:
          - A regular expression the type's name must match from its start (Heat's C(re.match)), e.g.
            C(OS::Neutron::). A pattern that is not a valid expression matches nothing, as in Heat.
        type: str
      version:
        description: The Heat release of the type's support status, e.g. C(2014.1) or C(5.0.0).
        type: str
      support_status:
        description: The type's support status.
        type: str
        choices: [SUPPORTED, DEPRECATED, UNSUPPORTED, UNKNOWN, HIDDEN]
  long:
    description:
      - Add each type's C(description), Heat's C(--long) (the API's C(with_description)).
      - With O(name) too, although Heat 27's API drops it there (its C(resource type show --long) prints no
        description).
    type: bool
    default: false
  template_type:
    description:
      - With O(name), also return RV(template), the template Heat generates for the type
        (C(resource type show TYPE --template-type hot|cfn)) - one resource of the type, each property a
        parameter, each attribute an output.
      - Heat 27 generates none for a type with a property of type C(Any) (C(OS::Heat::Value)); that fails here,
        saying so.
    type: str
    choices: [hot, cfn]
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
  - stackers.orchestration.resource_plugins
attributes:
  check_mode:
    support: full
    description: Reads only; the same answer in check mode.
  diff_mode:
    support: none
    description: No diff is returned.
'''

EXAMPLES = r'''
- name: Every type, as resource type list shows it
  stackers.orchestration.heat_resource_type_info:
  register: types

- name: The Neutron types the collection can create
  ansible.builtin.debug:
    msg: "{{ types.resource_types | selectattr('supported_here') | map(attribute='resource_type')
             | select('match', 'OS::Neutron::') | list }}"

- name: The deprecated types
  stackers.orchestration.heat_resource_type_info:
    filters:
      support_status: DEPRECATED

- name: The types of my plugins, with their descriptions (their classes' docs)
  stackers.orchestration.heat_resource_type_info:
    filters:
      name: 'My::'
    long: true
    resource_plugin_dirs: [/opt/stack-plugins]

- name: A server's properties and attributes, and a HOT template that uses it
  stackers.orchestration.heat_resource_type_info:
    name: OS::Nova::Server
    template_type: hot
  register: server

- name: Its required properties
  ansible.builtin.debug:
    msg: "{{ server.resource_type.properties | dict2items | selectattr('value.required') | map(attribute='key') }}"
'''

RETURN = r'''
resource_types:
  description:
    - Without O(name), the types Heat's C(resource type list) shows, sorted by name.
  returned: without O(name)
  type: list
  elements: dict
  contains:
    resource_type:
      description: The type's name.
      type: str
      sample: OS::Nova::Server
    supported_here:
      description: Whether M(stackers.orchestration.heat_stack) can create the type.
      type: bool
    description:
      description:
        - The type's description, with O(long) - a plugin's class doc; C(No description available) for Heat's
          types (Heat's docs are not carried).
      type: str
      returned: with O(long)
resource_type:
  description:
    - The type as C(resource type show) shows it - C(resource_type), C(properties) and C(attributes) (each keyed by
      name, in Heat's shape - a property's C(type), C(description), C(default), C(required), C(update_allowed),
      C(immutable), C(constraints) and nested C(schema); an attribute's C(type) and C(description)) and
      C(support_status) (C(status), C(version), C(message), C(previous_status)); with O(long) its C(description).
    - The descriptions and messages of Heat's types are C('') (Heat's text is not carried), a plugin type's are
      those its schemas declare.
    - C(supported_here) as in RV(resource_types).
  returned: with O(name)
  type: dict
  sample:
    resource_type: OS::Heat::RandomString
    properties:
      length:
        type: integer
        default: 32
        required: false
        update_allowed: false
        immutable: false
        description: ''
        constraints: [{range: {min: 1, max: 512}}]
    attributes:
      value: {type: string, description: ''}
    support_status: {status: SUPPORTED, version: null, message: null, previous_status: null}
    supported_here: true
template:
  description: The template Heat generates for the type, as a dict (HOT or CFN as O(template_type) says).
  returned: with O(name) and O(template_type)
  type: dict
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import (
    StackersModule,
    resource_plugins_argument_spec,
)

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import catalogue
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
except ImportError:
    catalogue = plugin_loader = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatResourceTypeInfo(StackersModule):
    argument_spec = dict(
        name=dict(type='str'),
        filters=dict(type='dict', options=dict(
            name=dict(type='str'),
            version=dict(type='str'),
            support_status=dict(type='str', choices=['SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'UNKNOWN',
                                                     'HIDDEN']),
        )),
        long=dict(type='bool', default=False),
        template_type=dict(type='str', choices=['hot', 'cfn']),
    )
    argument_spec.update(resource_plugins_argument_spec())
    module_kwargs = dict(supports_check_mode=True, required_by={'template_type': 'name'},
                         mutually_exclusive=[('name', 'filters')])

    def run(self):
        if catalogue is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        # The user's resource plugins join hot/resource_types and
        # resources/registry in place, and catalogue reads both at each call:
        # loading them here, before the answer, is all they need to be listed.
        plugin_loader.load(plugin_loader.configured_dirs(p['resource_plugin_dirs']))
        if not p['name']:
            filters = p['filters'] or {}
            return {'changed': False, 'resource_types': catalogue.list_types(
                name=filters.get('name'), version=filters.get('version'),
                support_status=filters.get('support_status'), with_description=p['long'])}
        result = {'changed': False, 'resource_type': catalogue.show_type(p['name'], with_description=p['long'])}
        if p['template_type']:
            result['template'] = catalogue.generate_template(p['name'], p['template_type'])
        return result


def main():
    HeatResourceTypeInfo()()


if __name__ == '__main__':
    main()
