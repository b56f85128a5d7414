# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.metering import (
    MeteringLabel, MeteringRule)

from .neutron_fakes import Obj
from .neutron_store import NeutronStore

LABEL = 'OS::Neutron::MeteringLabel'
RULE = 'OS::Neutron::MeteringRule'


def test_label_create_attributes_find_drift_delete(make_ctx, conn):
    store = NeutronStore(conn.network)
    ctx = make_ctx(LABEL, {'description': 'd'})
    ident = MeteringLabel().create(ctx)
    assert store.calls == [('POST', '/metering/metering-labels', {'metering_label': {
        'name': 'st-res-abc', 'description': 'd', 'shared': False}})]
    assert MeteringLabel().create_later(ctx) is None
    assert not any(MeteringLabel.update_allowed(p) for p in ('name', 'description', 'shared'))
    live = MeteringLabel().show(make_ctx(LABEL, {'description': 'd'}, physical_id=ident))
    attrs = MeteringLabel().attributes(ctx, live)
    assert (attrs['name'], attrs['description'], attrs['shared']) == ('st-res-abc', 'd', False)
    assert MeteringLabel().drift(ctx, live) == []
    assert MeteringLabel().drift(ctx, dict(live, shared=True)) == ['shared']
    conn.network.metering_labels.return_value = [Obj(id=ident)]
    assert MeteringLabel().find(ctx) == ident
    assert conn.network.metering_labels.call_args[1] == {'name': 'st-res-abc'}
    MeteringLabel().delete(make_ctx(LABEL, {}, physical_id=ident))
    assert store.objects == {}


def test_rule_create_attributes_find_delete(make_ctx, conn):
    store = NeutronStore(conn.network)
    props = {'metering_label_id': 'l1', 'remote_ip_prefix': '10.0.0.0/24'}
    ctx = make_ctx(RULE, props)
    ident = MeteringRule().create(ctx)
    # Heat's defaults: ingress, not excluded (its schema's 'False', a string, read as a boolean)
    assert store.calls == [('POST', '/metering/metering-label-rules', {'metering_label_rule': {
        'metering_label_id': 'l1', 'remote_ip_prefix': '10.0.0.0/24', 'direction': 'ingress',
        'excluded': False}})]
    live = MeteringRule().show(make_ctx(RULE, props, physical_id=ident))
    attrs = MeteringRule().attributes(ctx, live)
    assert (attrs['direction'], attrs['excluded'], attrs['metering_label_id']) == ('ingress', False, 'l1')
    assert MeteringRule().drift(ctx, live) == []
    assert MeteringRule().find(ctx) == ident and MeteringRule().found_is_whole(ctx)
    assert MeteringRule().find(make_ctx(RULE, dict(props, direction='egress'))) is None
    MeteringRule().delete(make_ctx(RULE, props, physical_id=ident))
    assert store.objects == {}
