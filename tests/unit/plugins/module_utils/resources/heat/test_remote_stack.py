# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::Stack run as a nested stack: its template (text), its parameters (known or waiting
on a resource), its timeout, Heat's attributes (outputs, stack_name) and reference id (the
stack's id), and a context naming another region refused before anything is made."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import (
    remote_stack as stack_resource)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError, TemplateError

from ...engine.conftest import HEADER

INNER = HEADER + '''
parameters:
  greeting: {type: string}
  seed: {type: string}
resources:
  v: {type: OS::Heat::Value, properties: {value: {list_join: ['-', [{get_param: greeting}, {get_param: seed}]]}}}
outputs:
  text: {value: {get_attr: [v, value]}}
  seed: {value: {get_param: seed}}
'''

OUTER = '''
parameters:
  greeting: {type: string, default: hello}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 6}}
  s:
    type: OS::Heat::Stack
    properties:
      template: {get_file: inner.yaml}
      timeout: 7
      parameters:
        greeting: {get_param: greeting}
        seed: {get_attr: [r, value]}
outputs:
  text: {value: {get_attr: [s, outputs, text]}}
  all: {value: {get_attr: [s, outputs]}}
  name: {value: {get_attr: [s, stack_name]}}
  ref: {value: {get_resource: s}}
'''


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def _inner(stacks):
    (stacks.dir / 'inner.yaml').write_text(INNER)


def test_a_stack_resource_runs_its_template_with_its_parameters(stacks):
    _inner(stacks)
    result = stacks.run(OUTER)
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']
    out = _outputs(result)
    seed = out['all']['seed']
    assert len(seed) == 6 and out['text'] == 'hello-' + seed
    assert out['all'] == {'text': 'hello-' + seed, 'seed': seed}
    row = stacks.rows()['s']
    assert out['ref'] == row.physical_id == row.reference_id      # the stack's id, as Heat's
    assert out['name'] == row.physical_name and out['name'].startswith('st-s-')
    store = stacks.store()
    try:
        child = store.stack_by_id(row.physical_id)
        assert child['name'] == out['name'] and child['parent_resource'] == 's'
        assert child['timeout_mins'] == 7 and child['disable_rollback']
    finally:
        store.close()
    assert stacks.run(OUTER)['changed'] is False


def test_a_changed_parameter_updates_the_nested_resource_only(stacks):
    _inner(stacks)
    stacks.run(OUTER)
    updated = stacks.run(OUTER, parameters={'greeting': 'bye'})
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', updated['stack']
    assert _outputs(updated)['text'].startswith('bye-')
    changed = set(e['resource_name'] for e in updated['events']
                  if e.get('resource_type') not in ('OS::Heat::Stack',))
    assert changed == set(['v']), updated['events']
    gone = stacks.run(state='absent')
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'


def test_a_template_given_as_text_and_a_parameter_it_does_not_declare(stacks):
    text = '''
resources:
  s:
    type: OS::Heat::Stack
    properties:
      template: |
        heat_template_version: 2018-08-31
        parameters:
          x: {type: number}
        outputs:
          double: {value: {str_replace: {template: xx, params: {x: {get_param: x}}}}}
      parameters: {x: 4}
outputs:
  double: {value: {get_attr: [s, outputs, double]}}
'''
    assert _outputs(stacks.run(text))['double'] == '44'
    with pytest.raises(StackersError) as err:
        stacks.run(text.replace('{x: 4}', '{x: 4, y: 5}'), name='other')
    text = str(err.value)
    assert 'The Parameter (y) was not defined in template.' in text and 'resource "s"' in text


def test_another_region_is_refused_before_anything_is_made(stacks):
    _inner(stacks)
    there = OUTER.replace('      timeout: 7\n', '      timeout: 7\n      context: {region_name: RegionTwo}\n')
    with pytest.raises(TemplateError) as err:
        stacks.run(there, region_name='RegionOne')
    text = str(err.value)
    assert 'region "RegionTwo"' in text and '"RegionOne"' in text and 'remote stack' in text
    assert 'resources.s.properties.context.region_name' in text, text
    assert stacks.rows() == {}
    here = there.replace('RegionTwo', 'RegionOne')
    assert stacks.run(here, region_name='RegionOne')['stack']['stack_status'] == 'CREATE_COMPLETE'


def test_a_template_that_waits_on_a_resource_is_refused():
    class Defn(object):
        name, type, path, type_info = 's', 'OS::Heat::Stack', ('resources', 's'), None
        properties = {'template': {'get_attr': ['x', 'y']}}
    from ansible_collections.stackers.orchestration.plugins.module_utils.hot import functions as fns
    parsed = Defn()
    parsed.properties = {'template': _get_attr(fns)}
    with pytest.raises(TemplateError) as err:
        stack_resource.template_of(None, parsed)
    assert 'must be known before the run' in str(err.value)


def _get_attr(fns):
    class Waiting(fns.Function):
        def dependencies(self, path=()):
            yield 'x'

        def result(self):
            return None
    return Waiting(None, 'get_attr', ['x', 'y'])


def test_the_attributes_of_a_row():
    assert stack_resource.attribute({'a': 1}, 'outputs', 'n') == {'a': 1}
    assert stack_resource.attribute({'a': 1}, 'stack_name', 'n') == 'n'
    with pytest.raises(KeyError):
        stack_resource.attribute({'a': 1}, 'other', 'n')


def test_check_mode_predicts_a_stack_resources_update(stacks):
    _inner(stacks)
    stacks.run(OUTER)
    checked = stacks.run(OUTER, parameters={'greeting': 'bye'}, check_mode=True)
    assert checked['changed'] is True
    assert dict((i['resource_name'], i['action']) for i in checked['plan'])['s'] == 'update'
    assert stacks.run(OUTER, check_mode=True)['changed'] is False
