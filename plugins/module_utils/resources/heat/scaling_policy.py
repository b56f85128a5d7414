# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::ScalingPolicy: what a signal does to its AutoScalingGroup,
kept in the stack record.

No cloud call: Heat makes a stack user (Keystone) for the policy and signs
URLs a monitoring service calls; here a signal comes through the
``heat_resource_signal`` module (engine/run/signal.py), so the policy's
``alarm_url`` and ``signal_url`` are None.  Every property but
``auto_scaling_group_id`` changes in place, as in Heat.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ._record_only import RecordOnly


class ScalingPolicy(RecordOnly):
    type_name = 'OS::Heat::ScalingPolicy'

    def create(self, ctx):
        return ctx.physical_name

    def attributes(self, ctx, live, names=None):
        return {'alarm_url': None, 'signal_url': None, 'show': None}
