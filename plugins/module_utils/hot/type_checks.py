# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks of a resource's property values that its type makes beyond the
property schema (what Heat's resource class adds in its own code).

One function per type name in ``CHECKS``; stack validation calls
``check_type`` with the values Heat's check would see (resolved; those
still waiting for a resource hold placeholders).  The rules of Heat's
resource plugins' own ``validate()`` come from the collection's resource
plugins: the stack's ``type_rules(type_name)`` answers a type's rule, which
is called with a ``RuleInput`` (the template language cannot import them).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

from ..errors import TemplateError
from . import properties as _properties
from .functions.base import resolve as _resolve
from .functions.resources import GetResource as _GetResource
from . import resource_types as _rt

# OS::Heat::Value: the HOT parameter type named by ``type`` -> the property
# type ``value`` then has (Heat re-declares the property with it; note that
# ``json`` means a map, so a list is refused).
_VALUE_KINDS = {'string': 's', 'number': 'n', 'comma_delimited_list': 'l', 'json': 'm',
                'boolean': 'b'}


def _value(data, path, waiting):
    kind = _VALUE_KINDS.get(data.get('type')) if isinstance(data.get('type'), str) else None
    # No type, or one the property schema refuses itself: anything goes.
    if kind is None or 'value' not in data:
        return
    schema = _rt.PropertySchema((kind, 'ru'))
    _properties.check_value(schema, data['value'], tuple(path) + ('value',),
                            constrained='value' not in waiting)


# Signal transports that need a Heat API or Zaqar: with no Heat service
# here, a handle is a Swift TempURL (resources/heat/signal_handles.py).
NEEDS_HEAT_API = ('CFN_SIGNAL', 'HEAT_SIGNAL', 'ZAQAR_SIGNAL')


def _signal_transport(data, path, waiting):
    transport = data.get('signal_transport')
    if 'signal_transport' in waiting or transport not in NEEDS_HEAT_API:
        return
    raise TemplateError(
        'signal_transport %s needs a Heat API or Zaqar, which stackers.orchestration does not '
        'use: use TEMP_URL_SIGNAL (a Swift TempURL)' % transport,
        path=tuple(path) + ('signal_transport',))


# A server's software_config_transport polling a Heat API or Zaqar, and the
# Swift transport we use in their place (resources/nova/server_software.py).
NEEDS_HEAT_POLL = ('POLL_SERVER_CFN', 'POLL_SERVER_HEAT', 'ZAQAR_MESSAGE')
# The config groups a deployment may have: those heat-agents 13 installs a
# hook for (its heat-config-*/install.d), os-apply-config (its 55-heat-config
# runs no hook for it, by design), and Heat::Ungrouped (Heat's default, which
# the software_deployment role applies as a script).
CONFIG_GROUPS = ('script', 'Heat::Ungrouped', 'ansible', 'puppet', 'apply-config', 'cfn-init',
                 'chef', 'docker-cmd', 'docker-compose', 'hiera', 'json-file', 'kubelet', 'salt',
                 'os-apply-config')
SERVER_TYPES = ('OS::Nova::Server',)
CONFIG_TYPES = ('OS::Heat::SoftwareConfig', 'OS::Heat::StructuredConfig', 'OS::Heat::MultipartMime')
# The inputs every deployment derives (StructuredDeployment may read them).
DERIVED_INPUTS = ('deploy_server_id', 'deploy_action', 'deploy_stack_id', 'deploy_resource_name',
                  'deploy_signal_transport', 'deploy_signal_id', 'deploy_signal_verb')


def _server(data, path, waiting):
    transport = data.get('software_config_transport')
    if 'software_config_transport' in waiting or transport not in NEEDS_HEAT_POLL:
        return
    raise TemplateError(
        'software_config_transport %s needs a Heat API or Zaqar, which stackers.orchestration '
        'does not use: use POLL_TEMP_URL (the deployments document in a Swift object read '
        'through a TempURL)' % transport, path=tuple(path) + ('software_config_transport',))


def _referenced(defn, stack, prop):
    """(name, definition) of the resource ``prop`` names by get_resource."""
    ref = (defn.properties or {}).get(prop)
    name = ref.args if isinstance(ref, _GetResource) else None
    target = stack.resources.get(name) if isinstance(name, str) else None
    return name, target


def _deployment_config(defn, stack, path):
    """A deployed config's group must have a hook here (a config that is
    only a server's user_data may have any group)."""
    name, target = _referenced(defn, stack, 'config')
    if target is None or target.type not in CONFIG_TYPES:
        return
    group = _resolve((target.properties or {}).get('group'))
    if group is None or group in CONFIG_GROUPS:
        return
    raise TemplateError(
        'The group "%s" of config "%s" has no hook here: the groups a deployment accepts are '
        '%s (the hooks of heat-agents 13, os-apply-config and Heat::Ungrouped)'
        % (group, name, ', '.join(CONFIG_GROUPS)), path=tuple(path) + ('config',))


def _deployment_server(defn, stack, path):
    """A deployment's ``server`` given by get_resource must be a server
    whose user_data_format is SOFTWARE_CONFIG (Heat's validate)."""
    _server_ref((defn.properties or {}).get('server'), stack, tuple(path) + ('server',))


def _group_servers(defn, stack, path):
    """A deployment group's ``servers``: each value given by get_resource
    is checked as a single deployment's ``server`` (each member is one)."""
    servers = (defn.properties or {}).get('servers')
    if isinstance(servers, dict):
        for key, ref in servers.items():
            _server_ref(ref, stack, tuple(path) + ('servers', key))


def _server_ref(ref, stack, here):
    name = ref.args if isinstance(ref, _GetResource) else None
    target = stack.resources.get(name) if isinstance(name, str) else None
    if target is None:
        return
    if target.type not in SERVER_TYPES:
        raise TemplateError('The server of a software deployment must be a server: "%s" is a '
                            '%s' % (name, target.type), path=here)
    # Heat reads the property with its default (HEAT_CFNTOOLS)
    fmt = _resolve((target.properties or {}).get('user_data_format')) or 'HEAT_CFNTOOLS'
    if fmt != 'SOFTWARE_CONFIG':
        raise TemplateError("Resource %s's property user_data_format should be set to "
                            "SOFTWARE_CONFIG since there are software deployments on it."
                            % name, path=here)


def _deployment(data, path, waiting, defn=None, stack=None):
    _signal_transport(data, path, waiting)
    if defn is not None and stack is not None:
        if 'servers' in data:
            _group_servers(defn, stack, path)
        else:
            _deployment_server(defn, stack, path)
        _deployment_config(defn, stack, path)


def _wanted_inputs(snippet, input_key):
    """The names ``{<input_key>: name}`` asks for in a structured config."""
    if isinstance(snippet, dict):
        if len(snippet) == 1:
            key, arg = next(iter(snippet.items()))
            if key == input_key and isinstance(arg, str):
                return [arg]
        return [n for v in snippet.values() for n in _wanted_inputs(v, input_key)]
    if isinstance(snippet, list):
        return [n for v in snippet for n in _wanted_inputs(v, input_key)]
    return []


def _structured_deployment(data, path, waiting, defn=None, stack=None):
    """Heat's STRICT ``input_values_validate``: every input the config asks
    for must be given (a declared input, an input value or a derived one)."""
    _deployment(data, path, waiting, defn, stack)
    if defn is None or stack is None or data.get('input_values_validate') != 'STRICT':
        return
    if 'input_values' in waiting or 'input_key' in waiting:
        return
    name, target = _referenced(defn, stack, 'config')
    if target is None or target.type != 'OS::Heat::StructuredConfig':
        return
    props = target.properties or {}
    config = _resolve(props.get('config'))
    declared = [i.get('name') for i in _resolve(props.get('inputs')) or () if isinstance(i, dict)]
    given = set(declared) | set(data.get('input_values') or ()) | set(DERIVED_INPUTS)
    for wanted in _wanted_inputs(config, data.get('input_key') or 'get_input'):
        if wanted not in given:
            raise TemplateError('The Parameter (%s) was not provided.' % wanted,
                                path=tuple(path) + ('input_values',))


CHECKS = {
    'OS::Heat::Value': _value,
    'OS::Heat::WaitConditionHandle': _signal_transport,
    'OS::Nova::Server': _server,
}
# The checks that look at other resources of the stack too.
# A deployment group (Heat's SoftwareDeploymentGroup and its kin) is checked
# as its members are, at the group's own path ('servers' for 'server').
STACK_CHECKS = {
    'OS::Heat::SoftwareDeployment': _deployment,
    'OS::Heat::StructuredDeployment': _structured_deployment,
    'OS::Heat::SoftwareDeploymentGroup': _deployment,
    'OS::Heat::SoftwareDeployments': _deployment,
    'OS::Heat::StructuredDeploymentGroup': _structured_deployment,
    'OS::Heat::StructuredDeployments': _structured_deployment,
}


def conflict(*names):
    """Heat's ResourcePropertyConflict message, for a rule's ``fail``."""
    return 'Cannot define the following properties at the same time: %s.' % ', '.join(names)


def unspecified(*names):
    """Heat's PropertyUnspecifiedError message, for a rule's ``fail``."""
    return 'At least one of the following properties must be specified: %s.' % ', '.join(names)


class RuleInput(object):
    """What a type's own rule (Heat's resource ``validate()``) is given.

    ``data``: the property values as Heat's validate reads them (resolved;
    a value that waits on a resource holds Heat's placeholder: the
    resource's name for get_resource, None for get_attr); ``waiting``: the
    names of those; ``path``: the resource's ``properties`` path, which
    ``fail`` extends; ``defn`` and ``stack``: the resource's definition and
    its stack, for the rules that look at other resources.  ``props``: the
    values as Heat's ``self.properties[key]`` gives them to its rules (see
    ``heat_view``); with ``unchecked`` (values nothing checked against the
    schema: a nested stack Heat validates with strict_validate off) they
    are converted as each is read, and one that does not convert is
    refused then (``ReadView``)."""

    def __init__(self, type_name, data, path, waiting=(), *, defn=None, stack=None,
                 unchecked=False):
        self.type_name = type_name
        self.data = data
        self.path = tuple(path)
        self.waiting = frozenset(waiting)
        self.defn = defn
        self.stack = stack
        self.unchecked = unchecked
        self._props = None

    @property
    def resource_name(self):
        return getattr(self.defn, 'name', None)

    @property
    def props(self):
        if self._props is None:
            schema = _rt.heat_type(self.type_name).properties
            self._props = ReadView(schema, self.data, self.path) if self.unchecked \
                else heat_view(schema, self.data)
        return self._props

    def fail(self, message, *keys):
        """Refuse the resource, at ``keys`` beneath its properties."""
        raise TemplateError(message, path=self.path + tuple(keys))


# A value given that resolves to None (get_attr of a resource not created
# yet, while Heat validates) reads as the schema's default or this.
_ZERO = {_rt.STRING: '', _rt.INTEGER: 0, _rt.NUMBER: 0, _rt.BOOLEAN: False}


def heat_view(schema, data):
    """``data`` (values checked against ``schema``) as Heat's Properties read
    them: every key of the schema; a key not given is its default or None; a
    key given as None is its default or the type's zero (0, '', False, an
    empty map or list); values converted to the schema's type, maps and lists
    with a schema read the same way, member by member."""
    view = {}
    for key, prop in schema.items():
        if key in data:
            view[key] = _heat_value(prop, data[key])
        else:
            view[key] = _heat_value(prop, None) if prop.default is not None else None
    return view


class ReadView(Mapping):
    """``heat_view`` of values nothing has checked, read key by key as
    Heat's Properties read them while a nested stack is validated without
    its values: reading a value converts it, so one that does not convert
    (or a required one not given) is refused when a rule reads it, with
    Heat's message, at its own path; a value no rule reads is never
    refused."""

    def __init__(self, schema, data, path):
        self._schema = schema
        self._data = data
        self._path = tuple(path)
        self._read = {}

    def __getitem__(self, key):
        if key not in self._read:
            prop = self._schema[key]
            value = self._data.get(key)
            if value is not None:
                _properties.check_value(prop, value, self._path + (key,), constrained=False)
            elif key not in self._data and prop.default is None and prop.required:
                raise TemplateError('Property %s not assigned' % key, path=self._path)
            self._read[key] = _heat_value(prop, value) \
                if key in self._data or prop.default is not None else None
        return self._read[key]

    def __contains__(self, key):
        # the schema's keys, as heat_view has them: no value is read
        return key in self._schema

    def __iter__(self):
        return iter(self._schema)

    def __len__(self):
        return len(self._schema)


def _heat_value(prop, value):
    if value is None:
        value = prop.default
    kind = prop.type
    if value is None:
        if kind == _rt.MAP:
            value = {}
        elif kind == _rt.LIST:
            value = []
        else:
            return _ZERO.get(kind)
    if kind == _rt.STRING and isinstance(value, (bool, int)):
        return str(value)
    if kind in (_rt.INTEGER, _rt.NUMBER) and not isinstance(value, bool):
        number = _properties.number_of(value)
        return value if number is None else number
    if kind == _rt.BOOLEAN and isinstance(value, str):
        return value.lower() == 'true'
    if kind == _rt.LIST and prop.allow_conversion and isinstance(value, str):
        value = [item.strip() for item in value.split(',')] if value else []
    if kind == _rt.MAP and isinstance(prop.schema, dict) and isinstance(value, dict):
        return heat_view(prop.schema, value)
    if kind == _rt.LIST and isinstance(prop.schema, _rt.PropertySchema) and isinstance(value, list):
        return [_heat_value(prop.schema, item) for item in value]
    return value


def check_type(type_name, data, path, waiting=(), *, defn=None, stack=None):
    """Run the extra checks of ``type_name`` on ``data`` (the resource's
    property values); ``path`` is the resource's ``properties`` path and
    ``waiting`` names the properties whose values wait on resources (only
    placeholders for now: converted, not constrained); ``defn`` and
    ``stack`` (the resource and its stack) serve the checks that look at
    the resources a property names."""
    check = CHECKS.get(type_name)
    if check is not None:
        check(data, path, waiting)
    check = STACK_CHECKS.get(type_name)
    if check is not None:
        check(data, path, waiting, defn=defn, stack=stack)
    check_rule(type_name, data, path, waiting, defn=defn, stack=stack)


def check_rule(type_name, data, path, waiting=(), *, defn=None, stack=None, unchecked=False):
    """Only the rule of ``type_name``'s own validate() (the stack's
    ``type_rules``), given a RuleInput (see check_type); ``unchecked``:
    ``data`` was not checked against the type's schema (RuleInput)."""
    type_rules = getattr(stack, 'type_rules', None)
    rule = type_rules(type_name) if type_rules is not None else None
    if rule is not None:
        rule(RuleInput(type_name, data, path, waiting, defn=defn, stack=stack,
                       unchecked=unchecked))
