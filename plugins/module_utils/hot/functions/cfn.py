# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The CloudFormation-style functions HOT 2013-05-23 still accepted
(``Fn::Select`` lived until 2015-04-30)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re
from collections.abc import Iterable, Mapping, Sequence

from .base import Function, resolve
from .resources import GetResource, ResourceFacade as HotResourceFacade
from .strings import Join as HotJoin, Replace as HotReplace


class GetAZs(Function):
    """``Fn::GetAZs: region``: the availability zones."""

    __slots__ = ()

    def result(self):
        if self.stack is None:
            return ['nova']
        return self.stack.availability_zones()


class ParamRef(Function):
    """``Ref: parameter_name`` (when the name is not a resource)."""

    __slots__ = ()

    def result(self):
        name = resolve(self.args)
        try:
            return self.need_stack().parameters[name]
        except (KeyError, TypeError):
            raise self.error('"%s" refers to "%s", which is neither a resource nor a '
                             'parameter' % (self.fn_name, name))


def Ref(stack, fn_name, args, path=()):
    """``Ref: name``: a resource's reference id, or a parameter's value."""
    try:
        is_resource = stack is None or stack.resource_defined(args)
    except TypeError:
        is_resource = False
    if is_resource:
        return GetResource(stack, fn_name, args, path)
    return ParamRef(stack, fn_name, args, path)


Ref.macro = False


class Select(Function):
    """``Fn::Select: [index, list_or_map]``; a miss gives ``''``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Select, self).__init__(stack, fn_name, args, path)
        try:
            _index, _collection = args
        except (TypeError, ValueError):
            raise self.error('The argument of "%s" must be [index, collection]' % fn_name)

    def result(self):
        # Unpacking (not indexing) so that any two-item iterable works as in Heat.
        index, strings = self.args
        index = resolve(index)
        strings = resolve(strings)
        if strings == '':
            # Unavailable values often resolve to '': pass that through.
            return ''
        if isinstance(strings, str):
            try:
                strings = json.loads(strings)
            except ValueError as exc:
                raise self.error('"%s": %s' % (self.fn_name, exc))
        if isinstance(strings, Mapping):
            if not isinstance(index, str):
                raise self.error('The index of "%s" into a map must be a string' % self.fn_name)
            return strings.get(index, '')
        try:
            index = int(index)
        except (ValueError, TypeError):
            pass
        if isinstance(strings, Sequence) and not isinstance(strings, str):
            if not isinstance(index, int):
                raise self.error('The index of "%s" into a list must be an integer'
                                 % self.fn_name)
            try:
                return strings[index]
            except IndexError:
                return ''
        if strings is None:
            return ''
        raise self.error('The arguments of "%s" are not fully resolved' % self.fn_name)


class Join(HotJoin):
    """``Fn::Join: [delimiter, [string, ...]]``."""

    __slots__ = ()


class Split(Function):
    """``Fn::Split: [delimiter, string]``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Split, self).__init__(stack, fn_name, args, path)
        if isinstance(args, (str, Mapping)) or not isinstance(args, Iterable) or len(args) != 2:
            raise self.error('The argument of "%s" must be [",", "str1,str2"]' % fn_name)

    def result(self):
        delim = self.args[0]
        text = resolve(self.args[1])
        if not isinstance(delim, str):
            raise self.error('The delimiter of "%s" must be a string' % self.fn_name)
        if not isinstance(text, str):
            raise self.error('"%s" splits a string, not %s' % (self.fn_name, type(text).__name__))
        return text.split(delim)


class Replace(HotReplace):
    """``Fn::Replace: [{placeholder: value}, template]``."""

    __slots__ = ()

    def _parse_args(self):
        args = self.args
        if isinstance(args, (str, Mapping)) or not isinstance(args, Sequence) or len(args) != 2:
            raise self.error('The argument of "%s" must be [{"$var1": "foo"}, "$var1 text"]'
                             % self.fn_name)
        return args[0], args[1]


class Base64(Function):
    """``Fn::Base64: string`` (returns the string unchanged, as Heat does)."""

    __slots__ = ()

    def result(self):
        value = resolve(self.args)
        if not isinstance(value, str):
            raise self.error('The argument of "%s" must be a string' % self.fn_name)
        return value


_MEMBER = re.compile(r'\.member\.([0-9]+)\.(.*)')


class MemberListToMap(Function):
    """``Fn::MemberListToMap: [key_name, value_name, ['.member.N.key=v', ...]]``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(MemberListToMap, self).__init__(stack, fn_name, args, path)
        try:
            keyname, valuename, _items = args
        except (TypeError, ValueError):
            raise self.error('The argument of "%s" must be [key_name, value_name, '
                             '[".member.0.key_name=k", ".member.0.value_name=v", ...]]' % fn_name)
        if not isinstance(keyname, str) or not isinstance(valuename, str):
            raise self.error('The key and value names of "%s" must be strings' % fn_name)

    def result(self):
        keyname, valuename, items = self.args
        members = resolve(items)
        if not isinstance(members, Iterable):
            raise self.error('The member list of "%s" must be a list' % self.fn_name)
        pairs = {}
        for item in members:
            if not isinstance(item, str):
                raise self.error('The member list items of "%s" must be strings' % self.fn_name)
            key, sep, value = item.partition('=')
            if not sep:
                raise self.error('"%s": member %r has no "="' % (self.fn_name, item))
            pairs[key] = value
        grouped = {}
        for key, value in pairs.items():
            match = _MEMBER.match(key)
            if match:
                grouped.setdefault(int(match.group(1)), {})[match.group(2)] = value
        return dict((m[keyname], m[valuename]) for _i, m in sorted(grouped.items())
                    if keyname in m and valuename in m)


class ResourceFacade(HotResourceFacade):
    """``Fn::ResourceFacade: Metadata|DeletionPolicy|UpdatePolicy``."""

    __slots__ = ()
    allowed = ('Metadata', 'DeletionPolicy', 'UpdatePolicy')
