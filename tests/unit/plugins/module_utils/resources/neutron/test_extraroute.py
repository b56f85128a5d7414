# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.extraroute import ExtraRoute

from .conftest import UUID1
from .neutron_store import NeutronStore

ROUTE = 'OS::Neutron::ExtraRoute'
PROPS = {'router_id': UUID1, 'destination': '10.9.0.0/24', 'nexthop': '10.0.0.5'}
ONE = {'destination': '10.9.0.0/24', 'nexthop': '10.0.0.5'}
OTHER = {'destination': '0.0.0.0/0', 'nexthop': '10.0.0.1'}


@pytest.mark.parametrize('atomic', [True, False])
def test_add_find_drift_remove(make_ctx, conn, atomic):
    store = NeutronStore(conn.network, extensions=('extraroute-atomic',) if atomic else ())
    store.add('/routers', 'router', id=UUID1, routes=[OTHER])
    ctx = make_ctx(ROUTE, PROPS)
    ident = ExtraRoute().create(ctx)
    assert ident == '%s:10.9.0.0/24:10.0.0.5' % UUID1
    if atomic:      # the route alone: no race with another route of the router
        assert store.writes() == [('PUT', '/routers/%s/add_extraroutes' % UUID1, {'router': {'routes': [ONE]}})]
    else:           # Heat's write of the whole list
        assert store.writes() == [('PUT', '/routers/%s' % UUID1, {'router': {'routes': [OTHER, ONE]}})]
    assert store.objects['/routers/' + UUID1][1]['routes'] == [OTHER, ONE]
    assert not any(ExtraRoute.update_allowed(p) for p in PROPS)
    done = make_ctx(ROUTE, PROPS, physical_id=ident)
    assert ExtraRoute().show(done) == ONE and ExtraRoute().drift(done, ONE) == []
    assert ExtraRoute().attributes(done, ONE) == {'show': None}
    assert ExtraRoute().find(ctx) == ident and ExtraRoute().found_is_whole(ctx)
    with pytest.raises(ResourceFailure, match='Route duplicates an existing route.'):
        ExtraRoute().create(make_ctx(ROUTE, PROPS))
    ExtraRoute().delete(done)
    assert store.objects['/routers/' + UUID1][1]['routes'] == [OTHER]
    assert ExtraRoute().show(done) is None and ExtraRoute().drift(done, None) == ['destination']
    assert ExtraRoute().find(ctx) is None
    ExtraRoute().delete(done)       # the route gone already
    del store.objects['/routers/' + UUID1]
    ExtraRoute().delete(done)       # the router too
