# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot import functions as fns

from .conftest import ALL_VERSIONS, FakeStack, failure, since, value

DATA = {'r': {'reference_id': 'rid-1',
              'attrs': {'first': 'a', 'list': [{'ip': '10.0.0.1'}, {'ip': '10.0.0.2'}],
                        'map': {'k': 'v'}, 'show': {'everything': True}}}}


@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_get_resource(version):
    assert value({'get_resource': 'r'}, version, resources=['r'], data=DATA) == 'rid-1'
    # without live data the stack answers its placeholder (here: the name)
    assert value({'get_resource': 'r'}, version, resources=['r']) == 'r'
    assert value({'get_resource': {'get_param': 'p'}}, version, resources=['r'],
                 params={'p': 'r'}, data=DATA) == 'rid-1'


@pytest.mark.parametrize('name, disabled, message', [
    ('nosuch', (), 'no such resource'),
    ('off', ('off',), 'its condition is false'),
    (['r'], (), 'no such resource'),
])
def test_get_resource_unknown_or_disabled(name, disabled, message):
    stack = FakeStack(resources=['r'], disabled=disabled)
    parsed = stack.template.parse({'get_resource': name}, ('outputs', 'o', 'value'), stack=stack)
    for call in (parsed.dependencies, parsed.result):
        with pytest.raises(Exception) as err:
            call()
        assert message in str(err.value)
        assert err.value.path == ('outputs', 'o', 'value', 'get_resource')


@pytest.mark.parametrize('args, expected', [
    (['r', 'first'], 'a'),
    (['r', 'list', 1, 'ip'], '10.0.0.2'),
    (['r', 'list', 5], None),
    (['r', 'map', 'k'], 'v'),
    (['r', 'map', 'k', 'deeper'], None),
    (['r', {'get_param': 'attr'}], 'a'),
])
@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_get_attr_paths(args, expected, version):
    assert value({'get_attr': args}, version, resources=['r'], data=DATA,
                 params={'attr': 'first'}) == expected


@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_get_attr_before_the_resource_exists_is_none(version):
    assert value({'get_attr': ['r', 'first', 0]}, version, resources=['r']) is None


@pytest.mark.parametrize('version', since('2015-10-15'))
def test_get_attr_all_attributes(version):
    assert value({'get_attr': ['r']}, version, resources=['r'], data=DATA) == dict(
        (k, v) for k, v in DATA['r']['attrs'].items() if k != 'show')
    # A one-character string is a one-item list to Heat.
    assert value({'get_attr': 'r'}, version, resources=['r'], data=DATA)['first'] == 'a'
    assert value({'get_attr': ['r', None]}, version, resources=['r'], data=DATA)['first'] == 'a'


@pytest.mark.parametrize('version', since('2013-05-23', '2015-10-15'))
def test_get_attr_needs_an_attribute_before_2015_10_15(version):
    phase, err = failure({'get_attr': ['r']}, version, resources=['r'])
    assert phase == 'parse'
    assert 'resource_name, attribute' in err.message


@pytest.mark.parametrize('args, version, phase, message', [
    ('rr', '2015-10-15', 'parse', 'must be a list'),
    ({'r': 'a'}, '2015-10-15', 'parse', 'must be a list'),
    ([], '2015-10-15', 'parse', '[resource_name]'),
    ('r', '2014-10-16', 'parse', 'must be a list'),
    (['nosuch', 'a'], '2021-04-16', 'validate', 'no such resource'),
    (['off', 'a'], '2021-04-16', 'validate', 'its condition is false'),
    (['r', 'bogus'], '2021-04-16', 'validate', 'no attribute bogus'),
    (['r', None], '2014-10-16', 'validate', 'no attribute None'),
])
def test_get_attr_errors(args, version, phase, message):
    got, err = failure({'get_attr': args}, version, resources=['r'], disabled=['off'],
                       attributes={'r': {'first', 'list'}})
    assert (got, message in err.message) == (phase, True), err.message
    assert err.path[-1] == 'get_attr'


def test_get_attr_dependencies_and_attribute_path():
    stack = FakeStack(resources=['r', 's'], params={'p': 's'})
    parsed = stack.template.parse({'get_attr': [{'get_param': 'p'}, 'first', 0]}, stack=stack)
    assert parsed.dependencies() == ['s']
    assert parsed.attribute_path() == ('s', 'first', (0,))
    every = stack.template.parse({'get_attr': ['r']}, stack=stack)
    assert every.attribute_path() == ('r', None, ())
    assert sorted(fns.dependencies([parsed, every])) == ['r', 's']
    # the name as written: a string, else None (all attributes, or computed)
    assert parsed.attribute_name() == 'first' and every.attribute_name() is None
    computed = stack.template.parse({'get_attr': ['r', {'get_param': 'p'}]}, stack=stack)
    assert computed.attribute_name() is None


class Parent(object):
    metadata = {'m': 1}
    deletion_policy = 'Retain'
    update_policy = {'batch': 2}


@pytest.mark.parametrize('version', ALL_VERSIONS)
@pytest.mark.parametrize('field, expected', [
    ('metadata', {'m': 1}), ('deletion_policy', 'Retain'), ('update_policy', {'batch': 2})])
def test_resource_facade(version, field, expected):
    assert value({'resource_facade': field}, version, parent=Parent()) == expected


@pytest.mark.parametrize('field, expected', [
    ('Metadata', {'m': 1}), ('DeletionPolicy', 'Retain'), ('UpdatePolicy', {'batch': 2})])
def test_cfn_resource_facade_2013(field, expected):
    assert value({'Fn::ResourceFacade': field}, '2013-05-23', parent=Parent()) == expected


@pytest.mark.parametrize('args', ['Metadata', 'properties', ['metadata'], None])
def test_resource_facade_bad_argument(args):
    phase, err = failure({'resource_facade': args}, parent=Parent())
    assert phase == 'parse'
    assert 'metadata, deletion_policy, update_policy' in err.message


def test_resource_facade_without_parent():
    phase, err = failure({'resource_facade': 'metadata'})
    assert phase == 'resolve'
    assert 'nested stack' in err.message
