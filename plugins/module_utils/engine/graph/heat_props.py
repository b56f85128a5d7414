# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A resource's properties read the way a Heat plugin reads
``self.properties`` before the stack exists (what implicit dependencies
compare).

* Values are resolved in the stack definition (references to resources
  without live data give their placeholder).
* The type's translation rules move deprecated properties to their new name
  (``network_id`` -> ``network``); the old name then reads as absent.  Both
  given and non-empty is an error.
* Each value is converted to the property's type as Heat does without
  validating: a String turns None into its default or '' and numbers or
  booleans into text, a Map or List reads every key of its schema (with
  defaults), a required property missing is an error.

Errors raise :class:`Unreadable` (Heat's ValueError/TypeError there),
except an old and a new name both given: Heat fails the stack for that,
and so does this (TemplateError, as the property check words it).
``view[key]`` is Heat's ``properties[key]`` (an unknown key is an error),
``view.get(key)`` its ``properties.get(key)`` (an unknown key gives None).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from collections.abc import Mapping, Sequence
from numbers import Number

from ...errors import StackersError, TemplateError
from ...hot import functions as fns
from ...hot import resource_types as rt
from ...hot.resource_types import PropertySchema
from ...hot.stack_inputs import provider_template


class Unreadable(Exception):
    """Heat could not read the property (it skips what needed it)."""


_BAD = object()

# Provider template parameters as Heat turns them into property schemas
# (Schema.from_parameter): no default, required when the parameter has none.
_PARAM_CODES = {'string': 's', 'number': 'n', 'comma_delimited_list': 'lc', 'json': 'mc',
                'boolean': 'b'}


def _template_schema(stack, defn):
    key = ('implicit-schema', defn.type_info.template)
    cache = stack.type_cache
    if key not in cache:
        try:
            params = provider_template(stack, defn).parameters
        except StackersError:
            params = None
        defaults = getattr(stack.environment, 'parameter_defaults', None) or {}
        schema = {}
        for name, raw in (params if isinstance(params, dict) else {}).items():
            raw = raw if isinstance(raw, dict) else {}
            code = _PARAM_CODES.get(raw.get('type'), 'mc')
            required = raw.get('default') is None and defaults.get(name) is None
            schema[name] = PropertySchema((code[0], ('r' if required else '') + code[1:]))
        cache[key] = schema
    return cache[key]


_NOTHING = ({}, {}, frozenset())
_PLUGINS = {}


def _schema_and_moves(stack, defn):
    """(schema, moves, hidden) of the resource's implementation."""
    info = defn.type_info
    if info is None or getattr(info, 'is_none', False):
        return _NOTHING  # Heat's NoneResource has no properties
    if getattr(info, 'template', None):
        return _template_schema(stack, defn), {}, frozenset()
    return _plugin_schema(info.plugin)


def _plugin_schema(plugin):
    try:
        heat_type = rt.heat_type(plugin)
    except StackersError:
        return _NOTHING
    # keyed by the HeatType, not its name: a user's plugin loaded again is another type
    found = _PLUGINS.get(heat_type)
    if found is None:
        moves, hidden = {}, set()
        for target, source in heat_type.translations:
            target = tuple(target)
            if source is None:
                hidden.add(target)
            else:
                moves[target] = tuple(source)
                hidden.add(tuple(source))
        found = _PLUGINS[heat_type] = (heat_type.properties, moves, frozenset(hidden))
    return found


def properties_view(stack, defn):
    schema, moves, hidden = _schema_and_moves(stack, defn)
    return PropertiesView(defn.properties or {}, schema, moves, hidden,
                          path=defn.path + ('properties',))


class PropertiesView(object):

    __slots__ = ('data', 'schema', 'moves', 'hidden', 'cache', 'path')

    def __init__(self, data, schema, moves=None, hidden=frozenset(), path=('properties',)):
        self.path = path
        self.data = data
        self.schema = schema
        self.moves = moves or {}
        self.hidden = hidden
        self.cache = {}

    def get(self, key):
        if key not in self.schema:
            return None
        return self[key]

    def __getitem__(self, key):
        value = self.cache.get(key, self)
        if value is self:
            try:
                value = self._read(key)
            except Unreadable:
                value = _BAD
            self.cache[key] = value
        if value is _BAD:
            raise Unreadable(key)
        return value

    # -- top level ----------------------------------------------------------
    def _user(self, key, respect_moves=True):
        """(found, resolved value) of what the template gives for ``key``."""
        if key not in self.data or (respect_moves and (key,) in self.hidden):
            return False, None
        try:
            value = fns.resolve(self.data[key], nullable=True)
        except StackersError:
            raise Unreadable(key)
        if value is Ellipsis:
            return False, None
        return True, value

    def _read(self, key):
        prop = self.schema.get(key)
        if prop is None:
            raise Unreadable(key)
        found, value = self._user(key)
        source = self.moves.get((key,))
        if source is not None:
            moved = self._read_source(source)
            if moved and found and value:
                self._conflict((key,), source, (key,))
            if moved is not None:
                return self._convert(prop, moved, (key,), (key,))
        if found:
            return self._convert(prop, value, (key,), (key,))
        return self._absent(prop)

    def _conflict(self, target, source, where):
        raise TemplateError('Cannot define the following properties at the same time: %s, %s'
                            % ('.'.join(target), '.'.join(source)), path=self.path + where)

    def _read_source(self, source):
        if len(source) != 1:
            return None
        prop = self.schema.get(source[0])
        if prop is None:
            return None
        found, value = self._user(source[0], respect_moves=False)
        if found:
            return self._convert(prop, value, source, source)
        return self._absent(prop)

    def _absent(self, prop):
        if prop.default is not None:
            return self._convert(prop, None, (), ())
        if prop.required:
            raise Unreadable()
        return None

    # -- conversion -----------------------------------------------------------
    def _convert(self, prop, value, path, where):
        """``path``: the property's path in translation rules (no list
        indexes); ``where``: its path in the properties (for errors)."""
        kind = prop.type
        if kind == rt.STRING:
            if value is None:
                value = prop.default or ''
            if isinstance(value, str):
                return value
            if isinstance(value, (bool, int)):
                return str(value)
            raise Unreadable()
        if kind == rt.MAP:
            return self._map(prop, value, path, where)
        if kind == rt.LIST:
            return self._list(prop, value, path, where)
        if kind == rt.BOOLEAN:
            if value is None:
                value = prop.default or False
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ('true', 'false'):
                return value.lower() == 'true'
            raise Unreadable()
        if kind in (rt.INTEGER, rt.NUMBER):
            if value is None:
                value = prop.default or 0
            if kind == rt.NUMBER and isinstance(value, Number):
                return value
            try:
                return int(value)
            except (TypeError, ValueError, OverflowError):
                if kind == rt.INTEGER or not isinstance(value, str):
                    raise Unreadable()
            try:
                return float(value)
            except ValueError:
                raise Unreadable()
        return value

    def _map(self, prop, value, path, where):
        if value is None:
            value = prop.default if prop.default is not None else {}
        if not isinstance(value, Mapping):
            if prop.allow_conversion and isinstance(value, str):
                return value
            if prop.allow_conversion and isinstance(value, Sequence):
                return json.dumps(value)
            raise Unreadable()
        if not isinstance(prop.schema, dict):
            return dict(value)
        child = self._child
        return {key: child(sub, value, key, path + (key,), where)
                for key, sub in prop.schema.items()}

    def _list(self, prop, value, path, where):
        if value is None:
            value = prop.default or []
        if prop.allow_conversion and isinstance(value, str):
            value = value.split(',') if value else []
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise Unreadable()
        if not isinstance(prop.schema, PropertySchema):
            return list(value)
        # Items keep the list's translation path (Heat drops list indexes).
        return [self._convert(prop.schema, item, path, where + (i,))
                for i, item in enumerate(value)]

    def _child(self, prop, data, key, path, parent):
        """A Map's member: translation moves come from sibling keys, raw.
        ``parent`` is the map's own place in the properties (most members
        are absent, so theirs is only made when needed)."""
        found = key in data and path not in self.hidden
        source = self.moves.get(path)
        if source is not None:
            moved = data.get(source[-1])
            if moved and found and data[key]:
                self._conflict(path, source, parent + (key,))
            if moved is not None:
                return self._convert(prop, moved, path, parent + (key,))
        if found:
            return self._convert(prop, data[key], path, parent + (key,))
        return self._absent(prop)
