# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The neutron resource plugins: each module imported by name (AnsiballZ ships
only what is imported), each class registered in PLUGINS."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .extrarouteset import ExtraRouteSet
from .floatingip import FloatingIP, FloatingIPAssociation
from .net import Net, ProviderNet
from .port import Port
from .qos import QoSPolicy
from .router import Router, RouterInterface
from .security_group import SecurityGroup, SecurityGroupRule
from .subnet import Subnet
from .trunk import Trunk

PLUGINS = dict((cls.type_name, cls) for cls in (
    Net, ProviderNet, Subnet, Router, RouterInterface, ExtraRouteSet, Port, FloatingIP,
    FloatingIPAssociation, SecurityGroup, SecurityGroupRule, Trunk, QoSPolicy))
