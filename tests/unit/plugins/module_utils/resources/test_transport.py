# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/transport.py: the transport's retries, by method, on the connection's own adapters;
the first token asked for as a read."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import threading

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk, transport


@contextlib.contextmanager
def _serving(handler):
    """A server on 127.0.0.1 answering with ``handler`` for the block: its base URL."""
    import http.server
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield 'http://127.0.0.1:%d' % server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _keystone_connection():
    from keystoneauth1 import session as ks_session

    class _Conn(object):
        session = ks_session.Session()
    return _Conn()


def test_the_connections_own_adapters_get_retries_by_method():
    conn = _keystone_connection()
    assert transport.set_transport_retries(conn) is True
    adapter = conn.session.session.get_adapter('https://cloud.example/')
    retry = adapter.max_retries
    assert retry.total == transport.TRANSPORT_RETRIES and retry.connect == transport.TRANSPORT_RETRIES
    assert retry.raise_on_status is False and retry.respect_retry_after_header is True
    # statuses and lost answers: idempotent methods only; a POST is never sent twice for them
    assert retry.is_retry('GET', 503) and retry.is_retry('DELETE', 500) and retry.is_retry('PUT', 502)
    assert not retry.is_retry('POST', 503) and not retry.is_retry('PATCH', 503)
    assert retry.is_retry('DELETE', 409) and not retry.is_retry('POST', 409)
    assert not retry.is_retry('GET', 404) and not retry.is_retry('GET', 400)
    from urllib3.exceptions import ProtocolError
    with pytest.raises(ProtocolError):
        retry.increment('POST', '/v2.0/ports', error=ProtocolError('answer lost'))
    assert retry.increment('GET', '/v2.0/ports', error=ProtocolError('answer lost')).read == \
        transport.TRANSPORT_RETRIES - 1
    # a class is never touched, and a second call changes nothing (the adapter already retries)
    from requests.adapters import HTTPAdapter
    assert HTTPAdapter().max_retries.total == 0
    assert transport.set_transport_retries(conn) is False
    assert transport.set_transport_retries(object()) is False


def test_retries_someone_chose_are_left_alone():
    from urllib3.util.retry import Retry
    conn = _keystone_connection()
    mine = Retry(total=7)
    # every adapter mounted (keystoneauth 3.x mounts one per scheme, newer ones share one)
    adapters = list(conn.session.session.adapters.values())
    for adapter in adapters:
        adapter.max_retries = mine
    assert transport.set_transport_retries(conn) is False
    assert all(adapter.max_retries is mine for adapter in adapters)


def test_a_503_of_a_get_is_retried_through_a_real_session():
    """Keystone's version discovery and a first lookup meet one 503: the transport absorbs it."""
    import http.server
    import json as _json

    class Flaky(http.server.BaseHTTPRequestHandler):
        seen = []

        def log_message(self, *args):
            pass

        def _answer(self):
            Flaky.seen.append(self.command)
            self.rfile.read(int(self.headers.get('Content-Length') or 0))
            status = 503 if len(Flaky.seen) in (1, 3) else 200
            body = _json.dumps({'n': len(Flaky.seen)}).encode()
            self.send_response(status)
            self.send_header('Content-Length', str(len(body)))
            self.send_header('Retry-After', '0')
            self.end_headers()
            self.wfile.write(body)
        do_GET = do_POST = _answer

    with _serving(Flaky) as base:
        conn = _keystone_connection()
        transport.set_transport_retries(conn)
        url = base + '/v3'
        got = conn.session.get(url, authenticated=False, raise_exc=False)
        assert got.status_code == 200 and Flaky.seen == ['GET', 'GET']
        posted = conn.session.post(url, json={}, authenticated=False, raise_exc=False)
        assert posted.status_code == 503 and Flaky.seen == ['GET', 'GET', 'POST']


def test_an_action_puts_lost_answer_is_not_sent_again_a_states_is():
    """A router interface PUT whose answer is lost goes up like a POST's (the engine's find sees
    what it made); any other PUT is sent again."""
    import http.server

    class Lost(http.server.BaseHTTPRequestHandler):
        seen = []

        def log_message(self, *args):
            pass

        def do_PUT(self):
            Lost.seen.append(self.path)
            self.rfile.read(int(self.headers.get('Content-Length') or 0))
            self.close_connection = True   # done, then hung up before answering: a lost answer

    with _serving(Lost) as root:
        from keystoneauth1 import exceptions as ksa
        conn = _keystone_connection()
        transport.set_transport_retries(conn)
        base = root + '/v2.0/routers/r1'
        with pytest.raises(ksa.ConnectFailure):
            conn.session.put(base + '/add_router_interface', json={'subnet_id': 's'}, authenticated=False)
        assert Lost.seen == ['/v2.0/routers/r1/add_router_interface']
        with pytest.raises(ksa.ConnectFailure):
            conn.session.put(base, json={'router': {}}, authenticated=False)
        assert Lost.seen[1:] == ['/v2.0/routers/r1'] * (1 + transport.TRANSPORT_RETRIES)
    assert transport.ACTION_PUT.search('/v2.0/routers/r/remove_router_interface?x=1')
    assert not transport.ACTION_PUT.search('/v2.0/routers/r/add_router_interfaces')


def test_the_first_token_is_asked_for_as_a_read_once_per_connection(monkeypatch):
    """Keystone answers the token's POST with a 503 once: the transport does not send a POST
    again, ``sdk.call`` does (the token makes nothing in the cloud), and a second call of the
    same connection asks nothing."""
    import http.server
    import json as _json
    from keystoneauth1 import session as ks_session
    from keystoneauth1.identity import v3

    monkeypatch.setattr(sdk, 'BACKOFF', 0)

    class Keystone(http.server.BaseHTTPRequestHandler):
        seen = []

        def log_message(self, *args):
            pass

        def do_POST(self):
            Keystone.seen.append(self.path)
            self.rfile.read(int(self.headers.get('Content-Length') or 0))
            if len(Keystone.seen) == 1:
                status, body = 503, b'{}'
            else:
                status = 201
                body = _json.dumps({'token': {
                    'expires_at': '2999-01-01T00:00:00.000000Z', 'methods': ['password'],
                    'user': {'id': 'u', 'name': 'demo', 'domain': {'id': 'default'}}}}).encode()
            self.send_response(status)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(body)))
            self.send_header('X-Subject-Token', 'tok-1')
            self.end_headers()
            self.wfile.write(body)

    with _serving(Keystone) as base:
        class _Conn(object):
            session = ks_session.Session(auth=v3.Password(
                auth_url=base + '/v3', username='demo', password='secret',
                user_domain_id='default'))
        conn = _Conn()
        transport.set_transport_retries(conn)
        assert transport.fetch_first_token(conn) is True
        assert Keystone.seen == ['/v3/auth/tokens'] * 2
        assert transport.fetch_first_token(conn) is True and len(Keystone.seen) == 2
        assert conn.session.get_token() == 'tok-1' and len(Keystone.seen) == 2
    # a connection that is not keystoneauth's (a test's fake) is left alone
    assert transport.fetch_first_token(object()) is False
