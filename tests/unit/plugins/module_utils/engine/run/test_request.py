# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run.request import StackRequest
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.limits import Limits
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack

# What the module passes that is not one of its options.
ENGINE_ONLY = {'check_mode', 'diff', 'project_id', 'checker', 'region_name', 'resize', 'limits',
               'url_opener', 'cancel'}
# Options the module acts on itself: the plugins it loads before the engine runs.
MODULE_ONLY = {'resource_plugin_dirs'}
# Options that reach the engine inside ``limits`` (hot/limits.py) only.
IN_LIMITS = {'max_template_size': 'max_template_size', 'max_json_body_size': 'max_json_body_size',
             'yaql_limit_iterators': 'yaql_limit_iterators', 'yaql_memory_quota': 'yaql_memory_quota'}


def test_the_request_has_the_module_options_and_their_defaults():
    fields = dict((f.name, f) for f in dataclasses.fields(StackRequest))
    spec = heat_stack.HeatStack.argument_spec
    assert set(fields) - ENGINE_ONLY == set(spec) - set(IN_LIMITS) - MODULE_ONLY
    for name, field in IN_LIMITS.items():
        assert spec[name]['default'] == getattr(Limits(), field), name
    for name, option in spec.items():
        if name in IN_LIMITS or name in MODULE_ONLY:
            continue
        default, given = fields[name].default, option.get('default')
        if option.get('required'):
            assert default is dataclasses.MISSING, name
            continue
        if isinstance(given, (list, dict)) and not given:
            assert not default, name          # an empty list or dict: the request's empty default
        else:
            assert given == default, name


def test_runner_still_offers_the_request():
    assert runner.StackRequest is StackRequest
    request = StackRequest('st', template='t.yaml')
    assert (request.name, request.state, request.rollback) == ('st', 'present', False)
    assert request == StackRequest(name='st', template='t.yaml')
    with pytest.raises(TypeError):
        StackRequest('st', 'absent')       # options by keyword only


def test_limits_are_read_from_one_place():
    request = StackRequest('st', max_resources=7, max_nested_depth=2)
    assert (request.limits.max_resources_per_stack, request.limits.max_nested_stack_depth) == (7, 2)
    request = StackRequest('st', limits=Limits(max_resources_per_stack=9, max_nested_stack_depth=3))
    assert (request.max_resources, request.max_nested_depth) == (9, 3)
