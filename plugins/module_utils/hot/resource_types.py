# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The catalogue of resource types Heat knows, with their schemas as data.

The facts come from Heat's own resource classes through
tools/gen_resource_types.py, which writes resource_types_data.py.  That file
is kept compact because it ships with every module; this module decodes an
entry only when somebody asks for that type.

``resource_types_data.DATA`` is a JSON text (``json.loads`` costs a module
far less than compiling the same data as Python literals, which every task
does on its target: AnsiballZ ships sources, not .pyc files) holding
``TYPES`` and ``UPDATE_POLICIES``.  JSON has no tuples: the generator writes
a tuple as an array and a list as ``{"__list__": [...]}``; ``_thaw`` turns
an entry back when its type is first asked for, so the tuples below are
tuples again.

Encoding of ``TYPES`` (``name: entry``):

* entry = ``(status, version, flags, properties, attributes)``; ``status`` is
  Heat's support status (SUPPORTED, HIDDEN, DEPRECATED, UNSUPPORTED,
  UNKNOWN), ``version`` the Heat release of that status (or None);
  ``flags`` letters: ``n`` the class is Heat's NoneResource (accepts any
  property, does nothing), ``g`` it manages a nested stack, ``a`` it
  overrides attribute lookup (any attribute name resolves).
* a property is either a bare type code (an optional property with nothing
  else) or ``(code, flags, default, constraints, nested, status)`` with the
  trailing empty fields left out.  Type codes: ``s`` String, ``i`` Integer,
  ``n`` Number, ``b`` Boolean, ``m`` Map, ``l`` List, ``a`` Any.  Flags:
  ``r`` required, ``u`` update_allowed, ``m`` immutable, ``x`` not
  implemented, ``c`` allow_conversion.  ``nested`` is a dict of properties
  for a Map, or the item property for a List.  ``status`` is one of
  ``H`` hidden, ``D`` deprecated, ``U`` unsupported, ``?`` unknown.
* a constraint is ``('r', min, max)`` range, ``('l', min, max)`` length,
  ``('o', step, offset)`` modulo, ``('v', values)`` allowed values,
  ``('p', regex)`` allowed pattern, ``('c', name)`` custom constraint.
* an attribute is a type code (``''`` when Heat declares none) or
  ``(code, status)``.  Every type also has Heat's base attribute ``show``.
* an optional sixth field lists the property moves of the type's
  translation rules: ``(target_path, source_path)`` when an old property's
  value is moved to a new one (the old one is then not validated itself),
  ``(path, None)`` when a property is dropped.  Paths skip list indexes.

``UPDATE_POLICIES`` maps the types whose class declares
an update_policy schema to it (``{key: property}``, encoded as properties
are); every other type accepts no update_policy key at all.

Users' resource plugins (resources/plugin_loader.py) add their types at run
time with ``add_type``, in the same encoding (tuples, as ``_thaw`` gives
them): from then on ``is_known``, ``heat_type`` and ``type_names`` answer
for them as for Heat's own.  ``is_builtin`` tells Heat's types apart.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ..errors import UnknownResourceType
from . import resource_types_data

SUPPORT_STATUSES = (SUPPORTED, HIDDEN, DEPRECATED, UNSUPPORTED, UNKNOWN) = (
    'SUPPORTED', 'HIDDEN', 'DEPRECATED', 'UNSUPPORTED', 'UNKNOWN')

PROPERTY_TYPES = (STRING, INTEGER, NUMBER, BOOLEAN, MAP, LIST, ANY) = (
    'String', 'Integer', 'Number', 'Boolean', 'Map', 'List', 'Any')

HEAT_VERSION = resource_types_data.HEAT_VERSION
_DATA = json.loads(resource_types_data.DATA)
# name -> entry as JSON loaded it (``_thaw`` it before use)
TYPES = _DATA['TYPES']
_UPDATE_POLICIES = _DATA['UPDATE_POLICIES']
_LIST_KEY = '__list__'


def _thaw(value):
    """A value as the generator had it: arrays back to tuples, marked lists
    back to lists."""
    if isinstance(value, list):
        return tuple(_thaw(v) for v in value)
    if isinstance(value, dict):
        if len(value) == 1 and _LIST_KEY in value:
            return [_thaw(v) for v in value[_LIST_KEY]]
        return dict((k, _thaw(v)) for k, v in value.items())
    return value


_TYPE_CODES = {'s': STRING, 'i': INTEGER, 'n': NUMBER, 'b': BOOLEAN, 'm': MAP,
               'l': LIST, 'a': ANY, '': None}
_STATUS_CODES = {'': SUPPORTED, 'H': HIDDEN, 'D': DEPRECATED, 'U': UNSUPPORTED,
                 '?': UNKNOWN}
_CONSTRAINT_KINDS = {'r': 'range', 'l': 'length', 'o': 'modulo', 'v': 'allowed_values',
                     'p': 'allowed_pattern', 'c': 'custom_constraint'}

# Heat adds this attribute to every resource (Resource.base_attributes_schema).
BASE_ATTRIBUTES = {'show': MAP}


class Constraint(object):
    """One property constraint: ``kind`` plus the fields of that kind
    (range/length: ``min``, ``max``; modulo: ``step``, ``offset``;
    allowed_values: ``values``; allowed_pattern: ``pattern``;
    custom_constraint: ``name``)."""

    __slots__ = ('kind', 'min', 'max', 'step', 'offset', 'values', 'pattern', 'name')

    def __init__(self, raw):
        self.kind = _CONSTRAINT_KINDS[raw[0]]
        self.min = self.max = self.step = self.offset = None
        self.values = self.pattern = self.name = None
        if raw[0] in ('r', 'l'):
            self.min, self.max = raw[1], raw[2]
        elif raw[0] == 'o':
            self.step, self.offset = raw[1], raw[2]
        elif raw[0] == 'v':
            self.values = tuple(raw[1])
        elif raw[0] == 'p':
            self.pattern = raw[1]
        else:
            self.name = raw[1]

    def __repr__(self):
        fields = ', '.join('%s=%r' % (k, getattr(self, k)) for k in self.__slots__[1:]
                           if getattr(self, k) is not None)
        return 'Constraint(%s%s)' % (self.kind, ', ' + fields if fields else '')


class PropertySchema(object):
    """A resource property's schema, as Heat declares it.

    ``schema`` is None, a dict name -> PropertySchema (Map) or the
    PropertySchema of every item (List)."""

    __slots__ = ('type', 'required', 'default', 'update_allowed', 'immutable',
                 'implemented', 'allow_conversion', 'constraints', 'schema', 'status')

    def __init__(self, raw):
        if isinstance(raw, str):
            raw = (raw,)
        fields = tuple(raw) + (None,) * (6 - len(raw))
        code, flags, default, constraints, nested, status = fields
        flags = flags or ''
        self.type = _TYPE_CODES[code]
        self.required = 'r' in flags
        self.update_allowed = 'u' in flags
        self.immutable = 'm' in flags
        self.implemented = 'x' not in flags
        self.allow_conversion = 'c' in flags
        self.default = default
        self.constraints = tuple(Constraint(c) for c in constraints or ())
        if nested is None:
            self.schema = None
        elif isinstance(nested, dict):
            self.schema = dict((k, PropertySchema(v)) for k, v in nested.items())
        else:
            self.schema = PropertySchema(nested)
        self.status = _STATUS_CODES[status or '']

    def constraint(self, kind):
        """The first constraint of ``kind``, or None."""
        for con in self.constraints:
            if con.kind == kind:
                return con
        return None

    @property
    def custom_constraints(self):
        return tuple(c.name for c in self.constraints if c.kind == 'custom_constraint')

    def __repr__(self):
        return 'PropertySchema(%s%s)' % (self.type, ', required' if self.required else '')


class AttributeSchema(object):
    """An attribute's declared type (Heat's attribute types, or None) and status."""

    __slots__ = ('type', 'status')

    def __init__(self, raw):
        if isinstance(raw, str):
            raw = (raw, '')
        self.type = _TYPE_CODES[raw[0]]
        self.status = _STATUS_CODES[raw[1]]

    def __repr__(self):
        return 'AttributeSchema(%s, %s)' % (self.type, self.status)


class HeatType(object):
    """What Heat knows about one resource type."""

    def __init__(self, name, raw):
        status, version, flags, props, attrs = raw[:5]
        self.translations = tuple(raw[5]) if len(raw) > 5 else ()
        self.name = name
        self.status = status
        self.version = version
        self.is_none = 'n' in flags
        self.is_nested = 'g' in flags
        self.any_attribute = 'a' in flags
        self._raw_props = props
        self._raw_attrs = attrs
        self._props = None
        self._attrs = None
        self._policy = None

    @property
    def properties(self):
        """name -> PropertySchema."""
        if self._props is None:
            self._props = dict((k, PropertySchema(v)) for k, v in self._raw_props.items())
        return self._props

    @property
    def update_policy(self):
        """key -> PropertySchema of the ``update_policy`` section ({} for
        the types that accept none)."""
        if self._policy is None:
            raw = _ADDED_POLICIES[self.name] if self.name in _ADDED else \
                _thaw(_UPDATE_POLICIES.get(self.name, {}))
            self._policy = dict((k, PropertySchema(v)) for k, v in raw.items())
        return self._policy

    @property
    def attributes(self):
        """name -> AttributeSchema, Heat's base ``show`` included."""
        if self._attrs is None:
            attrs = dict((k, AttributeSchema(v)) for k, v in self._raw_attrs.items())
            for name, typ in BASE_ATTRIBUTES.items():
                attrs.setdefault(name, AttributeSchema(('m', '')))
            self._attrs = attrs
        return self._attrs

    @property
    def hidden(self):
        return self.status == HIDDEN

    @property
    def supported(self):
        return self.status == SUPPORTED

    def required_properties(self):
        return sorted(k for k, v in self.properties.items() if v.required)

    def update_allowed_properties(self):
        return sorted(k for k, v in self.properties.items() if v.update_allowed)

    def has_attribute(self, name):
        """Whether ``get_attr`` on this type may name ``name`` (Heat checks
        the declared schema unless the class resolves attributes itself)."""
        return self.any_attribute or name in self.attributes

    def __repr__(self):
        return 'HeatType(%s, %s)' % (self.name, self.status)


_CACHE = {}
# The types users' plugins added (add_type): name -> entry, and their
# update_policy schemas (name -> {key: property}), both already thawed.
_ADDED = {}
_ADDED_POLICIES = {}


def is_builtin(name):
    """Whether ``name`` is one of Heat's own types (not a user's plugin)."""
    return isinstance(name, str) and name in TYPES


def is_known(name):
    """Whether Heat has a resource plugin registered under ``name`` (a
    user's plugin added by ``add_type`` included)."""
    return isinstance(name, str) and (name in TYPES or name in _ADDED)


def heat_type(name):
    """The :class:`HeatType` of ``name``; UnknownResourceType if Heat has no
    plugin of that name (aliases and templates are the registry's business)."""
    found = _CACHE.get(name) if isinstance(name, str) else None
    if found is None:
        if not is_known(name):
            raise UnknownResourceType('The Resource Type (%s) could not be found.' % (name,))
        raw = _ADDED[name] if name in _ADDED else _thaw(TYPES[name])
        found = _CACHE[name] = HeatType(name, raw)
    return found


def add_type(name, entry, update_policy=None):
    """Make a user's plugin type known: ``entry`` and ``update_policy``
    encoded as ``TYPES`` and ``UPDATE_POLICIES`` entries are once thawed.
    Heat's own types are never replaced: the loader refuses the clash."""
    _ADDED[name] = entry
    _ADDED_POLICIES[name] = dict(update_policy or {})
    _CACHE.pop(name, None)


def remove_type(name):
    """Forget a type ``add_type`` added (a plugin loaded again, tests)."""
    if name in _ADDED:
        del _ADDED[name]
        del _ADDED_POLICIES[name]
        _CACHE.pop(name, None)


def type_names(statuses=None):
    """Sorted names of every known type, or of those whose status is in
    ``statuses`` (Heat's type list omits HIDDEN ones); users' plugin types
    included."""
    entries = list(TYPES.items()) + list(_ADDED.items())
    return sorted(n for n, raw in entries if statuses is None or raw[0] in statuses)
