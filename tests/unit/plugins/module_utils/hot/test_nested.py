# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import (
    validation as validate)

PARENT = """heat_template_version: 2018-08-31
parameters:
  size: {type: number, default: 1}
resources:
  box:
    type: box.yaml
    properties:
      size: {get_param: size}
      label: literal
"""

GOOD_BOX = """heat_template_version: 2018-08-31
parameters:
  size: {type: number}
  label: {type: string}
conditions:
  labelled: {not: {equals: [{get_param: label}, '']}}
resources:
  inner:
    type: OS::Heat::Value
    condition: labelled
    properties:
      value: {get_param: size}
outputs:
  value: {value: {get_attr: [inner, value]}}
"""

BAD_BOX = """heat_template_version: 2018-08-31
parameters:
  size: {type: number}
  label: {type: string}
resources:
  inner:
    type: OS::No::SuchType
"""


def test_stack_create_validation_looks_inside_template_resources():
    with pytest.raises(TemplateError) as exc:
        validate.validate_template(PARENT, files={'box.yaml': BAD_BOX}, strict=True)
    text = str(exc.value)
    assert text.startswith('box.yaml:7: ')
    assert 'OS::No::SuchType' in text and 'in the template of resource "box"' in text


def test_template_validate_does_not_look_inside_as_heat():
    assert validate.validate_template(PARENT, files={'box.yaml': BAD_BOX})['Parameters']


def test_known_property_values_reach_the_nested_conditions():
    # label is literal, so the nested condition can be evaluated.
    assert validate.validate_template(PARENT, files={'box.yaml': GOOD_BOX}, strict=True)


SELF = """heat_template_version: 2018-08-31
resources:
  again:
    type: self.yaml
"""


def test_nesting_deeper_than_heats_limit_is_refused():
    with pytest.raises(TemplateError) as exc:
        validate.validate_template(SELF, files={'self.yaml': SELF}, strict=True)
    assert 'Recursion depth exceeds 5' in str(exc.value)


def test_a_stacks_depth_limit_is_inherited_by_its_nested_stacks():
    from ansible_collections.stackers.orchestration.plugins.module_utils.hot import nested

    class Defn(object):
        name, path = 'again', ('resources', 'again')

    class Stack(object):
        nested_depth, max_nested_depth = 2, 3
    assert nested.check_depth(Stack(), Defn()) == 3
    Stack.nested_depth = 3
    with pytest.raises(TemplateError) as exc:
        nested.check_depth(Stack(), Defn())
    assert 'Request limit exceeded: Recursion depth exceeds 3.' in str(exc.value)
    Stack.max_nested_depth = None
    assert nested.max_depth(Stack()) == nested.MAX_NESTED_DEPTH
