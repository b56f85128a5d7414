# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions import cfn, resources

from .conftest import FakeStack, failure, since, value

OLD = ('2013-05-23',)
PARAMS = {'p': 'pv', 'l': ['a', 'b', 'c'], 'j': {'k': 'v'}}

# (versions, snippet, expected) — checked against Heat 27 with the oracle.
VALUES = [
    (OLD, {'Fn::Join': [',', ['a', 'b', None]]}, 'a,b,'),
    (OLD, {'Fn::Split': [',', 'a,b']}, ['a', 'b']),
    (OLD, {'Fn::Base64': 'xyz'}, 'xyz'),
    (OLD, {'Fn::Replace': [{'$a': 'x', '$ab': 'y'}, '$a-$ab']}, 'x-y'),
    (OLD, {'Fn::MemberListToMap': ['Name', 'Value', ['.member.0.Name=k', '.member.0.Value=v',
                                                     '.member.1.Name=k2', '.member.1.Value=v2']]},
     {'k': 'v', 'k2': 'v2'}),
    (OLD, {'Fn::MemberListToMap': ['Name', 'Value', ['.member.0.Name=only']]}, {}),
    (OLD, {'Ref': 'p'}, 'pv'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [1, ['a', 'b']]}, 'b'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': ['1', ['a', 'b']]}, 'b'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [5, ['a', 'b']]}, ''),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': ['k', {'k': 'v'}]}, 'v'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': ['z', {'k': 'v'}]}, ''),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [0, '["x", "y"]']}, 'x'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [0, '']}, ''),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [0, None]}, ''),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [2, {'get_param': 'l'}]}, 'c'),
]


@pytest.mark.parametrize('versions, snippet, expected', VALUES)
def test_values(versions, snippet, expected):
    for version in versions:
        assert value(snippet, version, params=PARAMS) == expected, version


ERRORS = [
    (OLD, {'Fn::Join': [',']}, 'parse', 'expected the form'),
    (OLD, {'Fn::Join': [',', 'ab']}, 'resolve', 'must operate on'),
    (OLD, {'Fn::Split': 'a,b'}, 'parse', 'must be [","'),
    (OLD, {'Fn::Split': [',', 'a', 'b']}, 'parse', 'must be [","'),
    (OLD, {'Fn::Split': [',', ['a']]}, 'resolve', 'splits a string'),
    (OLD, {'Fn::Split': [1, 'a']}, 'resolve', 'delimiter'),
    (OLD, {'Fn::Base64': ['x']}, 'resolve', 'must be a string'),
    (OLD, {'Fn::Replace': {'a': 'b'}}, 'parse', 'must be [{"$var1"'),
    (OLD, {'Fn::Replace': ['a', 'b']}, 'parse', 'must be a map'),
    (OLD, {'Fn::MemberListToMap': ['Name', 'Value']}, 'parse', 'must be [key_name'),
    (OLD, {'Fn::MemberListToMap': [1, 'Value', []]}, 'parse', 'must be strings'),
    (OLD, {'Fn::MemberListToMap': ['N', 'V', [1]]}, 'resolve', 'must be strings'),
    (OLD, {'Fn::MemberListToMap': ['N', 'V', ['noequals']]}, 'resolve', 'has no "="'),
    (OLD, {'Fn::ResourceFacade': 'metadata'}, 'parse', 'Metadata, DeletionPolicy, UpdatePolicy'),
    (OLD, {'Ref': 'nosuch'}, 'resolve', 'neither a resource nor a parameter'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [1]}, 'parse', '[index, collection]'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': 5}, 'parse', '[index, collection]'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [1, {'k': 'v'}]}, 'resolve', 'must be a string'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': ['x', ['a']]}, 'resolve', 'must be an integer'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [0, 'not json']}, 'resolve', 'Fn::Select'),
    (since('2013-05-23', '2015-10-15'), {'Fn::Select': [0, 5]}, 'resolve', 'not fully resolved'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', ERRORS)
def test_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version, params=PARAMS)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message


def test_ref_to_a_resource_is_get_resource():
    stack = FakeStack('2013-05-23', params=PARAMS, resources=['server'],
                      data={'server': {'reference_id': 'uuid-1', 'attrs': {}}})
    parsed = stack.template.parse({'Ref': 'server'}, stack=stack)
    assert isinstance(parsed, resources.GetResource)
    assert parsed.result() == 'uuid-1'
    assert parsed.dependencies() == ['server']
    assert isinstance(stack.template.parse({'Ref': 'p'}, stack=stack), cfn.ParamRef)


def test_get_azs_asks_the_stack():
    assert value({'Fn::GetAZs': ''}, '2013-05-23') == ['nova']
    assert value({'Fn::GetAZs': ''}, '2013-05-23', zones=['az1', 'az2']) == ['az1', 'az2']


def test_get_attr_then_select_2013():
    data = {'r': {'reference_id': 'r', 'attrs': {'value': ['x', 'y'], 'm': {'a': {'b': 1}}}}}
    assert value({'get_attr': ['r', 'value', 1]}, '2013-05-23', resources=['r'], data=data) == 'y'
    assert value({'get_attr': ['r', 'm', 'a', 'b']}, '2013-05-23', resources=['r'], data=data) == 1
