# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Function cases: every intrinsic function in every template version (aliases
included), used well and badly, where it is removed, and where it is plain data."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from cases_base import (ALIASES, BAD, NEVER_FUNCTIONS, OK, UNSAID, VERSIONS, Case,
                        availability, canonical)

# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------

BASE_PARAMS = {
    's': {'type': 'string', 'default': 'a,b,c'},
    'n': {'type': 'number', 'default': 3},
    'l': {'type': 'comma_delimited_list', 'default': 'x,y,z'},
    'j': {'type': 'json', 'default': {'k': {'i': [1, 2]}, 'm': 'v'}},
    'b': {'type': 'boolean', 'default': True},
    'key': {'type': 'string', 'default': 's'},
    'rname': {'type': 'string', 'default': 'r'},
    'aname': {'type': 'string', 'default': 'value'},
}
BASE_RESOURCES = {
    'r': {'type': 'OS::Heat::Value', 'properties': {'value': 'rv'}},
    'rj': {'type': 'OS::Heat::Value',
           'properties': {'type': 'json', 'value': {'k': [1, 2]}}},
}
BASE_FAKE = {'r': {'reference_id': 'r-ref', 'attrs': {'value': 'rv'}},
             'rj': {'reference_id': 'rj-ref', 'attrs': {'value': {'k': [1, 2]}}}}
BASE_CONDITIONS = {'c_true': True, 'c_false': {'equals': ['a', 'b']}}
FILES = {'f.txt': 'hello file\n', 'data.json': '{"a": 1}'}

# (function, label, expression, intent, since, until): intent is for versions
# in [since, until) where the function exists; None bounds mean "always".
V = []


def _v(fn, label, expr, intent=OK, since=None, until=None, compare=True):
    V.append((fn, label, expr, intent, since, until, compare))


_v('get_param', 'name', {'get_param': 's'})
_v('get_param', 'number', {'get_param': 'n'})
_v('get_param', 'list', {'get_param': 'l'})
_v('get_param', 'json', {'get_param': 'j'})
_v('get_param', 'bool', {'get_param': 'b'})
_v('get_param', 'path-map', {'get_param': ['j', 'k', 'i', 1]})
_v('get_param', 'path-list', {'get_param': ['l', 2]})
_v('get_param', 'pseudo-name', {'get_param': 'OS::stack_name'})
_v('get_param', 'nested-fn', {'get_param': {'get_param': 'key'}})
_v('get_param', 'unknown', {'get_param': 'nope'}, BAD)
_v('get_param', 'empty-list', {'get_param': []}, BAD)
_v('get_param', 'int-arg', {'get_param': 42}, BAD)
_v('get_param', 'name-not-str', {'get_param': [['s']]}, BAD)
_v('get_param', 'path-into-string', {'get_param': ['s', 0]}, UNSAID)
_v('get_param', 'path-missing-key', {'get_param': ['j', 'nope']}, UNSAID)
_v('get_param', 'path-index-oob', {'get_param': ['l', 9]}, UNSAID)

_v('get_resource', 'name', {'get_resource': 'r'})
_v('get_resource', 'unknown', {'get_resource': 'nope'}, BAD)
_v('get_resource', 'list-arg', {'get_resource': ['r']}, UNSAID)
_v('get_resource', 'fn-arg', {'get_resource': {'get_param': 'rname'}}, UNSAID)

_v('get_attr', 'attr', {'get_attr': ['r', 'value']})
_v('get_attr', 'path', {'get_attr': ['rj', 'value', 'k', 1]})
_v('get_attr', 'all-attrs', {'get_attr': ['r']}, OK, since='2015-10-15')
_v('get_attr', 'all-attrs', {'get_attr': ['r']}, BAD, until='2015-10-15')
_v('get_attr', 'unknown-res', {'get_attr': ['nope', 'value']}, BAD)
_v('get_attr', 'unknown-attr', {'get_attr': ['r', 'nosuch']}, BAD)
# From 2015-10-15 a bare resource name means "all its attributes".
_v('get_attr', 'not-list', {'get_attr': 'r'}, OK, since='2015-10-15')
_v('get_attr', 'not-list', {'get_attr': 'r'}, BAD, until='2015-10-15')
_v('get_attr', 'empty', {'get_attr': []}, BAD)
_v('get_attr', 'fn-in-name', {'get_attr': [{'get_param': 'rname'}, 'value']}, UNSAID)
_v('get_attr', 'fn-in-attr', {'get_attr': ['r', {'get_param': 'aname'}]}, UNSAID)
_v('get_attr', 'path-missing', {'get_attr': ['rj', 'value', 'nope']}, UNSAID)

_v('get_file', 'file', {'get_file': 'f.txt'})
_v('get_file', 'missing', {'get_file': 'nope.txt'}, UNSAID)
_v('get_file', 'list-arg', {'get_file': ['f.txt']}, UNSAID)

_v('list_join', 'basic', {'list_join': [',', ['a', 'b', 'c']]})
_v('list_join', 'param', {'list_join': ['-', {'get_param': 'l'}]})
_v('list_join', 'empty', {'list_join': [',', []]})
_v('list_join', 'fn-items', {'list_join': [' ', [{'get_param': 's'}, {'get_attr': ['r', 'value']}]]})
_v('list_join', 'attr-list', {'list_join': [',', {'get_attr': ['rj', 'value', 'k']}]}, UNSAID)
_v('list_join', 'multi', {'list_join': [',', ['a'], ['b', 'c']]}, OK, since='2015-10-15')
_v('list_join', 'multi', {'list_join': [',', ['a'], ['b', 'c']]}, BAD, until='2015-10-15')
_v('list_join', 'numbers', {'list_join': [',', [1, 2]]}, UNSAID)
_v('list_join', 'maps', {'list_join': [',', [{'a': 1}]]}, UNSAID)
_v('list_join', 'not-a-list-arg', {'list_join': ','}, BAD)
_v('list_join', 'one-arg', {'list_join': [',']}, BAD)
_v('list_join', 'non-list', {'list_join': [',', 'abc']}, UNSAID)
_v('list_join', 'delim-not-str', {'list_join': [1, ['a']]}, UNSAID)

_v('str_replace', 'basic', {'str_replace': {'template': 'Hello $who!', 'params': {'$who': 'world'}}})
_v('str_replace', 'number-param', {'str_replace': {'template': 'n=N', 'params': {'N': 5}}})
_v('str_replace', 'longest-first', {'str_replace': {'template': 'aaa', 'params': {'a': 'x', 'aa': 'y'}}})
_v('str_replace', 'fn-params', {'str_replace': {'template': 'v=V', 'params': {'V': {'get_param': 's'}}}})
_v('str_replace', 'json-param', {'str_replace': {'template': 'v=V', 'params': {'V': {'k': 1}}}},
   OK, since='2015-10-15')
_v('str_replace', 'json-param', {'str_replace': {'template': 'v=V', 'params': {'V': {'k': 1}}}},
   UNSAID, until='2015-10-15')
_v('str_replace', 'attr-param', {'str_replace': {'template': 'v=V', 'params': {'V': {'get_attr': ['r', 'value']}}}},
   UNSAID)
_v('str_replace', 'not-map', {'str_replace': 'x'}, BAD)
_v('str_replace', 'missing-params', {'str_replace': {'template': 'x'}}, BAD)
_v('str_replace', 'template-not-str', {'str_replace': {'template': 1, 'params': {}}}, UNSAID)
_v('str_replace', 'params-not-map', {'str_replace': {'template': 'a', 'params': [1]}}, UNSAID)
_v('str_replace', 'extra-key', {'str_replace': {'template': 'a', 'params': {}, 'other': 1}}, UNSAID)
_v('str_replace', 'absent-key', {'str_replace': {'template': 'abc', 'params': {'zzz': 'q'}}})

for _fn in ('str_replace_strict', 'str_replace_vstrict'):
    _v(_fn, 'basic', {_fn: {'template': 'Hello $who', 'params': {'$who': 'w'}}})
    _v(_fn, 'absent-key', {_fn: {'template': 'abc', 'params': {'zzz': 'q'}}}, UNSAID)
    _v(_fn, 'empty-value', {_fn: {'template': 'aXb', 'params': {'X': ''}}}, UNSAID)
    _v(_fn, 'not-map', {_fn: 'x'}, BAD)

_v('resource_facade', 'metadata', {'resource_facade': 'metadata'}, UNSAID)
_v('resource_facade', 'bogus', {'resource_facade': 'bogus'}, BAD)
_v('resource_facade', 'list', {'resource_facade': ['metadata']}, UNSAID)

_v('repeat', 'basic', {'repeat': {'template': 'x-%v%', 'for_each': {'%v%': ['a', 'b']}}})
_v('repeat', 'param', {'repeat': {'template': {'name': '%v%'}, 'for_each': {'%v%': {'get_param': 'l'}}}})
_v('repeat', 'two-vars', {'repeat': {'template': '%a%-%b%', 'for_each': {'%a%': ['1', '2'], '%b%': ['x', 'y']}}})
# Heat substitutes with str.replace, so a number in for_each fails when resolved.
_v('repeat', 'int-values', {'repeat': {'template': '%a%', 'for_each': {'%a%': [1, 2]}}}, UNSAID)
_v('repeat', 'empty', {'repeat': {'template': 'x', 'for_each': {'%v%': []}}})
_v('repeat', 'map-for-each', {'repeat': {'template': 'k-%v%', 'for_each': {'%v%': {'a': 1, 'b': 2}}}},
   OK, since='2016-10-14')
_v('repeat', 'map-for-each', {'repeat': {'template': 'k-%v%', 'for_each': {'%v%': {'a': 1, 'b': 2}}}},
   BAD, until='2016-10-14')
_v('repeat', 'no-permutations', {'repeat': {'template': '%a%-%b%', 'permutations': False,
                                            'for_each': {'%a%': ['1', '2'], '%b%': ['x', 'y']}}},
   OK, since='2017-09-01')
_v('repeat', 'no-permutations', {'repeat': {'template': '%a%-%b%', 'permutations': False,
                                            'for_each': {'%a%': ['1', '2'], '%b%': ['x', 'y']}}},
   UNSAID, until='2017-09-01')
_v('repeat', 'no-perm-unequal', {'repeat': {'template': '%a%-%b%', 'permutations': False,
                                            'for_each': {'%a%': ['1', '2'], '%b%': ['x']}}},
   UNSAID, since='2017-09-01')
_v('repeat', 'perm-not-bool', {'repeat': {'template': '%a%', 'permutations': 'maybe',
                                          'for_each': {'%a%': ['1']}}}, UNSAID, since='2017-09-01')
_v('repeat', 'not-map', {'repeat': ['a']}, BAD)
_v('repeat', 'missing-template', {'repeat': {'for_each': {'%v%': ['a']}}}, BAD)
_v('repeat', 'for-each-not-map', {'repeat': {'template': 'x', 'for_each': ['a']}}, BAD)
_v('repeat', 'for-each-value-str', {'repeat': {'template': 'x', 'for_each': {'%v%': 'abc'}}}, UNSAID)

_v('digest', 'md5', {'digest': ['md5', 'hello']})
_v('digest', 'sha256', {'digest': ['sha256', {'get_param': 's'}]})
_v('digest', 'sha512', {'digest': ['sha512', '']})
_v('digest', 'bad-algo', {'digest': ['rot13', 'x']}, BAD)
_v('digest', 'one-arg', {'digest': ['md5']}, BAD)
_v('digest', 'not-list', {'digest': 'md5'}, BAD)
_v('digest', 'value-not-str', {'digest': ['md5', 5]}, UNSAID)

_v('str_split', 'basic', {'str_split': [',', 'a,b,c']})
_v('str_split', 'index', {'str_split': [',', 'a,b,c', 1]})
_v('str_split', 'param', {'str_split': [',', {'get_param': 's'}, 2]})
_v('str_split', 'one-arg', {'str_split': [',']}, BAD)
_v('str_split', 'not-list', {'str_split': ','}, BAD)
_v('str_split', 'index-oob', {'str_split': [',', 'a,b', 5]}, UNSAID)
_v('str_split', 'index-str', {'str_split': [',', 'a,b', 'x']}, UNSAID)
_v('str_split', 'string-not-str', {'str_split': [',', ['a']]}, UNSAID)

_v('map_merge', 'basic', {'map_merge': [{'a': 1}, {'b': 2}]})
_v('map_merge', 'override', {'map_merge': [{'a': 1}, {'a': 2}]})
_v('map_merge', 'param', {'map_merge': [{'get_param': 'j'}, {'m': 'w'}]})
_v('map_merge', 'not-list', {'map_merge': {'a': 1}}, UNSAID)
_v('map_merge', 'item-not-map', {'map_merge': [{'a': 1}, ['b']]}, UNSAID)
_v('map_merge', 'null-item', {'map_merge': [{'a': 1}, None]}, UNSAID)

_v('map_replace', 'keys', {'map_replace': [{'a': 1, 'b': 2}, {'keys': {'a': 'x'}}]})
_v('map_replace', 'values', {'map_replace': [{'a': 'v1', 'b': 'v2'}, {'values': {'v1': 'w1'}}]})
_v('map_replace', 'both', {'map_replace': [{'a': 'v1'}, {'keys': {'a': 'z'}, 'values': {'v1': 'w1'}}]})
_v('map_replace', 'collision', {'map_replace': [{'a': 1, 'b': 2}, {'keys': {'a': 'b'}}]}, UNSAID)
_v('map_replace', 'bad-key', {'map_replace': [{'a': 1}, {'bogus': {}}]}, UNSAID)
_v('map_replace', 'first-not-map', {'map_replace': [['a'], {'keys': {}}]}, UNSAID)
_v('map_replace', 'one-arg', {'map_replace': [{'a': 1}]}, UNSAID)

_v('yaql', 'arith', {'yaql': {'expression': '$.data.x + 1', 'data': {'x': 1}}})
_v('yaql', 'select', {'yaql': {'expression': '$.data.l.select($ * 2)', 'data': {'l': [1, 2]}}})
_v('yaql', 'param', {'yaql': {'expression': '$.data.s.split(",")', 'data': {'s': {'get_param': 's'}}}})
_v('yaql', 'attr-data', {'yaql': {'expression': '$.data.v', 'data': {'v': {'get_attr': ['rj', 'value']}}}},
   UNSAID)
_v('yaql', 'syntax', {'yaql': {'expression': '$.data.(', 'data': {}}}, BAD)
_v('yaql', 'not-map', {'yaql': 'x'}, BAD)
_v('yaql', 'no-expression', {'yaql': {'data': {}}}, BAD)
_v('yaql', 'expr-not-str', {'yaql': {'expression': 1, 'data': {}}}, UNSAID)

_v('if', 'true', {'if': ['c_true', 'yes-value', 'no-value']})
_v('if', 'false', {'if': ['c_false', 'yes-value', 'no-value']})
_v('if', 'fn-branches', {'if': ['c_true', {'get_param': 's'}, {'get_param': 'n'}]})
_v('if', 'bad-other-branch', {'if': ['c_true', 'a', {'get_param': 'nope'}]}, UNSAID)
_v('if', 'inline-cond', {'if': [{'equals': [1, 1]}, 'a', 'b']}, UNSAID)
_v('if', 'undefined-cond', {'if': ['nope', 'a', 'b']}, BAD)
_v('if', 'one-arg', {'if': ['c_true']}, BAD)
_v('if', 'not-list', {'if': 'c_true'}, BAD)
_v('if', 'two-args-false', {'if': ['c_false', 'a']}, UNSAID, since='2021-04-16')
_v('if', 'two-args-false', {'if': ['c_false', 'a']}, BAD, until='2021-04-16')
_v('if', 'two-args-true', {'if': ['c_true', 'a']}, OK, since='2021-04-16')
_v('if', 'two-args-true', {'if': ['c_true', 'a']}, BAD, until='2021-04-16')

# From 2021-04-16 an "if" without an else that is false removes the list item
# or map entry holding it.
_v('if', 'elide-list-item', ['a', {'if': ['c_false', 'x']}, 'b'], OK, since='2021-04-16')
_v('if', 'elide-list-item', ['a', {'if': ['c_false', 'x']}, 'b'], BAD, until='2021-04-16')
_v('if', 'elide-map-entry', {'k1': {'if': ['c_false', 'x']}, 'k2': 'y'}, OK, since='2021-04-16')
_v('if', 'keep-map-entry', {'k1': {'if': ['c_true', 'x']}, 'k2': 'y'}, OK, since='2021-04-16')
_v('if', 'nested', {'if': ['c_true', {'if': ['c_false', 'a', 'b']}, 'c']})
_v('if', 'null-branch', {'if': ['c_false', 'a', None]}, UNSAID)

_v('filter', 'basic', {'filter': [['b'], ['a', 'b', 'c']]})
_v('filter', 'param', {'filter': [['x'], {'get_param': 'l'}]})
_v('filter', 'null', {'filter': [None, ['a', None]]}, UNSAID)
_v('filter', 'one-arg', {'filter': [['a']]}, BAD)
_v('filter', 'not-list', {'filter': 'x'}, BAD)
_v('filter', 'second-not-list', {'filter': [['a'], 'abc']}, UNSAID)

_v('make_url', 'full', {'make_url': {'scheme': 'https', 'username': 'u', 'password': 'p',
                                     'host': 'example.com', 'port': 8443, 'path': '/a b',
                                     'query': {'q': '1 2', 'z': ''}, 'fragment': 'f'}})
_v('make_url', 'ipv6', {'make_url': {'scheme': 'http', 'host': '::1', 'port': 80, 'path': 'x'}})
_v('make_url', 'port-str', {'make_url': {'scheme': 'http', 'host': 'h', 'port': '8080'}})
_v('make_url', 'not-map', {'make_url': ['http']}, BAD)
_v('make_url', 'unknown-arg', {'make_url': {'scheme': 'http', 'host': 'h', 'bogus': 1}}, BAD)
_v('make_url', 'bad-port', {'make_url': {'scheme': 'http', 'host': 'h', 'port': 99999}}, UNSAID)
_v('make_url', 'port-not-int', {'make_url': {'scheme': 'http', 'host': 'h', 'port': 'abc'}}, UNSAID)
_v('make_url', 'scheme-colon', {'make_url': {'scheme': 'http:', 'host': 'h'}}, UNSAID)

for _fn in ('list_concat', 'list_concat_unique'):
    _v(_fn, 'basic', {_fn: [['a', 'b'], ['b', 'c']]})
    _v(_fn, 'param', {_fn: [{'get_param': 'l'}, ['w', 'x']]})
    _v(_fn, 'single', {_fn: [['a', 'a']]})
    _v(_fn, 'item-not-list', {_fn: [['a'], 'b']}, UNSAID)
    _v(_fn, 'not-list', {_fn: 'a'}, UNSAID)

_v('contains', 'yes', {'contains': ['a', ['a', 'b']]})
_v('contains', 'no', {'contains': ['z', ['a']]})
_v('contains', 'param', {'contains': ['x', {'get_param': 'l'}]})
_v('contains', 'second-not-list', {'contains': ['a', 'abc']}, UNSAID)
_v('contains', 'one-arg', {'contains': ['a']}, BAD)
_v('contains', 'not-list', {'contains': 'a'}, BAD)

_v('Fn::Join', 'basic', {'Fn::Join': [',', ['a', 'b']]})
_v('Fn::Join', 'non-list', {'Fn::Join': [',', 'ab']}, UNSAID)
_v('Fn::Split', 'basic', {'Fn::Split': [',', 'a,b']})
_v('Fn::Replace', 'basic', {'Fn::Replace': [{'$x': 'y'}, 'a $x']})
_v('Fn::Base64', 'basic', {'Fn::Base64': 'abc'})
_v('Fn::Select', 'index', {'Fn::Select': [1, ['a', 'b']]})
_v('Fn::Select', 'key', {'Fn::Select': ['k', {'k': 'v'}]})
_v('Fn::Select', 'oob', {'Fn::Select': [5, ['a']]}, UNSAID)
_v('Fn::MemberListToMap', 'basic',
   {'Fn::MemberListToMap': ['Name', 'Value', ['.member.0.Name=k', '.member.0.Value=v']]})
_v('Ref', 'param', {'Ref': 's'})
_v('Ref', 'resource', {'Ref': 'r'})
_v('Fn::GetAZs', 'basic', {'Fn::GetAZs': ''}, UNSAID, compare=False)
# Where Heat resolves these at validation (a resource's property), its verdict is
# the offline failure to ask the service: no answer to compare ours with.  In an
# output Heat validates without them, and the verdict and edges are compared.
NO_ORACLE = {'Fn::GetAZs': 'the offline oracle cannot list availability zones (Heat asks Nova)'}
_v('Fn::ResourceFacade', 'metadata', {'Fn::ResourceFacade': 'Metadata'}, UNSAID)


def _fn_template(version, expr, placement, fn, fake):
    tmpl = {'heat_template_version': version, 'parameters': dict(BASE_PARAMS)}
    if fn == 'if' and availability('if', canonical(version)) == 'yes':
        tmpl['conditions'] = dict(BASE_CONDITIONS)
    resources = dict(BASE_RESOURCES)
    if placement in ('val', 'all'):
        resources['val'] = {'type': 'OS::Heat::Value', 'properties': {'value': expr}}
    if placement in ('out', 'all'):
        resources['nul'] = {'type': 'OS::Heat::None', 'properties': {'p': expr}}
        tmpl['outputs'] = {'o': {'value': expr}}
    tmpl['resources'] = resources
    return tmpl


def _applies(variant, version):
    since, until = variant[4], variant[5]
    return (since is None or version >= since) and (until is None or version < until)


def _fn_cases(version, variants, family='fn'):
    canon = canonical(version)
    for fn, label, expr, intent, since, until, compare in variants:
        avail = availability(fn, canon)
        if avail == 'removed':
            intent, tag = BAD, 'removed'
        elif avail == 'absent':
            intent, tag = OK, 'plain-data'
        else:
            tag = 'ok' if intent is OK else ('bad' if intent is BAD else 'edge')
        placements = ('all',) if intent is OK else (('val',) if intent is BAD else ('val', 'out'))
        for placement in placements:
            yield Case('%s/%s/%s/%s-%s/%s' % (family, version, fn, tag, label, placement),
                       _fn_template(version, expr, placement, fn, BASE_FAKE), family,
                       intent=intent, fake=BASE_FAKE, compare_values=compare,
                       incomparable=NO_ORACLE.get(fn) if tag == 'edge' and placement == 'val'
                       else None,
                       files=FILES if fn == 'get_file' else None)


def function_cases():
    for version in VERSIONS:
        canon = version
        seen = set()
        chosen = []
        for variant in V:
            fn = variant[0]
            avail = availability(fn, canon)
            if avail == 'yes':
                if _applies(variant, canon):
                    chosen.append(variant)
            elif (fn, avail) not in seen:
                # Outside its versions only the first usage matters: it is
                # plain data (absent) or an error (removed).
                seen.add((fn, avail))
                chosen.append(variant)
        yield from _fn_cases(version, chosen)
    # Aliases share their canonical version's table: one usage per function.
    for alias in sorted(ALIASES):
        canon = ALIASES[alias]
        firsts = {}
        for variant in V:
            if _applies(variant, canon) and variant[0] not in firsts:
                firsts[variant[0]] = variant
        yield from _fn_cases(alias, sorted(firsts.values(), key=lambda v: v[0]), 'alias')


def plain_data_cases():
    for version in VERSIONS + tuple(sorted(ALIASES)):
        for key, args in sorted(NEVER_FUNCTIONS.items()):
            expr = {key: args}
            yield Case('plain/%s/%s' % (version, key), _fn_template(version, expr, 'all', key, None),
                       'plain', intent=OK)
        two_keys = {'get_param': 's', 'other': 1}
        yield Case('plain/%s/two-key-map' % version,
                   _fn_template(version, two_keys, 'all', None, None), 'plain', intent=OK)
        nested = {'outer': [{'get_param': 's'}, {'inner': {'get_param': 'n'}}]}
        yield Case('plain/%s/nested-fns-in-data' % version,
                   _fn_template(version, nested, 'all', None, None), 'plain', intent=OK)
