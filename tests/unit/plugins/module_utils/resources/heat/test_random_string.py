# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random
import string

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.random_string import RandomString, char_pools, generate

TYPE = 'OS::Heat::RandomString'


def _ctx(props):
    return ResourceContext(name='r', type_name=TYPE, physical_name='s-r-abc',
                           properties=effective_properties(TYPE, props))


def test_default_is_32_letters_and_digits_kept_in_data():
    assert PLUGINS[TYPE] is RandomString
    assert RandomString.secret_data == ('value',)
    ctx = _ctx({})
    plugin = RandomString()
    pid = plugin.create(ctx)
    assert pid == 's-r-abc'
    value = ctx.data['value']
    assert len(value) == 32 and set(value) <= set(string.ascii_letters + string.digits)
    ctx.physical_id = pid
    assert plugin.reference_id(ctx) == value
    assert plugin.attributes(ctx, plugin.show(ctx)) == {'value': value, 'show': None}


def test_reference_before_create_is_the_name():
    assert RandomString().reference_id(_ctx({})) == 'r'


def test_minimums_per_class_and_sequence_are_met():
    props = {'length': 12,
             'character_classes': [{'class': 'digits', 'min': 4}, {'class': 'uppercase', 'min': 3}],
             'character_sequences': [{'sequence': '!@', 'min': 5}]}
    for _i in range(50):
        ctx = _ctx(props)
        RandomString().create(ctx)
        value = ctx.data['value']
        assert len(value) == 12
        assert sum(c in string.digits for c in value) >= 4
        assert sum(c in string.ascii_uppercase for c in value) >= 3
        assert sum(c in '!@' for c in value) >= 5
        assert set(value) <= set(string.digits + string.ascii_uppercase + '!@')


def test_only_a_sequence_uses_only_its_characters():
    ctx = _ctx({'length': 40, 'character_classes': [], 'character_sequences': [{'sequence': 'ab'}]})
    RandomString().create(ctx)
    assert set(ctx.data['value']) <= set('ab')


def test_deprecated_sequence_becomes_the_only_class_when_classes_are_unset():
    props = effective_properties(TYPE, {'sequence': 'octdigits', 'length': 64})
    pools = char_pools(props)
    assert pools == [(string.octdigits, 1)]
    ctx = _ctx({'sequence': 'octdigits', 'length': 64})
    RandomString().create(ctx)
    assert set(ctx.data['value']) <= set(string.octdigits)


def test_deprecated_sequence_adds_to_given_classes():
    props = effective_properties(TYPE, {'sequence': 'digits',
                                        'character_classes': [{'class': 'lowercase', 'min': 2}]})
    assert char_pools(props) == [(string.ascii_lowercase, 2), (string.digits, 1)]


def test_generate_is_shuffled():
    rng = random.Random(4)
    value = generate(10, [('a', 5), ('b', 5)], rng=rng)
    assert sorted(value) == list('aaaaabbbbb') and value != 'aaaaabbbbb'


def test_no_property_is_updated_in_place():
    for name in ('length', 'sequence', 'character_classes', 'character_sequences', 'salt'):
        assert not RandomString.update_allowed(name)


def test_heat_resource_data_is_heats_value_key():
    plugin = RandomString()
    assert plugin.heat_resource_data(ResourceContext(data={'value': 'abc'})) == {'value': 'abc'}
    assert plugin.heat_resource_data(ResourceContext()) == {}
