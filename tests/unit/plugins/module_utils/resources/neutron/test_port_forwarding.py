# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.port_forwarding import (
    FloatingIPPortForward)

from .conftest import UUID1, UUID2
from .neutron_store import NeutronStore

PF = 'OS::Neutron::FloatingIPPortForward'
PROPS = {'floating_ip': '172.24.4.10', 'internal_port': UUID2, 'internal_ip_address': '10.0.0.5',
         'internal_port_number': 22, 'external_port': 2222, 'protocol': 'tcp'}


def test_create_update_find_drift_delete(make_ctx, conn):
    store = NeutronStore(conn.network)
    store.add('/floatingips', 'floatingip', id=UUID1, floating_ip_address='172.24.4.10')
    ctx = make_ctx(PF, PROPS)
    ident = FloatingIPPortForward().create(ctx)
    base = '/floatingips/%s/port_forwardings' % UUID1
    # the floating IP by its address (Heat's find_network_ip); Neutron's names for the ports
    assert store.writes() == [('POST', base, {'port_forwarding': {
        'internal_ip_address': '10.0.0.5', 'internal_port': 22, 'external_port': 2222,
        'internal_port_id': UUID2, 'protocol': 'tcp'}})]
    assert ctx.data == {'floating_ip_id': UUID1}
    assert FloatingIPPortForward().create_later(ctx) is None
    assert not FloatingIPPortForward.update_allowed('floating_ip')
    assert all(FloatingIPPortForward.update_allowed(p) for p in PROPS if p != 'floating_ip')
    upd = make_ctx(PF, dict(PROPS, external_port=2200, internal_port_number=23), physical_id=ident,
                   old=PROPS, data=dict(ctx.data))
    FloatingIPPortForward().update(upd)
    assert store.writes()[-1][:2] == ('PUT', '%s/%s' % (base, ident))
    assert store.writes()[-1][2] == {'port_forwarding': {'external_port': 2200, 'internal_port': 23}}
    live = FloatingIPPortForward().show(upd)
    assert FloatingIPPortForward().drift(upd, live) == []
    assert FloatingIPPortForward().drift(upd, dict(live, internal_port=80)) == ['internal_port_number']
    assert FloatingIPPortForward().attributes(upd, live)['show'] == live
    # one forwarding per floating IP, protocol and external port
    assert FloatingIPPortForward().find(make_ctx(PF, dict(PROPS, external_port=2200))) == ident
    assert FloatingIPPortForward().find(make_ctx(PF, PROPS)) is None
    FloatingIPPortForward().delete(upd)
    assert store.calls[-1] == ('DELETE', '%s/%s' % (base, ident), None)
    assert FloatingIPPortForward().show(upd) is None
    FloatingIPPortForward().delete(upd)


def test_floating_ip_not_found(make_ctx, conn):
    NeutronStore(conn.network)
    with pytest.raises(ResourceFailure, match='No FloatingIP found for 172.24.4.10'):
        FloatingIPPortForward().create(make_ctx(PF, PROPS))
