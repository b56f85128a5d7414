# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Validation of a template resource's own template (a nested stack).

When it validates a stack for creation, Heat validates the template a
provider type stands for as a stack of its own (values unchecked), with the
child environment (the parent's registry and parameter_defaults) and the
resource's properties as its parameters, down to ``max_nested_stack_depth``
levels; its template-validate API does not look inside.  Only values known before anything exists
are passed on: a property that waits on another resource (or is still a
function) is left unset, which template-level validation accepts as Heat's
does.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

from ..errors import LocatedError, TemplateError
from . import functions as fns
from . import limits

# heat/common/config.py: max_nested_stack_depth
MAX_NESTED_DEPTH = limits.DEFAULT.max_nested_stack_depth


def _known(value):
    """True when ``value`` holds no function (its value is known now)."""
    if isinstance(value, fns.Function):
        return False
    if isinstance(value, Mapping):
        return all(_known(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return all(_known(item) for item in value)
    return True


def nested_parameters(defn, strict, waiting=(), properties=None):
    """The nested stack's parameter values: the properties (or
    ``properties``, name -> parsed value, when the parameters are given
    otherwise) whose value is known (resolved ones too in ``strict`` mode,
    except those waiting on a resource); None values are left out, as
    unset."""
    values = {}
    source = defn.properties if properties is None else properties
    for key, parsed in (source or {}).items():
        if key in waiting:
            continue
        if _known(parsed):
            value = parsed
        elif strict:
            value = fns.resolve(parsed, nullable=True)
        else:
            continue
        if value is not None and value is not Ellipsis:
            values[key] = value
    return values


def child_definition(stack, defn, nested_template, params, *, stack_name=None, stack_id=None):
    """The StackDefinition resource ``defn`` of ``stack`` stands for:
    ``nested_template`` (a loaded Template) with the child environment (the
    parent's registry and parameter_defaults) and ``params`` (the
    properties' values) as its parameters, one level deeper.  The nested
    stack is made by the parent's own class, so this module does not import
    stack.py (which imports it)."""
    depth = check_depth(stack, defn)
    env = stack.environment
    child_env = env.child(defn.name, params) if env is not None and hasattr(env, 'child') else None
    nested = type(stack)(nested_template, environment=child_env,
                         parameters=None if child_env is not None else params,
                         files=stack.files, stack_name=stack_name or stack.stack_name,
                         stack_id=stack_id or stack.stack_id, project_id=stack.project_id,
                         checker=stack.checker, type_rules=stack.type_rules,
                         parent_resource=defn.name,
                         limits=getattr(stack, 'limits', None))
    nested.nested_depth = depth
    nested.max_nested_depth = max_depth(stack)
    # a nested stack has its parent's timeout (Heat's create_with_template)
    nested.timeout_secs = getattr(stack, 'timeout_secs', None)
    return nested


def max_depth(stack):
    """The nesting limit of ``stack``'s tree (Heat's max_nested_stack_depth)."""
    limit = getattr(stack, 'max_nested_depth', None)
    if limit is None and getattr(stack, 'limits', None) is not None:
        limit = stack.limits.max_nested_stack_depth
    return MAX_NESTED_DEPTH if limit is None else limit


def check_depth(stack, defn):
    """The depth of ``defn``'s nested stack; Heat's error past the limit."""
    depth = getattr(stack, 'nested_depth', 0) + 1
    if depth > max_depth(stack):
        # Heat's RequestLimitExceeded (stack_resource._child_nested_depth)
        raise TemplateError('Request limit exceeded: Recursion depth exceeds %d.'
                            % max_depth(stack), path=defn.path + ('type',))
    return depth


def in_nested(exc, defn):
    """``exc`` (a LocatedError) saying which resource brought its template in."""
    if 'resource "%s"' % defn.name not in exc.message:
        exc.message = '%s (in the template of resource "%s")' % (exc.message, defn.name)
    return exc


def validate_nested(stack, defn, nested_template, strict, waiting=()):
    """Validate ``nested_template`` (a loaded Template) as the stack that
    resource ``defn`` of ``stack`` stands for.  Errors keep the nested
    file's name and line, and say which resource brought them in."""
    check_depth(stack, defn)
    params = nested_parameters(defn, strict, waiting)
    try:
        nested = child_definition(stack, defn, nested_template, params)
        # Heat validates a nested stack without checking values
        # (strict_validate off), whatever the parent's mode.
        nested.validate(strict=False)
    except LocatedError as exc:
        raise in_nested(exc, defn)
    return nested
