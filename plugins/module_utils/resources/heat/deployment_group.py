# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::SoftwareDeploymentGroup, OS::Heat::StructuredDeploymentGroup
and their hidden aliases (SoftwareDeployments, StructuredDeployments), as
pure data: the nested template each writes and the attributes it reads.

Heat 27 makes these ResourceGroups (software_deployment.py,
structured_config.py) whose members are named by the keys of ``servers``,
in the map's order, and are single deployments with the group's other
properties and ``server`` set to the key's value.  No name is ever
removed by a policy (no removal_policies, no skiplist).  Every attribute
is a map member name -> that attribute of the member: the group's
``deploy_stdouts``, ``deploy_stderrs`` and ``deploy_status_codes`` read the
members' ``deploy_stdout``, ``deploy_stderr`` and ``deploy_status_code``,
and any other name (a config's output) is read under the same name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from .group_attributes import select_path
from .group_template import make_template

SOFTWARE_GROUP = 'OS::Heat::SoftwareDeploymentGroup'
STRUCTURED_GROUP = 'OS::Heat::StructuredDeploymentGroup'
# group type -> its members' type; the deprecated names are subclasses in
# Heat (HIDDEN since 7.0.0) that behave as the types they stand for.
MEMBER_TYPES = {
    SOFTWARE_GROUP: 'OS::Heat::SoftwareDeployment',
    'OS::Heat::SoftwareDeployments': 'OS::Heat::SoftwareDeployment',
    STRUCTURED_GROUP: 'OS::Heat::StructuredDeployment',
    'OS::Heat::StructuredDeployments': 'OS::Heat::StructuredDeployment',
}
SERVERS = 'servers'
# the group's attribute -> the member attribute it maps (_member_attribute_name)
MEMBER_ATTRIBUTES = {'deploy_stdouts': 'deploy_stdout', 'deploy_stderrs': 'deploy_stderr',
                     'deploy_status_codes': 'deploy_status_code'}
# Heat's schema default of signal_transport is CFN_SIGNAL (a Heat API), which
# a template may not write here: a member given no transport takes ours.
_SCHEMA_DEFAULTS = {'signal_transport': 'CFN_SIGNAL'}


def member_names(servers):
    """The members' names: the keys of ``servers``, in its order."""
    return [str(name) for name in (servers or {})]


def member_properties(properties, name):
    """One member's properties (build_resource_definition): the group's,
    ``servers`` replaced by ``server``, the value of the member's key."""
    props = copy.deepcopy(dict(properties))
    servers = props.pop(SERVERS, None) or {}
    for key, default in _SCHEMA_DEFAULTS.items():
        if props.get(key) == default:
            del props[key]
    props = dict((k, v) for k, v in props.items() if v is not None)
    props['server'] = servers.get(name)
    return props


def deployment_group_template(group_type, properties):
    """(template dict, member names) of the group's nested stack."""
    names = member_names(properties.get(SERVERS))
    member_type = MEMBER_TYPES[group_type]
    definitions = [(n, {'type': member_type, 'properties': member_properties(properties, n)})
                   for n in names]
    return make_template(definitions), names


def deployment_group_attribute(group, key, path, names, *, ref_of, attr_of, removed=()):
    """An attribute of the group (SoftwareDeploymentGroup.get_attribute):
    the map member name -> the member's attribute, then ``path`` into it."""
    del group, ref_of, removed      # every key is a member attribute; nothing is removed
    member_attr = MEMBER_ATTRIBUTES.get(key, key)
    values = dict((n, attr_of(n, [member_attr])) for n in names)
    return select_path(values, list(path or ()))
