# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Template parameters: declarations, values, constraints, hidden values.

This follows Heat's semantics closely, quirks included, because templates
written for Heat rely on them:

* a declaration's keys depend on the version (``tags`` from 2018-03-02),
  ``schema`` is accepted and ignored, ``hidden``/``immutable``/``label``/
  ``description`` are taken as they are (``hidden: 'false'`` hides);
* a value comes from ``parameters`` (the user's), else from
  ``parameter_defaults``, else from the template's default; ``None`` counts
  as no value; values are read per type as parameter_values.py describes;
* constraints see the value as given for string/number/boolean and the
  parsed value for lists and json; a default is checked against the
  constraints (but not custom ones) even when it is not used.

Hidden values never appear in messages or in ``validate_output()`` (Heat's
validate API does return them; we mask them as Heat does everywhere else).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

from collections.abc import Mapping

from ..errors import ParameterError
from . import constraints as custom
from . import parameter_constraints as pc
from . import parameter_values as pv
from .parameter_values import MASK, show, to_boolean, to_list, to_json, to_number

TYPES = ('string', 'number', 'comma_delimited_list', 'json', 'boolean')
API_TYPES = {'string': 'String', 'number': 'Number',
             'comma_delimited_list': 'CommaDelimitedList', 'json': 'Json',
             'boolean': 'Boolean'}
KEYS = ('type', 'description', 'default', 'schema', 'constraints', 'hidden',
        'label', 'immutable')
TAGS_VERSION = '2018-03-02'
PSEUDO_PARAMETERS = ('OS::stack_id', 'OS::stack_name', 'OS::region', 'OS::project_id')

__all__ = ['ParameterSchema', 'Parameters', 'TYPES', 'PSEUDO_PARAMETERS', 'MASK',
           'to_number', 'to_boolean', 'to_list', 'to_json']


def allowed_keys(version):
    return KEYS + ('tags',) if version >= TAGS_VERSION else KEYS


class ParameterSchema(object):
    """One declared parameter."""

    def __init__(self, name, type, default=None, hidden=False, label=None, *,
                 description=None, immutable=False, tags=None, constraints=(),
                 path=None, doc=None):
        self.name = name
        self.type = type
        self.default = default
        self.hidden = bool(hidden)
        self.label = label
        self.description = description
        self.immutable = bool(immutable)
        self.tags = tags
        self.constraints = list(constraints)
        self.path = tuple(path) if path is not None else ('parameters', name)
        self.doc = doc

    def __repr__(self):
        return 'ParameterSchema(%r, %r)' % (self.name, self.type)

    @property
    def required(self):
        return self.default is None

    def error(self, message, path=None, **details):
        where = self.path + tuple(path or ())
        if self.doc is not None:
            return self.doc.error(ParameterError, message, where, parameter=self.name, **details)
        return ParameterError(message, path=where, parameter=self.name, **details)

    def invalid(self, message, path=None):
        """The error Heat reports as "Parameter 'x' is invalid: ..."."""
        return self.error("Parameter '%s' is invalid: %s" % (self.name, message), path)

    @classmethod
    def from_template(cls, name, raw, version, path=None, doc=None):
        """Read the declaration ``raw`` of parameter ``name`` in a template of
        canonical ``version``; raises ParameterError (with the line when a
        loader Document is given)."""
        path = tuple(path) if path is not None else ('parameters', name)
        probe = cls(name, None, path=path, doc=doc)
        if not isinstance(raw, dict):
            raise probe.error("the declaration of parameter '%s' must be a mapping" % name)
        keys = allowed_keys(version)
        for key in raw:
            if key not in keys:
                extra = (' (tags need heat_template_version 2018-03-02 or later)'
                         if key == 'tags' else '')
                raise probe.error("'%s' is not a valid key of parameter '%s'%s"
                                  % (key, name, extra), (key,))
        if 'type' not in raw:
            raise probe.error("parameter '%s' has no type" % name)
        if not isinstance(raw.get('tags', []), list):
            raise probe.error("the tags of parameter '%s' must be a list" % name, ('tags',))
        try:
            constraints = pc.parse_constraints(raw.get('constraints'), version,
                                               path + ('constraints',))
        except pc.DeclarationError as exc:
            where = exc.path[len(path):]
            raise probe.error("parameter '%s': %s" % (name, exc), where)
        param_type = raw['type']
        if not isinstance(param_type, str) or param_type not in TYPES:
            raise probe.error("parameter '%s' has an invalid type %r; it must be one of %s"
                              % (name, param_type, ', '.join(TYPES)), ('type',))
        return cls(name, param_type, default=raw.get('default'),
                   hidden=raw.get('hidden', False), label=raw.get('label'),
                   description=raw.get('description'),
                   immutable=raw.get('immutable', False), tags=raw.get('tags'),
                   constraints=constraints, path=path, doc=doc)

    def validate(self):
        """Heat's schema check: every constraint suits the type and the
        default (if any) satisfies them, custom constraints aside."""
        for con in self.constraints:
            if not con.applies_to(self.type):
                raise self.invalid('%s cannot be used on a %s parameter'
                                   % (con.name, self.type), con.path[len(self.path):])
        if self.default is None:
            return
        value = self.default
        if self.type == 'comma_delimited_list':
            if isinstance(value, list):
                value = [str(item) for item in value]
            elif isinstance(value, str):
                value = value.split(',')
            else:
                raise self.invalid('the default must be a list or a comma-delimited '
                                   'string, not a value of type %s' % type(value).__name__,
                                   ('default',))
        for con in self.constraints:
            if isinstance(con, pc.CustomConstraint):
                continue
            try:
                con.check(value, self.type, self.hidden)
            except pc.Violation as exc:
                raise self.invalid('the default %s is not valid: %s'
                                   % (show(self.default, self.hidden), exc), ('default',))

    def check_value(self, value, checker=None):
        """Check a value for this parameter (Heat's value validation).
        Returns the names of the custom constraints that could not be
        checked."""
        try:
            loaded = pv.loaded(self.type, value)
        except (ValueError, TypeError) as exc:
            raise self.invalid(pv.conversion_problem(self.type, value, exc, self.hidden))
        skipped = []
        for con in self.constraints:
            try:
                result = con.check(loaded, self.type, self.hidden, checker)
            except pc.Violation as exc:
                raise self.invalid(str(exc), con.path[len(self.path):])
            if result is custom.NOT_CHECKED:
                skipped.append(con.constraint)
        return skipped


class _Entry(object):
    """A parameter of a stack: its schema, the user's value, the
    environment's parameter_defaults value."""

    __slots__ = ('schema', 'user_value', 'user_default', '_typed')

    def __init__(self, schema, user_value=None):
        self.schema = schema
        self.user_value = user_value
        self.user_default = None
        self._typed = None

    def has_default(self):
        return self.schema.default is not None or self.user_default is not None

    def set_value(self, value):
        self.user_value = value
        self._typed = None

    def default(self):
        return self.user_default if self.user_default is not None else self.schema.default

    def has_value(self):
        return self.user_value is not None or self.has_default()

    def raw(self):
        if self.user_value is not None:
            return self.user_value
        if self.has_default():
            return self.default()
        raise self.schema.error('The Parameter (%s) was not provided.' % self.schema.name,
                                kind='missing')

    def typed(self):
        if self._typed is None:
            raw = self.raw()
            try:
                self._typed = (pv.typed_value(self.schema.type, raw),)
            except (ValueError, TypeError) as exc:
                raise self.schema.invalid(pv.conversion_problem(
                    self.schema.type, raw, exc, self.schema.hidden))
        return self._typed[0]


def _pseudo_schemas(pseudo):
    """Heat's pseudo parameters.  Without ``pseudo`` there is no stack (ids
    are empty, no stack name); a stack_id of None is shown as Heat shows it
    before the stack is stored ('None')."""
    pseudo = pseudo or {}

    def text(key, none):
        value = pseudo.get(key)
        return none if value is None else str(value)
    result = [
        ParameterSchema('OS::stack_id', 'string', description='Stack ID',
                        default=text('OS::stack_id', 'None' if 'OS::stack_id' in pseudo else '')),
        ParameterSchema('OS::project_id', 'string', description='Project ID',
                        default=text('OS::project_id', '')),
    ]
    if pseudo.get('OS::stack_name'):
        result.append(ParameterSchema('OS::stack_name', 'string', description='Stack Name',
                                      default=str(pseudo['OS::stack_name'])))
    return result


class Parameters(Mapping):
    """The parameters of a stack: ``params[name]`` is the typed value.

    ``schemas`` maps names to ParameterSchema (template order), ``values``
    are the user's parameters (environment ``parameters`` merged with the
    module's), ``defaults`` the environment's ``parameter_defaults``,
    ``pseudo`` a dict of ``OS::stack_name``/``OS::stack_id``/``OS::project_id``
    and ``checker`` the callable that checks service custom constraints.
    After ``validate()``, ``not_checked`` lists the
    ``{'parameter', 'constraint'}`` pairs that could not be checked.
    """

    def __init__(self, schemas, values=None, defaults=None, pseudo=None,
                 checker=None, *, doc=None):
        self.schemas = dict(schemas)
        self.user_values = dict(values or {})
        self.checker = checker
        self.doc = doc
        self.not_checked = []
        self._entries = {}
        for schema in _pseudo_schemas(pseudo):
            self._entries[schema.name] = _Entry(schema)
        for name, schema in self.schemas.items():
            if schema.doc is None and doc is not None:
                schema.doc = doc
            self._entries[name] = _Entry(schema, self.user_values.get(name))
        for name, value in (defaults or {}).items():
            if name in self._entries:
                self._entries[name].user_default = value

    def __repr__(self):
        return 'Parameters(%s)' % ', '.join(self._entries)

    def __getitem__(self, name):
        try:
            entry = self._entries[name]
        except (KeyError, TypeError):
            raise UnknownParameter("The Parameter (%s) was not defined in template." % (name,),
                                   path=('parameters', name), parameter=name)
        value = entry.typed()
        return copy.deepcopy(value) if isinstance(value, (list, dict)) else value

    def __contains__(self, name):
        try:
            return name in self._entries
        except TypeError:
            return False

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def schema(self, name):
        return self._entries[name].schema

    def has_value(self, name):
        return self._entries[name].has_value()

    def supply(self, name, value):
        """Give parameter ``name`` the value known only now (a nested stack's
        parameter fed by a resource of its parent), checked as Heat checks
        a nested stack's parameters when it is created."""
        entry = self._entries[name]
        if value is not None:
            entry.schema.check_value(value, self.checker)
        entry.set_value(value)

    def validate(self, validate_value=True):
        """Heat's parameter validation: user values must be declared, every
        declaration must be consistent with its default and, when
        ``validate_value``, every parameter needs a value that satisfies
        its type and constraints.  Raises ParameterError."""
        for name in self.user_values:
            if name not in self.schemas:
                raise UnknownParameter(
                    'The Parameter (%s) was not defined in template.' % (name,),
                    path=('parameters', name), parameter=name, kind='undeclared')
        not_checked = []
        for name, entry in self._entries.items():
            entry.schema.validate()
            if not validate_value:
                continue
            for constraint in entry.schema.check_value(entry.raw(), self.checker):
                not_checked.append({'parameter': name, 'constraint': constraint})
        self.not_checked = not_checked

    def hidden_names(self):
        """Names of the parameters whose values must never be shown."""
        return frozenset(n for n, e in self._entries.items() if e.schema.hidden)

    def shown(self):
        """name -> the value as text, '******' for hidden ones (what Heat
        shows as a stack's parameters)."""
        result = {}
        for name, entry in self._entries.items():
            value = entry.typed()
            if entry.schema.hidden:
                result[name] = MASK
            elif entry.schema.type == 'comma_delimited_list':
                result[name] = ','.join(value)
            elif entry.schema.type == 'json':
                result[name] = json.dumps(value)
            else:
                result[name] = str(value)
        return result

    def validate_output(self):
        """The ``Parameters`` of ``openstack orchestration template validate``."""
        return dict((name, self._api_entry(entry)) for name, entry in self._entries.items()
                    if name not in PSEUDO_PARAMETERS)

    @staticmethod
    def _api_entry(entry):
        schema = entry.schema
        out = {'Type': API_TYPES.get(schema.type, schema.type),
               'Description': schema.description or '',
               'NoEcho': 'true' if schema.hidden else 'false',
               'Label': schema.label or schema.name}
        if entry.has_default():
            out['Default'] = MASK if schema.hidden else copy.deepcopy(entry.default())
        if entry.user_value:
            out['Value'] = MASK if schema.hidden else copy.deepcopy(entry.user_value)
        if schema.tags:
            out['Tags'] = list(schema.tags)
        descriptions = []
        for con in schema.constraints:
            out.update(copy.deepcopy(con.api()))
            if con.description:
                descriptions.append(str(con.description))
        if descriptions:
            out['ConstraintDescription'] = ' '.join(descriptions)
        return out

    def immutable_params_modified(self, new_params, input_params):
        """Names of immutable parameters an update would change, or None.
        As in Heat the old typed value is compared with the new raw input
        when the user gave one."""
        changed = []
        for name in new_params.schemas:
            if name not in self.schemas or name in PSEUDO_PARAMETERS:
                continue
            new = input_params[name] if name in input_params else new_params[name]
            if new_params.schema(name).immutable and self[name] != new:
                changed.append(name)
        return changed or None


class UnknownParameter(ParameterError, KeyError):
    """A parameter name that is not declared (also a KeyError, so Mapping
    methods such as ``get`` behave)."""

    def __str__(self):
        return ParameterError.__str__(self)
