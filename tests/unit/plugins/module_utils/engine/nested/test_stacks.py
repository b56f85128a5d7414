# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nested stacks' goals made with their parent's: names, what waits on the run,
Heat's limits, and bad input refused before anything is written."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.nested import stacks as nesting
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.converge import StepKey
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    ResourceLimitExceeded, TemplateError)

from ..conftest import HEADER

LEAF = HEADER + '''
parameters:
  name: {type: string}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: name}}}
'''

MID = HEADER + '''
parameters:
  label: {type: string}
resources:
  leaf: {type: leaf.yaml, properties: {name: {get_param: label}}}
'''


def _goals(make_run, stacks, text, **kw):
    run, _graph = make_run(text)
    return nesting.nest_goals(run.sd, run.store, None, **kw)


def test_a_value_waiting_on_a_resource_defers_every_level_that_reads_it(make_run, stacks):
    for name, text in (('leaf.yaml', LEAF), ('mid.yaml', MID)):
        (stacks.dir / name).write_text(text)
    goals = _goals(make_run, stacks, '''
resources:
  r: {type: OS::Heat::RandomString}
  known: {type: mid.yaml, properties: {label: fixed}}
  waits: {type: mid.yaml, properties: {label: {get_attr: [r, value]}}}
''')
    assert goals['known'].deferred is False and goals['known'].children['leaf'].deferred is False
    assert goals['waits'].deferred is True and goals['waits'].children['leaf'].deferred is True
    assert goals['known'].stack_name.startswith('st-known-')
    assert goals['known'].stack_id != goals['waits'].stack_id
    assert set(goals['known'].sd.resources) == set(['leaf'])


def test_the_resource_limit_counts_the_whole_tree(make_run, stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    text = '''
resources:
  a: {type: leaf.yaml, properties: {name: x}}
  b: {type: leaf.yaml, properties: {name: y}}
'''
    assert len(_goals(make_run, stacks, text, max_resources=4)) == 2
    with pytest.raises(ResourceLimitExceeded) as err:
        _goals(make_run, stacks, text, max_resources=3)
    assert 'Maximum resources per stack exceeded.' in str(err.value)


def test_a_nested_template_with_a_bad_value_is_refused_with_its_file_and_line(make_run, stacks):
    (stacks.dir / 'leaf.yaml').write_text(LEAF + '  w: {type: OS::Heat::Value, properties: {value: 1, '
                                          'type: bogus}}\n')
    with pytest.raises(TemplateError) as err:
        _goals(make_run, stacks, 'resources:\n  a: {type: leaf.yaml, properties: {name: x}}\n')
    text = str(err.value)
    assert 'leaf.yaml:7: resources.w.properties.type' in text and 'resource "a"' in text, text


def test_a_template_that_nests_itself_stops_at_heats_depth(stacks):
    (stacks.dir / 'loop.yaml').write_text(HEADER + 'resources:\n  again: {type: loop.yaml}\n')
    with pytest.raises(TemplateError) as err:
        stacks.run('resources:\n  first: {type: loop.yaml}\n')
    assert 'Request limit exceeded: Recursion depth exceeds 5.' in str(err.value)
    assert stacks.rows() == {}      # refused before anything was written


THREE = 'resources:\n  top: {type: mid.yaml, properties: {label: x}}\n'


def test_the_depth_limit_is_the_requests(stacks):
    for name, text in (('leaf.yaml', LEAF), ('mid.yaml', MID)):
        (stacks.dir / name).write_text(text)
    with pytest.raises(TemplateError) as err:
        stacks.run(THREE, max_nested_depth=1)
    assert 'Request limit exceeded: Recursion depth exceeds 1.' in str(err.value)
    assert 'resources.leaf.type' in str(err.value)
    assert stacks.rows() == {}
    assert stacks.run(THREE, max_nested_depth=2)['stack']['stack_status'] == 'CREATE_COMPLETE'


def test_the_resource_limit_is_the_requests_over_the_tree_and_minus_one_lifts_it(stacks):
    for name, text in (('leaf.yaml', LEAF), ('mid.yaml', MID)):
        (stacks.dir / name).write_text(text)
    text = THREE + '  other: {type: OS::Heat::None}\n'       # 2 + 1 + 1 resources
    with pytest.raises(ResourceLimitExceeded) as err:
        stacks.run(text, max_resources=3)
    assert str(err.value).endswith('Request limit exceeded: Maximum resources per stack exceeded.')
    assert stacks.rows() == {}
    assert stacks.run(text, max_resources=4)['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert stacks.run(text, name='free', max_resources=-1)['stack']['stack_status'] == \
        'CREATE_COMPLETE'


def test_the_top_stack_alone_counts_too(make_run, stacks):
    with pytest.raises(ResourceLimitExceeded) as err:
        _goals(make_run, stacks, 'resources:\n  a: {type: OS::Heat::None}\n  b: {type: OS::Heat::None}\n',
               max_resources=1)
    assert 'Maximum resources per stack exceeded.' in str(err.value)


def test_a_groups_members_count_towards_the_limit(stacks):
    text = """
resources:
  g:
    type: OS::Heat::ResourceGroup
    properties: {count: 5, resource_def: {type: OS::Heat::None}}
"""
    with pytest.raises(ResourceLimitExceeded):
        stacks.run(text, max_resources=5)
    assert stacks.run(text, max_resources=6)['stack']['stack_status'] == 'CREATE_COMPLETE'


def test_a_nested_stacks_steps_move_under_its_path_and_come_back_for_its_summary():
    deps = {StepKey('res', 'a'): set(), StepKey('res', 'b'): {StepKey('res', 'a')},
            StepKey('res', 'x', ('inner',)): {StepKey('res', 'b')}}
    work = dict((k, None) for k in deps)
    moved, moved_work = nesting.moved(deps, work, ('tier',))
    assert moved == {StepKey('res', 'a', ('tier',)): set(),
                     StepKey('res', 'b', ('tier',)): {StepKey('res', 'a', ('tier',))},
                     StepKey('res', 'x', ('tier', 'inner')): {StepKey('res', 'b', ('tier',))}}
    assert set(moved_work) == set(moved)
    outcomes = dict((k, k.name) for k in moved)
    outcomes[StepKey('res', 'tier')] = 'top'
    assert nesting.outcomes_at(outcomes, ('tier',)) == {StepKey('res', 'a'): 'a', StepKey('res', 'b'): 'b'}
    assert nesting.outcomes_at(outcomes, ('tier', 'inner')) == {StepKey('res', 'x'): 'x'}
    assert nesting.outcomes_at(outcomes, ()) == {StepKey('res', 'tier'): 'top'}
