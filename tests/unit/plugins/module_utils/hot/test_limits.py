# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    ResourceLimitExceeded, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import limits
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import loader, nested, validate
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions import yaql_fn
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.nested import stacks as nesting


def test_defaults_are_heats():
    d = limits.DEFAULT
    assert (d.max_template_size, d.max_json_body_size, d.max_resources_per_stack,
            d.max_nested_stack_depth, d.yaql_limit_iterators, d.yaql_memory_quota) == \
        (524288, 1048576, 1000, 5, 200, 10000)
    assert d.max_items == 524288


def test_the_old_constants_read_the_one_place():
    assert loader.MAX_TEMPLATE_SIZE == limits.DEFAULT.max_template_size
    assert validate.MAX_RESOURCES_PER_STACK == nesting.MAX_RESOURCES == 1000
    assert nested.MAX_NESTED_DEPTH == 5
    assert (yaql_fn.LIMIT_ITERATORS, yaql_fn.MEMORY_QUOTA) == (200, 10000)


class _Stack(object):
    limits = limits.Limits(max_json_body_size=100)


class _Fn(object):
    fn_name = 'repeat'
    stack = _Stack()

    def error(self, message, cls=TemplateError):
        return cls(message)


def test_of_reads_a_stacks_limits_else_the_defaults():
    assert limits.of(_Stack()).max_json_body_size == 100
    assert limits.of(object()) is limits.DEFAULT
    assert limits.of(None) is limits.DEFAULT


def test_check_items_and_text():
    limits.check_items(_Fn(), 50)
    with pytest.raises(ResourceLimitExceeded) as err:
        limits.check_items(_Fn(), 51)
    assert str(err.value) == '"repeat" would build 51 items; no value may hold more than 50 ' \
                             '(max_json_body_size / 2)'
    limits.check_text(_Fn(), 100)
    with pytest.raises(ResourceLimitExceeded) as err:
        limits.check_text(_Fn(), 101)
    assert 'string of 101 characters' in str(err.value)


def test_check_body_is_heats_message():
    limits.check_body({'template': 'x' * 10}, limits.Limits(max_json_body_size=100))
    with pytest.raises(ResourceLimitExceeded) as err:
        limits.check_body({'template': 'x' * 100}, limits.Limits(max_json_body_size=100),
                          filename='t.yaml')
    assert str(err.value) == 't.yaml: Request limit exceeded: JSON body size (116 bytes) exceeds ' \
                             'maximum allowed size (100 bytes).'
    # a negative limit is none
    limits.check_body({'template': 'x' * 1000}, limits.Limits(max_json_body_size=-1))
