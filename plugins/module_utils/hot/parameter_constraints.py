# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``constraints`` of a HOT parameter: length, range, modulo,
allowed_values, allowed_pattern and custom_constraint.

A declaration is read as Heat reads it: one kind per entry, the first of
modulo (only from 2017-02-24), range, length, allowed_values,
allowed_pattern, custom_constraint wins when several are given, bounds may
be numbers or numeric strings.  Which kinds suit which parameter type is
checked later, with the default value (``applies_to``), as Heat does.  A
constraint's ``description`` replaces the default message when the value
is refused.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from . import constraints as custom
from .parameter_values import MASK, json_text, show, to_boolean, to_number

MODULO_VERSION = '2017-02-24'
CONSTRAINT_KEYS = ('description', 'length', 'range', 'modulo', 'allowed_values',
                   'allowed_pattern', 'custom_constraint')


class DeclarationError(Exception):
    """A constraint declaration is invalid; ``path`` is relative to it."""

    def __init__(self, message, path=()):
        super(DeclarationError, self).__init__(message)
        self.path = tuple(path)


class Violation(Exception):
    """A value breaks a constraint (the message is ready for the user)."""


def _bounds_text(low, high):
    if high is None:
        return 'at least %s' % (low,)
    if low is None:
        return 'at most %s' % (high,)
    return 'between %s and %s' % (low, high)


class ParamConstraint(object):
    key = None
    types = ()
    name = None   # how messages call it

    def __init__(self, description=None, path=()):
        self.description = description
        self.path = tuple(path)

    def applies_to(self, param_type):
        return param_type in self.types

    def check(self, value, param_type, hidden=False, checker=None):
        """Raise Violation if ``value`` breaks the constraint; messages never
        quote a hidden value."""
        try:
            problem = self._problem(value, param_type, hidden)
        except _Unreadable as exc:
            # Not a refusal by the constraint: its description does not apply.
            raise Violation(exc.describe(hidden))
        except ValueError:
            raise Violation('%s cannot be read as a number'
                            % show(value, hidden, as_json=True))
        except TypeError:
            raise Violation('%s cannot be checked on a value of type %s' % (
                self.name, type(value).__name__))
        if problem is not None:
            raise Violation(str(self.description) if self.description else problem)
        return custom.CHECKED

    def api(self):
        """(key, value) pairs for the validate API's parameter entry."""
        return ()


class _Bounded(ParamConstraint):
    low_key, high_key = 'min', 'max'

    def __init__(self, low, high, description=None, path=()):
        super(_Bounded, self).__init__(description, path)
        self.min = low
        self.max = high

    def _out(self, number):
        return ((self.min is not None and number < self.min)
                or (self.max is not None and number > self.max))


class Range(_Bounded):
    key = 'range'
    types = ('number',)
    name = 'a range constraint'

    def _problem(self, value, param_type, hidden):
        if self._out(to_number(value)):
            return '%s is out of range: it must be %s' % (
                show(value, hidden), _bounds_text(self.min, self.max))
        return None

    def api(self):
        return [(k, v) for k, v in (('MinValue', self.min), ('MaxValue', self.max))
                if v is not None]


class Length(_Bounded):
    key = 'length'
    types = ('string', 'comma_delimited_list', 'json')
    name = 'a length constraint'

    def _problem(self, value, param_type, hidden):
        if self._out(len(value)):
            return 'length %d is out of range: it must be %s' % (
                len(value), _bounds_text(self.min, self.max))
        return None

    def api(self):
        return [(k, v) for k, v in (('MinLength', self.min), ('MaxLength', self.max))
                if v is not None]


class Modulo(ParamConstraint):
    key = 'modulo'
    types = ('number',)
    name = 'a modulo constraint'

    def __init__(self, step, offset, description=None, path=()):
        super(Modulo, self).__init__(description, path)
        self.step = step
        self.offset = offset

    def _problem(self, value, param_type, hidden):
        if to_number(value) % self.step != self.offset:
            return '%s is not a multiple of %s with an offset of %s' % (
                show(value, hidden), self.step, self.offset)
        return None

    def api(self):
        return [('Step', self.step), ('Offset', self.offset)]


class AllowedValues(ParamConstraint):
    key = 'allowed_values'
    types = ('string', 'number', 'boolean', 'comma_delimited_list')
    name = 'an allowed_values constraint'

    def __init__(self, allowed, description=None, path=()):
        super(AllowedValues, self).__init__(description, path)
        self.allowed = list(allowed)

    def _problem(self, value, param_type, hidden):
        if isinstance(value, list):
            # list items are compared as they are, without conversion
            ok = all(item in self.allowed for item in value)
        else:
            convert = _AS_TYPE.get(param_type, _same)
            allowed = [_read(convert, a, param_type, False) for a in self.allowed]
            ok = _read(convert, value, param_type, True) in allowed
        if ok:
            return None
        return '%s is not one of the allowed values [%s]' % (
            show(value, hidden, as_json=True), ', '.join(json_text(a) for a in self.allowed))

    def api(self):
        return [('AllowedValues', list(self.allowed))]


class AllowedPattern(ParamConstraint):
    key = 'allowed_pattern'
    types = ('string',)
    name = 'an allowed_pattern constraint'

    def __init__(self, pattern, description=None, path=()):
        super(AllowedPattern, self).__init__(description, path)
        self.pattern = pattern
        self._match = re.compile(pattern).match

    def _problem(self, value, param_type, hidden):
        found = self._match(value)
        if found is not None and found.end() == len(value):
            return None
        return '"%s" does not match the allowed pattern "%s"' % (
            show(value, hidden), self.pattern)

    def api(self):
        return [('AllowedPattern', self.pattern)]


class CustomConstraint(ParamConstraint):
    key = 'custom_constraint'
    types = ('string', 'number', 'boolean', 'comma_delimited_list')
    name = 'a custom_constraint'

    def __init__(self, constraint, description=None, path=()):
        super(CustomConstraint, self).__init__(description, path)
        self.constraint = constraint

    def check(self, value, param_type, hidden=False, checker=None):
        try:
            return custom.check_custom_constraint(self.constraint, value, checker)
        except custom.ConstraintViolation as exc:
            if self.description:
                raise Violation(str(self.description))
            if not hidden:
                raise Violation(exc.message)
            # the reason may quote the value: leave it out
            raise Violation('%s is not a valid %s' % (MASK, self.constraint))

    def api(self):
        return [('CustomConstraint', self.constraint)]


def _same(value):
    return value


_AS_TYPE = {'string': str, 'number': to_number, 'boolean': to_boolean}


class _Unreadable(Exception):
    """An allowed value or the value cannot be read as the parameter type."""

    def __init__(self, value, param_type, is_value):
        super(_Unreadable, self).__init__(value)
        self.value, self.param_type, self.is_value = value, param_type, is_value

    def describe(self, hidden):
        return '%s is not a valid %s' % (
            show(self.value, hidden and self.is_value, as_json=True), self.param_type)


def _read(convert, value, param_type, is_value):
    try:
        return convert(value)
    except ValueError:
        raise _Unreadable(value, param_type, is_value)


# --- declarations ----------------------------------------------------------

def _mapping(raw, allowed, what, path):
    if not isinstance(raw, dict):
        raise DeclarationError('%s must be a mapping' % what, path)
    for key in raw:
        if key not in allowed:
            raise DeclarationError("'%s' is not a valid key of %s" % (key, what),
                                   path + (key,))


def _number(raw, key, path):
    value = raw.get(key)
    if value is None:
        return None
    try:
        return to_number(value)
    except (TypeError, ValueError):
        raise DeclarationError('%s must be a number, not %r' % (key, value), path + (key,))


def _range(raw, desc, path):
    _mapping(raw, ('min', 'max'), 'a range constraint', path)
    low, high = _number(raw, 'min', path), _number(raw, 'max', path)
    if low is None and high is None:
        raise DeclarationError('a range constraint needs a min, a max or both', path)
    return Range(low, high, desc)


def _length(raw, desc, path):
    _mapping(raw, ('min', 'max'), 'a length constraint', path)
    low, high = _number(raw, 'min', path), _number(raw, 'max', path)
    if low is None and high is None:
        raise DeclarationError('a length constraint needs a min, a max or both', path)
    for key, bound in (('min', low), ('max', high)):
        if bound is not None and not isinstance(bound, int):
            raise DeclarationError('length %s must be an integer' % key, path + (key,))
    return Length(low, high, desc)


def _modulo(raw, desc, path):
    _mapping(raw, ('step', 'offset'), 'a modulo constraint', path)
    step, offset = _number(raw, 'step', path), _number(raw, 'offset', path)
    if step is None or offset is None:
        raise DeclarationError('a modulo constraint needs both a step and an offset', path)
    for key, number in (('step', step), ('offset', offset)):
        try:
            whole = int(number) == number
        except (ValueError, OverflowError):
            whole = False
        if not whole:
            raise DeclarationError('modulo %s must be an integer' % key, path + (key,))
    if int(step) == 0:
        raise DeclarationError('modulo step cannot be 0', path + ('step',))
    if abs(int(offset)) >= abs(int(step)):
        raise DeclarationError('modulo offset must be smaller than the step '
                               '(in absolute value)', path + ('offset',))
    if int(step) * int(offset) < 0:
        raise DeclarationError('modulo step and offset must have the same sign', path)
    return Modulo(step, offset, desc)


def _allowed_values(raw, desc, path):
    if not isinstance(raw, list):
        raise DeclarationError('allowed_values must be a list', path)
    return AllowedValues(raw, desc)


def _allowed_pattern(raw, desc, path):
    if not isinstance(raw, str):
        raise DeclarationError('allowed_pattern must be a string', path)
    try:
        return AllowedPattern(raw, desc)
    except re.error as exc:
        raise DeclarationError('allowed_pattern is not a valid regular '
                               'expression: %s' % exc, path)


def _custom(raw, desc, path):
    # Heat does not check the name here: an unknown one fails each value.
    return CustomConstraint(raw, desc)


_BUILDERS = (('modulo', _modulo), ('range', _range), ('length', _length),
             ('allowed_values', _allowed_values), ('allowed_pattern', _allowed_pattern),
             ('custom_constraint', _custom))


def parse_constraints(raw, version, path):
    """The constraint objects of a parameter's ``constraints`` value.
    ``path`` is the path of that value; raises DeclarationError."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise DeclarationError('constraints must be a list', path)
    result = []
    for index, entry in enumerate(raw):
        where = tuple(path) + (index,)
        _mapping(entry, CONSTRAINT_KEYS, 'a parameter constraint', where)
        for key, build in _BUILDERS:
            # Before 2017-02-24 a modulo key is accepted but means nothing.
            if key == 'modulo' and version < MODULO_VERSION:
                continue
            if key in entry:
                made = build(entry[key], entry.get('description'), where + (key,))
                made.path = where
                result.append(made)
                break
        else:
            raise DeclarationError('the constraint expresses nothing (no %s)'
                                   % ', '.join(CONSTRAINT_KEYS[1:]), where)
    return result
