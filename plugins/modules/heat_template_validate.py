#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_template_validate
short_description: Validate an OpenStack Heat (HOT) template without a Heat service
version_added: 0.1.0
description:
  - Checks a Heat Orchestration Template, its environment files and parameter values the way
    C(openstack orchestration template validate) does, but locally, with no Heat service.
  - Returns the template's description, parameters and parameter groups in the shape that command prints.
  - An invalid template fails the task with a message naming the file, the line and the path inside the document.
  - Like that command, it does not check the parameter values given against their types and constraints, nor
    property values against the resource types; set O(strict) to also make the checks Heat makes when it creates a
    stack. Without O(strict), RV(not_checked) lists what was left to stack create.
  - With O(strict), custom constraints that need a service (C(nova.flavor), C(glance.image), ...) are checked
    against the cloud when O(cloud) or O(auth) is given; otherwise they are listed in RV(not_checked).
options:
  strict:
    description:
      - Also validate as Heat does when it creates a stack, before any resource is made, not only as
        C(openstack orchestration template validate) does.
      - Parameter values are then checked against their types and constraints (a missing value is an error),
        every resource's properties are resolved and checked against its type's schema, and Heat's implicit
        dependencies are computed (so their cycles are found).
    type: bool
    default: false
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.template
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
  - stackers.orchestration.limits
  - stackers.orchestration.resource_plugins
attributes:
  check_mode:
    support: full
    description: Validation never changes anything; check mode returns the same result.
  diff_mode:
    support: none
    description: Nothing changes, so there is nothing to show a difference of.
'''

EXAMPLES = r'''
- name: Validate a template and its environment
  stackers.orchestration.heat_template_validate:
    template: templates/server.yaml
    environment:
      - templates/env/production.yaml
    parameters:
      flavor: m1.small
  register: validated

- name: Show the parameters the template takes
  ansible.builtin.debug:
    var: validated.Parameters

- name: Validate as stack create would, with service constraints (flavor, image, network) checked in the cloud
  stackers.orchestration.heat_template_validate:
    cloud: mycloud
    strict: true
    template: templates/server.yaml
    parameters:
      image: cirros
      flavor: m1.tiny

- name: Give get_file contents from the playbook instead of the disk
  stackers.orchestration.heat_template_validate:
    template: templates/config.yaml
    files:
      scripts/boot.sh: "{{ lookup('ansible.builtin.file', 'boot.sh') }}"
'''

RETURN = r'''
Description:
  description: The template's C(description), or C(No description) when it has none (as Heat answers).
  returned: success
  type: str
  sample: Boot one server on a private network
Parameters:
  description:
    - The template's parameters, keyed by name, as C(openstack orchestration template validate) prints them.
    - Each holds C(Type), C(Default) (when declared), C(Label), C(Description), C(NoEcho), C(Value) and the
      constraint keys (C(AllowedValues), C(AllowedPattern), C(MinLength), C(MaxLength), C(MinValue),
      C(MaxValue), C(CustomConstraint), C(ConstraintDescription)) that apply.
    - Values of hidden parameters are masked, never returned in clear.
  returned: success
  type: dict
  sample:
    flavor:
      Type: String
      Default: m1.small
      Label: flavor
      Description: Flavor of the server
      NoEcho: 'false'
      CustomConstraint: nova.flavor
      Value: m1.tiny
ParameterGroups:
  description: The template's C(parameter_groups), as declared (empty when there are none).
  returned: success
  type: list
  elements: dict
  sample:
    - label: Server
      description: What the server runs
      parameters: [image, flavor]
unsupported_types:
  description:
    - Resource types used by the template that Heat knows but this collection cannot create yet.
    - A template using them validates, but creating its stack would fail.
  returned: success
  type: list
  elements: raw
  sample: []
not_checked:
  description:
    - What this validation did not check, each entry naming a parameter (C(parameter)) or a resource's
      properties (C(property), a path such as C(resources.subnet.properties)) and the check left (C(constraint)).
    - The custom constraints that need a cloud service (C(nova.flavor), ...) when no connection was given.
    - Without O(strict), also what only stack create checks, as C(openstack orchestration template validate)
      leaves it. For each parameter, C(required) (it has no value), C(type) (the value against its type)
      and each of its constraints, by its key (C(range), C(length), C(modulo), C(allowed_values),
      C(allowed_pattern)) or its custom constraint's name. For each resource, C(required) (its required
      properties are there) and C(values) (its property values against the type's schema).
  returned: success
  type: list
  elements: raw
  sample:
    - {parameter: volume_size, constraint: type}
    - {property: resources.subnet.properties, constraint: required}
'''

import os
import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import (
    StackersModule,
    hidden_parameters,
    limits_argument_spec,
    limits_from,
    resource_plugins_argument_spec,
)
from ansible_collections.stackers.orchestration.plugins.module_utils.cloud_checker import CloudChecker
from ansible_collections.stackers.orchestration.plugins.module_utils.connection import connection_given
from ansible_collections.stackers.orchestration.plugins.module_utils.url_opener import url_opener

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition.validation import validate_template
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
except ImportError:
    validate_template = plugin_loader = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatTemplateValidate(StackersModule):
    argument_spec = dict(
        template=dict(type='path', required=True),
        environment=dict(type='list', elements='path', default=[]),
        global_environment_dir=dict(type='path'),
        parameters=dict(type='dict', default={}),
        files=dict(type='dict', default={}),
        allow_root=dict(type='path'),
        strict=dict(type='bool', default=False),
    )
    argument_spec.update(limits_argument_spec())
    argument_spec.update(resource_plugins_argument_spec())
    module_kwargs = dict(supports_check_mode=True)

    def constraint_checker(self):
        """A checker for service-backed custom constraints, only when the user
        asked for a cloud: validation must work offline."""
        if not connection_given(self.params):
            return None
        return CloudChecker(self.conn)

    def run(self):
        if validate_template is None:
            cause = (ENGINE_IMPORT_ERROR or '').strip().splitlines()[-1:] or ['']
            self.fail('The template engine of stackers.orchestration could not be imported (%s): is a requirement '
                      'from its requirements.txt missing on the host the module runs on?' % cause[0],
                      exception=ENGINE_IMPORT_ERROR)
        plugin_loader.load(plugin_loader.configured_dirs(self.params['resource_plugin_dirs']))
        template = self.params['template']
        if not os.path.isfile(template):
            self.fail('%s: no such template file' % template)
        hidden = hidden_parameters(template)
        self.hide(hidden, defaults=hidden)
        root = self.params['allow_root'] or os.path.dirname(os.path.abspath(template))
        if self.params['files_allowed_paths']:
            root = [root] + list(self.params['files_allowed_paths'])

        answer = validate_template(
            template,
            environment=list(self.params['environment'] or ()),
            global_environment_dir=self.params['global_environment_dir'],
            parameters=dict(self.params['parameters'] or {}),
            files=dict(self.params['files'] or {}),
            root=root,
            checker=self.constraint_checker(),
            strict=self.params['strict'],
            limits=limits_from(self.params),
            urls=self.params['files_allowed_urls'],
            opener=url_opener(self.params),
        )

        parameters = answer.get('Parameters') or {}
        self.hide(name for name, shown in parameters.items()
                  if isinstance(shown, dict) and str(shown.get('NoEcho', '')).lower() == 'true')
        return dict(
            changed=False,
            Description=answer.get('Description'),
            Parameters=parameters,
            ParameterGroups=answer.get('ParameterGroups') or [],
            unsupported_types=list(answer.get('UnsupportedTypes') or []),
            not_checked=list(answer.get('NotChecked') or []),
        )


def main():
    HeatTemplateValidate()()


if __name__ == '__main__':
    main()
