# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Values of a group's member definition that wait on other resources.

A group's stack is made (its goal) before the resources its ``resource_def``
(or an autoscaling group's ``resource``) reads exist: each such value is held
by a parameter of the goal's template, and the template is written again with
every value once the group's own requirements are done.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...hot import functions as fns

# Parameters standing in the goal's template for values made during the run.
_LATE = 'stackers_late_%d'


def placeheld(value, late):
    """``value`` (a parsed snippet) resolved where it is known now; a
    get_param of a late parameter where it waits on a resource."""
    if isinstance(value, fns.Function):
        if fns.dependencies(value):
            name = _LATE % len(late)
            late.append(name)
            return {'get_param': name}
        return fns.resolve(value)
    if isinstance(value, dict):
        return dict((k, placeheld(v, late)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [placeheld(v, late) for v in value]
    return value


def with_parameters(template):
    """A written template declaring the late parameters it reads."""
    parameters = dict((name, {'type': 'json'}) for name in _params_in(template))
    return dict(template, parameters=parameters) if parameters else template


def _params_in(value):
    if isinstance(value, dict):
        if set(value) == set(['get_param']) and isinstance(value['get_param'], str):
            return [value['get_param']]
        return [p for v in value.values() for p in _params_in(v)]
    if isinstance(value, list):
        return [p for v in value for p in _params_in(v)]
    return []
