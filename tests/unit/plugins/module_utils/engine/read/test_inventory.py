# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import inventory as inv
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

STACK = {'stack_name': 'web', 'id': 'sid', 'outputs': [{'output_key': 'vip', 'output_value': '172.24.4.9'}]}
ROWS = [
    {'resource_name': 'net', 'resource_type': 'OS::Neutron::Net', 'physical_resource_id': 'n1'},
    {'resource_name': 'db', 'resource_type': 'OS::Nova::Server', 'physical_resource_id': 's1',
     'stack_name': 'web', 'stack_id': 'sid'},
    {'resource_name': 'pool', 'resource_type': 'OS::Heat::ResourceGroup', 'physical_resource_id': 'pool-sid',
     'stack_name': 'web', 'stack_id': 'sid'},
    {'resource_name': '0', 'resource_type': 'OS::Nova::Server', 'physical_resource_id': 's2',
     'stack_name': 'web-pool-abc', 'parent_resource': 'pool', 'stack_id': 'pool-sid'},
    {'resource_name': 'half', 'resource_type': 'OS::Nova::Server', 'physical_resource_id': None},
]
SERVERS = {
    's1': {'name': 'web-db-x', 'status': 'ACTIVE',
           'metadata': {'tier': 'db', 'stackers-stack-id': 'sid', 'stackers-resource': 'db'},
           'addresses': {'private': [{'addr': '10.0.0.5', 'version': 4, 'OS-EXT-IPS:type': 'fixed'},
                                     {'addr': '172.24.4.7', 'version': 4, 'OS-EXT-IPS:type': 'floating'}]}},
    's2': {'name': 'web-pool-0', 'status': 'ACTIVE', 'metadata': {},
           'addresses': {'private': [{'addr': '10.0.0.6', 'version': 4, 'OS-EXT-IPS:type': 'fixed'}]}},
}


def _fake(monkeypatch, asked):
    def info(request, conn=None):
        asked.append(request)
        if request.name is None:
            return {'stacks': [{'stack_name': 'web'}]}
        return {'stack': STACK, 'resources': ROWS}
    monkeypatch.setattr(inv, 'info', info)
    monkeypatch.setattr(inv, '_server', lambda conn, sid: SERVERS.get(sid) if conn else None)
    monkeypatch.setattr(inv, 'open_store', lambda path, url, conn, writable: FakeStore(path, url, writable))
    monkeypatch.setattr(inv.swift, 'temp_url',
                        lambda conn, container, obj, method: 'http://127.0.0.1/%s/%s?%s' % (container, obj, method))


class FakeStore(object):
    """s1 takes software deployments (its row keeps its document's place), s2 does not."""
    opened = []

    def __init__(self, path, url=None, writable=True):
        assert writable is False        # the inventory only reads
        self.opened.append(url or path)
        self.closed = False

    def get_stack(self, name):
        return {'name': name}

    def resource_by_physical_id(self, physical_id):
        data = {'deployments_document': ['web-db-x', 'doc-1']} if physical_id == 's1' else {}
        return type('Row', (), {'data': data})()

    def close(self):
        self.closed = True


def test_every_server_of_the_stack_and_its_groups_is_a_host(monkeypatch):
    asked = []
    _fake(monkeypatch, asked)
    found = inv.hosts('/x.sqlite', conn=object())
    assert [h['name'] for h in found] == ['web-db-x', 'web-pool-0']
    db, member = found
    # the floating address where there is one, else the first fixed one
    assert db['vars']['ansible_host'] == '172.24.4.7' and member['vars']['ansible_host'] == '10.0.0.6'
    # the engine's marks are neither groups nor the user's metadata
    assert db['groups'] == ['heat_web', 'heat_meta_tier_db'] and db['vars']['heat_metadata'] == {'tier': 'db'}
    assert member['groups'] == ['heat_web', 'heat_web_pool']
    assert db['vars']['heat_stack_outputs'] == {'vip': '172.24.4.9'}
    assert member['vars']['heat_nested_stack'] == 'web-pool-abc' and member['vars']['heat_server_id'] == 's2'
    # the whole tree is read, down to Heat's nesting limit
    assert asked[1].name == 'web' and asked[1].nested_depth == inv.DEPTH


def test_without_a_cloud_hosts_have_no_address_and_are_named_by_their_resource(monkeypatch):
    _fake(monkeypatch, [])
    found = inv.hosts('/x.sqlite', stacks=['web'])
    assert [h['name'] for h in found] == ['web.db', 'web.pool.0']
    assert all('ansible_host' not in h['vars'] for h in found)


def test_hosts_are_named_by_the_first_of_hostnames_that_names_them(monkeypatch):
    _fake(monkeypatch, [])
    conn = object()

    def named(hostnames, **kw):
        return [h['name'] for h in inv.hosts('/x.sqlite', conn=kw.get('conn', conn), hostnames=hostnames)]
    assert named(['name']) == ['web-db-x', 'web-pool-0']
    assert named(['resource']) == ['db', 'pool.0']
    assert named(['stack_resource']) == ['web.db', 'web.pool.0']
    assert named(['id']) == ['s1', 's2']
    # without a cloud there is no Nova name: the next choice names the host
    assert named(['name', 'resource'], conn=None) == ['db', 'pool.0']
    found = inv.hosts('/x.sqlite', conn=conn, hostnames=['resource'])
    assert [h['vars']['heat_resource_path'] for h in found] == ['db', 'pool.0']
    assert [h['vars']['heat_server_name'] for h in found] == ['web-db-x', 'web-pool-0']


def test_a_name_taken_by_another_host_goes_to_the_next_choice(monkeypatch):
    _fake(monkeypatch, [])
    SERVERS['s3'] = dict(SERVERS['s1'], name='web-db-x')
    ROWS.append({'resource_name': 'db', 'resource_type': 'OS::Nova::Server', 'physical_resource_id': 's3',
                 'stack_name': 'web-pool-abc', 'stack_id': 'pool-sid'})
    try:
        names = [h['name'] for h in inv.hosts('/x.sqlite', conn=object(), hostnames=['name', 'resource'])]
        assert names == ['web-db-x', 'web-pool-0', 'pool.db']
        # and when every choice is taken, the stack-qualified path, then the id
        names = [h['name'] for h in inv.hosts('/x.sqlite', conn=object(), hostnames=['name'])]
        assert names == ['web-db-x', 'web-pool-0', 'web.pool.db']
    finally:
        ROWS.pop()
        del SERVERS['s3']


def test_an_unknown_hostnames_choice_is_refused():
    with pytest.raises(StackersError, match='hostnames: nova is none of name, resource, stack_resource, id'):
        inv.hosts('/x.sqlite', hostnames=['nova'])


def test_group_names_keep_only_what_ansible_takes():
    assert inv.group_name('heat', 'my-stack', 'a.b') == 'heat_my_stack_a_b'


def test_a_server_taking_deployments_has_its_documents_get_url(monkeypatch):
    _fake(monkeypatch, [])
    FakeStore.opened[:] = []
    db, member = inv.hosts('/x.sqlite', conn=object())
    assert db['vars']['heat_deployments_url'] == 'http://127.0.0.1/web-db-x/doc-1?GET'
    assert 'heat_deployments_url' not in member['vars']
    assert FakeStore.opened == ['/x.sqlite']
    # without a cloud nothing can sign it, and the store is not opened again
    FakeStore.opened[:] = []
    assert all('heat_deployments_url' not in h['vars'] for h in inv.hosts('/x.sqlite', stacks=['web']))
    assert FakeStore.opened == []


def test_the_deployments_urls_come_from_the_store_the_stacks_were_read_from(monkeypatch):
    _fake(monkeypatch, [])
    FakeStore.opened[:] = []
    db, _member = inv.hosts(None, conn=object(), store_url='swift://state/p')
    assert db['vars']['heat_deployments_url'] == 'http://127.0.0.1/web-db-x/doc-1?GET'
    assert FakeStore.opened == ['swift://state/p']
