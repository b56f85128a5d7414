# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.value import Value, typed_value

TYPE = 'OS::Heat::Value'


def _ctx(props, **kw):
    return ResourceContext(name='v', type_name=TYPE, physical_name='s-v-abc',
                           properties=effective_properties(TYPE, props), **kw)


def test_registered():
    assert PLUGINS[TYPE] is Value


def test_create_uses_the_physical_name_and_no_cloud():
    ctx = _ctx({'value': 'x'}, conn=object())
    plugin = Value()
    pid = plugin.create(ctx)
    assert pid == 's-v-abc'
    assert plugin.check_create_complete(ctx) is True
    ctx.physical_id = pid
    assert plugin.reference_id(ctx) == 's-v-abc'
    assert plugin.attributes(ctx, plugin.show(ctx)) == {'value': 'x', 'show': None}


@pytest.mark.parametrize('value, kind, expected', [
    (3, 'string', '3'),
    (True, 'string', 'True'),
    ('3', 'number', 3),
    ('2.5', 'number', 2.5),
    ('TRUE', 'boolean', True),
    ('false', 'boolean', False),
    (['a'], 'comma_delimited_list', ['a']),
    ({'a': 1}, 'json', {'a': 1}),
    ({'a': 1}, None, {'a': 1}),
    ('x', 'number', 'x'),           # refused by validation; kept as given
])
def test_type_converts_value_as_heat(value, kind, expected):
    assert typed_value(value, kind) == expected


def test_attribute_follows_the_current_properties_after_an_update():
    ctx = _ctx({'value': '1', 'type': 'number'})
    ctx.physical_id = Value().create(ctx)
    ctx.properties = effective_properties(TYPE, {'value': '2', 'type': 'number'})
    ctx.changed = frozenset(['value'])
    plugin = Value()
    assert plugin.needs_replace(ctx) is False
    plugin.update(ctx)
    assert plugin.check_update_complete(ctx) is True
    assert plugin.attributes(ctx, {})['value'] == 2
    assert plugin.update_allowed('value') and plugin.update_allowed('type')
