# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::ResourceGroup run as the nested stack it writes: members
named and removed as Heat does, attributes, resizes touching only the
members that change, and values made during the run."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

import pytest

from ...engine.conftest import HEADER

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


CHAIN = '''
parameters:
  types: {type: comma_delimited_list, default: 'OS::Heat::TestResource,OS::Heat::TestResource'}
  concurrent: {type: boolean, default: false}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 4}}
  c:
    type: OS::Heat::ResourceChain
    properties:
      resources: {get_param: types}
      concurrent: {get_param: concurrent}
      resource_properties: {value: {get_attr: [r, value]}, wait_secs: 0.05}
outputs:
  refs: {value: {get_attr: [c, refs]}}
  outs: {value: {get_attr: [c, output]}}
  attrs: {value: {get_attr: [c, attributes, output]}}
  one: {value: {get_attr: [c, resource.1, output]}}
  ref0: {value: {get_attr: [c, resource.0]}}
'''


def _chain_events(result):
    return [(e['resource_name'], e['resource_status']) for e in result['events']
            if e.get('resource_type') == 'OS::Heat::TestResource']


def test_a_chain_makes_one_member_per_type_each_after_the_one_before(stacks):
    result = stacks.run(CHAIN)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = _outputs(result)
    value = out['outs'][0]
    assert len(value) == 4 and out['outs'] == [value, value] and out['one'] == value
    assert out['attrs'] == {'0': value, '1': value}
    assert len(out['refs']) == 2 and out['ref0'] == out['refs'][0]
    # not concurrent: member 1 starts once member 0 is complete
    assert _chain_events(result) == [('0', 'IN_PROGRESS'), ('0', 'COMPLETE'),
                                     ('1', 'IN_PROGRESS'), ('1', 'COMPLETE')]
    chain = stacks.rows()['c']
    assert chain.reference_id == chain.physical_id           # its stack's id, as Heat's
    assert stacks.run(CHAIN)['changed'] is False
    assert stacks.run(state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'


def test_a_concurrent_chain_starts_its_members_together(stacks):
    result = stacks.run(CHAIN, parameters={'concurrent': True})
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    events = _chain_events(result)
    assert events.index(('1', 'IN_PROGRESS')) < events.index(('0', 'COMPLETE')), events


def test_a_longer_chain_adds_only_its_new_member(stacks):
    stacks.run(CHAIN)
    longer = stacks.run(CHAIN, parameters={'types': 'OS::Heat::TestResource,'
                                                    'OS::Heat::TestResource,OS::Heat::None'})
    assert longer['stack']['stack_status'] == 'UPDATE_COMPLETE', longer['stack']
    changed = set(e['resource_name'] for e in longer['events']
                  if e.get('resource_type') not in ('OS::Heat::Stack', 'OS::Heat::ResourceChain'))
    assert changed == set(['2']), longer['events']
    assert len(_outputs(longer)['refs']) == 3


def test_a_chains_types_that_wait_on_a_resource_are_refused_before_anything_is_made(stacks):
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
    with pytest.raises(TemplateError) as err:
        stacks.run('''
resources:
  v: {type: OS::Heat::Value, properties: {value: 'OS::Heat::None', type: string}}
  c:
    type: OS::Heat::ResourceChain
    properties:
      resources: [{get_attr: [v, value]}]
''')
    # Heat's validate reads the type as null and refuses the chain
    assert 'resources.c.properties.resources[0]: Non-empty resource type is required for ' \
        'resource "None"' in str(err.value)
    assert 'it must be known before the run' in str(err.value)
    assert stacks.rows() == {}


def test_a_chain_member_that_does_not_exist_is_an_output_error_in_heats_words(stacks):
    result = stacks.run('''
resources:
  c:
    type: OS::Heat::ResourceChain
    properties: {resources: ['OS::Heat::None']}
outputs:
  missing: {value: {get_attr: [c, resource.4]}}
''')
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    [output] = result['stack']['outputs']
    assert output['output_value'] is None
    assert "Member '4' not found in group resource 'c'." in output['output_error']


def test_a_registry_alias_of_a_chain_reads_the_chains_attributes(stacks):
    env = stacks.dir / 'env.yaml'
    env.write_text('resource_registry:\n  My::Chain: OS::Heat::ResourceChain\n')
    result = stacks.run('''
resources:
  c:
    type: My::Chain
    properties: {resources: ['OS::Heat::Value', 'OS::Heat::Value'], resource_properties: {value: v}}
outputs:
  values: {value: {get_attr: [c, value]}}
  attrs: {value: {get_attr: [c, attributes, value]}}
''', environment=[str(env)])
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    assert _outputs(result) == {'values': ['v', 'v'], 'attrs': {'0': 'v', '1': 'v'}}


def test_check_mode_predicts_a_longer_chain(stacks):
    stacks.run(CHAIN)
    checked = stacks.run(CHAIN, check_mode=True, parameters={
        'types': 'OS::Heat::TestResource,OS::Heat::TestResource,OS::Heat::None'})
    assert checked['changed'] is True
    assert dict((i['resource_name'], i['action']) for i in checked['plan'])['c'] == 'update'
    assert stacks.run(CHAIN, check_mode=True)['changed'] is False


BATCHED = '''
parameters:
  v: {type: string, default: one}
  n: {type: number, default: 4}
resources:
  g:
    type: OS::Heat::ResourceGroup
    update_policy:
      batch_create: {max_batch_size: 2, pause_time: 1}
      rolling_update: {max_batch_size: 1}
    properties:
      count: {get_param: n}
      resource_def:
        type: OS::Heat::TestResource
        properties: {value: {get_param: v}, wait_secs: 0.1}
outputs:
  values: {value: {get_attr: [g, output]}}
'''


def _member_events(result):
    return [(e['resource_name'], e['resource_status'], e['event_time']) for e in result['events']
            if e.get('stack_name', '').startswith('st-g-') and e['resource_name'].isdigit()]


def _batches_seen(events):
    """The members in progress together, batch by batch."""
    seen, busy = [], set()
    for name, status, _time in events:
        if status == 'IN_PROGRESS':
            if not busy:
                seen.append([])
            busy.add(name)
            seen[-1].append(name)
        else:
            busy.discard(name)
    return seen


def test_batch_create_makes_the_members_lowest_index_first_in_batches_with_a_pause(stacks):
    started = time.monotonic()
    result = stacks.run(BATCHED)
    assert time.monotonic() - started >= 1.0        # the pause between the two batches
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    assert [sorted(b) for b in _batches_seen(_member_events(result))] == [['0', '1'], ['2', '3']]
    assert _outputs(result)['values'] == ['one'] * 4


def test_rolling_update_replaces_one_member_at_a_time_highest_index_first(stacks):
    stacks.run(BATCHED)
    result = stacks.run(BATCHED, parameters={'v': 'two'})
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', result['stack']
    assert _batches_seen(_member_events(result)) == [['3'], ['2'], ['1'], ['0']]
    assert _outputs(result)['values'] == ['two'] * 4
    # a resize that leaves the definition be adds the new member alone, with no pause
    grown = stacks.run(BATCHED, parameters={'v': 'two', 'n': 5})
    assert _batches_seen(_member_events(grown)) == [['4']]
    assert stacks.run(BATCHED, parameters={'v': 'two', 'n': 5})['changed'] is False


DEPLOYMENTS = '''
parameters:
  v: {type: string, default: one}
  servers: {type: json, default: {a: s-a, b: s-b}}
resources:
  srv: {type: OS::Heat::Value, properties: {value: s-late}}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: foo}]
      outputs: [{name: result}]
      config: echo hi
  deps:
    type: OS::Heat::SoftwareDeploymentGroup
    update_policy: {rolling_update: {max_batch_size: 1}}
    properties:
      config: {get_resource: config}
      signal_transport: NO_SIGNAL
      input_values: {foo: {get_param: v}}
      servers:
        a: s-a
        c: {get_attr: [srv, value]}
        b: s-b
outputs:
  stdouts: {value: {get_attr: [deps, deploy_stdouts]}}
  codes: {value: {get_attr: [deps, deploy_status_codes]}}
  results: {value: {get_attr: [deps, result]}}
  one: {value: {get_attr: [deps, deploy_stdouts, c]}}
'''


def _deployment_events(result):
    return [(e['resource_name'], e['resource_status'], e['event_time']) for e in result['events']
            if e.get('stack_name', '').startswith('st-deps-') and len(e['resource_name']) == 1]


def test_a_deployment_group_makes_one_deployment_per_server_key_with_map_attributes(stacks):
    result = stacks.run(DEPLOYMENTS)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = _outputs(result)
    assert out['stdouts'] == {'a': None, 'c': None, 'b': None}
    assert list(out['stdouts']) == ['a', 'c', 'b']
    assert out['codes'] == {'a': None, 'c': None, 'b': None}
    assert out['results'] == {'a': None, 'c': None, 'b': None}
    assert out['one'] is None
    child = [s for s in stacks.children().values() if s['parent_resource'] == 'deps'][0]
    store = stacks.store()
    try:
        members = dict((r.name, r) for r in store.resources(child['id']) if r.role == 'current')
    finally:
        store.close()
    assert sorted(members) == ['a', 'b', 'c']
    assert set(r.type for r in members.values()) == {'OS::Heat::SoftwareDeployment'}
    assert stacks.run(DEPLOYMENTS)['changed'] is False


def test_a_deployment_groups_input_change_updates_its_members_one_batch_after_another(stacks):
    stacks.run(DEPLOYMENTS)
    result = stacks.run(DEPLOYMENTS, parameters={'v': 'two'})
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', result['stack']
    # Heat's replace priority: the last key of servers first
    assert _batches_seen(_deployment_events(result)) == [['b'], ['c'], ['a']]
    rows = stacks.rows()
    assert rows['deps'].status == 'COMPLETE'


def test_a_change_of_servers_adds_and_removes_only_those_deployments(stacks):
    text = DEPLOYMENTS.replace('''      servers:
        a: s-a
        c: {get_attr: [srv, value]}
        b: s-b''', '''      servers: {get_param: servers}''')
    text = text.replace("  one: {value: {get_attr: [deps, deploy_stdouts, c]}}\n", '')
    stacks.run(text)
    result = stacks.run(text, parameters={'servers': {'a': 's-a', 'd': 's-d'}})
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', result['stack']
    events = [(e['resource_name'], e['resource_action']) for e in result['events']
              if e.get('stack_name', '').startswith('st-deps-')]
    assert ('b', 'DELETE') in events and ('d', 'CREATE') in events
    assert ('a', 'UPDATE') not in events and ('a', 'CREATE') not in events
    assert list(_outputs(result)['stdouts']) == ['a', 'd']


@pytest.mark.parametrize('gtype,member', [
    ('OS::Heat::SoftwareDeployments', 'OS::Heat::SoftwareDeployment'),
    ('OS::Heat::StructuredDeploymentGroup', 'OS::Heat::StructuredDeployment'),
    ('OS::Heat::StructuredDeployments', 'OS::Heat::StructuredDeployment')])
def test_the_other_deployment_groups_make_their_own_members(stacks, gtype, member):
    text = DEPLOYMENTS.replace('OS::Heat::SoftwareDeploymentGroup', gtype)
    result = stacks.run(text)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    assert list(_outputs(result)['stdouts']) == ['a', 'c', 'b']
    store = stacks.store()
    try:
        child = stacks.children()['deps']
        types = set(r.type for r in store.resources(child['id']) if r.role == 'current')
    finally:
        store.close()
    assert types == {member}


def test_servers_whose_keys_wait_on_a_resource_are_refused_before_anything_is_made(stacks):
    text = DEPLOYMENTS.replace('''      servers:
        a: s-a
        c: {get_attr: [srv, value]}
        b: s-b''', '''      servers: {get_attr: [srv, value]}''')
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
    with pytest.raises(TemplateError) as err:
        stacks.run(text)
    assert 'The keys of the "servers" of SoftwareDeploymentGroup "deps"' in str(err.value)
    assert 'resources.deps.properties.servers' in str(err.value)
    assert stacks.rows() == {}


@pytest.mark.parametrize('gtype', ['OS::Heat::SoftwareDeploymentGroup', 'OS::Heat::StructuredDeployments'])
def test_a_deployment_group_batches_as_a_resource_group(gtype):
    from types import SimpleNamespace
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import (
        group_kinds as groups)
    defn = SimpleNamespace(type=gtype, type_info=None, update_policy={
        'batch_create': {'max_batch_size': 2, 'pause_time': 3},
        'rolling_update': {'max_batch_size': 1}})
    names = ['a', 'c', 'b']
    assert groups.batches(defn, [], names, creating=True) == ([['a', 'c'], ['b']], 3.0)
    members = [{'name': n} for n in ('a', 'b')]     # c is new: created, not in a batch
    assert groups.batches(defn, members, names, creating=False) == ([['b'], ['a']], 0.0)
