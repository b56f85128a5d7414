# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock
from urllib.parse import unquote

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources import http_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.resource_tasks import failure_reason  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (  # noqa: E402
    CloudConflict, CloudError, ResourceActionNotSupported, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.swift import container as mod  # noqa: E402

T = 'OS::Swift::Container'
Container = PLUGINS[T]
ENDPOINT = 'http://127.0.0.1:8080/object-store/v1/AUTH_p1'


class Swift(object):
    """An account of containers and objects, answering as Swift does."""

    def __init__(self):
        self.account = {}
        self.containers = {}   # name -> {'headers': {}, 'objects': {name: bytes}}

    def __call__(self, method, url, kw):
        path = url
        parts = [unquote(p) for p in url.strip('/').split('/')] if url.strip('/') else []
        headers = kw.get('headers') or {}
        if not parts:
            if method == 'POST':
                self.account.update(headers)
                return fakes.Response(204)
            count = {'X-Account-Container-Count': str(len(self.containers))}
            return fakes.Response(204, headers=dict(self.account, **count))
        box = self.containers.get(parts[0])
        if len(parts) == 2:
            if box is None or parts[1] not in box['objects']:
                return fakes.Response(404, b'<html><h1>Not Found</h1></html>',
                                      {'Content-Type': 'text/html'})
            del box['objects'][parts[1]]
            return fakes.Response(204)
        if method == 'PUT':
            if box is None:
                self.containers[parts[0]] = {'headers': dict(headers), 'objects': {}}
                return fakes.Response(201)
            box['headers'].update(headers)
            return fakes.Response(202)
        if box is None:
            return fakes.Response(404, b'<html><h1>Not Found</h1></html>', {'Content-Type': 'text/html'})
        if method == 'HEAD':
            out = dict(box['headers'])
            out.update({'X-Container-Object-Count': str(len(box['objects'])),
                        'X-Container-Bytes-Used': str(sum(len(o) for o in box['objects'].values())),
                        'X-Trans-Id': 'tx1'})
            return fakes.Response(204, headers=out)
        if method == 'GET':
            assert kw['params']['format'] == 'json'
            names = sorted(box['objects'])[:kw['params']['limit']]
            return fakes.Response(200, [{'name': n, 'bytes': 1} for n in names])
        if method == 'DELETE':
            if box['objects']:
                return fakes.Response(409, b'<html><h1>Conflict</h1><p>There was a conflict when '
                                      b'trying to complete your request.</p></html>',
                                      {'Content-Type': 'text/html'})
            del self.containers[parts[0]]
            return fakes.Response(204)
        raise AssertionError('unexpected %s %s' % (method, path))


def _ctx(props, **kw):
    swift = Swift()
    conn = mock.MagicMock()
    conn.object_store = fakes.Proxy(swift, endpoint=ENDPOINT)
    ctx = fakes.ctx(T, props, conn=conn, name=kw.pop('name', 'box'), **kw)
    return ctx, swift, conn.object_store


def _made(ctx):
    ctx.physical_id = Container().create(ctx)
    assert Container().check_create_complete(ctx) is True
    return ctx.physical_id


def test_registered_with_heats_schema():
    assert PLUGINS[T] is mod.Container
    assert not any(Container.update_allowed(k) for k in Container.heat_type().properties)


def test_create_sends_heats_headers_and_the_account_metadata_after_the_id():
    ctx, swift, proxy = _ctx({'X-Container-Meta': {'Web-Index': 'index.html', 'n': 1, 'u': 'é€'},
                              'X-Container-Read': '.r:*', 'X-Account-Meta': {'Owner': 'me'}})
    name = Container().create(ctx)
    assert name == 's-box-x'
    sent = proxy.requests[0][2]['headers']
    assert sent == {'X-Container-Meta-Web-Index': 'index.html', 'X-Container-Meta-n': '1',
                    'X-Container-Meta-u': 'é€'.encode('utf-8').decode('latin-1'),
                    'X-Container-Read': '.r:*'}
    # the account's POST waits until the name is committed
    assert proxy.writes() == [('PUT', '/s-box-x')]
    ctx.physical_id = name
    assert Container().check_create_complete(ctx) is True
    assert proxy.writes()[-1] == ('POST', '/')
    assert swift.account['X-Account-Meta-Owner'] == 'me'
    assert Container().check_create_complete(ctx) is True
    assert len(proxy.writes()) == 2


def test_the_name_property_names_the_container_and_no_write_without_metadata():
    ctx, swift, proxy = _ctx({'name': 'my box é'})
    assert _made(ctx) == 'my box é'
    assert proxy.requests[0][:2] == ('PUT', '/my box é')
    assert 'headers' not in proxy.requests[0][2]
    assert list(swift.containers) == ['my box é'] and swift.account == {}
    assert Container().reference_id(ctx) == 'my box é'


def test_attributes_from_one_head_and_the_endpoint():
    ctx, swift, proxy = _ctx({'X-Container-Meta': {'k': 'v'}})
    _made(ctx)
    swift.containers['s-box-x']['objects']['o'] = b'abc'
    live = Container().show(ctx)
    assert [r[0] for r in proxy.requests[-1:]] == ['HEAD']
    attrs = Container().attributes(ctx, live)
    assert attrs['DomainName'] == '127.0.0.1'
    assert attrs['RootURL'] == ENDPOINT
    assert attrs['WebsiteURL'] == ENDPOINT + '/s-box-x'
    # Heat gives swiftclient's header strings, names in lower case
    assert attrs['ObjectCount'] == '1' and attrs['BytesUsed'] == '3'
    assert attrs['HeadContainer']['x-container-meta-k'] == 'v'
    assert attrs['show'] == attrs['HeadContainer']
    assert len(proxy.requests) == 2   # the PUT and the HEAD


def test_head_values_in_utf8_are_read_back_as_text():
    assert mod.head_dict({'X-Container-Meta-U': 'é€'.encode('utf-8').decode('latin-1'),
                          'X-Odd': 'caf\xe9'}) == {'x-container-meta-u': 'é€', 'x-odd': 'caf\xe9'}


def test_a_container_gone_shows_none_and_fails_the_check():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    del swift.containers['s-box-x']
    assert Container().show(ctx) is None
    assert Container().find(ctx) is None
    with pytest.raises(ResourceFailure, match='not found'):
        Container().check(ctx)
    attrs = Container().attributes(ctx, None)
    assert attrs['ObjectCount'] is None and attrs['HeadContainer'] is None
    assert attrs['RootURL'] == ENDPOINT


def test_find_after_an_interrupted_create():
    ctx, swift, proxy = _ctx({})
    assert Container().find(ctx) is None
    Container().create(ctx)
    assert Container().find(ctx) == 's-box-x'


def test_delete_of_a_non_empty_container_is_refused_with_heats_message():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    swift.containers['s-box-x']['objects'].update({'a': b'1', 'b': b'2'})
    with pytest.raises(ResourceActionNotSupported) as exc:
        Container().delete(ctx)
    assert str(exc.value) == ('Deleting non-empty container (s-box-x) when PurgeOnDelete is False '
                              'is not supported for resource.')
    assert failure_reason(exc.value, 'box').startswith('ResourceActionNotSupported: resources.box: ')
    assert proxy.writes() == [('PUT', '/s-box-x')]
    # one object is enough to know: the listing asks for one
    assert proxy.requests[-1][2]['params'] == {'format': 'json', 'limit': 1}


def test_an_empty_container_is_deleted():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    Container().delete(ctx)
    assert Container().check_delete_complete(ctx) is True
    assert swift.containers == {}
    assert proxy.writes()[-1] == ('DELETE', '/s-box-x')


def test_purge_on_delete_deletes_the_objects_then_the_container(monkeypatch):
    monkeypatch.setattr(mod, 'PURGE_BATCH', 2)
    ctx, swift, proxy = _ctx({'PurgeOnDelete': True})
    _made(ctx)
    swift.containers['s-box-x']['objects'].update({'a': b'1', 'b/c': b'2', 'd': b'3'})
    Container().delete(ctx)
    assert Container().check_delete_complete(ctx) is False     # a full batch: more may be left
    assert sorted(swift.containers['s-box-x']['objects']) == ['d']
    assert Container().check_delete_complete(ctx) is True
    assert swift.containers == {}
    deletes = [p for m, p in proxy.writes() if m == 'DELETE']
    assert deletes == ['/s-box-x/a', '/s-box-x/b/c', '/s-box-x/d', '/s-box-x']


def test_an_object_arriving_during_a_purge_is_purged_too():
    ctx, swift, proxy = _ctx({'PurgeOnDelete': True})
    _made(ctx)
    proxy.faults[('DELETE', '/s-box-x')] = 409
    Container().delete(ctx)
    assert Container().check_delete_complete(ctx) is False
    assert Container().check_delete_complete(ctx) is True
    assert swift.containers == {}


def test_without_purge_a_conflict_at_the_containers_delete_fails():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    Container().delete(ctx)
    swift.containers['s-box-x']['objects']['late'] = b'x'
    with pytest.raises(CloudConflict):
        Container().check_delete_complete(ctx)


def test_a_container_already_gone_is_deleted():
    ctx, swift, proxy = _ctx({'PurgeOnDelete': True})
    _made(ctx)
    del swift.containers['s-box-x']
    Container().delete(ctx)
    assert Container().check_delete_complete(ctx) is True
    ctx2, _s, proxy2 = _ctx({})
    ctx2.physical_id = 'gone'
    Container().delete(ctx2)
    assert Container().check_delete_complete(ctx2) is True
    never, _s, proxy3 = _ctx({})
    Container().delete(never)
    assert Container().check_delete_complete(never) is True
    assert proxy3.requests == []


def test_other_errors_are_typed():
    ctx, swift, proxy = _ctx({})
    proxy.faults[('PUT', '/s-box-x')] = 403
    with pytest.raises(CloudError) as exc:
        Container().create(ctx)
    assert exc.value.status == 403 and 'injected 403' in str(exc.value)


def test_drift_compares_acls_and_the_templates_metadata_keys():
    ctx, swift, proxy = _ctx({'X-Container-Meta': {'k': 'v'}, 'X-Container-Write': 'p1:*',
                              'X-Account-Meta': {'a': 'b'}})
    _made(ctx)
    swift.containers['s-box-x']['headers']['X-Container-Meta-Other'] = 'whatever'
    assert Container().drift(ctx, Container().show(ctx)) == []
    swift.containers['s-box-x']['headers'].update({'X-Container-Meta-k': 'w', 'X-Container-Read': 'x'})
    swift.account['X-Account-Meta-a'] = 'c'
    assert Container().drift(ctx, Container().show(ctx)) == [
        'X-Container-Read', 'X-Container-Meta', 'X-Account-Meta']
    assert Container().drift(ctx, None) == []


def test_suspend_and_resume_do_nothing_as_in_heat():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    before = len(proxy.requests)
    for step in ('suspend', 'check_suspend_complete', 'resume', 'check_resume_complete'):
        getattr(Container(), step)(ctx)
    assert len(proxy.requests) == before


def test_the_url_attributes_are_computed_only_when_asked():
    ctx, swift, proxy = _ctx({})
    _made(ctx)
    ctx.conn.object_store = mock.MagicMock(wraps=proxy)
    live = Container().show(ctx)
    ctx.conn.object_store.reset_mock()
    attrs = Container().attributes(ctx, live, names={'ObjectCount', 'HeadContainer'})
    assert 'RootURL' not in attrs and ctx.conn.object_store.mock_calls == []
    assert Container().attributes(ctx, live, names={'RootURL'})['RootURL'] == ENDPOINT
    assert set(Container.costly_attributes) == {'DomainName', 'WebsiteURL', 'RootURL'}
