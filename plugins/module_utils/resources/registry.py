# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The explicit registry of resource plugins: type name -> plugin class.

AnsiballZ ships only the module_utils a module imports by name, so each
plugin module is imported here explicitly and registered in ``PLUGINS``;
nothing of the collection is discovered at run time.  Users' own types are
added to ``PLUGINS`` by plugin_loader.load, from the directories a task names.  A type Heat knows but that has no plugin
here validates at the template level, is listed as not supported, and is
refused by anything that would create it (``require_supported``).

The registry is a module of its own, not the package's ``__init__.py``
(which, like each service package's, is empty): importing one helper of
``resources/`` (the Swift store's requests, a signal's TempURL) does not load
every plugin, so heat_stack_info and the inventory plugin do not.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import UnsupportedResourceType
from .cinder.volume import Volume
from .cinder.volume_attachment import VolumeAttachment
from .cinder.volume_type import VolumeType
from .glance.image import Image
from .glance.web_image import WebImage
from .heat.config_types import CloudConfig, MultipartMime, SoftwareComponent, StructuredConfig
from .heat import autoscaling_group, group_kinds
from .heat.delay import Delay
from .heat.none_resource import NoneResource
from .heat.random_string import RandomString
from .heat.scaling_policy import ScalingPolicy
from .heat.signal_handles import (AwsWaitConditionHandle, SwiftSignalHandle, UpdateWaitConditionHandle,
                                  WaitConditionHandle)
from .heat.software_config import SoftwareConfig
from .heat.software_deployment import SoftwareDeployment
from .heat.structured_deployment import StructuredDeployment
from .heat.testresource import TestResource
from .heat.value import Value
from .heat.wait_conditions import AwsWaitCondition, SwiftSignal, WaitCondition
from .keystone import catalog as keystone_catalog, identity as keystone_identity
from .keystone.role_assignments import GroupRoleAssignment, UserRoleAssignment
from .keystone.user import User as KeystoneUser
from .neutron.extrarouteset import ExtraRouteSet
from .neutron.floatingip import FloatingIP, FloatingIPAssociation
from .neutron.net import Net, ProviderNet
from .neutron.port import Port
from .neutron.qos import QoSPolicy
from .neutron.router import Router, RouterInterface
from .neutron.security_group import SecurityGroup, SecurityGroupRule
from .neutron.subnet import Subnet
from .neutron.trunk import Trunk
from .neutron.subnetpool import AddressScope, SubnetPool
from .neutron.rbac import RBACPolicy
from .neutron.qos import (QoSBandwidthLimitRule, QoSDscpMarkingRule, QoSMinimumBandwidthRule,
                          QoSMinimumPacketRateRule)
from .neutron.quota import Quota as NeutronQuota
from .neutron.extraroute import ExtraRoute
from .neutron.port_forwarding import FloatingIPPortForward
from .neutron.metering import MeteringLabel, MeteringRule
from .neutron.segment import Segment
from .nova.flavor import Flavor
from .nova.keypair import KeyPair
from .nova.server import Server
from .nova.server_group import ServerGroup
from .octavia import admin as octavia_admin, l7, loadbalancer, pool
from .swift.container import Container

# by service, in the order the packages' own lists had them
HEAT = (Value, NoneResource, RandomString, TestResource, Delay, ScalingPolicy,
        SwiftSignalHandle, SwiftSignal, WaitConditionHandle, WaitCondition,
        UpdateWaitConditionHandle, AwsWaitConditionHandle, AwsWaitCondition,
        SoftwareConfig, SoftwareDeployment, StructuredConfig, CloudConfig,
        MultipartMime, SoftwareComponent, StructuredDeployment)
NOVA = (Server, KeyPair, ServerGroup, Flavor)
NEUTRON = (Net, ProviderNet, Subnet, Router, RouterInterface, ExtraRouteSet, Port, FloatingIP,
           FloatingIPAssociation, SecurityGroup, SecurityGroupRule, Trunk, QoSPolicy,
           SubnetPool, AddressScope, RBACPolicy, QoSBandwidthLimitRule, QoSDscpMarkingRule,
           QoSMinimumBandwidthRule, QoSMinimumPacketRateRule, NeutronQuota, ExtraRoute,
           FloatingIPPortForward, MeteringLabel, MeteringRule, Segment)
CINDER = (Volume, VolumeAttachment, VolumeType)
OCTAVIA = (loadbalancer.LoadBalancer, loadbalancer.Listener, pool.Pool, pool.PoolMember,
           pool.HealthMonitor, l7.L7Policy, l7.L7Rule, octavia_admin.Flavor, octavia_admin.FlavorProfile,
           octavia_admin.Quota)
SWIFT = (Container,)
GLANCE = (WebImage, Image)
KEYSTONE = (keystone_identity.Domain, keystone_identity.Project, KeystoneUser,
            keystone_identity.Group, keystone_identity.Role, keystone_catalog.Region,
            keystone_catalog.Service, keystone_catalog.Endpoint, UserRoleAssignment,
            GroupRoleAssignment)

PLUGINS = dict((cls.type_name, cls)
               for group in (HEAT, NOVA, NEUTRON, CINDER, OCTAVIA, SWIFT, GLANCE, KEYSTONE)
               for cls in group)

# The types the engine runs as nested stacks (groups, OS::Heat::Stack) have no
# plugin: type name -> the rule of their Heat validate().
NESTED_RULES = {
    group_kinds.RESOURCE_GROUP: group_kinds.validate_resource_group,
    group_kinds.RESOURCE_CHAIN: group_kinds.validate_chain,
    autoscaling_group.ASG: autoscaling_group.validate,
}


def is_supported(type_name):
    """True when the collection can create, update and delete this type."""
    return type_name in PLUGINS


def type_rule(type_name):
    """The rule of Heat's own validate() for ``type_name`` (called with a
    hot/type_checks.py RuleInput by strict validation): the plugin's
    ``validate``, or that of a type run as a nested stack; None when the
    type has none."""
    plugin = PLUGINS.get(type_name)
    if plugin is not None:
        return getattr(plugin, 'validate', None)
    return NESTED_RULES.get(type_name)


def require_supported(type_name, resource_name=None):
    """The plugin class of ``type_name``; UnsupportedResourceType (naming the
    resource) when the collection does not implement the type."""
    plugin = PLUGINS.get(type_name)
    if plugin is None:
        where = 'resource "%s": ' % resource_name if resource_name else ''
        raise UnsupportedResourceType(
            '%s%s is a Heat resource type that stackers.orchestration does not support yet'
            % (where, type_name), type_name=type_name)
    return plugin
