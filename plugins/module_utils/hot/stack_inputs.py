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

import os

from ..errors import TemplateError, UnknownResourceType
from . import constraints as _constraints
from . import functions as fns
from . import parameter_groups as _parameter_groups
from . import parameters as _parameters
from . import properties as _properties
from . import registry as _registry
from . import type_checks as _type_checks
from .template import Template


PSEUDO_PARAMETERS = ('OS::stack_name', 'OS::stack_id', 'OS::project_id')
# The plugin types whose class can snapshot before deleting (Heat allows the
# "Snapshot" deletion policy on these only).
SNAPSHOT_TYPES = frozenset(['AWS::EC2::Volume', 'OS::Cinder::Volume', 'OS::Heat::DeployedServer',
                            'OS::Nova::Server'])


def _is_parameters_object(value):
    return (value is not None and not isinstance(value, dict)
            and hasattr(value, '__getitem__') and hasattr(value, 'validate'))


def build_parameters(template, environment, values, stack_name, stack_id, *, project_id,
                     checker):
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
    pseudo = {'OS::stack_name': stack_name, 'OS::stack_id': stack_id,
              'OS::project_id': project_id}
    schemas = dict((name, _parameters.ParameterSchema.from_template(
        name, raw, template.version, path=('parameters', name), doc=template.doc))
        for name, raw in section.items())
    return _parameters.Parameters(schemas, values=merged, defaults=defaults, pseudo=pseudo,
                                  checker=checker, doc=template.doc)


def check_parameter_groups(template, parameters):
    """The ``parameter_groups`` rules; returns the section for display."""
    schemas = getattr(parameters, 'schemas', None)
    if schemas is None:
        schemas = dict((name, None) for name in template.parameters)
    return _parameter_groups.validate_parameter_groups(
        template.data.get('parameter_groups'), schemas, template.doc)


def resolve_type(stack, defn):
    """Find a resource's implementation the way Heat finds its class: the
    environment's registry (aliases, wildcards, provider templates, types
    mapped to OS::Heat::None), then the catalogue of types Heat knows.
    Returns the registry's ResourceInfo; UnknownResourceType if none."""
    cache = stack.type_cache
    if None not in cache:
        reg = getattr(stack.environment, 'registry', None)
        reg = reg if reg is not None else _registry.Registry()
        # Only resources named under resource_registry/resources can be
        # mapped differently from their type; every other lookup is shared.
        cache[None] = (reg, set(reg.as_dict().get('resources') or {}))
    reg, specific = cache[None]
    shared = defn.name not in specific
    info = cache.get(defn.type) if shared else None
    if info is None:
        try:
            info = reg.resolve(defn.type, resource_name=defn.name)
        except (UnknownResourceType, TemplateError) as exc:
            if not exc.path and exc.filename is None:
                exc.path = defn.path + ('type',)
            raise
        if shared:
            cache[defn.type] = info
    if info.template and info.template == defn.type:
        path = defn.path + ('type',)
        # A provider template named in the template itself: the client
        # reads it next to the template, so it must be there.
        stack.get_file(defn.type, path)
    return info


def plugin_type(defn):
    """The HeatType of the resource's plugin class, or None (provider
    templates, or no plugin)."""
    info = defn.type_info
    if info is None or getattr(info, 'template', None) or not getattr(info, 'plugin', None):
        return None
    return info.heat_type


def attribute_allowed(defn, attr):
    """Whether ``get_attr`` may name ``attr`` on this resource (Heat checks
    the type's attribute schema unless the type resolves names itself;
    provider templates accept any name)."""
    heat_type = plugin_type(defn)
    if heat_type is None:
        return True
    return heat_type.has_attribute(attr)


# What get_resource gives for a resource that does not exist yet (during
# validation), for the types whose answer is not the resource's own name:
# they return their physical id, which is still None (as Heat 27 answers).
_REF_NONE = frozenset([
    'OS::Heat::Stack', 'OS::Heat::SwiftSignalHandle', 'OS::Mistral::Workflow',
    'OS::Neutron::AddressScope', 'OS::Neutron::ExtraRoute', 'OS::Neutron::ExtraRouteSet',
    'OS::Neutron::Firewall', 'OS::Neutron::FirewallPolicy', 'OS::Neutron::FirewallRule',
    'OS::Neutron::FloatingIP', 'OS::Neutron::FloatingIPAssociation',
    'OS::Neutron::FloatingIPPortForward', 'OS::Neutron::FlowClassifier', 'OS::Neutron::IKEPolicy',
    'OS::Neutron::IPsecPolicy', 'OS::Neutron::IPsecSiteConnection', 'OS::Neutron::L2Gateway',
    'OS::Neutron::L2GatewayConnection', 'OS::Neutron::MeteringLabel', 'OS::Neutron::MeteringRule',
    'OS::Neutron::Net', 'OS::Neutron::NetworkGateway', 'OS::Neutron::Port', 'OS::Neutron::PortChain',
    'OS::Neutron::PortPair', 'OS::Neutron::PortPairGroup', 'OS::Neutron::ProviderNet',
    'OS::Neutron::QoSBandwidthLimitRule', 'OS::Neutron::QoSDscpMarkingRule',
    'OS::Neutron::QoSMinimumBandwidthRule', 'OS::Neutron::QoSMinimumPacketRateRule',
    'OS::Neutron::QoSPolicy', 'OS::Neutron::Quota', 'OS::Neutron::RBACPolicy', 'OS::Neutron::Router',
    'OS::Neutron::RouterGateway', 'OS::Neutron::RouterInterface', 'OS::Neutron::SecurityGroup',
    'OS::Neutron::SecurityGroupRule', 'OS::Neutron::Segment', 'OS::Neutron::Subnet',
    'OS::Neutron::SubnetPool', 'OS::Neutron::TaaS::TapFlow', 'OS::Neutron::TaaS::TapService',
    'OS::Neutron::Trunk', 'OS::Neutron::VPNService', 'OS::Nova::KeyPair',
])
# These format their id into text, so an absent one reads "None".
_REF_NONE_TEXT = frozenset(['AWS::S3::Bucket', 'OS::Swift::Container'])


def placeholder_reference_id(defn):
    """get_resource of a resource that has no live data (Heat's answer
    during validation): its name for most types, None or "None" for some."""
    info = defn.type_info
    plugin = None if getattr(info, 'template', None) else getattr(info, 'plugin', None)
    if plugin in _REF_NONE:
        return None
    if plugin in _REF_NONE_TEXT:
        return 'None'
    return defn.name


def check_deletion_policy(defn):
    """"Snapshot" needs a type that can snapshot (not a template, not None)."""
    if defn.deletion_policy != 'Snapshot':
        return
    info = defn.type_info
    plugin = None if getattr(info, 'template', None) else getattr(info, 'plugin', None)
    if plugin not in SNAPSHOT_TYPES:
        # Heat's words (Resource.validate_deletion_policy); the path names the resource
        raise TemplateError('"Snapshot" deletion policy not supported', path=defn.path + ('deletion_policy',))


def provider_template(stack, defn):
    """The Template a template resource stands for (loaded once per stack):
    from the files map, from the path the environment resolved, or read
    next to the template when the template itself names the file."""
    name = defn.type_info.template
    key = ('template', name)
    cache = stack.type_cache
    if key not in cache:
        path = defn.path + ('type',)
        content = stack.files.get(name)
        if content is None and (name == defn.type or os.path.isabs(name)
                                or name.startswith('file://')):
            # confined as get_file is: an absolute path or a file:// URL
            # names a file beneath the allowed trees or nothing
            content = stack.get_file(name, path)
        if content is None:
            raise TemplateError('Could not fetch the provider template "%s" of resource "%s": '
                                'it is not in the files map' % (name, defn.name), path=path)
        filename, root = name, None
        base = stack.template.base_dir
        if name not in stack.files and base and '://' not in name and not os.path.isabs(name):
            # read next to the template naming it: what it reads in turn
            # (get_file, its own template resources) is relative to it, within
            # the tree the top template may read
            filename = os.path.join(base, name)
            root = stack.template.root or base
        nested = Template.load(content, filename=filename, files=stack.files, root=root,
                               limits=stack.template.limits)
        # Its outputs are the type's attributes: Heat reads them strictly.
        nested.check_output_keys()
        cache[key] = nested
    return cache[key]


def _property_rules(stack, defn):
    """(names, unimplemented): the properties of the resource and those of
    them not implemented (in schema order), or None when any property is
    accepted (computed once per type)."""
    info = defn.type_info
    key = ('rules', getattr(info, 'template', None) or getattr(info, 'plugin', None) or defn.type)
    cache = stack.type_cache
    if key not in cache:
        cache[key] = _compute_rules(stack, defn)
    return cache[key]


def _compute_rules(stack, defn):
    info = defn.type_info
    if getattr(info, 'template', None):
        nested = provider_template(stack, defn)
        params = nested.parameters if isinstance(nested.parameters, dict) else {}
        return frozenset(params), ()
    heat_type = plugin_type(defn)
    if heat_type is None:
        return None
    return (frozenset(heat_type.properties),
            tuple(name for name, prop in heat_type.properties.items() if not prop.implemented))


def waiting_keys(stack, functions, section):
    """Keys of a resource's ``section`` whose value refers to a resource
    without live data (its value is not known yet)."""
    pending = set()
    live = stack.resource_data
    for fn in functions:
        # Recorded functions know where they are: resources.<r>.<section>.<key>...
        if fn.references and len(fn.path) > 3 and fn.path[2] == section and \
                any(name not in live for name in fn.own_dependencies()):
            pending.add(fn.path[3])
    return pending


def _value_data(stack, defn):
    """The properties as Heat's value check sees them, and the keys whose
    value waits on a resource without live data.  Every value is resolved
    (a waiting one with the placeholders Heat uses while validating: the
    resource's name or None for get_resource, None for get_attr) and so
    is converted to its property type, but Heat skips the constraints of
    waiting values: their real value is not known yet.  A value that
    resolves to "leave me out" (2-argument if) is left out."""
    pending = waiting_keys(stack, defn.functions, 'properties')
    data = {}
    for key, parsed in (defn.properties or {}).items():
        value = fns.resolve(parsed, nullable=True)
        if value is not Ellipsis:
            data[key] = value
    return data, pending


def _constraint_index(schema):
    """{key: (constraint names, index of a Map's keys or None, index of a
    List's item or None)} for the properties that hold a custom constraint
    somewhere, so values are only looked at where one applies."""
    index = {}
    for key, prop in schema.items():
        names = prop.custom_constraints
        inner = item = None
        if isinstance(prop.schema, dict):
            inner = _constraint_index(prop.schema) or None
        elif prop.schema is not None:
            item = _constraint_index({0: prop.schema}).get(0)
        if names or inner or item:
            index[key] = (names, inner, item)
    return index


def _check_custom_constraints(stack, index, data, path, skip=()):
    """The custom constraints of the properties given (properties.py leaves
    them to constraints.py), except those of the keys in ``skip`` (values
    that wait on resources): values refused raise, values a service would
    have to confirm are listed in ``stack.not_checked``."""
    for key, (names, inner, item) in index.items():
        if key not in data or key in skip:
            continue
        value = data[key]
        if value is None:
            # Heat reads a String given as null as "" and checks that (a
            # null fixed_ip_address is no IP address); a null list or map
            # has no member to check.
            if inner or item:
                continue
            value = ''
        here = path + (key,)
        for name in names:
            try:
                result = _constraints.check_custom_constraint(name, value, stack.checker)
            except _constraints.ConstraintViolation as exc:
                raise TemplateError('Error validating value %r: %s' % (value, exc), path=here)
            if result is _constraints.NOT_CHECKED:
                stack.not_checked.append({'property': '.'.join(str(p) for p in here),
                                          'constraint': name})
        if inner and isinstance(value, dict):
            _check_custom_constraints(stack, inner, value, here)
        elif item and isinstance(value, list):
            _check_custom_constraints(stack, dict((i, item) for i in range(len(value))),
                                      dict(enumerate(value)), here)


def check_properties(stack, defn, resolve_values, *, rules=False):
    """Heat's property checks against the type's schema (a provider
    template's parameters for template resources).  Without
    ``resolve_values`` (template validate) only names are checked; with it
    (stack create) every value is resolved and checked by properties.py:
    types, required properties, constraints.  ``rules`` without
    ``resolve_values`` is how Heat validates a nested stack at a stack
    create (strict_validate off): the names, in Heat's words, then the
    type's own rule, which converts only the values it reads."""
    heat_type = plugin_type(defn)
    if heat_type is not None and heat_type.is_none:
        return  # Heat's NoneResource drops its properties unread
    props = defn.properties or {}
    path = defn.path + ('properties',)
    schema_rules = _property_rules(stack, defn)
    if schema_rules is None:
        if resolve_values:
            for value in props.values():
                fns.resolve(value, nullable=True)
        return
    if resolve_values:
        data, waiting = _value_data(stack, defn)
        if heat_type is not None:
            _properties.validate_properties(heat_type.name, data, defn.path, waiting)
            _type_checks.check_type(heat_type.name, data, path, waiting, defn=defn, stack=stack)
            key = ('constraints', heat_type.name)
            if key not in stack.type_cache:
                stack.type_cache[key] = _constraint_index(heat_type.properties)
            _check_custom_constraints(stack, stack.type_cache[key], data, path, waiting)
        else:
            nested = provider_template(stack, defn)
            defaults = getattr(stack.environment, 'parameter_defaults', None) or {}
            _properties.validate_provider_properties(nested.parameters, data, defn.path, defaults,
                                                     waiting)
        return
    names, unimplemented = schema_rules
    for key in props:
        if key not in names:
            raise TemplateError('Unknown Property %s' % key if rules else
                                'Unknown property "%s" for a resource of type %s'
                                % (key, defn.type), path=path + (key,))
    for key in unimplemented:
        if key in props:
            raise TemplateError('Property %s not implemented yet' % key if rules else
                                'Property "%s" of %s is not implemented'
                                % (key, defn.type), path=path + (key,))
    if rules and heat_type is not None:
        _type_checks.check_rule(heat_type.name, _value_data(stack, defn)[0], path, defn=defn,
                                stack=stack, unchecked=True)
