# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How Heat merges the parameters of several environment files.

Each parameter gets a strategy the first time a file sets it: the file's own
``parameter_merge_strategies`` entry for it, else its ``default``, else
``overwrite``; a later file naming another strategy for it is an error.
``merge`` concatenates strings and lists, updates json maps and adds
numbers; ``deep_merge`` merges json maps recursively (strings inside are
concatenated, lists extended).  Unknown strategy names fall back to the
file's default.  Heat's quirks are kept on purpose: the first non-empty file
is taken whole (even keys the template does not know), later ones only for
known parameters; a number given as a number cannot be merged, and a
boolean can never be.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ..errors import StackersError

STRATEGIES = (OVERWRITE, MERGE, DEEP_MERGE) = ('overwrite', 'merge', 'deep_merge')
DEFAULT = 'default'

# HOT parameter types and Heat's internal names for them.
_TYPES = {
    'string': 'string', 'String': 'string',
    'number': 'number', 'Number': 'number',
    'comma_delimited_list': 'list', 'CommaDelimitedList': 'list', 'list': 'list',
    'json': 'json', 'Json': 'json', 'map': 'json',
    'boolean': 'boolean', 'Boolean': 'boolean',
}


class MergeError(StackersError):
    """A parameter cannot be merged; ``details['param']`` names it."""


def param_strategy(strategies, key, available):
    """The strategy a file gives ``key`` (Heat's get_param_merge_strategy)."""
    if strategies is None:
        return OVERWRITE
    default = strategies.get(DEFAULT, OVERWRITE)
    strategy = strategies.get(key, available.get(key, default))
    return strategy if strategy in STRATEGIES else default


def _type_of(key, value, param_types):
    if param_types is None:
        if isinstance(value, bool):
            return 'boolean'
        if isinstance(value, dict):
            return 'json'
        if isinstance(value, list):
            return 'list'
        if isinstance(value, (int, float)):
            return 'number'
        return 'string'
    declared = param_types[key]
    declared = getattr(declared, 'type', declared)
    return _TYPES.get(declared, declared)


def merge_list(old, new):
    if not old:
        return new
    if isinstance(new, list):
        old.extend(new)
        return old
    return ','.join([old, new])


def merge_map(old, new, deep=False):
    if not old:
        return new
    for key, value in new.items():
        if value is None:
            continue
        if not deep:
            old[key] = value
        elif isinstance(value, dict):
            old[key] = merge_map(old.get(key), value, deep) if old.get(key) else value
        elif isinstance(value, (list, tuple)):
            old[key] = merge_list(old.get(key), value) if old.get(key) else value
        elif isinstance(value, str):
            old[key] = ''.join([old.get(key, ''), value])
        else:
            old[key] = value
    return old


def _parse(key, value, ptype):
    if ptype == 'json':
        if not isinstance(value, str):
            value = json.dumps(value)
        if value:
            try:
                return json.loads(value)
            except ValueError as exc:
                raise MergeError('Invalid parameter in environment %s.' % exc, param=key)
    elif not isinstance(value, (str, list, tuple)):
        raise MergeError('Invalid parameter in environment: "%s" cannot be merged from a %s'
                         % (key, type(value).__name__), param=key)
    return value


def _merge_one(old, key, value, ptype, deep):
    value = _parse(key, value, ptype)
    try:
        if ptype == 'json':
            old[key] = merge_map(old.get(key, {}), value, deep)
        elif ptype == 'list':
            old[key] = merge_list(old.get(key), value)
        elif ptype == 'string':
            old[key] = ''.join([old.get(key, ''), value])
        elif ptype == 'number':
            old[key] = old.get(key, 0) + value
        else:
            raise MergeError("Invalid merge strategy '%s' for parameter '%s'." % (MERGE, key), param=key)
    except (TypeError, AttributeError, ValueError) as exc:
        # Heat itself fails with an internal error here.
        raise MergeError('Parameter "%s" cannot be merged with its earlier value: %s' % (key, exc),
                         param=key)


def merge_parameters(old, new, param_types, strategies, available, *, env_file):
    """Merge one file's ``parameters`` or ``parameter_defaults`` (``new``)
    into ``old``; ``available`` carries the strategies chosen so far and is
    updated.  Returns the merged mapping."""
    def known(key):
        return param_types is None or key in param_types

    for key, value in new.items():
        if known(key) and value is not None:
            strategy = param_strategy(strategies, key, available)
            if key not in available:
                available[key] = strategy
            elif strategy != available[key]:
                raise MergeError("Conflicting merge strategy '%s' for parameter '%s' in file '%s'."
                                 % (strategy, key, env_file), param=key, conflict=True)
    if not old:
        return new
    for key, value in new.items():
        if known(key) and value is not None:
            strategy = available[key]
            if strategy in (MERGE, DEEP_MERGE):
                _merge_one(old, key, value, _type_of(key, value, param_types), strategy == DEEP_MERGE)
            else:
                old[key] = value
    return old
