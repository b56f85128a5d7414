# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Collection functions: ``repeat`` (three forms), ``map_merge``,
``map_replace``, ``filter``, ``list_concat``, ``list_concat_unique`` and
``contains``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools
import json
from collections.abc import Mapping, Sequence

from .. import limits
from .base import Function, resolve


def _is_list(value):
    return isinstance(value, Sequence) and not isinstance(value, str)


class Repeat(Function):
    """``repeat: {template: ..., for_each: {var: list, ...}}``: one copy of
    the template per combination of the lists, with each var replaced (in
    strings, map keys and map values)."""

    __slots__ = ('_for_each', '_template', '_nested')

    def __init__(self, stack, fn_name, args, path=()):
        super(Repeat, self).__init__(stack, fn_name, args, path)
        if not isinstance(args, Mapping):
            raise self.error('The arguments of "%s" must be a map' % fn_name)
        if 'for_each' not in args or 'template' not in args:
            raise self.error('"%s" needs "template" and "for_each" (a map of variable: list)'
                             % fn_name)
        self._for_each = args['for_each']
        self._template = args['template']
        self._nested = self._parse_permutations()

    def _parse_permutations(self):
        return True

    has_check = True

    def check(self):
        if not isinstance(self._for_each, (Function, Mapping)):
            raise self.error('The "for_each" argument of "%s" must be a map' % self.fn_name)

    def _check_values(self, value):
        if not _is_list(value):
            raise self.error('The values of "for_each" in "%s" must be lists' % self.fn_name)

    def _replace(self, keys, values, template):
        if isinstance(template, str):
            for key, value in zip(keys, values):
                template = template.replace(key, value)
            return template
        if isinstance(template, Sequence):
            return [self._replace(keys, values, item) for item in template]
        if isinstance(template, Mapping):
            return dict((self._replace(keys, values, k), self._replace(keys, values, v))
                        for k, v in template.items())
        return template

    def result(self):
        for_each = resolve(self._for_each)
        if not isinstance(for_each, Mapping):
            raise self.error('The "for_each" argument of "%s" must be a map' % self.fn_name)
        if not for_each:
            raise self.error('The "for_each" argument of "%s" must not be empty' % self.fn_name)
        keys = list(for_each)
        lists = []
        lengths = set()
        for value in for_each.values():
            if value is None:
                lists.append([])
                continue
            self._check_values(value)
            lists.append(value)
            lengths.add(len(value))
        if not self._nested and len(lengths) > 1:
            raise self.error('Without permutations, the lists in "for_each" of "%s" must '
                             'all have the same length' % self.fn_name)
        template = resolve(self._template)
        self._check_size(lists, template)
        combine = itertools.product if self._nested else zip
        return [self._replace(keys, combo, template) for combo in combine(*lists)]

    def _check_size(self, lists, template):
        """Refuse before building a result no request could carry: the
        number of copies (a product of the lengths, or the common length),
        and their size (each copy is at least as big as the template)."""
        count = 1
        if self._nested:
            for value in lists:
                count *= len(value)
                if count == 0:
                    return
        else:
            count = len(lists[0]) if lists else 0
        limits.check_items(self, count)
        if count:
            limits.check_text(self, count * _size(template))


def _size(value):
    """The length of ``value`` written as JSON (its strings, at least)."""
    try:
        return len(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return 0


class RepeatWithMap(Repeat):
    """``repeat`` from 2016-10-14: a map in ``for_each`` iterates its keys."""

    __slots__ = ()

    def _check_values(self, value):
        if isinstance(value, str) or not isinstance(value, (Sequence, Mapping)):
            raise self.error('The values of "for_each" in "%s" must be lists or maps'
                             % self.fn_name)


class RepeatWithNestedLoop(RepeatWithMap):
    """``repeat`` from 2017-09-01: ``permutations: false`` walks the lists
    side by side (lists only, equal lengths) instead of nesting the loops."""

    __slots__ = ()

    def _parse_permutations(self):
        value = self.args.get('permutations', True)
        if not isinstance(value, bool):
            raise self.error('"permutations" of "%s" must be a boolean' % self.fn_name)
        return value

    def _check_values(self, value):
        if self._nested:
            RepeatWithMap._check_values(self, value)
        else:
            Repeat._check_values(self, value)


class MapMerge(Function):
    """``map_merge: [map, map, ...]``: later maps win (shallow)."""

    __slots__ = ()

    def result(self):
        args = resolve(self.args)
        if not isinstance(args, Sequence):
            raise self.error('The argument of "%s" must be a list of maps, e.g. '
                             '[{"key1": "val1"}, {"key2": "val2"}]' % self.fn_name)
        out = {}
        limits.check_items(self, sum(len(item) for item in args if isinstance(item, Mapping)))
        for item in args:
            if item is None:
                continue
            if not isinstance(item, Mapping):
                raise self.error('"%s" can only merge maps; %s is a %s'
                                 % (self.fn_name, repr(item)[:200], type(item).__name__))
            out.update(item)
        return out


class MapReplace(Function):
    """``map_replace: [map, {keys: {old: new}, values: {old: new}}]``."""

    __slots__ = ()

    def _form_error(self):
        return self.error('The arguments of "%s" must be [map, {"keys": {...}, "values": '
                          '{...}}]' % self.fn_name)

    def _map(self, value):
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self._form_error()
        return value

    def result(self):
        args = resolve(self.args)
        if not isinstance(args, list) or len(args) != 2:
            raise self._form_error()
        source, replacements = self._map(args[0]), self._map(args[1])
        for key in replacements:
            if key not in ('keys', 'values'):
                raise self._form_error()
        new_keys = self._map(replacements.get('keys', {}))
        new_values = self._map(replacements.get('values', {}))
        out = {}
        for key, value in source.items():
            new = new_keys.get(key)
            if new is None:
                new = key
            elif new in source and new != key:
                raise self.error('"%s": the new key %s collides with a key of the input map'
                                 % (self.fn_name, new))
            elif new in out:
                raise self.error('"%s": the new key %s collides with a key of the output map'
                                 % (self.fn_name, new))
            try:
                value = new_values.get(value, value)
            except TypeError:  # unhashable values are never replaced
                pass
            out[new] = value
        return out


class Filter(Function):
    """``filter: [values_to_remove, list]``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Filter, self).__init__(stack, fn_name, args, path)
        if not _is_list(args):
            raise self.error('The argument of "%s" must be a list' % fn_name)
        if len(args) != 2:
            raise self.error('"%s" takes 2 arguments [values, list], not %d'
                             % (fn_name, len(args)))

    def result(self):
        sequence = resolve(self.args[1])
        if not sequence:
            return sequence
        if not isinstance(sequence, list):
            raise self.error('"%s" only works on lists' % self.fn_name)
        values = resolve(self.args[0])
        if not values:
            return sequence
        if not isinstance(values, list):
            raise self.error('"%s" takes a list of values to remove' % self.fn_name)
        return [item for item in sequence if item not in values]


class ListConcat(Function):
    """``list_concat: [list, list, ...]``."""

    __slots__ = ()
    unique = False

    def result(self):
        args = resolve(self.args)
        if not _is_list(args):
            raise self.error('The argument of "%s" must be a list of lists, e.g. '
                             '[[1, 2], [3, 4]]' % self.fn_name)
        out = []
        limits.check_items(self, sum(len(item) for item in args if _is_list(item)))
        for item in args:
            if item is None:
                continue
            if not _is_list(item):
                raise self.error('"%s" can only concatenate lists; %s is not a list'
                                 % (self.fn_name, _dump(item)))
            out.extend(item)
        if not self.unique:
            return out
        # Equality as ``in`` has it, in linear time for hashable items: a
        # quadratic scan of a long list was a time bomb.
        unique, seen, unhashable = [], set(), []
        for item in out:
            try:
                if item in seen:
                    continue
                seen.add(item)
            except TypeError:
                if item in unhashable:
                    continue
                unhashable.append(item)
            unique.append(item)
        return unique


class ListConcatUnique(ListConcat):
    """``list_concat_unique``: the same, keeping the first of equal items."""

    __slots__ = ()
    unique = True


class Contains(Function):
    """``contains: [value, sequence]``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Contains, self).__init__(stack, fn_name, args, path)
        if not args or not isinstance(args, list):
            raise self.error('The argument of "%s" must be a list [value, [value1, value2]]'
                             % fn_name)
        if len(args) != 2:
            raise self.error('"%s" takes 2 arguments [value, sequence]' % fn_name)

    def result(self):
        value = resolve(self.args[0])
        sequence = resolve(self.args[1])
        if not isinstance(sequence, Sequence):
            raise self.error('The second argument of "%s" must be a sequence' % self.fn_name)
        return value in sequence


def _dump(value):
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
