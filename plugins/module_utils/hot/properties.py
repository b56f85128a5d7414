# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Check a resource's properties against its type's schema, as Heat's
Properties.validate does before anything is created.

Values are taken the way Heat converts them (a String accepts numbers and
booleans, an Integer accepts "42", a Boolean accepts "True", a null becomes
the default or the type's empty value), then Heat's constraints are applied
except custom ones (those belong to constraints.py).  A value that is still
an intrinsic function (parsed, or a raw one-key function mapping) is taken
on trust: its result is only known later.  Properties moved by the type's
translation rules (``network_id`` -> ``network``) count for their new name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

from ..errors import TemplateError
from . import resource_types as rt

try:
    from .functions.base import Function as _Function
except ImportError:  # pragma: no cover - the functions package is part of the collection
    _Function = ()

# Every intrinsic function name of every template version (HOT and CFN).
FUNCTION_NAMES = frozenset((
    'get_param', 'get_attr', 'get_resource', 'get_file', 'list_join', 'str_replace',
    'str_replace_strict', 'str_replace_vstrict', 'resource_facade', 'repeat', 'digest',
    'str_split', 'map_merge', 'map_replace', 'yaql', 'if', 'filter', 'make_url', 'list_concat',
    'list_concat_unique', 'contains', 'equals', 'not', 'and', 'or', 'Ref', 'Fn::Select',
    'Fn::Join', 'Fn::Split', 'Fn::Replace', 'Fn::Base64', 'Fn::GetAZs', 'Fn::GetAtt',
    'Fn::MemberListToMap', 'Fn::ResourceFacade', 'Fn::FindInMap', 'Fn::If', 'Fn::Equals',
    'Fn::Not', 'Fn::And', 'Fn::Or'))

_EMPTY = {rt.STRING: '', rt.INTEGER: 0, rt.NUMBER: 0, rt.BOOLEAN: False}


def is_function(value):
    """Whether ``value`` is an intrinsic function not resolved yet."""
    if _Function and isinstance(value, _Function):
        return True
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)) in FUNCTION_NAMES


class _Checker(object):

    # False while checking values that wait on resources: Heat converts
    # their placeholders but skips the constraints.
    constrained = True

    def __init__(self, translations=()):
        self.replaced = set()
        self.deleted = set()
        self.sources = {}
        for target, source in translations:
            if source is None:
                self.deleted.add(target)
            else:
                self.replaced.add(source)
                self.sources[target] = source

    def fail(self, message, path):
        raise TemplateError(message, path=path)

    def check_map(self, schema, data, path, ppath, unconstrained=None):
        # ``unconstrained``: the keys (of this level) whose values wait on
        # resources; None leaves the current setting to nested levels.
        for key in data:
            if key not in schema:
                self.fail('Unknown Property %s' % key, path + (key,))
        for key, prop in schema.items():
            if key not in data and (prop.default is not None or not prop.required):
                continue  # absent and optional: nothing below could fail
            here = ppath + (key,)
            if here in self.deleted or here in self.replaced:
                continue
            source = self.sources.get(here)
            moved = _lookup(data, source[len(ppath):]) if source else _MISSING
            if key in data:
                if moved is not _MISSING and moved and data[key]:
                    self.fail('Cannot define the following properties at the same time: %s, %s'
                              % ('.'.join(here), '.'.join(source)), path + (key,))
                if unconstrained is not None:
                    self.constrained = key not in unconstrained
                self.check_value(prop, data[key], path + (key,), here)
                if not prop.implemented:
                    self.fail('Property %s not implemented yet' % key, path + (key,))
            elif moved is _MISSING and prop.default is None and prop.required:
                # Only an absent key is "not assigned": a null value (or
                # one moved from the old name) counts as given.
                self.fail('Property %s not assigned' % key, path)

    def check_value(self, prop, value, path, ppath):
        if is_function(value):
            return
        kind = prop.type
        if value is None:
            value = prop.default if prop.default is not None else _EMPTY.get(kind, {} if kind == rt.MAP else [])
            if kind == rt.ANY:
                return
        convert = _CONVERTERS.get(kind)
        if convert is not None:
            value = convert(self, prop, value, path)
        else:
            value = getattr(self, '_as_' + kind.lower())(prop, value, path)
        if kind == rt.MAP and isinstance(prop.schema, dict) and isinstance(value, dict):
            self.check_map(prop.schema, value, path, ppath)
        elif kind == rt.LIST and isinstance(prop.schema, rt.PropertySchema):
            for index, item in enumerate(value):
                self.check_value(prop.schema, item, path + (index,), ppath)
        for con in prop.constraints if self.constrained else ():
            problem = _constraint_problem(con, value, kind)
            if problem:
                self.fail(problem, path)

    def _as_string(self, prop, value, path):
        if isinstance(value, str):
            return value
        if isinstance(value, (bool, int)):
            return str(value)
        self.fail('Value must be a string; got %s' % _show(value), path)

    def _as_integer(self, prop, value, path):
        try:
            return int(value)
        except (TypeError, ValueError):
            self.fail("Value '%s' is not an integer" % _show(value), path)

    def _as_number(self, prop, value, path):
        number = number_of(value)
        if number is None:
            self.fail("Value '%s' is not a number" % _show(value), path)
        return number

    def _as_boolean(self, prop, value, path):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ('true', 'false'):
            return value.lower() == 'true'
        self.fail('"%s" is not a valid boolean' % _show(value), path)

    def _as_map(self, prop, value, path):
        if isinstance(value, dict):
            return value
        if prop.allow_conversion and isinstance(value, (str, list)):
            return value
        self.fail('"%s" is not a map' % _show(value), path)

    def _as_list(self, prop, value, path):
        if prop.allow_conversion and isinstance(value, str):
            value = [v.strip() for v in value.split(',')] if value else []
        if not isinstance(value, (list, tuple)):
            self.fail('"%s" is not a list' % _show(value), path)
        return value

    def _as_any(self, prop, value, path):
        return value


_CONVERTERS = {rt.STRING: _Checker._as_string, rt.INTEGER: _Checker._as_integer,
               rt.NUMBER: _Checker._as_number, rt.BOOLEAN: _Checker._as_boolean,
               rt.MAP: _Checker._as_map, rt.LIST: _Checker._as_list, rt.ANY: _Checker._as_any}
_MISSING = object()


def _lookup(data, rel):
    """The value at ``rel`` below ``data``, or _MISSING."""
    for key in rel:
        if not isinstance(data, dict) or key not in data:
            return _MISSING
        data = data[key]
    return data


def _show(value):
    if isinstance(value, (dict, list)):
        try:
            return json.dumps(value)
        except (TypeError, ValueError):
            pass
    return '%s' % (value,)


def number_of(value):
    """``value`` as a number, as Heat's str_to_num reads it: an int or a float
    as it is, anything else by int() or else float(); None when neither can."""
    if isinstance(value, (int, float)):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return float(value)
        except (TypeError, ValueError):
            return None


def _typed(kind, value):
    """``value`` in the property type ``kind`` as Heat's to_schema_type
    gives it (as it is where that fails)."""
    if kind == rt.STRING:
        return str(value)
    if kind in (rt.INTEGER, rt.NUMBER) and isinstance(value, str):
        number = number_of(value)
        return value if number is None else number
    return value


def _constraint_problem(con, value, kind):
    """Heat's message for a constraint ``value`` breaks, or None."""
    kind_name = con.kind
    if kind_name == 'custom_constraint':
        return None
    if kind_name in ('range', 'modulo'):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if kind_name == 'modulo':
            if value % con.step != con.offset:
                return '%s is not a multiple of %s with an offset of %s' % (value, con.step, con.offset)
            return None
        if (con.min is not None and value < con.min) or (con.max is not None and value > con.max):
            return '%s is out of range (min: %s, max: %s)' % (value, con.min, con.max)
        return None
    if kind_name == 'length':
        if is_function(value) or not hasattr(value, '__len__'):
            return None
        size = len(value)
        if (con.min is not None and size < con.min) or (con.max is not None and size > con.max):
            return 'length (%d) is out of range (min: %s, max: %s)' % (size, con.min, con.max)
        return None
    if kind_name == 'allowed_values':
        if isinstance(value, list):
            allowed = all(is_function(item) or item in con.values for item in value)
        else:
            # A single value and the allowed ones are compared in the
            # property's type, as Heat does: 6 and "6" are the same String.
            allowed = is_function(value) or value in con.values or \
                _typed(kind, value) in tuple(_typed(kind, a) for a in con.values)
        if not allowed:
            return '%s is not an allowed value [%s]' % (
                json.dumps(value), ', '.join(json.dumps(a) for a in con.values))
        return None
    if kind_name == 'allowed_pattern' and isinstance(value, str):
        match = re.match(con.pattern, value)
        if match is None or match.end() != len(value):
            return '"%s" does not match pattern "%s"' % (value, con.pattern)
    return None


def validate_properties(type_name, properties, path=(), unconstrained=()):
    """Check ``properties`` (a resource's ``properties`` mapping) against
    the schema of plugin type ``type_name``.  ``path`` is the resource's
    path in the template, e.g. ``('resources', 'server')``; errors are
    TemplateErrors whose path goes down to the offending property.  The
    values of the properties named in ``unconstrained`` wait on other
    resources: they are converted but their constraints are not applied.
    Unknown types raise UnknownResourceType; OS::Heat::None and the
    types Heat stubs out the same way accept anything."""
    heat_type = rt.heat_type(type_name)
    if heat_type.is_none or is_function(properties):
        return
    path = tuple(path) + ('properties',)
    if properties is None:
        properties = {}
    if not isinstance(properties, dict):
        raise TemplateError('Properties must be a map, not %s' % type(properties).__name__, path=path)
    _Checker(heat_type.translations).check_map(heat_type.properties, properties, path, (),
                                               tuple(unconstrained))


def check_value(schema, value, path=(), constrained=True):
    """Check one value against one PropertySchema as a property of that
    schema would be checked (type conversion, nested schemas, constraints
    except custom ones, unless not ``constrained``); ``path`` locates it.
    Raises TemplateError."""
    path = tuple(path)
    checker = _Checker()
    checker.constrained = constrained
    checker.check_value(schema, value, path, path[-1:])


def validate_update_policy(schema, policy, path=(), unconstrained=()):
    """Check a resource's resolved ``update_policy`` against its type's
    update_policy schema (name -> PropertySchema; {} refuses every key)
    the way properties are checked.  ``path`` is the resource's path; the
    keys in ``unconstrained`` hold values that wait on other resources."""
    path = tuple(path) + ('update_policy',)
    if not isinstance(policy, dict):
        raise TemplateError('update_policy must be a map, not %s' % type(policy).__name__,
                            path=path)
    checker = _Checker()
    for key in policy:
        if key not in schema:
            checker.fail('Unknown Property %s' % key, path)
    for key, prop in schema.items():
        if key in policy:
            checker.constrained = key not in unconstrained
            checker.check_value(prop, policy[key], path + (key,), (key,))


# HOT parameter type -> property type code (Heat's Schema.from_parameter;
# anything else becomes a Map).
_PARAM_TYPES = {'string': 's', 'number': 'n', 'comma_delimited_list': 'l', 'json': 'm', 'boolean': 'b'}
_PARAM_CONSTRAINTS = {'length': 'l', 'range': 'r', 'modulo': 'o'}


def _param_constraints(raw):
    out = []
    for con in raw if isinstance(raw, list) else ():
        if not isinstance(con, dict):
            continue
        for key, value in con.items():
            if key in _PARAM_CONSTRAINTS and isinstance(value, dict):
                first, second = ('step', 'offset') if key == 'modulo' else ('min', 'max')
                out.append((_PARAM_CONSTRAINTS[key], value.get(first), value.get(second)))
            elif key == 'allowed_values' and isinstance(value, list):
                out.append(('v', tuple(value)))
            elif key == 'allowed_pattern' and isinstance(value, str):
                out.append(('p', value))
            elif key == 'custom_constraint' and isinstance(value, str):
                out.append(('c', value))
    return tuple(out)


def provider_schema(parameters, parameter_defaults=None):
    """The property schemas of a provider template resource, from the
    template's ``parameters`` section as Heat derives them: one property per
    parameter, required when it has no default (the environment's
    parameter_defaults count as defaults), json/list ones accepting the
    looser forms their parameters accept, all update_allowed."""
    defaults = parameter_defaults or {}
    schema = {}
    for name, decl in (parameters or {}).items():
        decl = decl if isinstance(decl, dict) else {}
        code = _PARAM_TYPES.get(decl.get('type'), 'm')
        has_default = decl.get('default') is not None or defaults.get(name) is not None
        flags = 'u' + ('' if has_default else 'r') + ('c' if code in ('m', 'l') else '')
        schema[name] = rt.PropertySchema((code, flags, None, _param_constraints(decl.get('constraints'))))
    return schema


def validate_provider_properties(parameters, properties, path=(), parameter_defaults=None,
                                 unconstrained=()):
    """:func:`validate_properties` for a resource implemented by a provider
    template whose ``parameters`` section is given."""
    if is_function(properties):
        return
    path = tuple(path) + ('properties',)
    if properties is None:
        properties = {}
    if not isinstance(properties, dict):
        raise TemplateError('Properties must be a map, not %s' % type(properties).__name__, path=path)
    _Checker().check_map(provider_schema(parameters, parameter_defaults), properties, path, (),
                         tuple(unconstrained))
