# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.quota import Quota

from .neutron_store import NeutronStore

QUOTA = 'OS::Neutron::Quota'


def test_set_update_drift_and_reset(make_ctx, conn, obj):
    store = NeutronStore(conn.network)
    conn.identity.find_project.return_value = obj(id='proj1')
    ctx = make_ctx(QUOTA, {'project': 'demo', 'network': 5, 'port': -1})
    assert Quota().create(ctx) == 'st-res-abc'       # the physical name, as Heat's
    conn.identity.find_project.assert_called_once_with('demo', ignore_missing=True)
    assert store.calls == [('PUT', '/quotas/proj1', {'quota': {'network': 5, 'port': -1}})]
    assert Quota().create_later(ctx) is None
    assert all(Quota.update_allowed(k) for k in ('network', 'port', 'subnetpool', 'rbac_policy'))
    assert not Quota.update_allowed('project')
    # an update sends every limit the new properties give, changed or not
    upd = make_ctx(QUOTA, {'project': 'demo', 'network': 6, 'port': -1}, physical_id='st-res-abc',
                   old={'project': 'demo', 'network': 5, 'port': -1}, data=dict(ctx.data))
    Quota().update(upd)
    assert store.writes()[-1] == ('PUT', '/quotas/proj1', {'quota': {'network': 6, 'port': -1}})
    live = Quota().show(upd)
    assert Quota().drift(upd, live) == [] and Quota().drift(ctx, live) == ['network']
    assert Quota().attributes(upd, live) == {'show': None}
    assert Quota().find(ctx) is None        # a second PUT is harmless
    # the delete resets the project's quotas (not Heat's, which asks for the physical name's)
    Quota().delete(upd)
    assert store.calls[-1] == ('DELETE', '/quotas/proj1', None)
    Quota().delete(upd)


def test_project_not_found(make_ctx, conn):
    NeutronStore(conn.network)
    conn.identity.find_project.return_value = None
    with pytest.raises(ResourceFailure, match=r'The KeystoneProject \(nope\) could not be found.'):
        Quota().create(make_ctx(QUOTA, {'project': 'nope', 'network': 1}))
