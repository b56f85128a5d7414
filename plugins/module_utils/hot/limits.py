# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's request limits, in one place, with Heat's defaults and messages.

Heat's operator sets them in heat.conf; here every module that reads a
template takes them as options (doc fragment ``limits``) and hands a
:class:`Limits` to the engine.  A StackDefinition carries its ``limits``
(nested definitions inherit them), so the template functions find theirs
through the stack they evaluate in (``of(stack)``).

Besides Heat's own limits, one bound is ours: a template function may not
build a value that no request of ``max_json_body_size`` could carry (a
``repeat`` of four 200-item lists makes 1.6 billion items; Heat would try).
A list of N items takes at least 2N bytes of JSON, so that is the bound on
items, and a string's bound is the body size itself.  The check is made
*before* the value is built wherever its size is known in advance.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import json

from ..errors import ResourceLimitExceeded, TemplateError


@dataclasses.dataclass(frozen=True)
class Limits:
    """heat.conf's limits (``-1`` for the two counts means no limit, as in Heat)."""
    # [DEFAULT] max_template_size: bytes of any template, environment or file
    max_template_size: int = 524288
    # [DEFAULT] max_json_body_size: bytes of the whole request (template,
    # environments, files and parameters, as the client sends them)
    max_json_body_size: int = 1048576
    # [DEFAULT] max_resources_per_stack, counted over the nested stacks too
    max_resources_per_stack: int = 1000
    # [DEFAULT] max_nested_stack_depth
    max_nested_stack_depth: int = 5
    # [yaql] limit_iterators and memory_quota
    yaql_limit_iterators: int = 200
    yaql_memory_quota: int = 10000

    @property
    def max_items(self):
        """The most items a function's list or map may hold (see above)."""
        return max(self.max_json_body_size // 2, 1)


DEFAULT = Limits()


def of(stack):
    """The limits a stack (or a function's context) evaluates under."""
    limits = getattr(stack, 'limits', None)
    return limits if isinstance(limits, Limits) else DEFAULT


def exceeded(message, **kw):
    """Heat's RequestLimitExceeded message: ``Request limit exceeded: ...``."""
    return ResourceLimitExceeded('Request limit exceeded: %s' % message, **kw)


def check_items(fn, count):
    """Refuse a function ``fn`` whose result would hold ``count`` items."""
    limit = of(fn.stack).max_items
    if count > limit:
        raise fn.error('"%s" would build %d items; no value may hold more than %d '
                       '(max_json_body_size / 2)' % (fn.fn_name, count, limit),
                       cls=ResourceLimitExceeded)


def check_text(fn, length):
    """Refuse a function ``fn`` whose result would be a ``length``-character string."""
    limit = of(fn.stack).max_json_body_size
    if length > limit:
        raise fn.error('"%s" would build a string of %d characters; no value may be longer '
                       'than max_json_body_size (%d)' % (fn.fn_name, length, limit),
                       cls=ResourceLimitExceeded)


def check_body(inputs, limits=DEFAULT, filename=None):
    """Heat's check of the request body: ``inputs`` (template text,
    environments, files, parameters) as the client would send them in one
    JSON body, refused past ``max_json_body_size`` with Heat's message."""
    limit = limits.max_json_body_size
    if limit is None or limit < 0:
        return
    try:
        size = len(json.dumps(inputs, default=str).encode('utf-8'))
    except (TypeError, ValueError) as exc:
        raise TemplateError('The request cannot be sent as JSON: %s' % exc, filename=filename)
    if size > limit:
        raise exceeded('JSON body size (%d bytes) exceeds maximum allowed size (%d bytes).'
                       % (size, limit), filename=filename)
