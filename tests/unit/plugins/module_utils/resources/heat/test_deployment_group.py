# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The deployment groups' nested templates and attributes, as Heat 27's
SoftwareDeploymentGroup and StructuredDeploymentGroup write and read them."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import (
    deployment_group as dg)

PROPS = {'servers': {'web': 'id-w', 'db': {'get_param': 'late_0'}}, 'config': 'cfg',
         'input_values': {'x': 1}, 'actions': ['CREATE', 'UPDATE'], 'name': None,
         'signal_transport': 'CFN_SIGNAL'}


def test_members_are_the_servers_keys_in_order_each_with_its_server():
    template, names = dg.deployment_group_template(dg.SOFTWARE_GROUP, PROPS)
    assert names == ['web', 'db']
    assert list(template['resources']) == ['web', 'db']
    web = template['resources']['web']
    assert web['type'] == 'OS::Heat::SoftwareDeployment'
    # servers goes, server comes; a null goes; the schema's CFN_SIGNAL leaves ours to the member
    assert web['properties'] == {'server': 'id-w', 'config': 'cfg', 'input_values': {'x': 1},
                                 'actions': ['CREATE', 'UPDATE']}
    assert template['resources']['db']['properties']['server'] == {'get_param': 'late_0'}
    assert 'outputs' not in template


def test_a_member_gets_its_own_copy_of_the_groups_values():
    template, _names = dg.deployment_group_template(dg.SOFTWARE_GROUP, PROPS)
    template['resources']['web']['properties']['input_values']['x'] = 2
    assert PROPS['input_values'] == {'x': 1}
    assert template['resources']['db']['properties']['input_values'] == {'x': 1}


@pytest.mark.parametrize('gtype,member', [
    ('OS::Heat::SoftwareDeployments', 'OS::Heat::SoftwareDeployment'),
    ('OS::Heat::StructuredDeploymentGroup', 'OS::Heat::StructuredDeployment'),
    ('OS::Heat::StructuredDeployments', 'OS::Heat::StructuredDeployment')])
def test_each_group_type_has_its_members_type(gtype, member):
    props = dict(PROPS, input_key='get_input', input_values_validate='STRICT')
    template, _names = dg.deployment_group_template(gtype, props)
    assert set(d['type'] for d in template['resources'].values()) == {member}
    assert template['resources']['web']['properties']['input_values_validate'] == 'STRICT'


def test_an_empty_servers_map_writes_a_stack_with_no_members():
    template, names = dg.deployment_group_template(dg.SOFTWARE_GROUP, dict(PROPS, servers={}))
    assert names == [] and 'resources' not in template


MEMBERS = {'web': {'deploy_stdout': 'w-out', 'deploy_status_code': 0, 'result': {'k': 'v'}},
           'db': {'deploy_stdout': 'd-out', 'deploy_status_code': 1}}


def attr_of(name, path):
    value = MEMBERS[name]
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def read(key, *path):
    return dg.deployment_group_attribute('deps', key, list(path), ['web', 'db'],
                                         ref_of=lambda n: 'id-' + n, attr_of=attr_of)


def test_the_plural_attributes_map_the_members_single_ones():
    assert read('deploy_stdouts') == {'web': 'w-out', 'db': 'd-out'}
    assert read('deploy_status_codes') == {'web': 0, 'db': 1}
    assert read('deploy_stderrs') == {'web': None, 'db': None}


def test_any_other_name_is_each_members_attribute_of_that_name_and_a_path_selects_in_the_map():
    assert read('result') == {'web': {'k': 'v'}, 'db': None}
    assert read('deploy_stdout') == {'web': 'w-out', 'db': 'd-out'}
    assert read('deploy_stdouts', 'db') == 'd-out'
    assert read('result', 'web', 'k') == 'v'
    assert read('result', 'nobody') is None
