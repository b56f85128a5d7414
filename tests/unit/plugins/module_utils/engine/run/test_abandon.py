# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack state=abandoned: Heat's abandon data (the shape of Heat 27's
prepare_abandon, key by key), nested stacks as Heat nests them, hidden
values with and without a store key, the record gone and nothing else
touched, check mode (export)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

STACK_KEYS = {'name', 'id', 'action', 'status', 'environment', 'files', 'template', 'resources',
              'project_id', 'stack_user_project_id', 'tags'}
RESOURCE_KEYS = {'name', 'resource_id', 'type', 'action', 'status', 'metadata', 'resource_data'}
ENV_KEYS = ['resource_registry', 'parameters', 'parameter_defaults', 'event_sinks']

NESTED = '''heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  n: {type: OS::Heat::None}
  t: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
outputs:
  o: {value: {get_attr: [t, output]}}
'''

TOP = '''
parameters:
  pw: {type: string, hidden: true}
  plain: {type: string, default: d}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 12}}
  p: {type: nested.yaml, properties: {v: {get_param: pw}}}
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: OS::Heat::TestResource, properties: {value: member}}
  m: {type: OS::Heat::None, metadata: {k: v}}
'''


@pytest.fixture
def made(stacks):
    (stacks.dir / 'nested.yaml').write_text(NESTED)
    result = stacks.run(TOP, parameters={'pw': 's3cret-pw', 'plain': 'given'}, store_key='k')
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    return stacks


def abandon(stacks, **kw):
    kw.setdefault('store_key', 'k')
    return stacks.run(None, state='abandoned', **kw)


def test_shape_key_by_key(made):
    top = made.store().get_stack('st')
    result = abandon(made, check_mode=True)
    data = result['abandon_data']
    assert result['changed'] is True
    assert set(data) == STACK_KEYS
    assert (data['name'], data['id'], data['action'], data['status']) == ('st', top['id'], 'CREATE', 'COMPLETE')
    assert list(data['environment']) == ENV_KEYS
    # Heat prints the hidden value in clear: its adopt needs it
    assert data['environment']['parameters'] == {'pw': 's3cret-pw', 'plain': 'given'}
    assert data['template']['resources']['p'] == {'type': 'nested.yaml',
                                                  'properties': {'v': {'get_param': 'pw'}}}
    assert data['files'] == {'nested.yaml': NESTED}
    assert set(data['resources']) == {'r', 'p', 'g', 'm'}
    rows = made.rows()
    for name in ('r', 'm'):
        entry = data['resources'][name]
        assert set(entry) == RESOURCE_KEYS
        assert entry['resource_id'] == rows[name].physical_id
        assert (entry['action'], entry['status']) == ('CREATE', 'COMPLETE')
    assert data['resources']['m']['metadata'] == {'k': 'v'}
    assert data['resources']['m']['resource_data'] == {}
    value = data['resources']['r']['resource_data']['value']
    assert len(value) == 12 and data['resources']['r']['type'] == 'OS::Heat::RandomString'
    json.dumps(data)


def test_nested_stacks_as_heat_nests_them(made):
    children = made.children()
    data = abandon(made, check_mode=True)['abandon_data']
    nested = data['resources']['p']
    # a nested stack's resource IS its nested stack's abandon dict (StackResource)
    assert set(nested) == STACK_KEYS
    assert nested['id'] == children['p']['id']
    assert nested['environment']['parameters'] == {'v': 's3cret-pw'}
    assert nested['files'] == data['files']
    assert set(nested['resources']) == {'n', 't'}
    assert nested['resources']['t']['resource_data'] == {'value': 's3cret-pw'}
    assert nested['resources']['t']['type'] == 'OS::Heat::TestResource'
    group = data['resources']['g']
    assert group['id'] == children['g']['id']
    assert set(group['resources']) == {'0', '1'}
    assert group['template']['resources']['0']['type'] == 'OS::Heat::TestResource'
    assert group['resources']['1']['resource_data'] == {'value': 'member'}


def test_abandon_drops_the_record_and_touches_nothing_else(made, monkeypatch):
    def refuse(*_args, **_kw):
        raise AssertionError('a handler ran')
    for name in ('create', 'update', 'delete', 'check_delete_complete', 'suspend'):
        monkeypatch.setattr(ResourcePlugin, name, refuse)
    made.run('resources: {x: {type: OS::Heat::None}}', name='other')
    before = made.store().stacks()
    result = abandon(made)
    assert result['changed'] is True and result['abandon_data']['name'] == 'st'
    after = made.store().stacks()
    # the stack and its nested stacks are gone, the other stack is as it was
    assert [s['name'] for s in after] == ['other']
    assert [s for s in before if s['name'] == 'other'] == after
    store = made.store()
    assert not [r for s in before if s['name'] != 'other' for r in store.resources(s['id'])]
    assert store.deleted(result['abandon_data']['id']) is None
    again = abandon(made)
    assert again['changed'] is False and 'abandon_data' not in again


def test_check_mode_removes_nothing(made):
    before = made.store().stacks()
    first = abandon(made, check_mode=True)
    assert first['changed'] is True
    assert made.store().stacks() == before
    assert abandon(made, check_mode=True)['abandon_data'] == first['abandon_data']


def test_hidden_value_needs_the_store_key(made):
    with pytest.raises(StackersError) as err:
        made.run(None, state='abandoned', store_key=None)
    assert 'pw' in str(err.value) and 'store_key' in str(err.value)
    # nothing was removed
    assert made.store().get_stack('st') is not None


def test_hidden_parameter_with_a_default_needs_no_key(stacks):
    stacks.run('parameters: {pw: {type: string, hidden: true, default: dflt}}\n'
               'resources: {v: {type: OS::Heat::Value, properties: {value: {get_param: pw}}}}')
    data = stacks.run(None, state='abandoned')['abandon_data']
    assert data['environment']['parameters'] == {}
    assert stacks.store().get_stack('st') is None


def test_hidden_default_given_again_needs_the_key(stacks):
    stacks.run('parameters: {pw: {type: string, hidden: true, default: dflt}}\n'
               'resources: {v: {type: OS::Heat::Value, properties: {value: {get_param: pw}}}}',
               parameters={'pw': 'other'})
    # the value given is not kept without a key: Heat would adopt it with the default
    with pytest.raises(StackersError, match='pw'):
        stacks.run(None, state='abandoned')


def test_os_heat_stack_is_refused_clearly(stacks):
    stacks.run('resources:\n  s:\n    type: OS::Heat::Stack\n    properties:\n      template: |\n'
               '        heat_template_version: 2018-08-31\n'
               '        resources: {n: {type: OS::Heat::None}}\n')
    with pytest.raises(StackersError, match='OS::Heat::Stack'):
        stacks.run(None, state='abandoned')
    assert stacks.store().get_stack('st') is not None


def test_missing_stack_is_unchanged(stacks):
    result = stacks.run(None, state='abandoned')
    assert result['changed'] is False and result['stack'] is None
