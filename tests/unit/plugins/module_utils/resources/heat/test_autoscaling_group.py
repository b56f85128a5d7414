# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::AutoScalingGroup as the nested stack it writes: its size as
Heat decides it at create and update, members named by Heat's short ids,
attributes, and sizing refused before anything is made."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError

ASG = '''
parameters:
  desired: {type: number, default: 2}
  low: {type: number, default: 1}
resources:
  asg:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: {get_param: low}
      max_size: 4
      desired_capacity: {get_param: desired}
      cooldown: 0
      resource: {type: OS::Heat::Value, properties: {value: member}}
  up:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: change_in_capacity,
                 scaling_adjustment: 1}
  down:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: asg}, adjustment_type: change_in_capacity,
                 scaling_adjustment: -1, cooldown: 600}
outputs:
  size: {value: {get_attr: [asg, current_size]}}
  values: {value: {get_attr: [asg, outputs_list, value]}}
  refs: {value: {get_attr: [asg, refs]}}
  map: {value: {get_attr: [asg, refs_map]}}
'''


def outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def members(stacks):
    store = stacks.store()
    try:
        group = store.get_stack('st')
        child = [s for s in store.children(group['id']) if s['parent_resource'] == 'asg'][0]
        return dict((r.name, r) for r in store.resources(child['id']) if r.role == 'current')
    finally:
        store.close()


def test_a_group_starts_at_its_desired_capacity_with_heats_member_names(stacks):
    result = stacks.run(ASG)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = outputs(result)
    assert out['size'] == 2 and out['values'] == ['member', 'member']
    names = sorted(members(stacks))
    assert len(names) == 2 and all(len(n) == 12 and n.isalnum() and n.lower() == n for n in names)
    assert sorted(out['map']) == names
    assert stacks.rows()['asg'].facts['scaling']['scaling_in_progress'] is False


def test_only_a_change_of_its_sizing_resizes_it(stacks):
    stacks.run(ASG)
    before = sorted(members(stacks))
    assert stacks.run(ASG)['changed'] is False
    grown = stacks.run(ASG, parameters={'desired': 3})
    assert outputs(grown)['size'] == 3
    assert set(before) < set(members(stacks))       # the members it had stay
    shrunk = stacks.run(ASG, parameters={'desired': 1})
    assert outputs(shrunk)['size'] == 1
    assert stacks.run(state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'


def test_sizes_heat_refuses_are_refused_before_anything_is_made(stacks):
    with pytest.raises(TemplateError) as err:
        stacks.run(ASG, parameters={'desired': 9})
    assert 'asg' in str(err.value)
    assert stacks.rows() == {}


def test_an_update_of_its_members_goes_one_batch_at_a_time(stacks):
    text = ASG.replace('      cooldown: 0\n', '      cooldown: 0\n      rolling_updates: {max_batch_size: 1, '
                       'pause_time: 0.05}\n').replace(
        'resource: {type: OS::Heat::Value, properties: {value: member}}',
        'resource: {type: OS::Heat::TestResource, properties: {value: member, wait_secs: 0.1}}').replace(
        'outputs_list, value', 'outputs_list, output')
    stacks.run(text, parameters={'desired': 3})
    changed = stacks.run(text.replace('value: member,', 'value: member2,'), parameters={'desired': 3})
    assert outputs(changed)['values'] == ['member2'] * 3
    events = [(e['resource_name'], e['resource_status']) for e in changed['events']
              if e.get('stack_name', '').startswith('st-asg-') and len(e['resource_name']) == 12]
    # each member takes 0.1 s: side by side they would all be in progress at once
    busy = 0
    for _name, status in events:
        busy += 1 if status == 'IN_PROGRESS' else -1
        assert busy <= 1, events
    assert len(events) == 6
    again = stacks.run(text.replace('value: member,', 'value: member2,'), parameters={'desired': 3})
    assert again['changed'] is False


def test_a_policy_scaling_something_that_is_not_a_group_is_refused_before_anything_is_made(stacks):
    with pytest.raises(TemplateError) as err:
        stacks.run('''
resources:
  v: {type: OS::Heat::Value, properties: {value: 1}}
  up:
    type: OS::Heat::ScalingPolicy
    properties: {auto_scaling_group_id: {get_resource: v}, adjustment_type: change_in_capacity,
                 scaling_adjustment: 1}
''')
    assert 'ScalingPolicy "up" scales "v", which is a OS::Heat::Value' in str(err.value)
    assert stacks.rows() == {}
