# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A plugin class's schemas encoded as Heat's catalogue entries, and decoded back by the catalogue's own
classes unchanged."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import PluginSchemaError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_schema


class Declared(object):
    properties_schema = {
        'name': {'type': 'string', 'required': True, 'update_allowed': True, 'description': 'Its name',
                 'constraints': [{'length': {'min': 1, 'max': 64}, 'description': 'short'},
                                 {'allowed_pattern': '[a-z]+'}]},
        'count': {'type': 'integer', 'default': 2, 'immutable': True,
                  'constraints': [{'range': {'max': 9}}, {'modulo': {'step': 2, 'offset': 0}}]},
        'owner': {'type': 'map', 'schema': {'email': {'type': 'string', 'required': True}}},
        'flavours': {'type': 'list', 'schema': {'*': {'type': 'string',
                                                      'constraints': [{'custom_constraint': 'nova.flavor'}]}}},
        'extra': {'type': 'any'},
    }
    attributes_schema = {'url': {'type': 'string', 'description': 'Where'}, 'raw': {}}
    update_policy_schema = {'pause': {'type': 'number', 'default': 0}}


def test_the_encoded_schema_reads_back_through_the_catalogue_classes():
    entry, policy = plugin_schema.encode(Declared, 'Test::Declared', 'declared.py')
    heat_type = rt.HeatType('Test::Declared', entry)
    props = heat_type.properties
    assert (props['name'].type, props['name'].required, props['name'].update_allowed) == ('String', True, True)
    assert (props['name'].constraint('length').min, props['name'].constraint('length').max) == (1, 64)
    assert props['name'].constraint('allowed_pattern').pattern == '[a-z]+'
    assert (props['count'].default, props['count'].immutable, props['count'].update_allowed) == (2, True, False)
    assert props['count'].constraint('range').max == 9 and props['count'].constraint('modulo').step == 2
    assert props['owner'].schema['email'].required
    assert props['flavours'].schema.custom_constraints == ('nova.flavor',)
    assert props['extra'].type == 'Any'
    assert heat_type.attributes['url'].type == 'String' and heat_type.attributes['raw'].type is None
    assert 'show' in heat_type.attributes and heat_type.status == 'SUPPORTED'
    assert rt.PropertySchema(policy['pause']).type == 'Number'


def test_a_class_without_properties_schema_is_refused():
    with pytest.raises(PluginSchemaError) as exc:
        plugin_schema.encode(object, 'Test::Bare', 'bare.py', line=3)
    assert str(exc.value).startswith('bare.py:3: Test::Bare.properties_schema: the class object declares no')


@pytest.mark.parametrize('spec, words', [
    ({'type': 'integer', 'default': True}, 'Invalid default'),
    ({'type': 'string', 'default': 'c', 'constraints': [{'allowed_values': ['a', 'b']}]}, 'allowed values'),
    ({'type': 'string', 'constraints': [{'allowed_pattern': '('}]}, 'not a valid regular expression'),
    ({'type': 'integer', 'constraints': [{'modulo': {'step': 2, 'offset': 3}}]}, 'offset must be smaller'),
    ({'type': 'integer', 'constraints': [{'range': {'min': 1}, 'length': {'max': 2}}]}, 'one of range'),
    ({'type': 'boolean', 'description': 7}, 'must be a string'),
])
def test_what_heats_schema_refuses_is_refused(spec, words):
    class Bad(object):
        properties_schema = {'p': spec}
    with pytest.raises(PluginSchemaError) as exc:
        plugin_schema.encode(Bad, 'Test::Bad', 'bad.py')
    assert words in str(exc.value) and 'Test::Bad.properties_schema.p' in str(exc.value)
