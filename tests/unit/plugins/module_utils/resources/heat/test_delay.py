# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import phases
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run.request import StackRequest
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.nested import child_definition
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.template import Template
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS, type_rule
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.delay import Delay, wait_secs

TYPE = 'OS::Heat::Delay'


def _ctx(props):
    return ResourceContext(name='d', type_name=TYPE, physical_name='s-d-abc',
                           properties=effective_properties(TYPE, props))


def test_defaults_wait_nothing_and_reference_is_the_name():
    assert PLUGINS[TYPE] is Delay
    ctx = _ctx({})
    plugin = Delay()
    assert plugin.create(ctx) is None
    assert plugin.check_create_complete(ctx) is True
    assert plugin.reference_id(ctx) == 'd'
    assert plugin.attributes(ctx, {}) == {'show': None}


def test_create_waits_by_polls():
    ctx = _ctx({'min_wait': 10})
    plugin = Delay()
    plugin.create(ctx)
    assert plugin.check_create_complete(ctx) is False
    ctx.data['wait']['started'] -= 10
    assert plugin.check_create_complete(ctx) is True
    assert 'wait' not in ctx.data


def test_only_listed_actions_wait():
    ctx = _ctx({'min_wait': 10, 'actions': ['DELETE']})
    plugin = Delay()
    plugin.create(ctx)
    assert plugin.check_create_complete(ctx) is True
    plugin.delete(ctx)
    assert plugin.check_delete_complete(ctx) is False
    plugin.suspend(ctx)
    assert plugin.check_suspend_complete(ctx) is True
    plugin.resume(ctx)
    assert plugin.check_resume_complete(ctx) is True


def test_jitter_is_uniform_up_to_max_times_multiplier():
    props = effective_properties(TYPE, {'min_wait': 1, 'max_jitter': 2, 'jitter_multiplier': 3})
    rng = random.Random(1)
    values = [wait_secs(props, 'CREATE', rng) for _i in range(200)]
    assert all(1 <= v <= 7 for v in values)
    assert max(values) > 5 and min(values) < 3
    assert wait_secs(props, 'DELETE') == 0


DELAYED = '''heat_template_version: 2018-08-31
resources:
  d:
    type: OS::Heat::Delay
    properties: {min_wait: 4000}
'''


def test_the_longest_wait_may_not_exceed_the_stack_timeout_heat_stack_gives(tmp_path):
    path = tmp_path / 't.yaml'
    path.write_text(DELAYED)
    inputs = defs.read_inputs(str(path), (), None)
    with pytest.raises(TemplateError) as err:
        phases.load(StackRequest('st'), inputs, None)   # Heat's default: an hour
    assert 'OS::Heat::Delay maximum delay 4000.0s exceeds stack timeout.' in str(err.value)
    assert err.value.path == ('resources', 'd', 'properties')
    sd, _graph = phases.load(StackRequest('st', timeout=4030), inputs, None)  # 67 minutes
    assert sd.timeout_secs == 4020
    with pytest.raises(TemplateError):
        phases.load(StackRequest('st', timeout=3999), inputs, None)


def test_a_nested_stack_has_its_parents_timeout():
    parent = StackDefinition(DELAYED, type_rules=type_rule)
    parent.timeout_secs = 4020
    nested = child_definition(parent, parent.resources['d'], Template.load(DELAYED), {})
    assert nested.timeout_secs == 4020
    nested.validate(strict=True)
    parent.timeout_secs = None
    with pytest.raises(TemplateError):
        child_definition(parent, parent.resources['d'], Template.load(DELAYED), {}).validate(
            strict=True)
