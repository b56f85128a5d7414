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


PERCENT = 'percent_change_in_capacity'


class ScalingPolicy(RecordOnly):
    type_name = 'OS::Heat::ScalingPolicy'

    @classmethod
    def validate(cls, given):
        # Heat's _validate_min_adjustment_step: a step given as null (or by an
        # attribute not made yet) reads as 0, given all the same.
        props = given.props
        if props['adjustment_type'] != PERCENT and props['min_adjustment_step'] is not None:
            given.fail('min_adjustment_step property should only be specified for '
                       'adjustment_type with value %s.' % PERCENT, 'min_adjustment_step')

    def create(self, ctx):
        return ctx.physical_name

    def attributes(self, ctx, live, names=None):
        return {'alarm_url': None, 'signal_url': None, 'show': None}
