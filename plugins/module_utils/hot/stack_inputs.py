# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where the stack definition meets its inputs: parameters (parameters.py),
the environment's resource registry (environment.py/registry.py) and the
catalogue of resource types (resource_types.py).

Kept apart from stack.py so the template language does not depend on how
those parts are built, only on their contracts (docs/architecture.md).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

from ..errors import TemplateError, UnknownResourceType

try:
    from . import parameters as _parameters
except ImportError:  # pragma: no cover - until parameters.py lands
    _parameters = None
try:
    from . import resource_types as _resource_types
except ImportError:  # pragma: no cover - until resource_types.py lands
    _resource_types = None

PSEUDO_PARAMETERS = ('OS::stack_name', 'OS::stack_id', 'OS::project_id')
# Provider templates: a type that names a template file.
_TEMPLATE_SUFFIXES = ('.yaml', '.template')


def _is_parameters_object(value):
    return (value is not None and not isinstance(value, dict)
            and hasattr(value, '__getitem__') and hasattr(value, 'validate'))


def pseudo_values(stack_name, stack_id, project_id):
    return {'OS::stack_name': stack_name,
            'OS::stack_id': str(stack_id) if stack_id is not None else 'None',
            'OS::project_id': project_id}


def build_parameters(template, environment, values, stack_name, stack_id, project_id, checker):
    """The stack's Parameters object: the template's declarations, the
    environment's ``parameters`` then the caller's values, the
    environment's ``parameter_defaults`` and the pseudo parameters."""
    if _is_parameters_object(values):
        return values
    section = template.parameters
    if not isinstance(section, dict):
        raise template.error('"parameters" must be a map of parameter declarations, not %s'
                             % type(section).__name__, ('parameters',))
    merged = {}
    defaults = {}
    if environment is not None:
        merged.update(getattr(environment, 'parameters', None) or {})
        defaults.update(getattr(environment, 'parameter_defaults', None) or {})
    merged.update(values or {})
    pseudo = pseudo_values(stack_name, stack_id, project_id)
    if _parameters is None:
        return _PlainParameters(section, merged, defaults, pseudo)
    schemas = dict((name, _parameters.ParameterSchema.from_template(
        name, raw, template.version, path=('parameters', name), doc=template.doc))
        for name, raw in section.items())
    return _parameters.Parameters(schemas, values=merged, defaults=defaults, pseudo=pseudo,
                                  checker=checker, doc=template.doc)


class _PlainParameters(Mapping):
    """Untyped stand-in used only while parameters.py is not there."""

    def __init__(self, section, values, defaults, pseudo):
        self._values = dict(pseudo)
        for name, raw in section.items():
            raw = raw if isinstance(raw, dict) else {}
            if name in values:
                self._values[name] = values[name]
            elif name in defaults:
                self._values[name] = defaults[name]
            else:
                self._values[name] = raw.get('default')

    def __getitem__(self, name):
        return self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def validate(self, validate_value=True):
        return None


def resolve_type(stack, defn):
    """Check a resource's type the way Heat finds its class: the registry
    first (aliases, provider templates, OS::Heat::None mappings), then the
    catalogue of types Heat knows.  Returns the registry's answer (or the
    type name when there is no environment)."""
    info = None
    registry = getattr(stack.environment, 'registry', None)
    type_name = defn.type
    if registry is not None:
        info = registry.resolve(defn.type, resource_name=defn.name)
        if getattr(info, 'template', None) or getattr(info, 'is_none', False):
            return info
        type_name = getattr(info, 'type_name', None) or defn.type
    if type_name.endswith(_TEMPLATE_SUFFIXES):
        # A provider template named directly: it must be readable.
        stack.get_file(type_name, defn.path + ('type',))
        return info or type_name
    if _resource_types is not None and not _resource_types.is_known(type_name):
        raise UnknownResourceType('The resource type "%s" could not be found' % type_name,
                                  path=defn.path + ('type',))
    return info or type_name


def type_attributes(defn):
    """The attribute names of a resource's type, or None when any name may
    be valid (unknown catalogue, provider templates, dynamic attributes)."""
    if _resource_types is None:
        return None
    info = defn.type_info
    if info is not None and not isinstance(info, str):
        if getattr(info, 'template', None) or getattr(info, 'is_none', False):
            return None
        name = getattr(info, 'type_name', None) or defn.type
    else:
        name = defn.type
    attributes = getattr(_resource_types, 'attribute_names', None)
    if attributes is None:
        return None
    try:
        return attributes(name)
    except (KeyError, TemplateError):
        return None
