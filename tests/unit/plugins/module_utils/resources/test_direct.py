# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""direct.py through real keystoneauth objects against a
small HTTP server on 127.0.0.1: what each request carried and which path
(the proxy's, or the direct one) sent it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from keystoneauth1 import adapter as ksa_adapter
from keystoneauth1 import session as ksa_session
from keystoneauth1 import token_endpoint

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudNotFound, CloudTransient)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import direct, sdk


class _Server:
    """Answers each request with the next planned status (200 after the
    plan runs out) and keeps what it saw."""

    def __init__(self):
        self.seen, self.plan = [], []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get('Content-Length') or 0)
                body = self.rfile.read(length) if length else b''
                server.seen.append({'method': self.command, 'path': self.path,
                                    'headers': dict(self.headers),
                                    'body': json.loads(body) if body else None})
                status = server.plan.pop(0) if server.plan else 200
                payload = json.dumps({'network': {'id': 'n1'}} if status < 400 else
                                     {'NeutronError': {'message': 'status %d' % status}}).encode()
                self.send_response(status)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args):
                pass
        self.httpd = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:%d/networking/v2.0' % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


class _CountingProxy(ksa_adapter.Adapter):
    """keystoneauth's Adapter (an SDK proxy is one), counting the requests
    that went through it."""
    through = 0

    def request(self, *args, **kwargs):
        type(self).through += 1
        return super().request(*args, **kwargs)


@pytest.fixture
def server():
    srv = _Server()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


def _proxy(url, service_type='network'):
    session = ksa_session.Session(auth=token_endpoint.Token(url, 'tok-1'), app_name='probe')
    _CountingProxy.through = 0
    return _CountingProxy(session, service_type=service_type, endpoint_override=url)


def test_the_first_request_goes_through_the_proxy_and_the_next_ones_direct(server):
    proxy = _proxy(server.url)
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    assert _CountingProxy.through == 1
    sdk.request_json(proxy, 'POST', '/networks', {'network': {'name': 'a'}}, retry_writes=False)
    sdk.request_json(proxy, 'DELETE', '/networks/n1')
    assert _CountingProxy.through == 1          # both went direct
    first, post, delete = server.seen
    assert [post['method'], post['path']] == ['POST', '/networking/v2.0/networks']
    assert post['body'] == {'network': {'name': 'a'}}
    assert delete['path'] == '/networking/v2.0/networks/n1'
    for direct_one in (post, delete):
        # the token keystoneauth gives, the user agent it sent on the first request
        assert direct_one['headers']['X-Auth-Token'] == 'tok-1'
        assert direct_one['headers']['User-Agent'] == first['headers']['User-Agent']
        assert 'keystoneauth1' in direct_one['headers']['User-Agent']
        assert direct_one['headers']['Accept'] == 'application/json'


def test_a_401_on_the_direct_path_is_asked_again_through_keystoneauth(server):
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    server.plan = [401]
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    assert _CountingProxy.through == 2 and len(server.seen) == 3


def test_errors_on_the_direct_path_are_the_same_cloud_errors(server, monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    server.plan = [404]
    with pytest.raises(CloudNotFound, match='status 404'):
        sdk.request_json(proxy, 'GET', '/networks/n1')
    server.plan = [503, 503]
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    assert _CountingProxy.through == 1      # the retries went direct too


def test_a_dropped_connection_on_the_direct_path_is_transient(server, monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    server.httpd.shutdown()
    server.httpd.server_close()
    with pytest.raises(CloudTransient, match='Connection to the cloud failed'):
        sdk.request_json(proxy, 'POST', '/networks', {'network': {}}, retry_writes=False)


def test_keystoneauth_logging_keeps_every_request_on_its_path(server):
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    logger = logging.getLogger('keystoneauth')
    before = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        sdk.request_json(proxy, 'GET', '/networks/n1')
    finally:
        logger.setLevel(before)
    assert _CountingProxy.through == 2
    sdk.request_json(proxy, 'GET', '/networks/n1')
    assert _CountingProxy.through == 2


def test_other_services_always_go_through_their_proxy(server):
    proxy = _proxy(server.url, service_type='block-storage')
    for attempt in range(3):
        sdk.request_json(proxy, 'GET', '/networks/n1?try=%d' % attempt)
    assert _CountingProxy.through == 3
    assert direct.sender(proxy) is None


def test_objects_without_weak_references_stay_on_the_proxy_path():
    class Slotted:
        __slots__ = ('service_type',)
    thing = Slotted()
    thing.service_type = 'network'
    direct.learn(thing, None)
    assert direct.sender(thing) is None


def test_direct_requests_carry_what_the_session_and_the_environment_give(server, monkeypatch):
    """The direct path prepares its requests itself (requests' prepared-request
    usage): the session's own headers go with each, and the environment's
    proxy is honoured, as Session.request would merge them.  Here the cloud's
    host is a name that resolves nowhere, reached through the proxy in
    ``http_proxy`` (the test server, which sees the absolute URL)."""
    port = server.httpd.server_address[1]
    monkeypatch.setenv('http_proxy', 'http://127.0.0.1:%d' % port)
    monkeypatch.delenv('no_proxy', raising=False)
    monkeypatch.delenv('NO_PROXY', raising=False)
    proxy = _proxy('http://neutron.invalid:9696/networking/v2.0')
    proxy.session.session.headers['X-Session-Wide'] = 'kept'
    sdk.request_json(proxy, 'GET', '/networks/n1')
    sdk.request_json(proxy, 'POST', '/networks', {'network': {'name': 'b'}}, retry_writes=False)
    assert _CountingProxy.through == 1
    first, post = server.seen
    assert post['path'] == 'http://neutron.invalid:9696/networking/v2.0/networks'
    assert post['body'] == {'network': {'name': 'b'}}
    assert post['headers']['X-Session-Wide'] == 'kept'
    assert post['headers']['X-Auth-Token'] == 'tok-1'
    assert post['headers']['User-Agent'] == first['headers']['User-Agent']
    # the session's defaults requests adds, each request, as Session.request does
    for key in ('Accept-Encoding', 'Connection'):
        assert post['headers'][key] == first['headers'][key]


def test_a_session_holding_cookies_sends_them_with_each_direct_request(server):
    """A load balancer's cookie: the session's jar goes with every request."""
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    proxy.session.session.cookies.set('lb', 'node-2', domain='127.0.0.1', path='/')
    sdk.request_json(proxy, 'GET', '/networks/n1')
    assert _CountingProxy.through == 1
    assert server.seen[-1]['headers'].get('Cookie') == 'lb=node-2'
