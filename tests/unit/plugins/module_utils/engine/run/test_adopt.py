# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's stack adopt (engine/run/adopt.py): a record made from Heat's
abandon data, the cloud only read.  The data below has the shapes of
Heat's prepare_abandon (stack.py, resource.py; a nested stack's resource
entry is its stack's abandon dict, stack_resource.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

import pytest
import yaml

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

NET = 'OS::Neutron::Net'
SECRET = 'Zq8rT2mXpL4vN7cK'       # the RandomString's value in Heat
HIDDEN = 'hunter2-hidden-pw'

NESTED = {
    'heat_template_version': '2018-08-31',
    'parameters': {'size': {'type': 'string'}},
    'resources': {'inner': {'type': 'OS::Heat::TestResource', 'properties': {'value': {'get_param': 'size'}}}},
    'outputs': {'got': {'value': {'get_attr': ['inner', 'output']}}},
}

TEMPLATE = {
    'heat_template_version': '2018-08-31',
    'parameters': {'pw': {'type': 'string', 'hidden': True},
                   'label': {'type': 'string', 'default': 'x'}},
    'resources': {
        'none': {'type': 'OS::Heat::None'},
        'test': {'type': 'OS::Heat::TestResource', 'properties': {'value': {'get_param': 'label'}}},
        'rand': {'type': 'OS::Heat::RandomString', 'properties': {'length': 16}},
        'net': {'type': NET, 'properties': {'name': 'adopted-net'}},
        'nest': {'type': 'nested.yaml', 'properties': {'size': {'get_attr': ['test', 'output']}}},
    },
    'outputs': {'secret': {'value': {'get_attr': ['rand', 'value']}},
                'test': {'value': {'get_attr': ['test', 'output']}},
                'nested': {'value': {'get_attr': ['nest', 'got']}}},
}


def _resource(name, rtype, resource_id, data=None, metadata=None):
    return {'name': name, 'resource_id': resource_id, 'type': rtype, 'action': 'CREATE',
            'status': 'COMPLETE', 'metadata': metadata or {}, 'resource_data': data or {}}


def abandon_data():
    """What ``openstack stack abandon`` prints for TEMPLATE (Heat 27's shape)."""
    nested = {
        'name': 'heat-st-nest-abcdefghijkl', 'id': 'a1b2c3d4-0000-0000-0000-00000000000a',
        'action': 'CREATE', 'status': 'COMPLETE',
        'environment': {'parameters': {'size': 'blue'}, 'parameter_defaults': {},
                        'resource_registry': {'resources': {}}, 'encrypted_param_names': [],
                        'event_sinks': []},
        'files': {}, 'template': NESTED, 'project_id': 'p', 'stack_user_project_id': 'q', 'tags': None,
        'resources': {'inner': _resource('inner', 'OS::Heat::TestResource', 'heat-st-nest-inner-x',
                                         {'value': 'blue'})}}
    return {
        'name': 'heat-st', 'id': 'f0f0f0f0-0000-0000-0000-000000000001', 'action': 'CREATE',
        'status': 'COMPLETE',
        'environment': {'parameters': {'pw': HIDDEN, 'label': 'blue'}, 'parameter_defaults': {},
                        # Heat registers the template resource's file under its own name
                        'resource_registry': {'nested.yaml': 'nested.yaml', 'resources': {}},
                        'encrypted_param_names': [],
                        'event_sinks': []},
        'files': {'nested.yaml': json.dumps(NESTED)},
        'template': TEMPLATE, 'project_id': 'p', 'stack_user_project_id': 'q', 'tags': None,
        'resources': {
            'none': _resource('none', 'OS::Heat::None', '5e0b7a2c-0f4e-4a39-9a6c-3b0e0d7f1a11'),
            'test': _resource('test', 'OS::Heat::TestResource', 'heat-st-test-x', {'value': 'blue'}),
            'rand': _resource('rand', 'OS::Heat::RandomString', 'heat-st-rand-x', {'value': SECRET}),
            'net': _resource('net', NET, 'net-1'),
            'nest': nested,
        }}


class FakeNet(ResourcePlugin):
    """A cloud whose networks are LIVE; any write is recorded (there must be none)."""
    type_name = NET
    LIVE = {}
    writes = []

    def show(self, ctx):
        return self.LIVE.get(ctx.physical_id)

    def create(self, ctx):
        self.writes.append(('create', ctx.name))
        return 'made'

    def update(self, ctx):
        self.writes.append(('update', ctx.name))

    def delete(self, ctx):
        self.writes.append(('delete', ctx.physical_id))


@pytest.fixture
def cloud(monkeypatch):
    monkeypatch.setitem(resources.PLUGINS, NET, FakeNet)
    monkeypatch.setattr(FakeNet, 'LIVE', {'net-1': {'id': 'net-1', 'name': 'adopted-net'}})
    monkeypatch.setattr(FakeNet, 'writes', [])
    monkeypatch.setenv('STACKERS_STORE_KEY', 'a user key')
    return FakeNet


def _adopt(stacks, data=None, **kw):
    return stacks.run(None, adopt_data=data or abandon_data(), **kw)


def test_adopt_makes_the_record_from_the_abandon_data(stacks, cloud):
    result = _adopt(stacks)
    assert result['stack']['stack_status'] == 'ADOPT_COMPLETE'
    assert result['changed'] is True
    rows = stacks.rows()
    assert rows['net'].physical_id == 'net-1'
    assert rows['none'].physical_id == '5e0b7a2c-0f4e-4a39-9a6c-3b0e0d7f1a11'
    assert rows['test'].physical_id == 'heat-st-test-x'
    assert rows['test'].data['value'] == 'blue'
    assert all(r.action == 'ADOPT' and r.status == 'COMPLETE' for r in rows.values())
    # the random string is Heat's, kept encrypted, never generated again
    assert rows['rand'].physical_id == 'heat-st-rand-x'
    assert 'value' not in rows['rand'].data and rows['rand'].secret_data
    outputs = dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])
    assert outputs == {'secret': SECRET, 'test': 'blue', 'nested': 'blue'}
    # the nested stack, its resource with its own entry's id and data
    child = stacks.children()['nest']
    assert child['action'] == 'ADOPT' and child['status'] == 'COMPLETE'
    assert rows['nest'].action == 'ADOPT' and rows['nest'].physical_id == child['id']
    store = stacks.store()
    try:
        inner = dict((r.name, r) for r in store.resources(child['id']))['inner']
        stack = store.get_stack('st')
    finally:
        store.close()
    assert inner.physical_id == 'heat-st-nest-inner-x' and inner.action == 'ADOPT'
    # the inputs are the data's: its template, its parameters (the hidden one encrypted)
    assert json.loads(stack['definition']['template']) == TEMPLATE
    assert stack['definition']['parameters'] == {'label': 'blue'}
    assert stack['definition']['environment'] == []
    assert stack['secrets'] and HIDDEN not in json.dumps(stack, default=str)
    assert cloud.writes == []


def test_adopt_events_are_heats(stacks, cloud):
    result = _adopt(stacks)
    events = [(e['resource_name'], e['resource_action'], e['resource_status'],
               e['resource_status_reason']) for e in result['events']]
    top = [e for e in events if e[0] == 'st']
    assert top[0] == ('st', 'ADOPT', 'IN_PROGRESS', 'Stack ADOPT started')
    assert top[-1] == ('st', 'ADOPT', 'COMPLETE', 'Stack ADOPT completed successfully')
    for name in ('none', 'test', 'rand', 'net', 'nest', 'inner'):
        mine = [e[1:3] for e in events if e[0] == name]
        assert mine == [('ADOPT', 'IN_PROGRESS'), ('ADOPT', 'COMPLETE')], (name, mine)
    assert SECRET not in json.dumps(result['events']) and HIDDEN not in json.dumps(result['events'])


def test_a_rerun_with_the_same_template_changes_nothing(stacks, cloud):
    _adopt(stacks)
    events = len(stacks.stored_events())
    # the user's own file of the same template (YAML, another layout than the record's JSON)
    template = stacks.dir / 'mine.yaml'
    template.write_text(yaml.safe_dump(TEMPLATE, default_flow_style=False))
    (stacks.dir / 'nested.yaml').write_text(yaml.safe_dump(NESTED))
    again = runner.run(runner.StackRequest('st', template=str(template), store_path=stacks.store_path,
                                           parameters={'pw': HIDDEN, 'label': 'blue'}), None)
    assert again["changed"] is False, [(e["resource_name"], e["resource_action"], e["resource_status"], e["resource_status_reason"]) for e in again["events"]]
    assert again['events'] == []
    assert again['stack']['stack_status'] == 'ADOPT_COMPLETE'
    assert len(stacks.stored_events()) == events
    existing = stacks.run(None, existing=True)
    assert existing['changed'] is False and cloud.writes == []


def test_an_update_after_the_adopt_updates_as_usual(stacks, cloud):
    _adopt(stacks)
    rand = stacks.rows()['rand'].secret_data
    result = stacks.run(None, existing=True, parameters={'label': 'green'})
    assert result['stack']['stack_status'] == 'UPDATE_COMPLETE'
    outputs = dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])
    assert outputs['test'] == 'green' and outputs['nested'] == 'green'
    assert outputs['secret'] == SECRET and stacks.rows()['rand'].secret_data == rand
    assert cloud.writes == []


def test_delete_after_the_adopt_deletes_the_objects(stacks, cloud):
    _adopt(stacks)
    result = stacks.run(None, state='absent')
    assert result['changed'] is True
    assert ('delete', 'net-1') in cloud.writes
    assert stacks.rows() == {}


def test_a_missing_object_fails_naming_it_and_leaves_no_record(stacks, cloud):
    cloud.LIVE.clear()
    with pytest.raises(StackersError) as err:
        _adopt(stacks)
    text = str(err.value)
    assert 'ADOPT_FAILED' in text and 'resources.net' in text and 'net-1' in text
    store = stacks.store()
    try:
        assert store.get_stack('st') is None and store.stacks() == []
    finally:
        store.close()
    assert cloud.writes == []
    cloud.LIVE['net-1'] = {'id': 'net-1'}
    assert _adopt(stacks)['stack']['stack_status'] == 'ADOPT_COMPLETE'   # again, once it is there


def test_refusals(stacks, cloud):
    data = abandon_data()
    data['status'] = 'FAILED'
    with pytest.raises(StackersError, match='CREATE_FAILED in the adopt data'):
        _adopt(stacks, data)
    data = abandon_data()
    data['resources']['nest']['resources']['inner']['status'] = 'FAILED'
    with pytest.raises(StackersError, match='Resource nest.inner is CREATE_FAILED'):
        _adopt(stacks, data)
    data = abandon_data()
    data['resources']['net']['resource_id'] = None
    with pytest.raises(StackersError, match='Resource net: Resource ID was not provided.'):
        _adopt(stacks, data)
    data = copy.deepcopy(abandon_data())
    data['template']['resources']['far'] = {'type': 'OS::Heat::Stack',
                                            'properties': {'template': 'heat_template_version: 2018-08-31'}}
    data['resources']['far'] = _resource('far', 'OS::Heat::Stack', 'f0f0f0f0-0000-0000-0000-0000000000ff')
    with pytest.raises(StackersError, match='Resource far is an OS::Heat::Stack: Heat keeps its stack'):
        _adopt(stacks, data)
    _adopt(stacks)
    with pytest.raises(StackersError, match=r'The Stack \(st\) already exists.'):
        _adopt(stacks)
    assert cloud.writes == []


def test_check_mode_writes_nothing(stacks, cloud):
    result = _adopt(stacks, check_mode=True)
    assert sorted(p['resource_name'] for p in result['plan']) == ['nest', 'net', 'none', 'rand', 'test']
    assert stacks.rows() == {} and cloud.writes == []


def test_check_mode_reads_each_object_as_the_adopt_does(stacks, cloud):
    """A dry run (adopt_from_heat.yml's heat_dry_run) fails on a missing
    object, naming it, as the adopt would; nothing is written anywhere."""
    cloud.LIVE.clear()
    with pytest.raises(StackersError) as err:
        _adopt(stacks, check_mode=True)
    assert 'ADOPT_FAILED' in str(err.value) and 'resources.net' in str(err.value)
    assert 'net-1' in str(err.value)
    store = stacks.store()
    try:
        assert store.stacks() == []
    finally:
        store.close()
    assert cloud.writes == []


def test_parameters_given_win_over_the_datas(stacks, cloud):
    data = copy.deepcopy(abandon_data())
    result = _adopt(stacks, data, parameters={'label': 'blue'})
    assert result['stack']['stack_status'] == 'ADOPT_COMPLETE'


def test_the_clients_file_urls_are_the_users_relative_names(stacks, cloud, monkeypatch):
    """``openstack stack create -t top.yaml`` sends nested.yaml as
    file:///.../nested.yaml and writes that URL as the resource's type: the
    user's own top.yaml (``type: nested.yaml``), run from another directory,
    is the same stack.  The net stands for a type every stack update replaces
    (an UpdateWaitConditionHandle): the rerun is no update of the stack."""
    monkeypatch.setattr(FakeNet, 'replace_on_stack_update', True, raising=False)
    url = 'file:///home/someone/heat/nested.yaml'
    data = copy.deepcopy(abandon_data())
    data['template']['resources']['nest']['type'] = url
    data['files'] = {url: json.dumps(NESTED)}
    data['environment']['resource_registry'] = {url: url, 'resources': {}}
    _adopt(stacks, data)
    template = stacks.dir / 'mine.yaml'
    template.write_text(yaml.safe_dump(TEMPLATE, default_flow_style=False))
    (stacks.dir / 'nested.yaml').write_text(yaml.safe_dump(NESTED))
    request = dict(template=str(template), store_path=stacks.store_path,
                   parameters={'pw': HIDDEN, 'label': 'blue'})
    checked = runner.run(runner.StackRequest('st', check_mode=True, **request), None)
    assert [(p['resource_name'], p['action']) for p in checked['plan'] if p['action'] != 'keep'] == []
    again = runner.run(runner.StackRequest('st', **request), None)
    assert again['changed'] is False and again['events'] == []
    assert again['stack']['stack_status'] == 'ADOPT_COMPLETE' and cloud.writes == []
    # the nested template changed on disk: its stack is updated, not replaced
    changed = dict(NESTED, outputs={'got': {'value': 'other'}})
    (stacks.dir / 'nested.yaml').write_text(yaml.safe_dump(changed))
    checked = runner.run(runner.StackRequest('st', check_mode=True, **request), None)
    assert dict((p['resource_name'], p['action']) for p in checked['plan'])['nest'] == 'update'


ASG = {
    'heat_template_version': '2018-08-31',
    'resources': {'asg': {'type': 'OS::Heat::AutoScalingGroup',
                          'properties': {'min_size': 1, 'max_size': 4, 'desired_capacity': 2,
                                         'resource': {'type': 'OS::Heat::TestResource'}}}}}


def test_an_autoscaling_groups_members_keep_their_names_and_number(stacks, cloud):
    """Heat names an autoscaling group's members at random, and a signal may
    have scaled it past its desired_capacity: the adopt takes the data's."""
    members = ['k3j5ab2c9xyz', 'a1a1a1a1a1a1', 'zz9zz9zz9zz9']      # Heat's order: oldest first
    nested = {'name': 'heat-st-asg-x', 'id': 'a1b2c3d4-0000-0000-0000-00000000000b',
              'action': 'UPDATE', 'status': 'COMPLETE', 'environment': {}, 'files': {},
              'template': {'heat_template_version': '2015-04-30',
                           'resources': dict((m, {'type': 'OS::Heat::TestResource'})
                                             for m in members)},
              'resources': dict((m, _resource(m, 'OS::Heat::TestResource', 'heat-st-%s' % m))
                                for m in reversed(members))}
    data = {'name': 'heat-st', 'id': 'f0f0f0f0-0000-0000-0000-000000000002', 'action': 'CREATE',
            'status': 'COMPLETE', 'environment': {}, 'files': {}, 'template': ASG,
            'resources': {'asg': nested}}
    result = _adopt(stacks, data)
    assert result['stack']['stack_status'] == 'ADOPT_COMPLETE'
    store = stacks.store()
    try:
        child = [s for s in store.stacks() if s.get('parent_id')][0]
        rows = dict((r.name, r.physical_id) for r in store.resources(child['id']))
    finally:
        store.close()
    assert rows == dict((m, 'heat-st-%s' % m) for m in members)
    template = stacks.dir / 'asg.yaml'
    template.write_text(yaml.safe_dump(ASG))
    again = runner.run(runner.StackRequest('st', template=str(template), store_path=stacks.store_path),
                       None)
    assert again['changed'] is False and again['stack']['stack_status'] == 'ADOPT_COMPLETE'
