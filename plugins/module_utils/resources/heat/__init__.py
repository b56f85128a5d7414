# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The heat resource plugins: each module imported by name (AnsiballZ ships
only what is imported), each class registered in PLUGINS."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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
