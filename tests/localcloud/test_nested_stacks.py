# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nested stacks in real ansible-playbook runs against the local cloud: three levels of template
resources (the leaf's network made from a value the top computes), a rerun that writes nothing, an
update reaching the leaf only, a fault on the leaf's create that the top-level reason names with its
path and the cloud's message, rollback leaving nothing, and delete."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

TOP = """heat_template_version: 2021-04-16
parameters:
  label: {type: string, default: one}
resources:
  seed: {type: OS::Heat::RandomString, properties: {length: 4, character_classes: [{class: lowercase}]}}
  mid:
    type: mid.yaml
    properties: {label: {get_param: label}, suffix: {get_attr: [seed, value]}}
outputs:
  net: {value: {get_attr: [mid, net]}}
  leaf_name: {value: {get_attr: [mid, name]}}
"""

MID = """heat_template_version: 2021-04-16
parameters:
  label: {type: string}
  suffix: {type: string}
resources:
  leaf:
    type: leaf.yaml
    properties: {name: {list_join: ['-', [{get_param: label}, {get_param: suffix}]]}}
outputs:
  net: {value: {get_attr: [leaf, net]}}
  name: {value: {get_attr: [leaf, resource.net.name]}}
"""

LEAF = """heat_template_version: 2021-04-16
parameters:
  name: {type: string}
resources:
  text: {type: OS::Heat::Value, properties: {value: {get_param: name}}}
  net: {type: OS::Neutron::Net, properties: {name: {get_attr: [text, value]}}}
outputs:
  net: {value: {get_resource: net}}
"""


def _files(tmp_path):
    for name, text in (('top.yaml', TOP), ('mid.yaml', MID), ('leaf.yaml', LEAF)):
        (tmp_path / name).write_text(text)
    return str(tmp_path / 'top.yaml')


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def test_three_levels_live_a_whole_life(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _files(tmp_path)
    conn = cloud.sdk()
    try:
        # runs with no look at the cloud between them share one ansible-playbook (run_steps)
        (made, _m), (again, again_writes) = runner.run_steps(
            [dict(name='nest3', template=template), dict(name='nest3', template=template, nested_depth=2)])
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        out = _outputs(made)
        net = conn.network.get_network(out['net'])
        assert net.name == out['leaf_name'] and net.name.startswith('one-')
        stacks = set(e.get('stack_name') for e in made['events'] if e.get('stack_name'))
        assert len(stacks) == 2 and all(s.startswith('nest3-mid-') for s in stacks)

        assert again['changed'] is False
        assert again_writes == {}
        # resource list --nested-depth 2: every level's resources, each under its parent resource
        listed = [(r['resource_name'], r.get('parent_resource')) for r in again['resources']]
        assert listed == [('mid', None), ('seed', None), ('leaf', 'mid'), ('net', 'leaf'),
                          ('text', 'leaf')], listed
        leaf_net = [r for r in again['resources'] if r['resource_name'] == 'net'][0]
        assert leaf_net['physical_resource_id'] == out['net']
        assert leaf_net['stack_name'].startswith('nest3-mid-') and leaf_net['stack_name'] in stacks

        (checked, _c), (updated, writes) = runner.run_steps(
            [dict(name='nest3', template=template, parameters={'label': 'two'}, _check=True),
             dict(name='nest3', template=template, parameters={'label': 'two'})])
        assert checked['changed'] is True
        assert [i['action'] for i in checked['plan'] if i['resource_name'] == 'mid'] == ['update']
        assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', updated['stack']
        assert conn.network.get_network(out['net']).name.startswith('two-')
        assert writes == {'PUT network /v2.0/networks/{id}': 1}, writes

        gone = runner.run(name='nest3', state='absent')
        assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'
        assert ids(cloud.resources()) == before
    finally:
        conn.close()


def test_a_fault_on_the_leaf_names_its_path_and_rollback_leaves_nothing(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _files(tmp_path)
    try:
        cloud.admin('POST', '/faults', [{'method': 'POST', 'path': '/v2.0/networks$', 'status': 400,
                                         'count': 1}])
        failed = runner.run(name='nestf', template=template)
        assert failed['failed'] is True
        reason = failed['stack']['stack_status_reason']
        assert reason.startswith('Resource CREATE failed: BadRequest: resources.mid.resources.leaf.'
                                 'resources.net: '), reason
        leaf_events = [e for e in failed['events'] if e['resource_name'] == 'net']
        assert [e['resource_status'] for e in leaf_events] == ['CREATE_IN_PROGRESS', 'CREATE_FAILED']
        assert leaf_events[-1]['stack_name'].startswith('nestf-mid-')
        assert runner.run(name='nestf', state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'

        cloud.admin('POST', '/faults', [{'method': 'POST', 'path': '/v2.0/networks$', 'status': 400,
                                         'count': 1}])
        rolled = runner.run(name='nestr', template=template, rollback=True)
        assert rolled['stack']['stack_status'] == 'ROLLBACK_COMPLETE', rolled['stack']
        assert 'resources.mid.resources.leaf.resources.net' in rolled['msg']
        assert ids(cloud.resources()) == before
    finally:
        cloud.admin('POST', '/faults', [])
        runner.run_steps([dict(name='nestr', state='absent'), dict(name='nestf', state='absent')])
