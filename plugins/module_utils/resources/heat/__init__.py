# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The heat resource plugins: each module imported by name (AnsiballZ ships
only what is imported), each class registered in PLUGINS.  The types the
engine runs as nested stacks (groups, OS::Heat::Stack) have no plugin; the
rules of their validate() are in NESTED_RULES."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from . import autoscaling_group, group_kinds
from .delay import Delay
from .none_resource import NoneResource
from .random_string import RandomString
from .scaling_policy import ScalingPolicy
from .config_types import CloudConfig, MultipartMime, SoftwareComponent, StructuredConfig
from .software_config import SoftwareConfig
from .software_deployment import SoftwareDeployment
from .structured_deployment import StructuredDeployment
from .signal_handles import (AwsWaitConditionHandle, SwiftSignalHandle, UpdateWaitConditionHandle,
                             WaitConditionHandle)
from .testresource import TestResource
from .value import Value
from .wait_conditions import AwsWaitCondition, SwiftSignal, WaitCondition

PLUGINS = dict((cls.type_name, cls)
               for cls in (Value, NoneResource, RandomString, TestResource, Delay, ScalingPolicy,
                           SwiftSignalHandle, SwiftSignal, WaitConditionHandle, WaitCondition,
                           UpdateWaitConditionHandle, AwsWaitConditionHandle, AwsWaitCondition,
                           SoftwareConfig, SoftwareDeployment, StructuredConfig, CloudConfig,
                           MultipartMime, SoftwareComponent, StructuredDeployment))

# type name -> the rule of Heat's validate() for a type run as a nested stack.
NESTED_RULES = {
    group_kinds.RESOURCE_GROUP: group_kinds.validate_resource_group,
    group_kinds.RESOURCE_CHAIN: group_kinds.validate_chain,
    autoscaling_group.ASG: autoscaling_group.validate,
}
