# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Property values read as a Heat plugin reads them before creation
(Heat's Properties without validation: heat/engine/properties.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph import heat_props
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.graph.heat_props import (
    PropertiesView, Unreadable, properties_view)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.resource_types import PropertySchema
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition

BAD = 'unreadable'


def _read(raw_schema, value):
    view = PropertiesView({'p': value}, {'p': PropertySchema(raw_schema)})
    try:
        return view['p']
    except Unreadable:
        return BAD


@pytest.mark.parametrize('schema, value, expected', [
    # String: None is '' (or a default), numbers and booleans become text
    ('s', None, ''), (('s', '', 'dflt'), None, 'dflt'), ('s', 'x', 'x'), ('s', 5, '5'),
    ('s', True, 'True'), ('s', 1.5, BAD), ('s', [1], BAD), ('s', {}, BAD),
    # Integer and Number
    ('i', None, 0), ('i', '42', 42), ('i', 4.7, 4), ('i', '4.2', BAD), ('i', [1], BAD),
    ('n', '4.2', 4.2), ('n', '7', 7), ('n', 2.5, 2.5), ('n', 'x', BAD), ('n', [], BAD),
    # Boolean: only booleans and their names
    ('b', None, False), ('b', 'TRUE', True), ('b', 'false', False), ('b', 'yes', BAD), ('b', 1, BAD),
    # Map and List, with Heat's conversions
    ('m', None, {}), ('m', {'a': 1}, {'a': 1}), ('m', 'text', BAD), ('m', [1], BAD),
    (('m', 'c'), 'text', 'text'), (('m', 'c'), [1, 2], '[1, 2]'),
    ('l', None, []), ('l', [1, 'a'], [1, 'a']), ('l', 'a,b', BAD), ('l', {'a': 1}, BAD),
    (('l', 'c'), 'a,b', ['a', 'b']), (('l', 'c'), '', []),
    # Map schemas read every key: defaults, None as the type's empty value,
    # a required key missing is an error, unknown keys are dropped
    (('m', '', None, None, {'a': 's', 'b': ('i', '', 3)}), {'a': None, 'x': 1}, {'a': '', 'b': 3}),
    (('m', '', None, None, {'a': ('s', 'r')}), {}, BAD),
    (('m', '', None, None, {'a': 'b'}), {'a': 'maybe'}, BAD),
    (('l', '', None, None, ('m', '', None, None, {'a': 's'})), [{'a': 1}, None], [{'a': '1'}, {'a': None}]),
    (('l', '', None, None, 's'), ['a', 1.5], BAD),
    ('a', [{'x': None}], [{'x': None}]),
])
def test_conversion(schema, value, expected):
    assert _read(schema, value) == expected


def test_absent_values():
    view = PropertiesView({}, {'plain': PropertySchema('s'), 'dflt': PropertySchema(('s', '', 'd')),
                               'req': PropertySchema(('s', 'r')), 'lst': PropertySchema(('l', '', [1]))})
    assert view['plain'] is None and view.get('plain') is None
    assert view['dflt'] == 'd' and view['lst'] == [1]
    with pytest.raises(Unreadable):
        view['req']
    with pytest.raises(Unreadable):
        view.get('req')  # Heat's Mapping.get only forgives unknown keys
    with pytest.raises(Unreadable):
        view['unknown']
    assert view.get('unknown') is None


PORT = {'network': PropertySchema(('s', 'r')), 'network_id': PropertySchema('s'),
        'fixed_ips': PropertySchema(('l', '', None, None, ('m', '', None, None, {
            'subnet': 's', 'subnet_id': 's', 'ip_address': 's'})))}
PORT_MOVES = {('network',): ('network_id',), ('fixed_ips', 'subnet'): ('fixed_ips', 'subnet_id')}
PORT_HIDDEN = frozenset([('network_id',), ('fixed_ips', 'subnet_id')])


@pytest.mark.parametrize('data, network, network_id, fixed_ips', [
    ({'network': 'a'}, 'a', None, None),
    ({'network_id': 'a'}, 'a', None, None),
    ({'network_id': 5}, '5', None, None),
    # The old name given as null still reads '' and wins (as in Heat).
    ({'network': 'a', 'network_id': None}, '', None, None),
    ({'network': None, 'network_id': 'b'}, 'b', None, None),
    ({'network': '', 'network_id': 'b'}, 'b', None, None),
    ({}, BAD, None, None),
    ({'network': 'a', 'fixed_ips': [{'subnet_id': 's1'}, {'subnet': 's2', 'ip_address': None}]}, 'a', None,
     [{'subnet': 's1', 'subnet_id': None, 'ip_address': None},
      {'subnet': 's2', 'subnet_id': None, 'ip_address': ''}]),
])
def test_translation_moves(data, network, network_id, fixed_ips):
    view = PropertiesView(data, PORT, PORT_MOVES, PORT_HIDDEN)

    def read(key):
        try:
            return view[key]
        except Unreadable:
            return BAD
    assert (read('network'), read('network_id'), read('fixed_ips')) == (network, network_id, fixed_ips)


@pytest.mark.parametrize('data, message, where', [
    ({'network': 'a', 'network_id': 'b'}, 'network, network_id', ('network',)),
    ({'network': 'a', 'fixed_ips': [{}, {'subnet': 'x', 'subnet_id': 'y'}]},
     'fixed_ips.subnet, fixed_ips.subnet_id', ('fixed_ips', 1, 'subnet')),
])
def test_old_and_new_name_together_fail(data, message, where):
    view = PropertiesView(data, PORT, PORT_MOVES, PORT_HIDDEN, path=('resources', 'p', 'properties'))
    key = where[0]
    with pytest.raises(TemplateError) as err:
        view[key]
    assert err.value.message == 'Cannot define the following properties at the same time: ' + message
    assert err.value.path == ('resources', 'p', 'properties') + where


def _stack(resources, **kw):
    return StackDefinition('heat_template_version: 2021-04-16\n'
                           'parameters:\n  net: {type: string, default: pub}\n'
                           'resources:\n' + resources, **kw)


def test_values_resolved_as_before_creation():
    sd = _stack('  n: {type: OS::Neutron::Net}\n'
                '  v: {type: OS::Heat::Value, properties: {value: x}}\n'
                '  p:\n    type: OS::Neutron::Port\n    properties:\n'
                '      network: {get_param: net}\n'
                '      name: {get_resource: v}\n'
                '      device_id: {get_resource: n}\n'
                '      device_owner: {get_attr: [n, name]}\n'
                '      mac_address: {if: [false, x]}\n'
                '      binding:vnic_type: {str_split: [",", 1]}\n')
    view = properties_view(sd, sd.resources['p'])
    assert view['network'] == 'pub'
    assert view['name'] == 'v'            # most types answer their name
    assert view['device_id'] == ''        # Neutron types answer None: '' as a String
    assert view['device_owner'] == ''     # no attributes before creation
    assert view['mac_address'] is None    # a 2-argument if that is false: not given
    with pytest.raises(Unreadable):
        view['binding:vnic_type']         # the function fails: Heat's ValueError
    live = _stack('  n: {type: OS::Neutron::Net}\n'
                  '  p: {type: OS::Neutron::Port, properties: {network: {get_resource: n}}}\n',
                  resource_data={'n': {'reference_id': 'uuid-1'}})
    assert properties_view(live, live.resources['p'])['network'] == 'uuid-1'


def test_implementations_without_a_plugin_schema():
    files = {'sub.yaml': 'heat_template_version: 2018-08-31\nparameters:\n'
                         '  network: {type: string}\n  size: {type: number, default: 1}\n'
                         '  tags: {type: comma_delimited_list}\n  extra: {type: json}\n'}
    sd = _stack('  t: {type: sub.yaml, properties: {network: 5, tags: "a,b", extra: [1]}}\n'
                '  z: {type: OS::Neutron::Subnet, properties: {network: x, cidr: 10.0.0.0/24}}\n',
                files=files,
                environment=None)
    view = properties_view(sd, sd.resources['t'])
    assert (view['network'], view['tags'], view['extra'], view['size']) == ('5', ['a', 'b'], '[1]', None)
    assert view.get('cidr') is None
    sd.resources['z'].type_info.is_none = True  # as a type mapped to OS::Heat::None
    none = properties_view(sd, sd.resources['z'])
    assert none.get('network') is None
    with pytest.raises(Unreadable):
        none['network']
    assert heat_props._schema_and_moves(sd, sd.resources['z']) == ({}, {}, frozenset())
