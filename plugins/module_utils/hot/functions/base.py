# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The base of every intrinsic function, and the walks over parsed snippets.

A *parsed snippet* is template data in which every ``{fn_name: args}`` map
the version knows has been replaced by a :class:`Function` instance (see
``Template.parse``).  Three walks operate on parsed snippets:

* :func:`resolve` computes the value, as Heat's ``function.resolve`` does
  (``Ellipsis`` from a 2-argument ``if`` drops the enclosing item);
* :func:`validate` checks every function's arguments without resolving;
* :func:`dependencies` lists the resource names the snippet refers to.

Functions reach the stack through ``self.stack``, a *context* object (the
StackDefinition, or the lighter one conditions use) offering:
``parameters[name]``, ``template``, ``conditions.value(x, path)``,
``resource_enabled(name)``, ``resource_defined(name)``,
``reference_id(name)``, ``attribute(name, attr, path)``,
``all_attributes(name)``, ``check_attribute(name, attr, path)``,
``get_file(name, path)``, ``parent_resource`` and ``availability_zones()``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping, Sequence

from ...errors import StackersError, TemplateError

# Python errors a function's own code may raise on bad input; they become a
# TemplateError naming the function (Heat turns them into validation errors).
_INPUT_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError,
                 ArithmeticError, RecursionError)


class Function(object):
    """One intrinsic function call: ``{fn_name: args}`` found at ``path``.

    ``args`` are already parsed (nested functions are Function objects),
    except for macros (``macro = True``) which receive raw args and parse
    what they keep themselves.
    """

    __slots__ = ('stack', 'fn_name', 'args', 'path')
    macro = False
    # Reference functions (get_resource/get_attr) set this so walks that only
    # look for dependencies can skip the rest cheaply.
    references = False
    # True when check() does something: validating a template then only
    # visits the functions that have a check of their own.
    has_check = False

    def __init__(self, stack, fn_name, args, path=()):
        self.stack = stack
        self.fn_name = fn_name
        self.args = args
        self.path = path

    # -- helpers ---------------------------------------------------------
    def error(self, message, cls=TemplateError, path=None):
        """An error about this call (located at the function's key)."""
        return cls(message, path=self.path if path is None else path)

    def need_stack(self):
        if self.stack is None:
            raise self.error('"%s" can only be evaluated within a stack' % self.fn_name)
        return self.stack

    # -- the protocol ----------------------------------------------------
    def validate(self):
        """Check the arguments without resolving them (nested calls too)."""
        validate(self.args)
        self.check()

    def check(self):
        """The checks of this call alone (nested calls not included)."""

    def own_dependencies(self):
        """Resource names this call itself refers to (nested ones excluded)."""
        return ()

    def result(self):
        """The value of the call."""
        raise NotImplementedError

    def dependencies(self):
        """Names of the resources this call refers to (nested calls too)."""
        out = []
        collect_dependencies(self.args, out)
        return out

    def __repr__(self):
        return '<%s {%s: %r}>' % (type(self).__name__, self.fn_name, self.args)


class Macro(Function):
    """A function that decides how its own arguments are parsed (``if``).

    ``parse(snippet, path)`` parses raw data with the same function table and
    stack; ``self.parsed`` holds what the macro kept."""

    __slots__ = ('parsed',)
    macro = True

    def __init__(self, stack, fn_name, args, path=(), parse=None):
        super(Macro, self).__init__(stack, fn_name, args, path)
        self.parsed = self.parse_args(parse)

    def parse_args(self, parse):
        return parse(self.args, self.path)

    def validate(self):
        validate(self.parsed)
        self.check()

    def result(self):
        return resolve(self.parsed, nullable=True)

    def dependencies(self):
        out = []
        collect_dependencies(self.parsed, out)
        return out


class Removed(Function):
    """A function this HOT version dropped: parsing keeps it, validation
    refuses it, and resolving it gives the raw map back (as Heat does)."""

    __slots__ = ()
    has_check = True

    def check(self):
        version = getattr(getattr(self.stack, 'template', None), 'version', None)
        raise self.error('The function "%s" was removed from HOT and is not supported by '
                         'heat_template_version %s' % (self.fn_name, version or 'in use'))

    def result(self):
        return {self.fn_name: self.args}


class Invalid(Function):
    """A function that exists in the version but not in condition snippets."""

    __slots__ = ()

    def __init__(self, stack, fn_name, args, path=()):
        super(Invalid, self).__init__(stack, fn_name, args, path)
        raise self.error('The function "%s" cannot be used in a condition' % fn_name)

    def result(self):  # pragma: no cover - never constructed
        return {self.fn_name: self.args}


def _call(fn, what):
    """Run ``fn.result()``/``fn.validate()`` turning stray Python errors
    into a TemplateError located at the function."""
    try:
        return what()
    except StackersError:
        raise
    except _INPUT_ERRORS as exc:
        raise fn.error(str(exc) or '"%s" failed (%s)' % (fn.fn_name, type(exc).__name__))
    except MemoryError:
        raise fn.error('"%s" ran out of memory' % fn.fn_name)


def resolve(snippet, nullable=False):
    """The value of a parsed snippet.  ``Ellipsis`` (a 2-argument ``if``
    that was false) removes the enclosing list item or map entry; at the
    top it becomes None unless ``nullable``."""
    if isinstance(snippet, Function):
        result = _call(snippet, snippet.result)
        if result is Ellipsis and not nullable:
            return None
        return result
    cls = type(snippet)
    if cls is dict:
        out = {}
        for key, value in snippet.items():
            # A plain scalar resolves to itself (and is never Ellipsis).
            if type(value) not in _SCALARS:
                value = resolve(value, True)
                if value is Ellipsis:
                    continue
            out[key] = value
        return out
    if cls is list or cls is tuple:
        out = []
        for value in snippet:
            if type(value) not in _SCALARS:
                value = resolve(value, True)
                if value is Ellipsis:
                    continue
            out.append(value)
        return out
    return snippet


def validate(snippet):
    """Validate every function in a parsed snippet."""
    if isinstance(snippet, Function):
        _call(snippet, snippet.validate)
        return
    cls = type(snippet)
    if cls is dict:
        for value in snippet.values():
            if type(value) in _SCALARS:
                continue
            validate(value)
    elif cls is list or cls is tuple:
        for value in snippet:
            if type(value) in _SCALARS:
                continue
            validate(value)


_SCALARS = frozenset([str, int, float, bool, type(None)])


def collect_dependencies(snippet, out):
    """Append to ``out`` the resource names a parsed snippet refers to."""
    if isinstance(snippet, Function):
        out.extend(_call(snippet, snippet.dependencies))
        return
    cls = type(snippet)
    if cls is dict:
        for value in snippet.values():
            if type(value) in _SCALARS:
                continue
            collect_dependencies(value, out)
    elif cls is list or cls is tuple:
        for value in snippet:
            if type(value) in _SCALARS:
                continue
            collect_dependencies(value, out)


def check_functions(functions):
    """Run the own checks of functions recorded while parsing (see
    ``Template.parse(record=...)``): the same as validating the snippets
    they came from, without walking the data again."""
    for fn in functions:
        if fn.has_check:
            _call(fn, fn.check)


def recorded_dependencies(functions):
    """Resource names referred to by functions recorded while parsing."""
    out = []
    for fn in functions:
        if fn.references:
            out.extend(_call(fn, fn.own_dependencies))
    return out


def dependencies(snippet):
    """The resource names a parsed snippet refers to (a list, may repeat)."""
    out = []
    collect_dependencies(snippet, out)
    return out


def is_sequence(value):
    """A list-like value in Heat's sense (a Sequence that is not a string)."""
    return isinstance(value, Sequence) and not isinstance(value, str)


def is_mapping(value):
    return isinstance(value, Mapping)


def short_repr(value, limit=200):
    return repr(value)[:limit]
