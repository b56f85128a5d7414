# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.rbac import RBACPolicy

from .conftest import UUID1
from .neutron_store import NeutronStore

RBAC = 'OS::Neutron::RBACPolicy'


def test_create_update_find_drift_delete(make_ctx, conn, obj):
    store = NeutronStore(conn.network)
    conn.network.subnet_pools.return_value = [obj(id=UUID1)]
    props = {'object_type': 'subnetpool', 'object_id': 'pool', 'action': 'access_as_shared',
             'target_tenant': 'p1'}
    ctx = make_ctx(RBAC, props)
    ident = RBACPolicy().create(ctx)
    # the object named is looked up as its type (Heat's translation); no name, no tags
    assert conn.network.subnet_pools.call_args[1] == {'name': 'pool'}
    assert store.calls == [('POST', '/rbac-policies', {'rbac_policy': dict(props, object_id=UUID1)})]
    assert RBACPolicy().create_later(ctx) is None
    assert RBACPolicy.update_allowed('target_tenant')
    assert not any(RBACPolicy.update_allowed(p) for p in ('object_type', 'object_id', 'action'))
    upd = make_ctx(RBAC, dict(props, target_tenant='p2'), physical_id=ident, old=props)
    RBACPolicy().update(upd)
    assert store.writes()[-1] == ('PUT', '/rbac-policies/%s' % ident, {'rbac_policy': {'target_tenant': 'p2'}})
    live = RBACPolicy().show(upd)
    assert RBACPolicy().drift(upd, live) == []
    assert RBACPolicy().drift(ctx, live) == ['target_tenant']
    # Neutron keeps one policy per object, action and target
    assert RBACPolicy().find(upd) == ident and RBACPolicy().find(ctx) is None
    assert RBACPolicy().found_is_whole(upd)
    RBACPolicy().delete(upd)
    assert store.objects == {}
