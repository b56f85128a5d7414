# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parameter values: how Heat reads each parameter type, and how a value may
be quoted in a message (never, when the parameter is hidden).

string -> ``str()``; number -> the number itself, else ``int()`` else
``float()`` of the text; boolean -> oslo's strict spellings (``1/t/true/on/
y/yes``, ``0/f/false/off/n/no``, any case, surrounding blanks ignored);
comma_delimited_list -> a list as is (items made text) or the text split on
commas (no trimming, ``''`` is ``[]``); json -> data through a JSON round
trip, or the text parsed (``''`` stays ``''``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import numbers

MASK = '******'
_TRUE = ('1', 't', 'true', 'on', 'y', 'yes')
_FALSE = ('0', 'f', 'false', 'off', 'n', 'no')


def to_number(value):
    """Heat's reading of a number: numbers as they are, else int, else float.
    Raises ValueError or TypeError like int()/float() do."""
    if isinstance(value, numbers.Number):
        return value
    try:
        return int(value)
    except ValueError:
        return float(value)


def to_boolean(value):
    """Heat's (oslo's strict) reading of a boolean."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError("'%s' is not a boolean; use one of %s"
                     % (value, ', '.join(sorted(_TRUE + _FALSE))))


def show(value, hidden, as_json=False):
    """A value as a message may quote it: masked when it is hidden."""
    if hidden:
        return MASK
    return json_text(value) if as_json else '%s' % (value,)


def json_text(value):
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def to_list(value):
    """A comma_delimited_list value as Heat reads it."""
    if isinstance(value, list):
        return [str(item) for item in value]
    if isinstance(value, str):
        return value.split(',') if value else []
    raise ValueError('a comma_delimited_list takes a list or a comma-delimited '
                     'string, not a value of type %s' % type(value).__name__)


def to_json(value):
    """A json value as Heat reads it (a JSON round trip for data)."""
    text = value
    try:
        if not isinstance(text, str):
            text = json.dumps(text)
        if text:
            return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise ValueError('the value is not valid JSON: %s' % exc)
    return value


def loaded(param_type, value):
    """What the constraints of a ``param_type`` parameter look at; raises
    ValueError/TypeError when the value cannot be read as that type."""
    if param_type == 'number':
        to_number(value)
    elif param_type == 'boolean':
        to_boolean(value)
    elif param_type == 'comma_delimited_list':
        return to_list(value)
    elif param_type == 'json':
        return to_json(value)
    return value


def typed_value(param_type, value):
    """The value as ``get_param`` gives it."""
    if param_type == 'string':
        return str(value)
    if param_type == 'number':
        return to_number(value)
    if param_type == 'boolean':
        return to_boolean(str(value))
    return loaded(param_type, value)


def conversion_problem(param_type, value, exc, hidden):
    if param_type == 'number':
        return '%s is not a number' % show(value, hidden, as_json=True)
    if param_type == 'boolean' and hidden:
        return '%s is not a boolean' % MASK
    return str(exc)
