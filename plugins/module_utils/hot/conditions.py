# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``conditions`` section and the evaluation of conditions.

All definitions are parsed up front (so a function that is not allowed in a
condition is an error even in an unused one, as in Heat) but evaluated only
when asked, once each; a condition that needs itself is refused.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

from ..errors import TemplateError
from . import functions as fns

_IN_PROGRESS = object()


class _Context(object):
    """What condition functions need when there is no full stack: the
    template, the parameters and the conditions themselves."""

    def __init__(self, template, parameters, conditions):
        self.template = template
        self.parameters = parameters
        self.conditions = conditions

    def resource_enabled(self, name):
        return False

    def resource_defined(self, name):
        return False


class Conditions(Mapping):
    """``Conditions(template, parameters)``: name → bool, lazily.

    ``parameters`` is anything with ``[name]`` giving the typed value (the
    Parameters object).  ``stack`` may be given instead of the minimal
    context, so condition functions see the whole stack definition."""

    def __init__(self, template, parameters, stack=None):
        self.template = template
        self.context = stack if stack is not None else _Context(template, parameters, self)
        self._resolved = {}
        raw = {}
        if template.has_conditions:
            raw = template.data.get('conditions', {})
            if not isinstance(raw, dict):
                raise template.error('The "conditions" section must be a map of condition '
                                     'definitions, not %s' % type(raw).__name__,
                                     ('conditions',))
        self._parsed = dict(
            (name, template.parse_condition(defn, ('conditions', name), stack=self.context))
            for name, defn in raw.items())

    # -- Mapping -----------------------------------------------------------
    def __getitem__(self, name):
        if name not in self._parsed:
            raise KeyError(name)
        return self.value(name)

    def __iter__(self):
        return iter(self._parsed)

    def __len__(self):
        return len(self._parsed)

    def __contains__(self, name):
        try:
            return name in self._parsed
        except TypeError:
            return False

    # -- checks ------------------------------------------------------------
    def _check_type(self, name, value):
        if not isinstance(value, (bool, fns.Function)):
            raise self.template.error(
                'The definition of condition "%s" is invalid: it must be a boolean or a '
                'condition function, not %r' % (name, value), ('conditions', name))

    def validate(self):
        """Check every definition without evaluating it (Heat's order)."""
        for name, parsed in self._parsed.items():
            self._check_type(name, parsed)
            fns.validate(parsed)

    def is_enabled(self, condition, path=()):
        """Evaluate a condition: None (no condition) and True are enabled; a
        string names a condition of the section; a Function, or raw
        condition data (a map such as ``{equals: [...]}``), is evaluated
        first."""
        if isinstance(condition, (dict, list)):
            condition = self.template.parse_condition(condition, path, stack=self.context)
        if isinstance(condition, fns.Function):
            condition = fns.resolve(condition)
        return self.value(condition, path)

    def value(self, condition, path=()):
        """The value of an already resolved condition argument: a boolean,
        or the name of a condition (what Heat accepts there)."""
        if condition is None:
            return True
        if isinstance(condition, bool):
            return condition
        if not isinstance(condition, str) or condition not in self._parsed:
            raise TemplateError('Invalid condition "%s": not a condition defined in the '
                                '"conditions" section' % (condition,), path=path)
        state = self._resolved.get(condition)
        if state is None:
            self._resolved[condition] = _IN_PROGRESS
            try:
                value = fns.resolve(self._parsed[condition])
                self._check_type(condition, value)
            except BaseException:
                del self._resolved[condition]
                raise
            self._resolved[condition] = state = value
        elif state is _IN_PROGRESS:
            raise self.template.error('Circular definition for condition "%s"' % condition,
                                      ('conditions', condition))
        return state

    def evaluate_all(self):
        """Every condition's value (raises for the first one that fails)."""
        return dict((name, self.value(name)) for name in self._parsed)

    def __repr__(self):
        return 'Conditions(%s)' % ', '.join(self._parsed)
