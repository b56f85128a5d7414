# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What Heat shows of a stack's inputs: its ``parameters`` (every value a
string, hidden ones masked) and its user environment (``environment
show``).  Computed from a built definition when a run writes the stack;
the record keeps the answer (``shown``), so that a reader of the store
shows it without the template language (this module imports none of it:
it reads the definition through its interface)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .parameter_values import MASK


def parameters_view(sd):
    """Heat's ``parameters`` of a stack: every value as a string, hidden
    ones masked, the pseudo parameters included."""
    params = sd.parameters
    hidden = set(params.hidden_names())
    out = {}
    for name in params:
        if name in hidden:
            out[name] = MASK
            continue
        try:
            value = params[name]
        except Exception:  # noqa: B902 - a parameter without a value shows as None
            value = None
        out[name] = shown_value(value)
    return out


def shown_value(value):
    """A parameter's value as Heat shows it: a string (a list joined by
    commas, a boolean ``true`` or ``false``); a map and None as they are."""
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, list):
        return ','.join(str(v) for v in value)
    return value if value is None or isinstance(value, (str, dict)) else str(value)


def environment_shown(sd, parameters):
    """Heat's user environment of the request (its user_env_as_dict), with
    the values of hidden parameters masked (``parameters``: those given)."""
    env = sd.environment
    if env is not None:
        shown = env.as_dict()
    else:
        shown = {'parameters': dict(parameters or {}), 'parameter_defaults': {},
                 'resource_registry': {'resources': {}}, 'event_sinks': []}
    # Heat registers each template resource type that names its template
    # directly while it builds the resource, so the answer shows it.
    registry = shown.setdefault('resource_registry', {'resources': {}})
    for defn in sd.resources.values():
        if getattr(defn.type_info, 'template', None) == defn.type:
            registry.setdefault(defn.type, defn.type)
    hidden = sd.parameters.hidden_names() if hasattr(sd.parameters, 'hidden_names') else ()
    for section in ('parameters', 'parameter_defaults'):
        values = shown.get(section) or {}
        for name in values:
            if name in hidden:
                values[name] = MASK
    return shown


def stack_shown(sd, given, hidden_given=()):
    """What a reader shows of a stack built as ``sd``: its description,
    parameters and environment (``given``: the parameters the user gave,
    hidden values cut out; ``hidden_given``: the names of the hidden ones
    given, shown masked as Heat shows them)."""
    environment = environment_shown(sd, dict(given or {}, **dict((k, MASK) for k in hidden_given)))
    params = environment.setdefault('parameters', {})
    for name in sd.parameters.hidden_names():
        if name not in params and name not in (environment.get('parameter_defaults') or {}) and (
                name in hidden_given or sd.parameters.schema(name).default is None):
            params[name] = MASK
    return {'description': sd.template.description, 'parameters': parameters_view(sd),
            'environment': environment}
