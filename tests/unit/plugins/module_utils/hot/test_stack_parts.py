# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""hot/stack_parts.py: a stack's resource and output definitions, and the
context that locates errors."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import gc

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackersError, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack_parts import (
    Locator, OutputDefinition, ResourceDefinition)

TEMPLATE = '''heat_template_version: 2016-10-14
resources:
  a: {type: OS::Heat::None}
  b:
    type: OS::Heat::Value
    properties: {value: {get_attr: [a, x]}}
outputs:
  both: {value: [{get_resource: a}, {get_attr: [b, value]}]}
  bad: {value: {get_resource: nosuch}}
  off: {value: {get_resource: a}, condition: false}
'''


def test_a_resource_definition_starts_unresolved():
    defn = ResourceDefinition('srv', 'OS::Nova::Server', ('resources', 'srv'))
    assert (defn.type_info, defn.requires, defn.functions, defn.field_functions) == (None, None, (), ())
    assert repr(defn) == '<ResourceDefinition srv (OS::Nova::Server)>'
    with pytest.raises(AttributeError):
        setattr(defn, 'anything_else', 1)  # slots: a big stack holds thousands of these


def test_outputs_name_what_they_require_and_resolve_when_enabled():
    sd = StackDefinition(TEMPLATE)
    sd.validate(strict=False)
    outputs = sd.outputs
    assert outputs['both'].required_resources() == ['a', 'b']
    assert outputs['bad'].required_resources() == []  # it cannot work anyway
    # nothing exists yet: a placeholder id and no attribute, as in Heat's validation
    assert outputs['both'].resolve() == ['a', None]


def test_a_disabled_output_resolves_to_none_without_looking_at_its_value():
    out = OutputDefinition('o', object(), 'd', 'cond', False, path=('outputs', 'o'))
    assert out.resolve() is None


def test_the_locator_gives_errors_their_line_and_pauses_the_collector():
    sd = StackDefinition(TEMPLATE)
    assert gc.isenabled()
    with pytest.raises(TemplateError) as err:
        with Locator(sd.template):
            assert not gc.isenabled()
            raise TemplateError('here', path=('resources', 'b', 'properties'))
    assert gc.isenabled() and err.value.line == 6


def test_the_locator_leaves_a_paused_collector_paused_and_other_errors_alone():
    sd = StackDefinition(TEMPLATE)
    gc.disable()
    try:
        with pytest.raises(StackersError) as err:
            with Locator(sd.template):
                raise StackersError('not about a document')
        assert not gc.isenabled()
        assert not hasattr(err.value, 'line') or err.value.line is None
    finally:
        gc.enable()
