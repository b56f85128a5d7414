# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::QoSPolicy (Heat's qos.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from .common import NeutronPlugin, prepare_update


class QoSPolicy(NeutronPlugin):
    type_name = 'OS::Neutron::QoSPolicy'
    entity = 'qos_policy'
    collection = 'qos_policies'
    drift_keys = {'name': 'name', 'description': 'description', 'shared': 'shared'}

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if diff:
            sdk.call(ctx.conn.network.update_qos_policy, ctx.physical_id, **diff)
