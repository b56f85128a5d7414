# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.segment import Segment

from .conftest import UUID1
from .neutron_fakes import Obj
from .neutron_store import NeutronStore

SEG = 'OS::Neutron::Segment'
PROPS = {'network': 'net', 'network_type': 'vlan', 'physical_network': 'physnet1', 'segmentation_id': 101}


def test_create_update_find_drift_delete(make_ctx, conn):
    store = NeutronStore(conn.network)
    conn.network.networks.return_value = [Obj(id=UUID1)]
    ctx = make_ctx(SEG, PROPS)
    ident = Segment().create(ctx)
    assert store.calls == [('POST', '/segments', {'segment': {
        'name': 'st-res-abc', 'network_id': UUID1, 'network_type': 'vlan', 'physical_network': 'physnet1',
        'segmentation_id': 101}})]
    assert Segment().create_later(ctx) is None
    assert Segment.update_allowed('name') and Segment.update_allowed('description')
    assert not any(Segment.update_allowed(p) for p in PROPS)
    upd = make_ctx(SEG, dict(PROPS, description='d'), physical_id=ident, old=PROPS)
    Segment().update(upd)
    assert store.writes()[-1] == ('PUT', '/segments/%s' % ident, {'segment': {'description': 'd'}})
    live = Segment().show(upd)
    assert Segment().drift(upd, live) == [] and Segment().drift(upd, dict(live, description='x')) == ['description']
    conn.network.segments.return_value = [Obj(id=ident)]
    assert Segment().find(ctx) == ident
    Segment().delete(upd)
    assert store.objects == {}
