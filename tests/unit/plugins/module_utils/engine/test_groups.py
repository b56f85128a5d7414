# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::ResourceGroup run as the nested stack it writes: members
named and removed as Heat does, attributes, resizes touching only the
members that change, and values made during the run."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from .conftest import HEADER

GROUP = '''
parameters:
  n: {type: number, default: 3}
  removed: {type: json, default: []}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 5}}
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: {get_param: n}
      removal_policies: [{resource_list: {get_param: removed}}]
      resource_def:
        type: OS::Heat::Value
        properties: {value: {list_join: ['-', ['m%index%', {get_attr: [r, value]}]]}}
outputs:
  refs: {value: {get_attr: [g, refs]}}
  values: {value: {get_attr: [g, value]}}
  attrs: {value: {get_attr: [g, attributes, value]}}
  one: {value: {get_attr: [g, resource.1, value]}}
  removed: {value: {get_attr: [g, removed_rsrc_list]}}
'''


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def _members(stacks, result):
    return sorted(set(e['resource_name'] for e in result['events'] if e.get('stack_name')
                      and not e['resource_name'].startswith('st-g-')))


def test_a_group_makes_its_members_with_their_index_and_heats_attributes(stacks):
    result = stacks.run(GROUP)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = _outputs(result)
    suffix = out['one'].split('-')[1]
    assert out['values'] == ['m0-%s' % suffix, 'm1-%s' % suffix, 'm2-%s' % suffix]
    assert out['attrs'] == {'0': 'm0-' + suffix, '1': 'm1-' + suffix, '2': 'm2-' + suffix}
    assert len(out['refs']) == 3 and out['removed'] == []
    group = stacks.rows()['g']
    assert group.reference_id == group.physical_id          # its stack's id, as Heat's
    assert stacks.run(GROUP)['changed'] is False


def test_removal_policies_remove_exactly_those_and_removed_indexes_are_never_reused(stacks):
    stacks.run(GROUP, parameters={'n': 5})
    smaller = stacks.run(GROUP, parameters={'n': 3, 'removed': ['1', '3']})
    assert smaller['stack']['stack_status'] == 'UPDATE_COMPLETE', smaller['stack']
    assert _members(stacks, smaller) == ['1', '3']
    assert list(_outputs(smaller)['attrs']) == ['0', '2', '4']
    assert _outputs(smaller)['removed'] == ['1', '3']
    bigger = stacks.run(GROUP, parameters={'n': 5, 'removed': ['1', '3']})
    assert _members(stacks, bigger) == ['5', '6']
    assert sorted(_outputs(bigger)['attrs']) == ['0', '2', '4', '5', '6']
    assert stacks.run(GROUP, parameters={'n': 5, 'removed': ['1', '3']})['changed'] is False
    gone = stacks.run(state='absent')
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'


def test_a_group_of_template_resources(stacks):
    (stacks.dir / 'leaf.yaml').write_text(HEADER + '''
parameters:
  name: {type: string}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: name}}}
outputs:
  out: {value: {get_attr: [v, value]}}
''')
    result = stacks.run('''
resources:
  lg:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: leaf.yaml, properties: {name: 'x%index%'}}
outputs:
  leaves: {value: {get_attr: [lg, out]}}
''')
    assert _outputs(result)['leaves'] == ['x0', 'x1']
    assert stacks.run(state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'


def test_a_count_that_waits_on_a_resource_is_refused_before_anything_is_made(stacks):
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
    with pytest.raises(TemplateError) as err:
        stacks.run('''
resources:
  v: {type: OS::Heat::Value, properties: {value: 2}}
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: {get_attr: [v, value]}
      resource_def: {type: OS::Heat::None}
''')
    assert 'must be known before the run' in str(err.value)
    assert stacks.rows() == {}
