# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``yaql: {expression: ..., data: ...}``, evaluated with the yaql library
configured as Heat configures it (its default ``[yaql]`` limits)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# Importing collections.abc (done here) must precede importing yaql 3 on
# Python 3.11; yaql itself is imported lazily by _yaql().
from collections.abc import Mapping

from ...errors import ResourceLimitExceeded, StackersError
from .. import limits
from .base import Function, resolve
from .yaql_bounds import Exhausted, bounded_context

# heat.conf [yaql] defaults (hot/limits.py holds them; a stack's own limits win).
LIMIT_ITERATORS = limits.DEFAULT.yaql_limit_iterators
MEMORY_QUOTA = limits.DEFAULT.yaql_memory_quota

_engine = {}


def _yaql(limit_iterators=LIMIT_ITERATORS, memory_quota=MEMORY_QUOTA):
    """The parser (one per pair of limits) and root context, built once
    (building them takes a while, and a template without yaql should not
    pay for it)."""
    if not _engine:
        import yaql
        from yaql.language import exceptions
        _engine['yaql'] = yaql
        _engine['context'] = yaql.create_context()
        _engine['exceptions'] = exceptions
    key = ('parser', limit_iterators, memory_quota)
    if key not in _engine:
        _engine[key] = _engine['yaql'].YaqlFactory().create({
            'yaql.limitIterators': limit_iterators,
            'yaql.memoryQuota': memory_quota,
        })
    _engine['parser'] = _engine[key]
    return _engine


def _context(budget):
    """The context expressions run in, its generators bounded (yaql_bounds)."""
    engine = _yaql()
    key = ('context', budget)
    if key not in engine:
        engine[key] = bounded_context(engine['context'], budget)
    return engine[key]


class Yaql(Function):
    """Evaluate a yaql expression on ``data`` (reachable as ``$.data``)."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Yaql, self).__init__(stack, fn_name, args, path)
        if not isinstance(args, Mapping):
            raise self.error('The arguments of "%s" must be a map' % fn_name)
        if 'expression' not in args or set(args) - set(('expression', 'data')):
            raise self.error('"%s" takes "expression" (a yaql string) and optionally "data", '
                             'e.g. {expression: "$.data.var1.sum()", data: {var1: [3, 2, 1]}}'
                             % fn_name)

    def _parse(self, expression):
        if not isinstance(expression, str):
            raise self.error('The "expression" of "%s" must be a string' % self.fn_name)
        own = limits.of(self.stack)
        engine = _yaql(own.yaql_limit_iterators, own.yaql_memory_quota)
        parser = engine[('parser', own.yaql_limit_iterators, own.yaql_memory_quota)]
        try:
            return parser(expression)
        except engine['exceptions'].YaqlException as exc:
            raise self.error('Bad yaql expression: %s' % exc)

    has_check = True

    def check(self):
        expression = self.args['expression']
        if not isinstance(expression, Function):
            self._parse(expression)

    def result(self):
        statement = self._parse(resolve(self.args['expression']))
        data = resolve(self.args.get('data', {}))
        context = _context(limits.of(self.stack).max_items).create_child_context()
        try:
            return statement.evaluate({'data': data}, context)
        except StackersError:
            raise
        except Exhausted as exc:
            raise self.error('yaql: "%s" went past %d items, the most a value may hold '
                             '(max_json_body_size / 2)' % (exc.function, exc.budget),
                             cls=ResourceLimitExceeded)
        except MemoryError:
            raise self.error('The yaql expression exceeded its memory quota (%d)'
                             % limits.of(self.stack).yaql_memory_quota)
        except Exception as exc:  # yaql raises many kinds; all mean a bad expression/data
            raise self.error('yaql evaluation failed: %s: %s' % (type(exc).__name__, exc))
