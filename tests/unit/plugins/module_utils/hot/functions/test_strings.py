# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib

import pytest

from .conftest import failure, since, value

# (versions, snippet, expected value) — checked against Heat 27 with the oracle.
VALUES = [
    # str_replace: longest placeholder first, equal lengths lexically, no re-scan
    (since('2013-05-23'), {'str_replace': {'template': 'a $x $xy b', 'params': {'$x': '1', '$xy': '2'}}},
     'a 1 2 b'),
    (since('2013-05-23'), {'str_replace': {'template': 'ab', 'params': {'a': 'b', 'b': 'c'}}}, 'bc'),
    (since('2013-05-23'), {'str_replace': {'template': 'n=N', 'params': {'N': 5, 'x': None}}}, 'n=5'),
    (since('2013-05-23'), {'str_replace': {'template': 'b=B', 'params': {'B': True}}}, 'b=True'),
    (since('2013-05-23'), {'str_replace': {'template': 'f=F', 'params': {'F': 1.5}}}, 'f=1.5'),
    (since('2013-05-23'), {'str_replace': {'template': 'x', 'params': {}}}, 'x'),
    (since('2013-05-23'), {'str_replace': {'template': 'none=N', 'params': {'N': None}}}, 'none='),
    (since('2015-10-15'), {'str_replace': {'template': 'l=L', 'params': {'L': [1, 'a']}}}, 'l=[1, "a"]'),
    (since('2015-10-15'), {'str_replace': {'template': 'm=M', 'params': {'M': {'b': 1, 'a': 2}}}},
     'm={"a": 2, "b": 1}'),
    (since('2017-02-24'), {'str_replace_strict': {'template': 'a-b', 'params': {'a': 1, 'b': 2}}}, '1-2'),
    (since('2017-09-01'), {'str_replace_vstrict': {'template': 'a-b', 'params': {'a': 1, 'b': 0}}}, '1-0'),
    # list_join
    (since('2013-05-23'), {'list_join': [', ', ['a', 'b', None]]}, 'a, b, '),
    (since('2013-05-23'), {'list_join': ['-', []]}, ''),
    (since('2013-05-23'), {'list_join': ['-', None]}, ''),
    (since('2015-10-15'), {'list_join': [',', ['a'], ['b', 'c'], [], None]}, 'a,b,c'),
    (since('2015-10-15'), {'list_join': [',', [{'k': 'v'}, ['x']]]}, '{"k": "v"},["x"]'),
    # str_split
    (since('2015-10-15'), {'str_split': [',', 'a,b,,c']}, ['a', 'b', '', 'c']),
    (since('2015-10-15'), {'str_split': [',', 'a,b,c', 1]}, 'b'),
    (since('2015-10-15'), {'str_split': [',', 'a,b,c', '2']}, 'c'),
    (since('2015-10-15'), {'str_split': [',', 'a,b,c', -1]}, 'c'),
    (since('2015-10-15'), {'str_split': [',', None]}, None),
    (since('2015-10-15'), {'str_split': ['::', 'a::b']}, ['a', 'b']),
    # digest
    (since('2015-04-30'), {'digest': ['sha256', 'abc']}, hashlib.sha256(b'abc').hexdigest()),
    (since('2015-04-30'), {'digest': ['MD5', 'abc']}, hashlib.md5(b'abc').hexdigest()),
    (since('2015-04-30'), {'digest': ['sha512', '']}, hashlib.sha512(b'').hexdigest()),
    # make_url
    (since('2017-09-01'), {'make_url': {'scheme': 'https', 'host': 'example.com', 'port': 8080,
                                        'path': '/a b', 'query': {'q': 'x/y', 'n': 1},
                                        'fragment': 'f g'}},
     'https://example.com:8080/a%20b?q=x/y&n=1#f%20g'),
    (since('2017-09-01'), {'make_url': {'scheme': 'http', 'username': 'u@x', 'password': 'p:w',
                                        'host': '::1', 'port': '80'}},
     'http://u%40x:p%3Aw@[::1]:80'),
    (since('2017-09-01'), {'make_url': {'scheme': 'http', 'host': '[fe80::1]', 'path': 'p'}},
     'http://[fe80::1]/p'),
    (since('2017-09-01'), {'make_url': {'host': 'h', 'username': 'u'}}, '//u@h'),
    (since('2017-09-01'), {'make_url': {}}, ''),
]


@pytest.mark.parametrize('versions, snippet, expected', VALUES)
def test_values(versions, snippet, expected):
    for version in versions:
        assert value(snippet, version) == expected, version


# (versions, snippet, phase, part of the message)
ERRORS = [
    (since('2013-05-23'), {'str_replace': 'x'}, 'parse', 'must be a map'),
    (since('2013-05-23'), {'str_replace': {'template': 'x'}}, 'parse', '"template"'),
    (since('2013-05-23'), {'str_replace': {'template': 'x', 'params': ['a']}}, 'parse', 'must be a map'),
    (since('2013-05-23'), {'str_replace': {'template': ['x'], 'params': {}}}, 'resolve', 'must be a string'),
    (since('2013-05-23'), {'str_replace': {'template': 'x', 'params': {1: 'a'}}}, 'resolve', 'placeholders'),
    (since('2013-05-23', '2015-10-15'), {'str_replace': {'template': 'L', 'params': {'L': [1]}}},
     'resolve', 'strings or numbers'),
    (since('2015-10-15'), {'str_replace': {'template': 'L', 'params': {'L': object}}}, 'resolve',
     'strings, numbers, lists or maps'),
    (since('2017-02-24'), {'str_replace_strict': {'template': 'a', 'params': {'a': 1, 'zz': 2, 'b': 3}}},
     'resolve', 'do not occur in the template: zz,b'),
    (since('2017-09-01'), {'str_replace_vstrict': {'template': 'a', 'params': {'a': ''}}}, 'resolve',
     'non-empty'),
    (since('2017-09-01'), {'str_replace_vstrict': {'template': 'a', 'params': {'a': None}}}, 'resolve',
     'non-empty'),
    (since('2017-09-01'), {'str_replace_vstrict': {'template': 'a', 'params': {'a': []}}}, 'resolve',
     'non-empty'),
    (since('2013-05-23', '2015-10-15'), {'list_join': [',', ['a'], ['b']]}, 'parse', 'expected the form'),
    (since('2013-05-23'), {'list_join': [',']}, 'parse', 'expected the form'),
    (since('2013-05-23'), {'list_join': 'a,b'}, 'parse', 'expected the form'),
    (since('2013-05-23'), {'list_join': [',', 'abc']}, 'resolve', 'must operate on'),
    (since('2013-05-23'), {'list_join': [1, ['a']]}, 'resolve', 'delimiter'),
    (since('2013-05-23', '2015-10-15'), {'list_join': [',', [1]]}, 'resolve', 'only join strings'),
    (since('2015-10-15'), {'list_join': [',', [1]]}, 'resolve', 'strings, maps or lists'),
    (since('2015-10-15'), {'list_join': [',', {'a': 1}]}, 'resolve', 'must operate on lists'),
    (since('2015-10-15'), {'str_split': 'a,b'}, 'parse', 'expected the form'),
    (since('2015-10-15'), {'str_split': {'a': 'b'}}, 'parse', 'expected the form'),
    (since('2015-10-15'), {'str_split': [',']}, 'resolve', 'expected the form'),
    (since('2015-10-15'), {'str_split': [',', 'a,b', 'x']}, 'resolve', 'must be an integer'),
    (since('2015-10-15'), {'str_split': [',', 'a,b', 5]}, 'resolve', 'between 0 and 1'),
    (since('2015-10-15'), {'str_split': [',', 5]}, 'resolve', 'splits a string'),
    (since('2015-10-15'), {'str_split': [1, 'a']}, 'resolve', 'splits a string'),
    (since('2015-04-30'), {'digest': 'sha1'}, 'resolve', 'list of strings'),
    (since('2015-04-30'), {'digest': ['sha1', 5]}, 'resolve', 'list of strings'),
    (since('2015-04-30'), {'digest': ['sha1']}, 'resolve', '["<algorithm>", "<value>"]'),
    (since('2015-04-30'), {'digest': ['nohash', 'x']}, 'resolve', 'must be one of'),
    (since('2017-09-01'), {'make_url': 'x'}, 'validate', 'must be a map'),
    (since('2017-09-01'), {'make_url': {'hostname': 'x'}}, 'validate', 'Unknown arguments'),
    (since('2017-09-01'), {'make_url': {'port': 'http'}}, 'validate', 'invalid URL port'),
    (since('2017-09-01'), {'make_url': {'port': 70000}}, 'validate', '1-65535'),
    (since('2017-09-01'), {'make_url': {'port': 0}}, 'validate', '1-65535'),
    (since('2017-09-01'), {'make_url': {'host': 5}}, 'validate', 'must be a string'),
    (since('2017-09-01'), {'make_url': {'query': 'a=b'}}, 'validate', 'must be a map'),
    (since('2017-09-01'), {'make_url': {'scheme': 'http:'}}, 'resolve', 'must not contain'),
]


@pytest.mark.parametrize('versions, snippet, phase, message', ERRORS)
def test_errors(versions, snippet, phase, message):
    for version in versions:
        got, err = failure(snippet, version)
        assert (version, got) == (version, phase), err.message
        assert message in err.message, err.message
        assert err.path[:2] == ('x', list(snippet)[0])


@pytest.mark.parametrize('snippet, version', [
    ({'str_split': [',', 'a']}, '2015-04-30'),
    ({'digest': ['md5', 'a']}, '2014-10-16'),
    ({'make_url': {'host': 'h'}}, '2017-02-24'),
    ({'str_replace_strict': {'template': 'a', 'params': {}}}, '2016-10-14'),
    ({'str_replace_vstrict': {'template': 'a', 'params': {}}}, '2017-02-24'),
])
def test_not_yet_a_function_is_data(snippet, version):
    assert value(snippet, version) == snippet


def test_make_url_fragment_unchecked_after_query():
    # Heat stops checking at "query", so a bad fragment passes validation.
    got, err = failure({'make_url': {'query': {}, 'fragment': 5}})
    assert got == 'resolve'


def test_make_url_port_from_function_checked_when_resolved():
    got, err = failure({'make_url': {'port': {'get_param': 'p'}}}, params={'p': 'no'})
    assert got == 'resolve' and 'invalid URL port' in err.message
