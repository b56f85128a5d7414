# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools
import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import group_template as gt

VOLUME = {'type': 'OS::Cinder::Volume', 'properties': {'size': 1, 'name': 'vol-%index%'}}


def group(count, **props):
    props.setdefault('resource_def', VOLUME)
    return dict(props, count=count)


def members(names, prefix='id-'):
    return [{'name': n, 'status': 'CREATE_COMPLETE', 'reference_id': prefix + n} for n in names]


def test_ten_to_seven_removes_the_named_then_nine_takes_new_indexes():
    first = gt.resource_group_plan(group(10))
    assert first.names == [str(i) for i in range(10)]
    assert first.removed == [] and first.added == first.names

    removal = [{'resource_list': [1, '3', 'id-5']}]
    seven = gt.resource_group_plan(group(7, removal_policies=removal), first.removed,
                                   members(first.names))
    assert seven.names == ['0', '2', '4', '6', '7', '8', '9']
    assert seven.deleted == ['1', '3', '5'] and seven.added == []
    assert seven.removed == ['1', '3', '5'] and seven.unmatched == []

    # the stored list survives JSON; the policy may stay in the template
    stored = json.loads(json.dumps(seven.removed))
    nine = gt.resource_group_plan(group(9, removal_policies=removal), stored, members(seven.names))
    assert nine.names == ['0', '2', '4', '6', '7', '8', '9', '10', '11']
    assert nine.added == ['10', '11'] and nine.deleted == []
    assert nine.removed == ['1', '3', '5']
    assert nine.template['resources']['10']['properties'] == {'size': 1, 'name': 'vol-10'}


def test_shrinking_without_policy_drops_the_highest_and_may_reuse_them():
    # only removal policies put names out of use; a plain shrink does not
    small = gt.resource_group_plan(group(2), [], members(['0', '1', '2', '3']))
    assert small.names == ['0', '1'] and small.deleted == ['2', '3'] and small.removed == []
    again = gt.resource_group_plan(group(3), small.removed, members(small.names))
    assert again.added == ['2']


def test_a_policy_removes_even_without_a_smaller_count():
    plan = gt.resource_group_plan(group(3, removal_policies=[{'resource_list': ['0']}]), [],
                                  members(['0', '1', '2']))
    assert plan.names == ['1', '2', '3'] and plan.deleted == ['0'] and plan.added == ['3']


def test_unmatched_entries_are_returned_apart():
    policy = [{'resource_list': ['nope', 7, 'id-1']}, {}]
    plan = gt.resource_group_plan(group(2, removal_policies=policy), [], members(['0', '1']))
    assert plan.unmatched == ['nope', 7]
    assert plan.removed == ['1']
    assert plan.names == ['0', '2']


def test_before_create_every_entry_is_a_name():
    policy = [{'resource_list': ['nope', 1]}]
    plan = gt.resource_group_plan(group(2, removal_policies=policy))
    assert plan.removed == ['1', 'nope'] and plan.unmatched == []
    assert plan.names == ['0', '2']


def test_an_already_removed_name_stays_removed_in_append_mode():
    plan = gt.resource_group_plan(group(2, removal_policies=[{'resource_list': ['4']}]),
                                  ['1', '4'], members(['0', '2']))
    assert plan.removed == ['1', '4'] and plan.unmatched == []


def test_update_mode_replaces_the_list_and_frees_names():
    plan = gt.resource_group_plan(group(3, removal_policies_mode='update'), ['1', '3'],
                                  members(['0', '2', '4']))
    assert plan.removed == []
    assert plan.names == ['0', '1', '2'] and plan.added == ['1'] and plan.deleted == ['4']
    plan = gt.resource_group_plan(
        group(3, removal_policies_mode='update', removal_policies=[{'resource_list': ['2']}]),
        ['1', '3'], members(['0', '2', '4']))
    assert plan.removed == ['2'] and plan.names == ['0', '1', '3']


def test_removed_list_is_sorted_as_text():
    assert gt.updated_skiplist({'removal_policies': [{'resource_list': [10, 3]}]}, ['1'],
                               members(['3', '10']))[0] == ['1', '10', '3']


def test_resource_names_skip_removed_indexes():
    assert gt.resource_names(4, {'0', '2', 'x'}) == ['1', '3', '4', '5']
    assert gt.resource_names(0, {'0'}) == []


def test_index_var_replaced_recursively_in_property_values_only():
    rdef = {'type': 'My::T',
            'properties': {'name': 'n-%i%-%i%', 'list': ['%i%', 3, {'%i%': '%i%'}],
                           'num': 5, 'flag': True, 'none': None, 'nested': {'deep': ['x%i%']}},
            'metadata': {'m': '%i%'}}
    defn = gt.member_definition('7', rdef, '%i%')
    assert defn == {'type': 'My::T',
                    'properties': {'name': 'n-7-7', 'list': ['7', 3, {'%i%': '7'}],
                                   'num': 5, 'flag': True, 'nested': {'deep': ['x7']}},
                    'metadata': {'m': '%i%'}}
    assert rdef['properties']['name'] == 'n-%i%-%i%'


def test_member_definition_keeps_empty_properties_and_drops_missing_ones():
    assert gt.member_definition('0', {'type': 'T', 'properties': {}}) == {'type': 'T', 'properties': {}}
    assert gt.member_definition('0', {'type': 'T', 'properties': None, 'metadata': None}) == {'type': 'T'}


def test_default_index_var_and_custom_one():
    plan = gt.resource_group_plan(group(1, index_var='__n__',
                                        resource_def={'type': 'T', 'properties': {'a': '__n__%index%'}}))
    assert plan.template['resources']['0']['properties'] == {'a': '0%index%'}


def test_template_shape_and_outputs():
    attrs = ['refs', ('refs', 0), ('attributes', 'size'), ('size',), ('resource.1', 'id'),
             ('resource.0.name',), 'resource.1', ('resource.9.x',), 'removed_rsrc_list', 'refs_map']
    plan = gt.resource_group_plan(group(2, resource_def={'type': 'T'}), referenced_attrs=attrs)
    assert plan.template == {
        'heat_template_version': '2015-04-30',
        'resources': {'0': {'type': 'T'}, '1': {'type': 'T'}},
        'outputs': {
            'refs': {'value': [{'get_resource': '0'}, {'get_resource': '1'}]},
            'attributes, size': {'value': {'0': {'get_attr': ['0', 'size']},
                                           '1': {'get_attr': ['1', 'size']}}},
            'size': {'value': [{'get_attr': ['0', 'size']}, {'get_attr': ['1', 'size']}]},
            'resource.1, id': {'value': {'get_attr': ['1', 'id']}},
            'resource.0.name': {'value': {'get_attr': ['0', 'name']}},
            'refs_map': {'value': {'0': {'get_resource': '0'}, '1': {'get_resource': '1'}}},
        }}


def test_empty_group_template_has_no_resources_section():
    plan = gt.resource_group_plan(group(0))
    assert plan.template == {'heat_template_version': '2015-04-30',
                             'outputs': {'refs_map': {'value': {}}}}


def test_validation_uses_heats_wording():
    with pytest.raises(TemplateError) as err:
        gt.validate_resource_group(group(2, index_var='%i'), ('resources', 'grp'))
    assert str(err.value) == ('resources.grp.properties.index_var: '
                              'length (2) is out of range (min: 3, max: None)')
    with pytest.raises(TemplateError):
        gt.validate_resource_group(group(2, removal_policies_mode='replace'), ('resources', 'grp'))
    gt.validate_resource_group(group(2, index_var='%i%'), ('resources', 'grp'))


# -- ResourceChain ------------------------------------------------------------

def test_chain_depends_on_the_previous_member():
    tmpl = gt.chain_template(['A', 'B', 'C'], resource_properties={'p': 1})
    assert tmpl['resources'] == {
        '0': {'type': 'A', 'properties': {'p': 1}},
        '1': {'type': 'B', 'properties': {'p': 1}, 'depends_on': ['0']},
        '2': {'type': 'C', 'properties': {'p': 1}, 'depends_on': ['1']}}
    assert 'outputs' not in tmpl


def test_concurrent_chain_and_heats_engine_cap():
    assert gt.chain_template(['A', 'B', 'C'], concurrent=True)['resources'] == {
        '0': {'type': 'A'}, '1': {'type': 'B'}, '2': {'type': 'C'}}
    capped = gt.chain_template(['A', 'B', 'C', 'D'], concurrent=True, concurrency_limit=2)
    assert [capped['resources'][n].get('depends_on') for n in '0123'] == [None, None, ['0'], ['1']]


def test_chain_outputs():
    tmpl = gt.chain_template(['A', 'B'], referenced_attrs=[
        'refs', 'resource.0', ('resource.1.x', 'y'), 'resource.5', ('attributes', 'x'), ('x',), 'attributes'])
    assert tmpl['outputs'] == {
        'refs': {'value': [{'get_resource': '0'}, {'get_resource': '1'}]},
        'resource.0': {'value': {'get_resource': '0'}},
        'resource.1.x, y': {'value': {'get_attr': ['1', 'x', 'y']}},
        'attributes, x': {'value': {'0': {'get_attr': ['0', 'x']}, '1': {'get_attr': ['1', 'x']}}},
        'x': {'value': [{'get_attr': ['0', 'x']}, {'get_attr': ['1', 'x']}]}}


# -- AutoScalingGroup ---------------------------------------------------------

SERVER = {'type': 'web.yaml', 'properties': {'flavor': 'small'}}


def ids():
    counter = itertools.count()
    return lambda: gt.member_id(next(counter))


def test_member_id_looks_like_heats_short_ids():
    assert gt.member_id(0) == 'aaaaaaaaaaaa'
    assert gt.member_id(2 ** 60 - 1) == '777777777777'
    assert gt.member_id(1 << 55) == 'baaaaaaaaaaa'
    name = gt.random_member_id()
    assert len(name) == 12 and set(name) <= set('abcdefghijklmnopqrstuvwxyz234567')


def asg_members():
    defn = gt.asg_member_definition(SERVER)
    return [{'name': 'old', 'status': 'CREATE_COMPLETE', 'created_time': '2026-01-01T00:00:00', 'definition': defn},
            {'name': 'mid', 'status': 'CREATE_COMPLETE', 'created_time': '2026-01-02T00:00:00', 'definition': defn},
            {'name': 'bad', 'status': 'CREATE_FAILED', 'created_time': '2026-01-03T00:00:00', 'definition': defn},
            {'name': 'new', 'status': 'CREATE_COMPLETE', 'created_time': '2026-01-04T00:00:00', 'definition': defn}]


def test_asg_create_names_members_by_short_ids():
    tmpl, names = gt.asg_template(SERVER, 2, new_id=ids())
    assert names == ['aaaaaaaaaaaa', 'aaaaaaaaaaab']
    assert tmpl['resources']['aaaaaaaaaaab'] == {'type': 'web.yaml', 'properties': {'flavor': 'small'}}
    assert tmpl['outputs'] == {'refs_map': {'value': {
        'aaaaaaaaaaaa': {'get_resource': 'aaaaaaaaaaaa'},
        'aaaaaaaaaaab': {'get_resource': 'aaaaaaaaaaab'}}}}


def test_asg_scale_down_removes_failed_then_oldest():
    _tmpl, names = gt.asg_template(SERVER, 2, asg_members(), new_id=ids())
    assert names == ['mid', 'new']
    _tmpl, names = gt.asg_template(SERVER, 3, asg_members(), new_id=ids())
    assert names == ['old', 'mid', 'new']


def test_asg_scale_up_keeps_old_definitions_and_adds_new_members():
    changed = dict(SERVER, properties={'flavor': 'large'})
    tmpl, names = gt.asg_template(changed, 5, asg_members(), new_id=ids())
    assert names == ['bad', 'old', 'mid', 'new', 'aaaaaaaaaaaa']
    assert tmpl['resources']['old']['properties'] == {'flavor': 'small'}
    assert tmpl['resources']['aaaaaaaaaaaa']['properties'] == {'flavor': 'large'}


def test_asg_member_definition_reads_the_resource_as_hot():
    rdef = {'type': 'T', 'metadata': {'m': 1}, 'depends_on': 'x', 'deletion_policy': 'Retain',
            'properties': None}
    assert gt.asg_member_definition(rdef) == {'type': 'T', 'metadata': {'m': 1},
                                              'deletion_policy': 'Retain', 'depends_on': ['x']}
    # a dependency outside the nested stack is dropped, as Heat's template does
    tmpl, _names = gt.asg_template(rdef, 1, new_id=ids())
    assert tmpl['resources']['aaaaaaaaaaaa']['depends_on'] == []
    with pytest.raises(TemplateError):
        gt.asg_member_definition({'properties': {}})


def test_asg_outputs_for_member_attributes():
    tmpl, _names = gt.asg_template(SERVER, 1, new_id=ids(), referenced_attrs=[
        ('outputs_list', 'ip'), ('outputs', 'ip'), ('resource.0.name',), 'resource.0', 'outputs',
        'current_size', 'refs'])
    member = 'aaaaaaaaaaaa'
    assert tmpl['outputs'] == {
        'outputs, ip': {'value': {member: {'get_attr': [member, 'ip']}}},
        'outputs, name': {'value': {member: {'get_attr': [member, 'name']}}},
        'refs_map': {'value': {member: {'get_resource': member}}}}
