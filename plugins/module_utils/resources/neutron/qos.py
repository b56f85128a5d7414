# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::QoSPolicy and its rules (Heat's qos.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound
from .common import NeutronPlugin, lookup_id, prepare_body, prepare_update
from .raw import raw_delete_path, raw_list


class QoSPolicy(NeutronPlugin):
    type_name = 'OS::Neutron::QoSPolicy'
    entity = 'qos_policy'
    collection = 'qos_policies'
    drift_keys = {'name': 'name', 'description': 'description', 'shared': 'shared'}

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if diff:
            sdk.call(ctx.conn.network.update_qos_policy, ctx.physical_id, **diff)


class QoSRule(NeutronPlugin):
    """Heat's QoSRule: a rule lives under its policy
    (``/qos/policies/{policy}/{kind}s/{id}``), so every call names the
    policy too; its id is kept in the row's data.  A policy holds one rule of
    a kind per direction (Neutron refuses a second), which is how ``find``
    knows the rule an interrupted create made."""

    taggable = False
    kind = None
    # the properties the rule's JSON holds under the same names
    fields = ()

    def policy_id(self, ctx):
        if not ctx.data.get('policy_id'):
            ctx.data['policy_id'] = lookup_id(ctx, 'qos_policy', ctx.properties.get('policy'))
        return ctx.data['policy_id']

    def path(self, ctx, ident=None):
        base = '/qos/policies/%s/%ss' % (self.policy_id(ctx), self.kind)
        return base if ident is None else '%s/%s' % (base, ident)

    def create(self, ctx):
        body = prepare_body(ctx.properties)
        body.pop('policy', None)
        made = sdk.request_json(ctx.conn.network, 'POST', self.path(ctx), {self.kind: body},
                                retry_writes=False)[self.kind]
        ctx.live = made
        return made['id']

    def create_later(self, ctx):
        return None

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        if diff:
            sdk.request_json(ctx.conn.network, 'PUT', self.path(ctx, ctx.physical_id), {self.kind: diff})

    def delete(self, ctx):
        if ctx.physical_id:
            raw_delete_path(ctx.conn, self.path(ctx, ctx.physical_id))

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        try:
            live = sdk.request_json(ctx.conn.network, 'GET', self.path(ctx, ctx.physical_id))[self.kind]
        except CloudNotFound:
            return None
        ctx.live = live
        return live

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        return sorted(k for k in self.fields
                      if ctx.properties.get(k) is not None and live.get(k) != ctx.properties[k])

    def find(self, ctx):
        query = {}
        if 'direction' in self.fields:
            query['direction'] = ctx.properties.get('direction')
        found = raw_list(ctx.conn, self.path(ctx), self.kind + 's', **query)
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return True


class QoSBandwidthLimitRule(QoSRule):
    type_name = 'OS::Neutron::QoSBandwidthLimitRule'
    kind = 'bandwidth_limit_rule'
    fields = ('max_kbps', 'max_burst_kbps', 'direction')


class QoSDscpMarkingRule(QoSRule):
    type_name = 'OS::Neutron::QoSDscpMarkingRule'
    kind = 'dscp_marking_rule'
    fields = ('dscp_mark',)


class QoSMinimumBandwidthRule(QoSRule):
    type_name = 'OS::Neutron::QoSMinimumBandwidthRule'
    kind = 'minimum_bandwidth_rule'
    fields = ('min_kbps', 'direction')


class QoSMinimumPacketRateRule(QoSRule):
    type_name = 'OS::Neutron::QoSMinimumPacketRateRule'
    kind = 'minimum_packet_rate_rule'
    fields = ('min_kpps', 'direction')
