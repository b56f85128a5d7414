# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks of a resource's property values that its type makes beyond the
property schema (what Heat's resource class adds in its own code).

One function per type name in ``CHECKS``; stack validation calls
``check_type`` with the values Heat's check would see (resolved; those
still waiting for a resource hold placeholders).  The resource plugins will take these checks over.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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
