# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.qos import (
    QoSBandwidthLimitRule, QoSDscpMarkingRule, QoSMinimumBandwidthRule, QoSMinimumPacketRateRule, QoSPolicy)

from .neutron_store import NeutronStore

QID = 'aaaaaaaa-0000-0000-0000-000000000001'


def test_create_update_delete(make_ctx, conn, obj, marks):
    conn.network.create_qos_policy.return_value = obj(id=QID, tags=[], rules=[])
    ctx = make_ctx('OS::Neutron::QoSPolicy', {'description': 'd'})
    assert QoSPolicy().create(ctx) == QID
    conn.network.create_qos_policy.assert_called_once_with(name='st-res-abc', description='d', shared=False)
    conn.network.set_tags.assert_not_called()      # the marks come later, off the path
    QoSPolicy().create_later(ctx)()
    assert conn.network.set_tags.call_args[0][1] == marks
    # Neutron serves a policy's tags at /policies/{id}/tags: under /qos it answers 400
    assert conn.network.put.call_args[0] == ('/policies/%s/tags' % QID,)
    assert QoSPolicy().attributes(ctx, ctx.live)['rules'] == []
    upd = make_ctx('OS::Neutron::QoSPolicy', {'description': 'e', 'shared': True}, physical_id=QID,
                   old={'description': 'd'})
    QoSPolicy().update(upd)
    conn.network.update_qos_policy.assert_called_once_with(QID, description='e', shared=True)
    QoSPolicy().delete(upd)
    conn.network.delete_qos_policy.assert_called_once_with(QID)
    assert QoSPolicy().drift(upd, {'name': 'st-res-abc', 'description': 'e', 'shared': False, 'tags': marks}) == [
        'shared']


RULES = [
    (QoSBandwidthLimitRule, 'bandwidth_limit_rule', {'max_kbps': 1000}, {'max_kbps': 1000, 'max_burst_kbps': 0,
                                                                         'direction': 'egress'}),
    (QoSDscpMarkingRule, 'dscp_marking_rule', {'dscp_mark': 8}, {'dscp_mark': 8}),
    (QoSMinimumBandwidthRule, 'minimum_bandwidth_rule', {'min_kbps': 10}, {'min_kbps': 10, 'direction': 'egress'}),
    (QoSMinimumPacketRateRule, 'minimum_packet_rate_rule', {'min_kpps': 10}, {'min_kpps': 10,
                                                                              'direction': 'egress'}),
]


@pytest.mark.parametrize('plugin,kind,props,body', RULES, ids=[r[1] for r in RULES])
def test_rule_create_update_find_drift_delete(make_ctx, conn, plugin, kind, props, body):
    store = NeutronStore(conn.network)
    props = dict(props, policy=QID)
    ctx = make_ctx(plugin.type_name, props)
    ident = plugin().create(ctx)
    base = '/qos/policies/%s/%ss' % (QID, kind)
    # as Heat sends it: the defaults, no name, no policy in the body
    assert store.calls == [('POST', base, {kind: body})]
    assert plugin().create_later(ctx) is None
    assert ctx.data == {'policy_id': QID}
    live = plugin().show(make_ctx(plugin.type_name, props, physical_id=ident, data=dict(ctx.data)))
    assert plugin().drift(ctx, live) == []
    field = sorted(props)[0]
    assert plugin().drift(ctx, dict(live, **{field: 2})) == [field]
    assert plugin().attributes(ctx, live) == {'show': live}
    # every property but the policy changes in place
    assert all(plugin.update_allowed(p) for p in body) and not plugin.update_allowed('policy')
    changed = dict(props, **{field: 16})
    upd = make_ctx(plugin.type_name, changed, physical_id=ident, old=props)
    plugin().update(upd)
    assert store.writes()[-1] == ('PUT', '%s/%s' % (base, ident), {kind: {field: 16}})
    # one rule of a kind per direction: find knows it
    assert plugin().find(make_ctx(plugin.type_name, props)) == ident
    assert plugin().found_is_whole(ctx)
    plugin().delete(upd)
    assert store.calls[-1] == ('DELETE', '%s/%s' % (base, ident), None)
    assert plugin().show(upd) is None and plugin().find(make_ctx(plugin.type_name, props)) is None
    plugin().delete(upd)


def test_rule_finds_its_policy_by_name(make_ctx, conn, obj):
    store = NeutronStore(conn.network)
    conn.network.qos_policies.return_value = [obj(id=QID)]
    ctx = make_ctx('OS::Neutron::QoSDscpMarkingRule', {'policy': 'gold', 'dscp_mark': 8})
    QoSDscpMarkingRule().create(ctx)
    assert conn.network.qos_policies.call_args[1] == {'name': 'gold'}
    assert store.calls[0][1] == '/qos/policies/%s/dscp_marking_rules' % QID
