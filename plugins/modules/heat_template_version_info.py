#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
module: heat_template_version_info
short_description: List template versions and their functions, as C(openstack orchestration template version/function list) do
version_added: 0.2.0
description:
  - Without O(version), RV(template_versions) answers C(openstack orchestration template version list) - Heat 27's
    template versions with their type and aliases, each marked RV(template_versions[].supported_here) (the
    collection reads HOT templates; Heat's CFN versions are listed, and refused by every module that reads a
    template).
  - With O(version), RV(template_functions) answers C(openstack orchestration template function list VERSION
    [--with_conditions]) - the intrinsic functions of that version. Heat's descriptions of them (the first lines
    of its functions' docs) are Heat's text and are not carried - each RV(template_functions[].description) is
    C('') (see the collection's docs/differences.md).
  - Nothing is read from the cloud or the state store; the connection options are taken (and unused) so that the
    module is in the action group C(stackers.orchestration.openstack) with the others.
  - M(stackers.orchestration.heat_resource_type_info) answers C(resource type list) and C(resource type show).
options:
  version:
    description:
      - A template version as Heat names it in C(template version list), e.g.
        C(heat_template_version.2018-08-31), C(heat_template_version.rocky) or C(AWSTemplateFormatVersion.2010-09-09).
      - An unknown version fails with Heat's message, C(Template with version VERSION not found).
    type: str
  with_conditions:
    description:
      - With O(version), add the functions of the C(conditions) section (C(equals), C(not), C(and), C(or), ...),
        Heat's C(--with_conditions).
    type: bool
    default: false
author:
  - stackers.orchestration contributors (!UNKNOWN)
extends_documentation_fragment:
  - stackers.orchestration.openstack
  - stackers.orchestration.openstack.wait
attributes:
  check_mode:
    support: full
    description: Reads only; the same answer in check mode.
  diff_mode:
    support: none
    description: No diff is returned.
'''

EXAMPLES = r'''
- name: The template versions (template version list)
  stackers.orchestration.heat_template_version_info:
  register: versions

- name: The functions of HOT rocky, condition functions included
  stackers.orchestration.heat_template_version_info:
    version: heat_template_version.rocky
    with_conditions: true
  register: rocky

- name: Their names
  ansible.builtin.debug:
    msg: "{{ rocky.template_functions | map(attribute='functions') | list }}"
'''

RETURN = r'''
template_versions:
  description: Heat's template versions, sorted by name.
  returned: without O(version)
  type: list
  elements: dict
  contains:
    version:
      description: The version's name, as a template's version key and value.
      type: str
      sample: heat_template_version.2018-08-31
    type:
      description: C(hot) or C(cfn).
      type: str
    aliases:
      description: The other names of the version (Heat's release names).
      type: list
      elements: str
      sample: [heat_template_version.rocky]
    supported_here:
      description: Whether the collection reads templates of this version (the HOT ones).
      type: bool
template_functions:
  description: The functions of O(version), sorted by name.
  returned: with O(version)
  type: list
  elements: dict
  contains:
    functions:
      description: The function's name (Heat's API calls the key so).
      type: str
      sample: get_attr
    description:
      description: C('') - Heat's description of it (the first line of its doc) is Heat's text, not carried.
      type: str
'''

import traceback

from ansible_collections.stackers.orchestration.plugins.module_utils.base import StackersModule

try:
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import catalogue
except ImportError:
    catalogue = None
    ENGINE_IMPORT_ERROR = traceback.format_exc()
else:
    ENGINE_IMPORT_ERROR = None


class HeatTemplateVersionInfo(StackersModule):
    argument_spec = dict(
        version=dict(type='str'),
        with_conditions=dict(type='bool', default=False),
    )
    module_kwargs = dict(supports_check_mode=True)

    def run(self):
        if catalogue is None:
            self.fail('The stack engine cannot be imported', exception=ENGINE_IMPORT_ERROR)
        p = self.params
        if not p['version']:
            return {'changed': False, 'template_versions': catalogue.list_versions()}
        return {'changed': False,
                'template_functions': catalogue.list_functions(p['version'], with_conditions=p['with_conditions'])}


def main():
    HeatTemplateVersionInfo()()


if __name__ == '__main__':
    main()
