# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.subnetpool import (
    AddressScope, SubnetPool, covered)

from .conftest import UUID1
from .neutron_fakes import Obj
from .neutron_store import NeutronStore

POOL = 'OS::Neutron::SubnetPool'
SCOPE = 'OS::Neutron::AddressScope'


def test_covered_merges_adjacent_prefixes_as_neutron_does():
    assert covered(['10.0.1.0/24', '10.0.0.0/24', 'fd00::/64']) == ['10.0.0.0/23', 'fd00::/64']
    assert covered(['10.0.0.0/24']) != covered(['10.0.0.0/23'])


def test_pool_create_update_drift_delete(make_ctx, conn, marks):
    store = NeutronStore(conn.network)
    props = {'prefixes': ['10.0.0.0/24'], 'address_scope': UUID1, 'min_prefixlen': 26, 'tags': ['t']}
    ctx = make_ctx(POOL, props)
    ident = SubnetPool().create(ctx)
    posted = store.calls[0]
    assert posted == ('POST', '/subnetpools', {'subnetpool': {
        'name': 'st-res-abc', 'prefixes': ['10.0.0.0/24'], 'address_scope_id': UUID1, 'min_prefixlen': 26,
        'is_default': False, 'shared': False}})
    # the user's tags go at once, with the marks (Heat sets them before COMPLETE)
    assert store.calls[1] == ('PUT', '/subnetpools/%s/tags' % ident, {'tags': ['t'] + marks})
    assert SubnetPool().create_later(ctx) is None
    live = SubnetPool().show(make_ctx(POOL, props, physical_id=ident))
    assert SubnetPool().drift(ctx, live) == []
    # Neutron merges the prefixes it is given: the same addresses are no drift
    assert SubnetPool().drift(ctx, dict(live, prefixes=['10.0.0.0/25', '10.0.0.128/25'])) == []
    assert SubnetPool().drift(ctx, dict(live, prefixes=['10.0.0.0/23'], min_prefixlen=24)) == [
        'min_prefixlen', 'prefixes']
    grown = dict(props, prefixes=['10.0.0.0/24', '10.1.0.0/24'], name='p2', tags=['u'])
    upd = make_ctx(POOL, grown, physical_id=ident, old=props)
    SubnetPool().update(upd)
    assert store.writes()[-2:] == [
        ('PUT', '/subnetpools/%s/tags' % ident, {'tags': ['u'] + marks}),
        ('PUT', '/subnetpools/%s' % ident, {'subnetpool': {'prefixes': ['10.0.0.0/24', '10.1.0.0/24'],
                                                           'name': 'p2'}})]
    SubnetPool().delete(upd)
    assert store.objects == {}
    SubnetPool().delete(upd)    # gone already: done


def test_pool_prefixes_may_only_grow_and_scope_may_go(make_ctx, conn):
    store = NeutronStore(conn.network)
    store.add('/subnetpools', 'subnetpool', id=UUID1, prefixes=['10.0.0.0/23'])
    old = {'prefixes': ['10.0.0.0/24', '10.0.1.0/24'], 'address_scope': UUID1}
    with pytest.raises(ResourceFailure, match=r"Property prefixes updated value \['10.0.0.0/24'\] should be "
                                              r"superset of existing value \['10.0.0.0/24', '10.0.1.0/24'\]"):
        SubnetPool().update(make_ctx(POOL, {'prefixes': ['10.0.0.0/24']}, physical_id=UUID1, old=old))
    # the same addresses written otherwise are a superset; a scope removed is sent as null
    SubnetPool().update(make_ctx(POOL, {'prefixes': ['10.0.0.0/23']}, physical_id=UUID1, old=old))
    assert store.writes()[-1] == ('PUT', '/subnetpools/%s' % UUID1, {'subnetpool': {
        'prefixes': ['10.0.0.0/23'], 'address_scope_id': None}})


def test_pool_update_rules():
    assert SubnetPool.update_allowed('prefixes') and SubnetPool.update_allowed('address_scope')
    assert not SubnetPool.update_allowed('shared') and not SubnetPool.update_allowed('tenant_id')


def test_pool_find_by_marks_then_generated_name(make_ctx, conn, marks):
    conn.network.subnet_pools.side_effect = [[], [Obj(id='p1')]]
    assert SubnetPool().find(make_ctx(POOL, {'prefixes': ['10.0.0.0/24']})) == 'p1'
    assert conn.network.subnet_pools.call_args_list[0][1] == {'tags': marks, 'name': 'st-res-abc'}
    assert conn.network.subnet_pools.call_args_list[1][1] == {'name': 'st-res-abc'}


def test_scope_create_update_find_drift(make_ctx, conn):
    store = NeutronStore(conn.network)
    ctx = make_ctx(SCOPE, {'ip_version': 6})
    ident = AddressScope().create(ctx)
    assert store.calls == [('POST', '/address-scopes', {'address_scope': {
        'name': 'st-res-abc', 'ip_version': 6, 'shared': False}})]
    assert AddressScope().create_later(ctx) is None     # no tags on an address scope
    upd = make_ctx(SCOPE, {'ip_version': 6, 'shared': True, 'name': 'x'}, physical_id=ident,
                   old={'ip_version': 6})
    AddressScope().update(upd)
    assert store.writes()[-1] == ('PUT', '/address-scopes/%s' % ident,
                                  {'address_scope': {'shared': True, 'name': 'x'}})
    live = AddressScope().show(upd)
    assert AddressScope().drift(upd, live) == []
    assert AddressScope().drift(upd, dict(live, shared=False)) == ['shared']
    assert AddressScope().attributes(upd, live)['show']['ip_version'] == 6
    assert not AddressScope.update_allowed('ip_version') and AddressScope.update_allowed('shared')
    # no marks: the generated name alone finds it
    conn.network.address_scopes.return_value = [Obj(id=ident)]
    assert AddressScope().find(make_ctx(SCOPE, {})) == ident
    assert conn.network.address_scopes.call_args[1] == {'name': 'st-res-abc'}
    assert AddressScope().found_is_whole(make_ctx(SCOPE, {}))
