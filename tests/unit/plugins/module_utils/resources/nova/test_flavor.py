# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.flavor import Flavor

from .conftest import Obj, make_ctx

PROJ = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'


def test_private_flavor_gets_own_project_and_specs(conn):
    flavor = Obj(id='f1', extra_specs={})
    conn.compute.create_flavor.return_value = flavor
    conn.compute.create_flavor_extra_specs.return_value = Obj(id='f1', extra_specs={'a': '1'})
    ctx = make_ctx(conn, 'OS::Nova::Flavor', {'ram': 64, 'vcpus': 1, 'is_public': False,
                                              'extra_specs': {'a': 1}})
    assert Flavor().create(ctx) == 'f1'
    conn.compute.create_flavor.assert_called_once_with(
        name='st-res-abc', ram=64, vcpus=1, disk=0, swap=0, ephemeral=0, rxtx_factor=1.0,
        is_public=False)
    conn.compute.create_flavor_extra_specs.assert_called_once_with(flavor, {'a': '1'})
    conn.compute.flavor_add_tenant_access.assert_called_once_with('f1', 'proj')


def test_update_extra_specs_and_tenants(conn):
    ctx = make_ctx(conn, 'OS::Nova::Flavor', {'ram': 64, 'vcpus': 1, 'is_public': False,
                                              'extra_specs': {'b': '2'}, 'tenants': [PROJ]},
                   physical_id='f1', changed={'extra_specs', 'tenants'})
    conn.compute.get_flavor.return_value = Obj(id='f1', extra_specs={'a': '1'})
    conn.compute.get_flavor_access.return_value = [{'tenant_id': 'old'}]
    Flavor().update(ctx)
    conn.compute.delete_flavor_extra_specs_property.assert_called_once_with('f1', 'a')
    conn.compute.create_flavor_extra_specs.assert_called_once_with('f1', {'b': '2'})
    conn.compute.flavor_remove_tenant_access.assert_called_once_with('f1', 'old')
    conn.compute.flavor_add_tenant_access.assert_called_once_with('f1', PROJ)


def test_attributes_and_drift(conn):
    ctx = make_ctx(conn, 'OS::Nova::Flavor', {'ram': 64, 'vcpus': 1, 'extra_specs': {'a': '1'}})
    live = {'os-flavor-access:is_public': True, 'extra_specs': {'a': '2'}}
    assert Flavor().attributes(ctx, live)['is_public'] is True
    assert Flavor().drift(ctx, live) == ['extra_specs']
    assert Flavor().drift(ctx, dict(live, extra_specs={'a': '1'})) == []
