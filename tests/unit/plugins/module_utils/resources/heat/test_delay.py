# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
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
