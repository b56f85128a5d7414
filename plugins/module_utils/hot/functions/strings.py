# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""String functions: ``str_replace`` (and its JSON, strict and very strict
forms), ``list_join`` (one list, then several), ``str_split``, ``digest``
and ``make_url``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
from collections.abc import Mapping, Sequence
from urllib import parse as urlparse

from .. import limits
from .base import Function, resolve, short_repr

_SCALAR_TYPES = (str, int, float, bool)


class Replace(Function):
    """``str_replace: {template: ..., params: {placeholder: value}}``.

    Longer placeholders win over shorter ones they contain; among equally
    long ones the lexically smaller goes first; replaced text is never
    scanned again."""

    __slots__ = ('_mapping', '_string')
    strict = False
    allow_empty = True

    def __init__(self, stack, fn_name, args, path=()):
        super(Replace, self).__init__(stack, fn_name, args, path)
        self._mapping, self._string = self._parse_args()
        if not isinstance(self._mapping, (Mapping, Function)):
            raise self.error('The "params" of "%s" must be a map' % fn_name)

    def _parse_args(self):
        if not isinstance(self.args, Mapping):
            raise self.error('The arguments of "%s" must be a map with "template" and '
                             '"params"' % self.fn_name)
        if 'params' not in self.args or 'template' not in self.args:
            raise self.error('"%s" needs both "template" (the text) and "params" (a map of '
                             'placeholder: value)' % self.fn_name)
        return self.args['params'], self.args['template']

    def replacement(self, value, param):
        if value is None:
            return ''
        if not isinstance(value, _SCALAR_TYPES):
            raise self.error('The params of "%s" must be strings or numbers; "%s" is not'
                             % (self.fn_name, param))
        return str(value)

    def result(self):
        template = resolve(self._string)
        mapping = resolve(self._mapping)
        if not isinstance(template, str):
            raise self.error('The "template" of "%s" must be a string' % self.fn_name)
        if not isinstance(mapping, Mapping):
            raise self.error('The "params" of "%s" must be a map' % self.fn_name)
        for key in mapping:
            if not isinstance(key, str):
                raise self.error('The placeholders of "%s" must be strings; %r is not'
                                 % (self.fn_name, key))
        keys = sorted(sorted(mapping), key=len, reverse=True)
        unused = set(mapping) if self.strict else None
        # An upper bound of the result's length, known before it is built:
        # a long value put in place of a frequent placeholder is the blow-up.
        limits.check_text(self, len(template) + sum(
            template.count(key) * len(self.replacement(mapping[key], key)) for key in keys if key))

        def replace(pieces, index):
            if index == len(keys):
                return pieces
            key = keys[index]
            value = self.replacement(mapping[key], key)
            out = []
            for piece in pieces:
                parts = piece.split(key)
                if unused is not None and len(parts) > 1:
                    unused.discard(key)
                out.append(value.join(replace(parts, index + 1)))
            return out

        text = replace([template], 0)[0]
        if unused:
            names = sorted(sorted(unused), key=len, reverse=True)
            raise self.error('These params of "%s" do not occur in the template: %s'
                             % (self.fn_name, ','.join(names)))
        return text


class ReplaceJson(Replace):
    """``str_replace`` from 2015-10-15: lists and maps are substituted as JSON."""

    __slots__ = ()

    def _empty(self, param):
        return self.error('"%s" requires a non-empty value for param "%s"' % (self.fn_name, param))

    def replacement(self, value, param):
        if value is None:
            if self.allow_empty:
                return ''
            raise self._empty(param)
        if not isinstance(value, _SCALAR_TYPES):
            if isinstance(value, (Mapping, Sequence)):
                if not self.allow_empty and not value:
                    raise self._empty(param)
                try:
                    return json.dumps(value, sort_keys=True)
                except (TypeError, ValueError):
                    raise self.error('The params of "%s" must be strings, numbers, lists or '
                                     'maps; %s cannot be written as JSON'
                                     % (self.fn_name, short_repr(value)))
            raise self.error('The params of "%s" must be strings, numbers, lists or maps'
                             % self.fn_name)
        text = str(value)
        if not self.allow_empty and not text:
            raise self._empty(param)
        return text


class ReplaceJsonStrict(ReplaceJson):
    """``str_replace_strict``: every param must occur in the template."""

    __slots__ = ()
    strict = True


class ReplaceJsonVeryStrict(ReplaceJsonStrict):
    """``str_replace_vstrict``: strict, and no param may be empty or null."""

    __slots__ = ()
    allow_empty = False


def _example_error(fn, example):
    return fn.error('Wrong arguments for "%s"; expected the form %s' % (fn.fn_name, example))


class Join(Function):
    """``list_join: [delimiter, [string, ...]]`` (exactly one list)."""

    __slots__ = ('_delim', '_strings')

    def __init__(self, stack, fn_name, args, path=()):
        super(Join, self).__init__(stack, fn_name, args, path)
        if not isinstance(args, list) or len(args) != 2:
            raise _example_error(self, '[" ", ["str1", "str2"]]')
        self._delim, self._strings = args

    def result(self):
        strings = resolve(self._strings)
        if strings is None:
            strings = []
        if isinstance(strings, str) or not isinstance(strings, Sequence):
            raise self.error('"%s" must operate on a list' % self.fn_name)
        delim = resolve(self._delim)
        if not isinstance(delim, str):
            raise self.error('The delimiter of "%s" must be a string' % self.fn_name)
        out = []
        for item in strings:
            if item is None:
                item = ''
            elif not isinstance(item, str):
                raise self.error('"%s" can only join strings, not %s'
                                 % (self.fn_name, short_repr(item)))
            out.append(item)
        _check_joined(self, delim, out)
        return delim.join(out)


def _check_joined(fn, delim, strings):
    limits.check_text(fn, sum(len(item) for item in strings) + len(delim) * max(len(strings) - 1, 0))


class JoinMultiple(Function):
    """``list_join: [delimiter, list, list, ...]`` from 2015-10-15; lists and
    maps among the items are joined as JSON."""

    __slots__ = ('_delim', '_lists')

    def __init__(self, stack, fn_name, args, path=()):
        super(JoinMultiple, self).__init__(stack, fn_name, args, path)
        if not isinstance(args, list) or len(args) < 2:
            raise _example_error(self, '[" ", ["str1", "str2"], ...]')
        self._delim = args[0]
        self._lists = args[1:]

    def result(self):
        strings = []
        for items in resolve(self._lists):
            if items:
                if isinstance(items, str) or not isinstance(items, Sequence):
                    raise self.error('"%s" must operate on lists' % self.fn_name)
                strings.extend(items)
        delim = resolve(self._delim)
        if not isinstance(delim, str):
            raise self.error('The delimiter of "%s" must be a string' % self.fn_name)
        out = []
        for item in strings:
            if item is None:
                out.append('')
            elif isinstance(item, str):
                out.append(item)
            elif isinstance(item, (Mapping, Sequence)):
                try:
                    out.append(json.dumps(item, sort_keys=True))
                except (TypeError, ValueError):
                    raise self.error('"%s": %s cannot be written as JSON'
                                     % (self.fn_name, short_repr(item)))
            else:
                raise self.error('"%s" can only join strings, maps or lists, not %s'
                                 % (self.fn_name, short_repr(item)))
        _check_joined(self, delim, out)
        return delim.join(out)


class StrSplit(Function):
    """``str_split: [delimiter, string, (index)]``."""

    __slots__ = ()
    example = '[",", "apples,pears", <index>]'

    def __init__(self, stack, fn_name, args, path=()):
        super(StrSplit, self).__init__(stack, fn_name, args, path)
        if isinstance(args, (str, Mapping)):
            raise _example_error(self, self.example)

    def result(self):
        args = resolve(self.args)
        if not isinstance(args, list) or len(args) < 2:
            raise _example_error(self, self.example)
        delim, text = args[0], args[1]
        if text is None:
            return None
        if not isinstance(text, str) or not isinstance(delim, str):
            raise self.error('"%s" splits a string by a string delimiter' % self.fn_name)
        if not delim:
            raise self.error('The delimiter of "%s" must not be empty' % self.fn_name)
        pieces = text.split(delim)
        if len(args) < 3:
            return pieces
        try:
            index = int(args[2])
        except (TypeError, ValueError):
            raise self.error('The index given to "%s" must be an integer' % self.fn_name)
        try:
            return pieces[index]
        except IndexError:
            raise self.error('The index given to "%s" must be between 0 and %d'
                             % (self.fn_name, len(pieces) - 1))


class Digest(Function):
    """``digest: [algorithm, value]``: hex digest with any hashlib algorithm."""

    __slots__ = ()

    def result(self):
        args = resolve(self.args)
        if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
            raise self.error('The argument of "%s" must be a list of strings' % self.fn_name)
        if len(args) != 2:
            raise self.error('"%s" takes ["<algorithm>", "<value>"]' % self.fn_name)
        algorithms = hashlib.algorithms_available
        if args[0].lower() not in algorithms:
            raise self.error('The algorithm of "%s" must be one of %s'
                             % (self.fn_name, ', '.join(sorted(algorithms))))
        digest = hashlib.new(args[0])
        digest.update(args[1].encode('latin-1'))
        return digest.hexdigest()


class MakeURL(Function):
    """``make_url: {scheme, username, password, host, port, path, query,
    fragment}``: a correctly escaped URL."""

    __slots__ = ()
    keys = ('scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment')

    def _check(self, args):
        for key in self.keys:
            if key not in args:
                continue
            value = args[key]
            if key == 'query':
                if not isinstance(value, (Function, Mapping)):
                    raise self.error('The "query" argument of "%s" must be a map' % self.fn_name)
                # Heat stops checking here (the fragment is never checked
                # when a query is present); keep the same leniency.
                return
            if key == 'port':
                if isinstance(value, Function):
                    continue
                port = value
                if not isinstance(port, int):
                    try:
                        port = int(port)
                    except (TypeError, ValueError):
                        raise self.error('"%s": invalid URL port "%s"' % (self.fn_name, value))
                if not 0 < port <= 65535:
                    raise self.error('"%s": invalid URL port %d, it must be within 1-65535'
                                     % (self.fn_name, port))
            elif not isinstance(value, (Function, str)):
                raise self.error('The "%s" argument of "%s" must be a string'
                                 % (key, self.fn_name))

    has_check = True

    def check(self):
        if not isinstance(self.args, Mapping):
            raise self.error('The arguments of "%s" must be a map' % self.fn_name)
        unknown = [k for k in self.args if k not in self.keys]
        if unknown:
            raise self.error('Unknown arguments to "%s": %s'
                             % (self.fn_name, ', '.join(str(k) for k in unknown)))
        self._check(self.args)

    def result(self):
        args = resolve(self.args)
        if not isinstance(args, Mapping):
            raise self.error('The arguments of "%s" must be a map' % self.fn_name)
        self._check(args)
        scheme = args.get('scheme', '')
        if ':' in scheme:
            raise self.error('The URL "scheme" must not contain ":"')
        netloc = []
        username = urlparse.quote(args.get('username', ''), safe='')
        password = urlparse.quote(args.get('password', ''), safe='')
        if username or password:
            netloc.append(username)
            if password:
                netloc.append(':' + password)
            netloc.append('@')
        host = args.get('host', '')
        if host.startswith('[') and host.endswith(']'):
            host = host[1:-1]
        host = urlparse.quote(host, safe=':')
        if ':' in host:
            host = '[%s]' % host
        netloc.append(host)
        port = args.get('port', '')
        if port:
            netloc.append(':%s' % port)
        path = urlparse.quote(args.get('path', ''))
        query = urlparse.urlencode(args.get('query', {})).replace('%2F', '/')
        fragment = urlparse.quote(args.get('fragment', ''))
        return urlparse.urlunsplit((scheme, ''.join(netloc), path, query, fragment))
