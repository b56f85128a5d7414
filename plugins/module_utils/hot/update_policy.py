# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A resource's ``update_policy`` checked as Heat checks it before anything
is created: against the update_policy schema of the resource's type
(resource_types.py has the schemas Heat's classes declare)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import StackersError, TemplateError
from . import functions as fns
from . import properties as _properties
from . import stack_inputs as _inputs


def check_update_policy(stack, defn):
    """The ``update_policy`` against the schema of the resource's type, as
    Heat checks it: like properties, with values, in template validate
    too; types without a schema (provider templates included) refuse any
    key.  A value waiting on a resource is converted with its placeholder
    but its constraints are not applied."""
    policy = defn.update_policy
    if policy is None:
        return
    path = defn.path + ('update_policy',)
    if isinstance(policy, fns.Function):
        # Heat iterates the section itself: a function in its place fails.
        raise TemplateError('The "update_policy" of resource "%s" must be a map (a function '
                            'returning the whole map is not supported)' % defn.name, path=path)
    heat_type = _inputs.plugin_type(defn)
    schema = heat_type.update_policy if heat_type is not None else {}
    _check_policy_attributes(stack, defn)
    data = {}
    for key, parsed in policy.items():
        value = fns.resolve(parsed, nullable=True)
        if value is not Ellipsis:
            data[key] = value
    waiting = _inputs.waiting_keys(stack, defn.field_functions, 'update_policy')
    _properties.validate_update_policy(schema, data, defn.path, unconstrained=waiting)


def _check_policy_attributes(stack, defn):
    """While validating, Heat knows only the attributes that a resource's
    properties or metadata or an output ask for: ``get_attr`` of any other
    attribute inside an update_policy is refused."""
    for fn in defn.field_functions:
        if not isinstance(fn, fns.resources.GetAttThenSelect) or fn.path[2] != 'update_policy':
            continue
        name, attr, _path = fn.attribute_path()
        used = _used_attributes(stack).get(name, ())
        if attr is not None and attr not in used and (None not in used or attr == 'show'):
            raise TemplateError('The attribute "%s" of resource "%s" cannot be used in an '
                                'update_policy: while validating, Heat only knows the attributes '
                                'that properties, metadata or outputs use' % (attr, name),
                                path=fn.path)


def _used_attributes(stack):
    """resource name -> names of its attributes that get_attr asks for in
    enabled resources' properties and metadata and enabled outputs (None
    for the all-attributes form: every attribute except ``show``)."""
    key = ('used_attributes',)
    if key not in stack.type_cache:
        used = {}
        functions = [fn for defn in stack.resources.values() for fn in defn.functions]
        functions += [fn for out in stack.outputs.values() if out.enabled for fn in out.functions]
        for fn in functions:
            if isinstance(fn, fns.resources.GetAttThenSelect):
                try:
                    name, attr, _path = fn.attribute_path()
                except StackersError:
                    continue
                used.setdefault(name, set()).add(attr)
        stack.type_cache[key] = used
    return stack.type_cache[key]
