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

from ...errors import StackersError
from .base import Function, resolve

# heat.conf [yaql] defaults.
LIMIT_ITERATORS = 200
MEMORY_QUOTA = 10000

_engine = {}


def _yaql():
    """The parser and root context, built once (building them takes a while,
    and a template without yaql should not pay for it)."""
    if not _engine:
        import yaql
        from yaql.language import exceptions
        _engine['parser'] = yaql.YaqlFactory().create({
            'yaql.limitIterators': LIMIT_ITERATORS,
            'yaql.memoryQuota': MEMORY_QUOTA,
        })
        _engine['context'] = yaql.create_context()
        _engine['exceptions'] = exceptions
    return _engine


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
        engine = _yaql()
        try:
            return engine['parser'](expression)
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
        context = _yaql()['context'].create_child_context()
        try:
            return statement.evaluate({'data': data}, context)
        except StackersError:
            raise
        except MemoryError:
            raise self.error('The yaql expression exceeded its memory quota (%d)'
                             % MEMORY_QUOTA)
        except Exception as exc:  # yaql raises many kinds; all mean a bad expression/data
            raise self.error('yaql evaluation failed: %s: %s' % (type(exc).__name__, exc))
