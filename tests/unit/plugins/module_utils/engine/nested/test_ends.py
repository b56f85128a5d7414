# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""After the walk: failed nested stacks recorded, their parent resources failed in Heat's words
with the failing path, for every kind of nested stack (a group's member, a chain's, an
OS::Heat::Stack's resource)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.nested import ends as nested_ends


def test_a_resource_failure_is_worded_with_the_path_from_the_parent():
    child = 'Resource CREATE failed: ResourceInError: resources.bad: went wrong: really'
    assert nested_ends.nested_reason('a', child) == \
        'ResourceInError: resources.a.resources.bad: went wrong: really'
    assert nested_ends.nested_reason('a', 'Timed out') == 'resources.a: Timed out'


def test_a_failing_group_member_fails_the_group_and_names_its_index(stacks):
    result = stacks.run('''
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'].startswith('Resource CREATE failed: ValueError: '
                                                   'resources.g.resources.'), stack
    assert stacks.rows()['g'].status == 'FAILED'
    assert stacks.children()['g']['status'] == 'FAILED'


def test_a_chain_stops_at_its_failing_member(stacks):
    result = stacks.run('''
resources:
  c:
    type: OS::Heat::ResourceChain
    properties:
      resources: ['OS::Heat::TestResource', 'OS::Heat::TestResource']
      resource_properties: {value: x, fail: true}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert 'resources.c.resources.0: ' in stack['stack_status_reason'], stack
    started = set(e['resource_name'] for e in result['events']
                  if e.get('resource_type') == 'OS::Heat::TestResource')
    assert started == set(['0'])          # member 1 waits on member 0, which failed


def test_a_stack_resources_failure_names_its_path(stacks):
    result = stacks.run('''
resources:
  s:
    type: OS::Heat::Stack
    properties:
      template: |
        heat_template_version: 2018-08-31
        resources:
          bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
''')
    stack = result['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'].startswith('Resource CREATE failed: ValueError: '
                                                   'resources.s.resources.bad: '), stack
    assert stacks.children()['s']['status'] == 'FAILED'
