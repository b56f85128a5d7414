# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stack definition: template + environment + parameters → the enabled
resources with parsed fields and dependencies, and the outputs.

Everything is computed lazily, once, in Heat's order when ``validate()``
drives it: parameters, conditions, resource definitions (types resolved
through the environment's registry), duplicate names, references, then the
functions of every resource and output.  The StackDefinition is also the
*context* every Function reads the stack through (see functions/base.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from collections.abc import Mapping, Sequence

from ..errors import StackersError, TemplateError
from . import functions as fns
from .conditions import Conditions
from .nested import validate_nested
from .stack_inputs import (attribute_allowed, build_parameters, check_deletion_policy,
                           check_parameter_groups, check_properties, placeholder_reference_id,
                           provider_template, resolve_type, waiting_keys)
from .stack_parts import Locator, OutputDefinition, ResourceDefinition
from .template import Template
from .update_policy import check_update_policy


# Heat's rule for stack names.
_STACK_NAME = re.compile(r'[a-zA-Z][a-zA-Z0-9_.-]{0,254}$')


class StackDefinition(object):
    """See module docstring; arguments as in docs/architecture.md.

    ``parameters`` may also be a ready Parameters object.  ``resource_data``
    maps resource names to ``{'reference_id': ..., 'attrs': {...}}``; without
    an entry, get_resource/get_attr give None, as during Heat's validation."""

    def __init__(self, template, environment=None, parameters=None, files=None,
                 stack_name='stack', *, stack_id=None, project_id=None, checker=None,
                 resource_data=None, parent_resource=None, root=None, availability_zones=None,
                 limits=None, type_rules=None):
        if not isinstance(stack_name, str) or not _STACK_NAME.match(stack_name):
            raise StackersError('Invalid stack name %r: it must start with a letter and contain '
                                'only letters, digits, "_", "-" and ".", at most 255 characters'
                                % (stack_name,))
        self.template = Template.load(template, files=files, root=root, limits=limits)
        # Heat's request limits (hot/limits.py): the functions read them here
        self.limits = limits if limits is not None else self.template.limits
        self.environment = environment
        self.files = self.template.files
        self.stack_name = stack_name
        self.stack_id = stack_id
        self.project_id = project_id
        self.checker = checker
        # type name -> the rule of the type's own validate() (or None), from
        # the resource plugins; none when the caller gives none.
        self.type_rules = type_rules
        self.resource_data = resource_data if resource_data is not None else {}
        self.parent_resource = parent_resource
        self._zones = availability_zones
        self._raw_resources = self.template.resources
        with self._located():
            self.parameters = build_parameters(self.template, environment, parameters,
                                               stack_name, stack_id, project_id=project_id,
                                               checker=checker)
        self._conditions = None
        self._resources = None
        self._loading = False
        self._outputs = None
        self._references_done = False
        self.type_cache = {}
        self.parameter_groups = None
        # Service-backed custom constraints of property values that could
        # not be checked (no checker given).
        self.not_checked = []

    # -- error location -----------------------------------------------------
    def _located(self):
        return Locator(self.template)

    # -- lazily computed parts ---------------------------------------------
    @property
    def conditions(self):
        if self._conditions is None:
            with self._located():
                self._conditions = Conditions(self.template, self.parameters, stack=self)
        return self._conditions

    @property
    def resources(self):
        if self._resources is None:
            with self._located():
                self._load_resources()
        return self._resources

    @property
    def outputs(self):
        if self._outputs is None:
            with self._located():
                self._outputs = dict(self._output(name, raw)
                                     for name, raw in self.template.outputs.items())
        return self._outputs

    def _load_resources(self):
        self._loading = True
        try:
            defns = {}
            for name, raw in self._raw_resources.items():
                defn = self._definition(name, raw)
                if defn is not None:
                    defns[name] = defn
            for defn in defns.values():
                defn.type_info = resolve_type(self, defn)
        finally:
            self._loading = False
        self._resources = defns

    def _field(self, name, raw, key, types, what, *, parse=True, record=None):
        path = ('resources', name, key)
        value = raw[key]
        vcls = type(value)
        if vcls is not dict and vcls is not list and vcls is not tuple:
            pass  # nothing else can hold a function: parsing would give it back as it is
        elif parse == 'condition':
            value = self.template.parse_condition(value, path, stack=self)
        elif parse:
            value = self.template.parse(value, path, stack=self, record=record)
        if not isinstance(value, types):
            raise TemplateError('The "%s" of resource "%s" must be %s' % (key, name, what),
                                path=path)
        return value

    def _definition(self, name, raw):
        t = self.template
        functions, field_functions = [], []
        fields = {'path': ('resources', name), 'functions': functions,
                  'field_functions': field_functions}
        # dict first: most values are one, and the Mapping ABC's check is slow.
        obj = (dict, Mapping, fns.Function)
        fields['type'] = self._field(name, raw, 'type', str, 'a string')
        for key in ('properties', 'metadata', 'update_policy'):
            if key in raw:
                fields[key] = self._field(name, raw, key, obj, 'a map',
                                          record=field_functions if key == 'update_policy'
                                          else functions)
        if 'depends_on' in raw:
            deps = self._field(name, raw, 'depends_on', Sequence, 'a list or a string',
                               parse=False)
            if isinstance(deps, str):
                deps = [deps]
            for dep in deps:
                if not isinstance(dep, str):
                    raise TemplateError('The "depends_on" of resource "%s" must be a list of '
                                        'resource names' % name, path=fields['path'] + ('depends_on',))
            fields['depends_on'] = list(deps)
        if 'deletion_policy' in raw:
            policy = fns.resolve(self._field(name, raw, 'deletion_policy',
                                             (str, fns.Function), 'a string',
                                             record=field_functions))
            if policy is not None:
                try:
                    policy = t.info.deletion_policies[policy]
                except (KeyError, TypeError):
                    raise TemplateError(
                        'Invalid deletion policy "%s" (valid in HOT %s: %s)'
                        % (policy, t.version, ', '.join(t.info.deletion_policies)),
                        path=fields['path'] + ('deletion_policy',))
            fields['deletion_policy'] = policy
        if 'description' in raw:
            fields['description'] = self._field(name, raw, 'description', str, 'a string',
                                                parse=False)
        if 'external_id' in raw:
            fields['external_id'] = self._field(name, raw, 'external_id',
                                                (str, fns.Function), 'a string',
                                                record=field_functions)
        if 'condition' in raw:
            cond = self._field(name, raw, 'condition', (str, bool, fns.Function),
                               'a condition name, a boolean or a condition function',
                               parse='condition')
            fields['condition'] = cond
            path = fields['path'] + ('condition',)
            if not self.conditions.value(fns.resolve(cond), path=path):
                return None
        if isinstance(fields.get('properties'), fns.Function):
            raise TemplateError('The "properties" of resource "%s" must be a map (a function '
                                'returning the whole map is not supported)' % name,
                                path=fields['path'] + ('properties',))
        return ResourceDefinition(name, **fields)

    def _output(self, name, raw):
        path = ('outputs', name)
        t = self.template
        cond = None
        if 'condition' in t.info.output_keys:
            cond = t.parse_condition(raw.get('condition'), path + ('condition',), stack=self)
            if not self.conditions.value(fns.resolve(cond), path=path + ('condition',)):
                return name, OutputDefinition(name, None, raw.get('description'), cond,
                                              False, path=path)
        functions = []
        value = t.parse(raw['value'], path + ('value',), stack=self, record=functions)
        return name, OutputDefinition(name, value, raw.get('description'), cond, True,
                                      path=path, functions=functions)

    # -- references -----------------------------------------------------------
    def compute_references(self):
        """Fill ``requires`` of every enabled resource (Heat's explicit
        dependencies); raises for references to unknown or disabled ones."""
        if self._references_done:
            return
        resources = self.resources
        with self._located():
            for defn in resources.values():
                defn.requires = self._requires(defn, resources)
        self._references_done = True

    def _requires(self, defn, resources):
        deps = defn.depends_on or ()
        if defn.external_id is not None and fns.resolve(defn.external_id):
            # An adopted resource may not depend on anything (Heat refuses it).
            if deps:
                raise TemplateError('Resource "%s" has an external_id, so it cannot depend on '
                                    'other resources' % defn.name,
                                    path=defn.path + ('depends_on',))
            return frozenset()
        requires = set()
        for dep in deps:
            if dep in resources:
                requires.add(dep)
            elif dep not in self._raw_resources:
                raise TemplateError('"depends_on" of resource "%s" names "%s", which is not a '
                                    'resource of the template' % (defn.name, dep),
                                    path=defn.path + ('depends_on',))
        requires.update(fns.recorded_dependencies(defn.functions))
        return frozenset(requires)

    # -- the function context protocol ---------------------------------------
    def resource_enabled(self, name):
        if self._resources is None:
            # While definitions load (or before), Heat answers from the
            # template's list of resources.
            return name in self._raw_resources
        return name in self._resources

    def resource_defined(self, name):
        return name in self._raw_resources

    def reference_id(self, name):
        data = self.resource_data.get(name)
        if data is None:
            return placeholder_reference_id(self.resources[name])
        return data.get('reference_id')

    def attribute(self, name, attr, path=()):
        data = self.resource_data.get(name)
        if data is None:
            return None
        attrs = data.get('attrs')
        # an attribute that reads the path itself (a group's, across members)
        select = getattr(attrs, 'select', None)
        if select is not None and path:
            handled, value = select(attr, list(path))
            if handled:
                return value
        try:
            # not ``attrs or {}``: the engine's attrs compute what they are
            # asked for, and asking a Mapping's truth asks its length (all)
            value = (attrs if attrs is not None else {})[attr]
        except (KeyError, TypeError) as exc:
            if isinstance(exc, StackersError):
                # the resource's own refusal (a group member that is not there)
                raise TemplateError(exc.message)
            raise TemplateError('Resource "%s" has no attribute "%s"' % (name, attr))
        for key in path or ():
            if not isinstance(value, (Mapping, Sequence)) or not isinstance(key, (str, int)):
                return None
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def all_attributes(self, name):
        data = self.resource_data.get(name)
        if data is None:
            return None
        return dict((k, v) for k, v in (data.get('attrs') or {}).items() if k != 'show')

    def check_attribute(self, name, attr, path):
        if not attribute_allowed(self.resources[name], attr):
            raise TemplateError('Resource "%s" (%s) has no attribute "%s"'
                                % (name, self.resources[name].type, attr), path=path)

    def get_file(self, name, path=()):
        return self.template.get_file(name, path)

    def availability_zones(self):
        return list(self._zones) if self._zones is not None else ['nova']

    # -- resolution and validation ---------------------------------------------
    def resolve(self, snippet, path=()):
        """Resolve template data (raw or parsed) in this stack."""
        with self._located():
            return fns.resolve(self.template.parse(snippet, path, stack=self))

    def resolve_properties(self, name):
        """The resolved properties of an enabled resource."""
        with self._located():
            return fns.resolve(self.resources[name].properties) or {}

    def validate(self, strict=True, graph_builder=None, *, rules=False):
        """Validate in Heat's order.  ``strict`` also validates parameter
        values and resolves every property (stack create); without it this
        is ``template validate``, or with ``rules`` how Heat validates a
        nested stack at a stack create (each type's own rule, values
        unchecked).  ``graph_builder(self)`` is called once
        references are known, to refuse cycles before functions are checked;
        its result is returned."""
        with self._located():
            validate_params = getattr(self.parameters, 'validate', None)
            if validate_params is not None:
                validate_params(validate_value=strict)
            self.parameter_groups = check_parameter_groups(self.template, self.parameters)
            self.conditions.validate()
            resources = self.resources
            params = set(self.parameters) if isinstance(self.parameters, Mapping) else set()
            for name in resources:
                if name in params:
                    raise TemplateError('"%s" is both a parameter and a resource; names must be '
                                        'unique' % name, path=('resources', name))
            self.compute_references()
            graph = graph_builder(self) if graph_builder is not None else None
            for defn in resources.values():
                self._validate_resource(defn, strict, rules)
            for out in self.outputs.values():
                if out.enabled:
                    fns.check_functions(out.functions)
        return graph

    def validate_resource(self, name):
        """Validate one resource as a stack create does (its values
        resolved now: a nested stack's resource whose parameters were known
        only during the run)."""
        with self._located():
            self._validate_resource(self.resources[name], True)

    def _validate_resource(self, defn, strict, rules=False):
        if defn.external_id is not None and fns.resolve(defn.external_id):
            return  # adopted resources are checked against the cloud, not here
        fns.check_functions(defn.functions)
        fns.check_functions(defn.field_functions)
        check_deletion_policy(defn)
        check_update_policy(self, defn)
        check_properties(self, defn, resolve_values=strict, rules=rules)
        # Heat's template validate leaves nested stacks alone; stack create
        # validates them, and they validate theirs in turn.
        if getattr(defn.type_info, 'template', None) and (strict or getattr(self, 'nested_depth', 0)):
            waiting = waiting_keys(self, defn.functions, 'properties') if strict else ()
            validate_nested(self, defn, provider_template(self, defn), strict, waiting)
