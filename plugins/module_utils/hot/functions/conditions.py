# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Condition functions (``equals``, ``not``, ``and``, ``or``) and ``if``.

A condition argument is a boolean, a condition function, or the *name* of
a condition of the ``conditions`` section; names are looked up through the
stack's ``conditions.value``, which also detects circular definitions.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Sequence

from .base import Function, Macro, resolve


def _is_list(value):
    return isinstance(value, Sequence) and not isinstance(value, str)


class Equals(Function):
    """``equals: [value_1, value_2]``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Equals, self).__init__(stack, fn_name, args, path)
        if not args or not isinstance(args, list) or len(args) != 2:
            raise self.error('The argument of "%s" must be a list [value_1, value_2]' % fn_name)

    def result(self):
        return resolve(self.args[0]) == resolve(self.args[1])


class ConditionBoolean(Function):
    """The common part of ``and``/``or``/``not``."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(ConditionBoolean, self).__init__(stack, fn_name, args, path)
        self._check_args()

    def _check_args(self):
        if not _is_list(self.args):
            raise self.error('The argument of "%s" must be a list of conditions' % self.fn_name)
        if len(self.args) < 2:
            raise self.error('"%s" needs at least 2 conditions' % self.fn_name)

    def condition(self, value):
        if isinstance(value, bool):
            return value
        return self.need_stack().conditions.value(value, path=self.path)


class Not(ConditionBoolean):
    """``not: condition``."""

    __slots__ = ()

    def _check_args(self):
        if self.args is None:
            raise self.error('The argument of "%s" must be a condition' % self.fn_name)

    def result(self):
        return not self.condition(resolve(self.args))


class And(ConditionBoolean):
    """``and: [condition, condition, ...]`` (stops at the first false)."""

    __slots__ = ()

    def result(self):
        return all(self.condition(c) for c in resolve(self.args))


class Or(ConditionBoolean):
    """``or: [condition, condition, ...]`` (stops at the first true)."""

    __slots__ = ()

    def result(self):
        return any(self.condition(c) for c in resolve(self.args))


class If(Macro):
    """``if: [condition, value_if_true, value_if_false]``.

    Decided while the template is parsed: only the branch taken is parsed,
    so functions in the other branch are never validated nor resolved (and
    references there do not count as dependencies), as in Heat."""

    __slots__ = ()

    def _arity_ok(self, count):
        return count == 3

    def parse_args(self, parse):
        if not self.args or not _is_list(self.args) or not self._arity_ok(len(self.args)):
            raise self.error(self.form_message % self.fn_name)
        stack = self.need_stack()
        cond = stack.template.parse_condition(self.args[0], self.path + (0,), stack=stack)
        cond = stack.conditions.value(resolve(cond), path=self.path)
        if cond:
            return parse(self.args[1], self.path + (1,))
        if len(self.args) < 3:
            return Ellipsis
        return parse(self.args[2], self.path + (2,))

    form_message = ('The argument of "%s" must be a list [condition, value_if_true, '
                    'value_if_false]')


class IfNullable(If):
    """``if`` from 2021-04-16: ``[condition, value_if_true]`` is allowed; when
    false the enclosing list item, map entry or property is left out."""

    __slots__ = ()
    form_message = ('The argument of "%s" must be a list [condition, value_if_true] or '
                    '[condition, value_if_true, value_if_false]')

    def _arity_ok(self, count):
        return 2 <= count <= 3
