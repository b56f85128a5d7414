# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.keystone.catalog import (
    Endpoint, Region, Service)

from .keystone_fakes import conn, ctx, sent, updated


def test_region_id_is_quoted_as_heat_sends_it_and_replaces():
    assert not Region.update_allowed('id')
    assert all(Region.update_allowed(p) for p in ('parent_region', 'description', 'enabled'))
    c = conn()
    c.fake.add('regions', id='top')
    x = ctx('OS::Keystone::Region', {'id': 'east 1', 'parent_region': 'top'}, conn=c)
    ident = Region().create(x)
    assert ident == 'east%201'
    assert sent(c, 'post') == [('/regions', {'region': {'id': 'east%201', 'parent_region_id': 'top',
                                                        'enabled': True}})]
    assert Region().find(x) == ident and Region().found_is_whole(x)
    x.physical_id = ident
    assert Region().show(x)['id'] == ident
    assert Region().drift(x, Region().show(x)) == []
    # Keystone's own id: nothing to find it by
    y = ctx('OS::Keystone::Region', {}, conn=c)
    Region().create(y)
    assert Region().find(y) is None and not Region().found_is_whole(y)


def test_region_update_sends_only_values():
    c = conn()
    ident = c.fake.add('regions', id='r', description='a')
    y = updated(c, 'OS::Keystone::Region', {'id': 'r', 'description': 'a'},
                {'id': 'r', 'enabled': False}, ident)
    Region().update(y)
    # keystoneclient leaves a None out: the description is not cleared
    assert sent(c, 'patch') == [('/regions/r', {'region': {'enabled': False}})]


def test_service_create_update_find():
    c = conn()
    x = ctx('OS::Keystone::Service', {'type': 'orchestration'}, conn=c)
    ident = Service().create(x)
    assert sent(c, 'post') == [('/services', {'service': {'name': 's-res-abc',
                                                          'type': 'orchestration', 'enabled': True}})]
    assert Service().find(x) == ident and Service().found_is_whole(x)
    named = ctx('OS::Keystone::Service', {'type': 't', 'name': 'shared'}, conn=c)
    Service().create(named)
    assert not Service().found_is_whole(named)
    y = updated(c, 'OS::Keystone::Service', {'type': 'orchestration'},
                {'type': 'cloudformation', 'description': 'd'}, ident)
    Service().update(y)
    assert sent(c, 'patch') == [('/services/' + ident, {'service': {'description': 'd',
                                                                    'type': 'cloudformation'}})]
    assert Service().drift(y, Service().show(y)) == []


def test_endpoint_resolves_service_and_region():
    c = conn()
    svc = c.fake.add('services', name='heat', type='orchestration')
    c.fake.add('regions', id='RegionTwo')
    props = {'service': 'heat', 'region': 'RegionTwo', 'interface': 'public',
             'url': 'http://127.0.0.1:8004/v1'}
    x = ctx('OS::Keystone::Endpoint', props, conn=c)
    ident = Endpoint().create(x)
    assert sent(c, 'post') == [('/endpoints', {'endpoint': {
        'name': 's-res-abc', 'region_id': 'RegionTwo', 'service_id': svc, 'interface': 'public',
        'url': 'http://127.0.0.1:8004/v1', 'enabled': True}})]
    assert Endpoint().find(x) == ident
    x.physical_id = ident
    assert Endpoint().drift(x, Endpoint().show(x)) == []
    c.fake.objects['endpoints'][ident]['url'] = 'http://127.0.0.1:1/'
    assert Endpoint().drift(x, Endpoint().show(x)) == ['url']
    assert all(Endpoint.update_allowed(p) for p in ('name', 'region', 'service', 'interface',
                                                    'url', 'enabled'))
