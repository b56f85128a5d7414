# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A group's member definition validated as Heat's group validate() does
(verdicts and messages measured with the Heat oracle: the group cases of
tests/conformance/type_rules/heat.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import (
    group_members, group_template)

HEAD = 'heat_template_version: 2018-08-31\nresources:\n'
LATER = '  other: {type: OS::Heat::Value, properties: {value: 1}}\n'


def _validate(resources, files=None):
    StackDefinition(HEAD + resources, files=files, type_rules=registry.type_rule).validate()


def _refused(resources, files=None):
    with pytest.raises(TemplateError) as err:
        _validate(resources, files)
    return err.value


@pytest.mark.parametrize('resources, where, message', [
    ('''  g:
    type: OS::Heat::ResourceGroup
    properties:
      resource_def:
        type: OS::Heat::Value
        properties: {value: 1, nope: 2}
''', 'line 8: resources.g.properties.resource_def.properties.nope', 'Unknown Property nope'),
    ('''  g:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: 1
      max_size: 2
      resource:
        type: OS::Heat::RandomString
        properties: {length: abc}
''', 'line 10: resources.g.properties.resource.properties.length',
     "Value 'abc' is not an integer"),
    ('''  g:
    type: OS::Heat::AutoScalingGroup
    properties: {min_size: 1, max_size: 2, resource: {type: OS::Heat::None,
                                                      deletion_policy: Bogus}}
''', 'line 6: resources.g.properties.resource.deletion_policy', 'Invalid deletion policy "Bogus"'),
    ('''  g:
    type: OS::Heat::ResourceChain
    properties:
      resources: [OS::Heat::None, OS::Cinder::Volume]
      resource_properties:
        name: v
''', 'line 7: resources.g.properties.resource_properties',
     'If neither "backup_id" nor "size" is provided'),
    # a member's member: moved twice
    ('''  g:
    type: OS::Heat::ResourceGroup
    properties:
      resource_def:
        type: OS::Heat::ResourceGroup
        properties:
          resource_def:
            type: OS::Heat::Value
            properties: {value: 1, nope: 2}
''', 'line 11: resources.g.properties.resource_def.properties.resource_def.properties.nope',
     'Unknown Property nope'),
])
def test_a_bad_member_is_refused_where_the_group_template_says_it(resources, where, message):
    err = _refused(resources)
    assert str(err).startswith(where + ': ' + message), str(err)


@pytest.mark.parametrize('resources', [
    # values known at run time: get_attr reads as null, get_resource as the
    # resource's name, the index as the member's name
    LATER + '''  g:
    type: OS::Heat::ResourceGroup
    properties:
      resource_def:
        type: OS::Cinder::Volume
        properties: {size: {get_attr: [other, value]}, name: 'v-%index%',
                     description: {get_resource: other}}
''',
    # Heat leaves values unchecked and required properties to the member's create
    '''  g:
    type: OS::Heat::ResourceGroup
    properties:
      resource_def: {type: OS::Neutron::Subnet, properties: {cidr: 10.0.0.0/24}}
''',
    # a group without members has no member to validate
    '''  g:
    type: OS::Heat::AutoScalingGroup
    properties: {min_size: 0, max_size: 2, resource: {type: OS::Heat::Value,
                                                      properties: {nope: 1}}}
''',
    '''  g:
    type: OS::Heat::ResourceGroup
    properties: {count: 0, resource_def: {type: OS::Heat::Value, properties: {nope: 1}}}
''',
])
def test_a_member_heat_accepts_is_accepted(resources):
    _validate(resources)


def test_the_first_member_is_the_first_name_no_removal_policy_takes():
    err = _refused('''  g:
    type: OS::Heat::ResourceGroup
    properties:
      removal_policies: [{resource_list: ['0', '1']}]
      resource_def:
        type: OS::Nova::Server
        properties: {flavor: m1.tiny}
''')
    assert err.message == 'Neither image nor bootable volume is specified for instance 2'
    assert err.path == ('resources', 'g', 'properties', 'resource_def', 'properties')


def test_a_member_type_from_another_resource_is_refused_in_heats_words_and_why():
    err = _refused(LATER + '''  g:
    type: OS::Heat::ResourceChain
    properties: {resources: [{get_attr: [other, value]}]}
''')
    assert err.path == ('resources', 'g', 'properties', 'resources', 0)
    assert err.message.startswith(group_members.NO_TYPE['OS::Heat::ResourceChain'] + ' (')
    assert 'must be known before the run' in err.message
    err = _refused('''  g:
    type: OS::Heat::AutoScalingGroup
    properties: {min_size: 0, max_size: 2, resource: {type: [a]}}
''')
    assert err.message == group_members.NO_TYPE['OS::Heat::AutoScalingGroup']


def test_an_error_inside_a_members_own_template_keeps_its_file_and_line():
    member = HEAD + '  v:\n    type: OS::Heat::Value\n    properties: {nope: 1}\n'
    err = _refused('''  g:
    type: OS::Heat::ResourceGroup
    properties:
      resource_def: {type: member.yaml}
''', files={'member.yaml': member})
    assert err.filename == 'member.yaml' and err.line == 5
    assert err.path == ('resources', 'v', 'properties', 'nope')
    assert 'in the template of resource "g"' in err.message


def test_include_all_keeps_null_properties_of_the_member():
    definition = {'type': 'T', 'properties': {'a': None, 'b': 'x-%i%'}}
    assert group_template.member_definition('3', definition, '%i%', include_all=True) == \
        {'type': 'T', 'properties': {'a': None, 'b': 'x-3'}}
    assert group_template.member_definition('3', definition, '%i%') == \
        {'type': 'T', 'properties': {'b': 'x-3'}}
