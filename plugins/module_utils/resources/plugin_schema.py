# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A user's plugin class's schemas, checked and encoded as Heat's catalogue.

A plugin type is not in Heat's catalogue (hot/resource_types_data.py), so
its class declares its schemas, in the shape ``openstack orchestration
resource type show`` prints them (docs/plugins.md)::

    properties_schema = {
        'name': {'type': 'string', 'description': 'Its name', 'required': True,
                 'update_allowed': True,
                 'constraints': [{'length': {'min': 1, 'max': 255}}]},
        'tags': {'type': 'list', 'schema': {'*': {'type': 'string'}}},
    }
    attributes_schema = {'url': {'type': 'string', 'description': 'Where it is'}}

``encode`` checks them as Heat's Schema does (InvalidSchemaError there,
PluginSchemaError here, with the path of the entry at fault) and answers
the entry ``hot/resource_types.add_type`` takes, so the property checks,
the planner's update rules and the implicit dependencies read a plugin's
schema exactly as they read Heat's.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ..errors import PluginSchemaError
from ..hot import constraints as hot_constraints

PROPERTY_TYPES = {'string': 's', 'integer': 'i', 'number': 'n', 'boolean': 'b', 'map': 'm',
                  'list': 'l', 'any': 'a'}
ATTRIBUTE_TYPES = {'string': 's', 'integer': 'i', 'number': 'n', 'boolean': 'b', 'map': 'm',
                   'list': 'l'}
PROPERTY_KEYS = ('type', 'description', 'required', 'default', 'update_allowed', 'immutable',
                 'constraints', 'schema')
ATTRIBUTE_KEYS = ('type', 'description')

# constraint key -> (its code, the property types it applies to: Heat's valid_types)
CONSTRAINTS = {
    'range': ('r', ('integer', 'number')),
    'length': ('l', ('string', 'list', 'map')),
    'modulo': ('o', ('integer', 'number')),
    'allowed_values': ('v', ('string', 'integer', 'number', 'boolean', 'list')),
    'allowed_pattern': ('p', ('string',)),
    'custom_constraint': ('c', ('string', 'integer', 'number', 'boolean', 'list')),
}

# What a default of each type may be (a bool is no number here, as in Heat).
_DEFAULT_TYPES = {'string': (str,), 'integer': (int,), 'number': (int, float), 'boolean': (bool,),
                  'map': (dict,), 'list': (list,)}

# schema keys -> the catalogue's property flags (hot/resource_types.py)
_FLAGS = (('required', 'r'), ('update_allowed', 'u'), ('immutable', 'm'))

# Heat adds ``show`` to every type (hot/resource_types.BASE_ATTRIBUTES).
RESERVED_ATTRIBUTES = ('show',)


class _Encoder(object):

    def __init__(self, filename, line, type_name):
        self.filename = filename
        self.line = line
        self.type_name = type_name

    def fail(self, path, message):
        raise PluginSchemaError(message, path=(self.type_name,) + tuple(path), filename=self.filename,
                                line=self.line)

    def mapping(self, value, path):
        if not isinstance(value, dict):
            self.fail(path, 'must be a dict, not %s' % type(value).__name__)
        for key in value:
            if not isinstance(key, str) or not key:
                self.fail(path, 'names must be non-empty strings, not %r' % (key,))
        return value

    def known_keys(self, spec, allowed, path):
        self.mapping(spec, path)
        for key in spec:
            if key not in allowed:
                self.fail(path + (key,), 'unknown key (allowed: %s)' % ', '.join(allowed))

    def flag(self, spec, key, path):
        value = spec.get(key, False)
        if not isinstance(value, bool):
            self.fail(path + (key,), 'must be true or false, not %r' % (value,))
        return value

    # -- properties ------------------------------------------------------------
    def properties(self, schema, path):
        return dict((name, self.prop(spec, path + (name,)))
                    for name, spec in self.mapping(schema, path).items())

    def prop(self, spec, path):
        self.known_keys(spec, PROPERTY_KEYS, path)
        kind = spec.get('type')
        if kind not in PROPERTY_TYPES:
            self.fail(path + ('type',), 'Invalid type (%r): one of %s' % (kind, ', '.join(PROPERTY_TYPES)))
        description = spec.get('description', '')
        if not isinstance(description, str):
            self.fail(path + ('description',), 'must be a string')
        flags = ''.join(code for key, code in _FLAGS if self.flag(spec, key, path))
        constraints = tuple(self.constraint(kind, c, path + ('constraints', i))
                            for i, c in enumerate(self.sequence(spec.get('constraints', []),
                                                                path + ('constraints',))))
        nested = self.nested(kind, spec, path)
        default = spec.get('default')
        if default is not None:
            self.check_default(kind, default, constraints, path + ('default',))
        return (PROPERTY_TYPES[kind], flags, default, constraints, nested)

    def sequence(self, value, path):
        if not isinstance(value, list):
            self.fail(path, 'must be a list, not %s' % type(value).__name__)
        return value

    def nested(self, kind, spec, path):
        if 'schema' not in spec:
            return None
        schema = spec['schema']
        if kind == 'map':
            return self.properties(schema, path + ('schema',))
        if kind == 'list':
            if not isinstance(schema, dict) or list(schema) != ['*']:
                self.fail(path + ('schema',), "a list's schema is {'*': <the schema of every item>}")
            return self.prop(schema['*'], path + ('schema', '*'))
        return self.fail(path + ('schema',), 'Schema valid only for list or map, not %s' % kind)

    def constraint(self, kind, spec, path):
        self.mapping(spec, path)
        keys = [k for k in spec if k != 'description']
        if len(keys) != 1 or keys[0] not in CONSTRAINTS:
            self.fail(path, 'one of %s (and an optional description)' % ', '.join(CONSTRAINTS))
        key = keys[0]
        code, valid_types = CONSTRAINTS[key]
        if kind not in valid_types:
            self.fail(path + (key,), '%s constraint invalid for %s' % (key, kind))
        value = spec[key]
        where = path + (key,)
        if key in ('range', 'length'):
            bounds = self.mapping(value, where)
            if not bounds or set(bounds) - {'min', 'max'}:
                self.fail(where, "needs 'min', 'max' or both, and nothing else")
            for bound in bounds.values():
                if isinstance(bound, bool) or not isinstance(bound, (int, float)):
                    self.fail(where, 'min and max must be numbers, not %r' % (bound,))
            return (code, bounds.get('min'), bounds.get('max'))
        if key == 'modulo':
            terms = self.mapping(value, where)
            if set(terms) != {'step', 'offset'} or not all(
                    isinstance(t, int) and not isinstance(t, bool) for t in terms.values()):
                self.fail(where, "needs the integers 'step' and 'offset'")
            if terms['step'] == 0 or abs(terms['offset']) >= abs(terms['step']):
                self.fail(where, 'step must not be 0 and offset must be smaller than step')
            return (code, terms['step'], terms['offset'])
        if key == 'allowed_values':
            return (code, tuple(self.sequence(value, where)))
        if key == 'allowed_pattern':
            if not isinstance(value, str):
                self.fail(where, 'must be a regular expression string')
            try:
                re.compile(value)
            except re.error as err:
                self.fail(where, 'not a valid regular expression (%s)' % err)
            return (code, value)
        if not hot_constraints.is_known(value):
            self.fail(where, '%r is not a custom constraint Heat knows' % (value,))
        return (code, value)

    def check_default(self, kind, default, constraints, path):
        allowed = _DEFAULT_TYPES.get(kind)
        if allowed is not None and (not isinstance(default, allowed) or
                                    (kind in ('integer', 'number') and isinstance(default, bool))):
            self.fail(path, 'Invalid default %r (not a %s)' % (default, kind))
        for con in constraints:
            if con[0] == 'v' and default not in con[1]:
                self.fail(path, 'Invalid default %r (not one of the allowed values)' % (default,))

    # -- attributes ------------------------------------------------------------
    def attributes(self, schema, path):
        out = {}
        for name, spec in self.mapping(schema, path).items():
            where = path + (name,)
            if name in RESERVED_ATTRIBUTES:
                self.fail(where, 'every type has Heat\'s attribute %s: do not declare it' % name)
            self.known_keys(spec, ATTRIBUTE_KEYS, where)
            kind = spec.get('type')
            if kind is not None and kind not in ATTRIBUTE_TYPES:
                self.fail(where + ('type',), 'Invalid type (%r): one of %s'
                          % (kind, ', '.join(ATTRIBUTE_TYPES)))
            if not isinstance(spec.get('description', ''), str):
                self.fail(where + ('description',), 'must be a string')
            out[name] = (ATTRIBUTE_TYPES.get(kind, ''), '')
        return out


def encode(cls, type_name, filename, line=None):
    """``(entry, update_policy)`` for hot/resource_types.add_type from the
    schemas ``cls`` declares; PluginSchemaError naming the file, the type
    and the entry at fault when one is not valid."""
    enc = _Encoder(filename, line, type_name)
    if not hasattr(cls, 'properties_schema'):
        enc.fail(('properties_schema',), 'the class %s declares no properties_schema (give {} for none)'
                 % cls.__name__)
    props = enc.properties(cls.properties_schema, ('properties_schema',))
    attrs = enc.attributes(getattr(cls, 'attributes_schema', {}), ('attributes_schema',))
    policy = enc.properties(getattr(cls, 'update_policy_schema', {}), ('update_policy_schema',))
    return ('SUPPORTED', None, '', props, attrs), policy


def implicit_rules(cls, type_name, filename, line=None):
    """The plugin's ``implicit_dependencies`` checked: a tuple of
    ``(own property, target type, target property)``, each meaning this
    resource requires every resource of the target type whose target
    property reads the same value as its own (engine/graph/implicit_deps.py)."""
    enc = _Encoder(filename, line, type_name)
    declared = getattr(cls, 'implicit_dependencies', ())
    path = ('implicit_dependencies',)
    if not isinstance(declared, (list, tuple)):
        enc.fail(path, 'must be a tuple of (own property, target type, target property)')
    rules = []
    for i, rule in enumerate(declared):
        if not (isinstance(rule, tuple) and len(rule) == 3 and all(isinstance(r, str) and r for r in rule)):
            enc.fail(path + (i,), 'must be (own property, target type, target property), not %r' % (rule,))
        if rule[0] not in (cls.properties_schema or {}):
            enc.fail(path + (i,), '%s is not a property of the type' % rule[0])
        rules.append(rule)
    return tuple(rules)
