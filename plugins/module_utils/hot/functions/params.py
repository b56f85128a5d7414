# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Functions that read the stack's inputs: ``get_param`` and ``get_file``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping, Sequence

from .base import Function, resolve


class GetParam(Function):
    """``get_param: name`` or ``get_param: [name, key_or_index, ...]``.

    A path that does not fit the value (missing key, index out of range,
    a scalar in the way) gives ``''``, as in Heat.
    """

    # No check of the name before resolving: Heat notices an undeclared
    # parameter only where it resolves the value (properties at stack
    # create, conditions in use, update_policy...), never in template
    # validate's look at properties, metadata or outputs.
    __slots__ = ()

    def result(self):
        stack = self.need_stack()
        args = resolve(self.args)
        if not args:
            raise self.error('"%s" needs a parameter name' % self.fn_name)
        if isinstance(args, str):
            name, path = args, ()
        elif isinstance(args, Sequence):
            name, path = args[0], args[1:]
        else:
            raise self.error('The argument of "%s" must be a parameter name or a list '
                             '[name, key, ...]' % self.fn_name)
        if not isinstance(name, str):
            raise self.error('The parameter name given to "%s" must be a string' % self.fn_name)
        try:
            value = stack.parameters[name]
        except KeyError:
            raise self.error('Parameter "%s" is not defined in this template' % name)
        for key in path:
            if not isinstance(value, (Mapping, Sequence)) or not isinstance(key, (str, int)):
                return ''
            if isinstance(value, Sequence) and isinstance(key, str):
                try:
                    key = int(key)
                except ValueError:
                    return ''
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return ''
        return value


class GetFile(Function):
    """``get_file: path``: the content of a file given in ``files``, or read
    relative to the template (inside the allowed tree only)."""

    __slots__ = ()

    has_check = True

    def check(self):
        # The client reads every literal get_file before anything is sent,
        # so a missing file is an error wherever the call sits.
        if isinstance(self.args, str):
            self.need_stack().get_file(self.args, self.path)

    def result(self):
        stack = self.need_stack()
        name = resolve(self.args)
        if not isinstance(name, str):
            raise self.error('The argument of "%s" must be a string (a file name)' % self.fn_name)
        return stack.get_file(name, self.path)
