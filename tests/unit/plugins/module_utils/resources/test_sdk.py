# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""sdk.py: the one layer that knows openstacksdk's exceptions, and the proxies made once."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import logging
import threading
import time

import pytest
from keystoneauth1 import adapter as ksa_adapter
from keystoneauth1 import exceptions as ksa_exc
from keystoneauth1 import session as ksa_session
from keystoneauth1 import token_endpoint
from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudConflict, CloudError, CloudNotFound, CloudTransient)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk


def _http(status):
    return sdk_exc.HttpException('status %d' % status, http_status=status)


def test_translate_by_type_and_status():
    assert isinstance(sdk.translate(sdk_exc.NotFoundException('x')), CloudNotFound)
    assert isinstance(sdk.translate(sdk_exc.ConflictException('x')), CloudConflict)
    assert isinstance(sdk.translate(_http(503)), CloudTransient)
    assert isinstance(sdk.translate(_http(429)), CloudTransient)
    bad = sdk.translate(_http(400))
    assert not isinstance(bad, (CloudNotFound, CloudConflict, CloudTransient))
    assert isinstance(bad, CloudError) and bad.status == 400
    assert isinstance(sdk.translate(ksa_exc.ConnectFailure('down')), CloudTransient)
    assert sdk.translate(ValueError('not the SDK')) is None


def test_an_answer_that_is_not_json_is_a_cloud_error():
    """keystoneauth wraps requests' transport errors in its own; what requests raises itself on
    the cloud path is its JSONDecodeError, for a body that is not JSON."""
    import requests
    mapped = sdk.translate(requests.exceptions.JSONDecodeError('Expecting value', '<html>', 0))
    assert isinstance(mapped, CloudError) and not isinstance(mapped, CloudTransient)
    # the SDK's HttpException is a requests HTTPError too: still mapped by its status
    assert isinstance(sdk.translate(_http(404)), CloudNotFound)


def test_translated_catches_the_cloud_libraries_exceptions_by_type_only():
    with pytest.raises(CloudTransient):
        with sdk.translated():
            raise ksa_exc.ConnectFailure('down')
    # keystoneauth's own that carry no status are theirs to report, unchanged
    with pytest.raises(ksa_exc.DiscoveryFailure):
        with sdk.translated():
            raise ksa_exc.DiscoveryFailure('no version document')
    with pytest.raises(KeyError):
        with sdk.translated():
            raise KeyError('a bug of ours')
    assert not any(issubclass(Exception, kind) for kind in sdk.cloud_exceptions())


def test_call_retries_transient_faults_unless_a_create_says_no(monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    answers = [_http(503), _http(502), 'ok']

    def flaky():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer
    assert sdk.call(flaky) == 'ok'
    answers[:] = [_http(503), 'ok']
    with pytest.raises(CloudTransient):
        sdk.call(flaky, retry_writes=False)

    def gone():
        raise sdk_exc.NotFoundException('x')
    assert sdk.get_or_none(gone) is None
    sdk.delete_quietly(gone)


class Proxy(object):
    def __init__(self, conn, service):
        self.conn, self.service = conn, service

    def get_endpoint_data(self):
        # the version document: slow, as a request is
        self.conn.count('discover ' + self.service)
        time.sleep(0.05)


class Conn(object):
    """A connection whose service proxies count how often they are made and
    how often their version document is read."""

    def __init__(self):
        self.made = {}
        self._lock = threading.Lock()

    def count(self, what):
        with self._lock:
            self.made[what] = self.made.get(what, 0) + 1

    def _make(self, service):
        self.count(service)
        return Proxy(self, service)

    @property
    def block_storage(self):
        return self._make('block_storage')

    @property
    def compute(self):
        return self._make('compute')

    @property
    def load_balancer(self):
        return self._make('load_balancer')

    @property
    def object_store(self):
        return self._make('object_store')

    @property
    def network(self):
        return self._make('network')


def test_warm_reads_each_negotiated_services_version_document_once():
    conn = Conn()
    types = (['OS::Cinder::Volume'] * 4 + ['OS::Nova::Server'] * 3 + ['OS::Neutron::Port'] * 2
             + ['OS::Heat::Value'])
    threads = [threading.Thread(target=sdk.warm, args=(conn, t)) for t in types]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    # Neutron's requests read no version document: its proxy is made, nothing asked
    assert conn.made == {'block_storage': 1, 'discover block_storage': 1, 'compute': 1,
                         'discover compute': 1, 'network': 1}


def test_warm_makes_the_octavia_and_swift_proxies_once_reading_no_document():
    conn = Conn()
    types = ['OS::Octavia::Pool'] * 3 + ['OS::Swift::Container'] * 3
    threads = [threading.Thread(target=sdk.warm, args=(conn, t)) for t in types]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert conn.made == {'load_balancer': 1, 'object_store': 1}


def test_warm_of_a_volume_attachment_reads_nova_its_first_call():
    # two attachments deleted side by side each read Nova's document otherwise;
    # Cinder's is read by the volume polls (poll_batch), not before Nova's call
    conn = Conn()
    threads = [threading.Thread(target=sdk.warm, args=(conn, 'OS::Cinder::VolumeAttachment'))
               for _i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert conn.made == {'compute': 1, 'discover compute': 1}
    sdk.warm_service(conn, 'block_storage')
    sdk.warm_service(conn, 'block_storage')
    assert conn.made == {'compute': 1, 'discover compute': 1, 'block_storage': 1,
                         'discover block_storage': 1}


def test_warm_leaves_a_failing_service_to_the_handler():
    class Broken(object):
        @property
        def network(self):
            raise sdk_exc.EndpointNotFound('no network endpoint')

        @property
        def compute(self):
            class Undiscoverable(object):
                def get_endpoint_data(self):
                    raise ksa_exc.DiscoveryFailure('no version document')
            return Undiscoverable()
    sdk.warm(Broken(), 'OS::Neutron::Net')       # no error here
    sdk.warm(Broken(), 'OS::Nova::Server')
    sdk.warm(None, 'OS::Neutron::Net')


def test_remembered_asks_once_per_run_and_key_and_keeps_only_answers():
    conn, asked = Conn(), []

    def answer(value):
        def compute():
            asked.append(value)
            time.sleep(0.02)
            return value
        return compute
    threads = [threading.Thread(target=sdk.remembered, args=(conn, 'k', answer('v')))
               for _i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert asked == ['v'] and sdk.remembered(conn, 'k', answer('other')) == 'v'
    assert sdk.remembered(Conn(), 'k', answer('w')) == 'w'          # another run asks again
    assert sdk.remembered(conn, 'k', answer('new'), forget=True) == 'new'

    def failing():
        asked.append('failed')
        raise CloudNotFound('no such image')
    for _i in range(2):
        with pytest.raises(CloudNotFound):
            sdk.remembered(conn, 'missing', failing)
    assert asked.count('failed') == 2                                # a failure is not kept


class _Response(object):
    """What a keystoneauth Adapter answers, as far as raise_from_response reads one."""

    def __init__(self, status, data=None):
        self.status_code, self.data = status, data
        self.content = b'' if data is None else b'{...}'
        self.headers = {'content-type': 'application/json'}
        self.reason, self.url, self.text = 'Reason', 'http://127.0.0.1/v2.0/ports', ''

    def json(self):
        return self.data


class _RawProxy(object):
    def __init__(self, *answers):
        self.answers, self.sent = list(answers), []

    def _send(self, method, path, **kwargs):
        self.sent.append((method, path, kwargs))
        return self.answers.pop(0)

    def post(self, path, **kwargs):
        return self._send('POST', path, **kwargs)

    def delete(self, path, **kwargs):
        return self._send('DELETE', path, **kwargs)


def test_request_json_sends_json_without_raising_and_reads_the_answer():
    proxy = _RawProxy(_Response(201, {'port': {'id': 'p'}}), _Response(204))
    assert sdk.request_json(proxy, 'POST', '/ports', {'port': {'name': 'n'}}) == {'port': {'id': 'p'}}
    assert sdk.request_json(proxy, 'DELETE', '/ports/p') is None
    assert proxy.sent == [('POST', '/ports', {'json': {'port': {'name': 'n'}}, 'raise_exc': False}),
                          ('DELETE', '/ports/p', {'raise_exc': False})]


def test_request_json_maps_an_http_status_to_the_cloud_error_family(monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    fault = {'NeutronError': {'message': 'Port p could not be found.'}}
    with pytest.raises(CloudNotFound, match='Port p could not be found'):
        sdk.request_json(_RawProxy(_Response(404, fault)), 'DELETE', '/ports/p')
    with pytest.raises(CloudConflict):
        sdk.request_json(_RawProxy(_Response(409, fault)), 'DELETE', '/ports/p')
    bad = _RawProxy(_Response(400, fault))
    with pytest.raises(CloudError) as err:
        sdk.request_json(bad, 'POST', '/ports', {'port': {}})
    assert err.value.status == 400 and not isinstance(err.value, CloudTransient)
    # a 503 is retried (a DELETE is idempotent); a create is not
    proxy = _RawProxy(_Response(503, fault), _Response(204))
    assert sdk.request_json(proxy, 'DELETE', '/ports/p') is None and len(proxy.sent) == 2
    with pytest.raises(CloudTransient):
        sdk.request_json(_RawProxy(_Response(503, fault), _Response(201, {})), 'POST', '/ports',
                         {'port': {}}, retry_writes=False)
    # keystoneauth's own HttpError (an Adapter whose raise_exc is on) maps the same way
    proxy = _RawProxy()

    def conflict(*_args, **_kwargs):
        raise ksa_exc.http.Conflict()
    proxy.post = conflict
    with pytest.raises(CloudConflict):
        sdk.request_json(proxy, 'POST', '/ports', {'port': {}}, retry_writes=False)


class _SessionConn(object):
    """A connection as far as quiet_session reads one: keystoneauth's
    session holding its own requests session."""

    def __init__(self):
        import requests

        class KsSession(object):
            verify = True
        self.session = KsSession()
        self.session.session = requests.Session()


PROXY_VARS = ('http_proxy', 'https_proxy', 'all_proxy', 'no_proxy', 'ftp_proxy')


@pytest.fixture
def silent_env(monkeypatch, tmp_path):
    for name in list(__import__('os').environ):
        if name.lower() in PROXY_VARS or name in ('REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NETRC'):
            monkeypatch.delenv(name)
    monkeypatch.setenv('HOME', str(tmp_path))
    return tmp_path


def test_the_runs_own_session_stops_reading_a_silent_environment(silent_env):
    import requests
    conn, other = _SessionConn(), requests.Session()
    sdk.warm(conn, 'OS::Heat::Value')     # the first warm of a run, whatever its type
    assert conn.session.session.trust_env is False
    assert other.trust_env is True and requests.Session().trust_env is True   # its own object only


def test_a_ca_bundle_of_the_environment_becomes_the_sessions_verify(silent_env, monkeypatch):
    monkeypatch.setenv('CURL_CA_BUNDLE', '/curl.pem')
    conn = _SessionConn()
    assert sdk.quiet_session(conn) is True and conn.session.verify == '/curl.pem'
    monkeypatch.setenv('REQUESTS_CA_BUNDLE', '/requests.pem')    # requests' own order
    conn = _SessionConn()
    assert sdk.quiet_session(conn) is True and conn.session.verify == '/requests.pem'
    conn = _SessionConn()
    conn.session.verify = False      # requests reads no bundle then: nothing to keep
    assert sdk.quiet_session(conn) is True and conn.session.verify is False
    conn = _SessionConn()
    conn.session.verify = '/mine.pem'
    assert sdk.quiet_session(conn) is True and conn.session.verify == '/mine.pem'


@pytest.mark.parametrize('env', [('HTTPS_PROXY', 'http://127.0.0.1:3128'), ('no_proxy', 'x'),
                                 ('NETRC', '/n'), 'netrc'])
def test_a_session_keeps_reading_an_environment_that_says_something(silent_env, monkeypatch, env):
    if env == 'netrc':
        (silent_env / '.netrc').write_text('machine 127.0.0.1 login a password b\n')
    else:
        monkeypatch.setenv(*env)
    conn = _SessionConn()
    assert sdk.quiet_session(conn) is False
    assert conn.session.session.trust_env is True


def test_quiet_session_leaves_a_connection_without_one_alone(silent_env):
    assert sdk.quiet_session(object()) is False
    assert sdk.quiet_session(Conn()) is False


# -- request_json through real keystoneauth objects, against a server on 127.0.0.1 -----------------

class _Server(object):
    """Answers each request with the next planned status (200 after the plan runs out) and keeps
    what it saw."""

    def __init__(self):
        import json
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
                self.send_header('X-OpenStack-Request-ID', 'req-%d' % len(server.seen))
                self.end_headers()
                self.wfile.write(payload)
            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, *args):
                pass
        self.httpd = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:%d/networking/v2.0' % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    srv = _Server()
    yield srv
    srv.close()


class _Tokens(token_endpoint.Token):
    """keystoneauth's token plugin, a new token after each invalidate() (a 401)."""
    issued = 1

    def get_token(self, session, **kwargs):
        return 'tok-%d' % self.issued

    def invalidate(self):
        self.issued += 1
        return True


class _CountingAdapter(ksa_adapter.Adapter):
    """A keystoneauth Adapter, as openstacksdk's proxies are, counting the requests made
    through it."""
    through = 0

    def request(self, *args, **kwargs):
        type(self).through += 1
        return super().request(*args, **kwargs)


def _proxy(url, service_type='network'):
    session = ksa_session.Session(auth=_Tokens(url, 'tok-1'), app_name='probe')
    _CountingAdapter.through = 0
    return _CountingAdapter(session, service_type=service_type, endpoint_override=url)


def test_every_request_json_goes_through_keystoneauth(server):
    proxy = _proxy(server.url)
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    sdk.request_json(proxy, 'POST', '/networks', {'network': {'name': 'a'}}, retry_writes=False)
    sdk.request_json(proxy, 'PUT', '/networks/n1/tags', {'tags': ['x']})
    sdk.request_json(proxy, 'DELETE', '/networks/n1')
    assert _CountingAdapter.through == 4 and len(server.seen) == 4
    assert [(s['method'], s['path']) for s in server.seen] == [
        ('GET', '/networking/v2.0/networks/n1'), ('POST', '/networking/v2.0/networks'),
        ('PUT', '/networking/v2.0/networks/n1/tags'), ('DELETE', '/networking/v2.0/networks/n1')]
    assert server.seen[1]['body'] == {'network': {'name': 'a'}}
    for seen in server.seen:
        # the token and the user agent are keystoneauth's own, set by it on each request
        assert seen['headers']['X-Auth-Token'] == 'tok-1'
        assert seen['headers']['User-Agent'].startswith('probe keystoneauth1/')


def test_a_401_is_answered_by_keystoneauths_new_token(server):
    proxy = _proxy(server.url)
    server.plan = [401]
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    assert [s['headers']['X-Auth-Token'] for s in server.seen] == ['tok-1', 'tok-2']


def test_errors_through_keystoneauth_are_the_cloud_error_family(server, monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    proxy = _proxy(server.url)
    server.plan = [404]
    with pytest.raises(CloudNotFound, match='status 404'):
        sdk.request_json(proxy, 'GET', '/networks/n1')
    server.plan = [503, 503]
    assert sdk.request_json(proxy, 'GET', '/networks/n1') == {'network': {'id': 'n1'}}
    server.plan = [503]
    with pytest.raises(CloudTransient):
        sdk.request_json(proxy, 'POST', '/networks', {'network': {}}, retry_writes=False)


def test_a_dropped_connection_is_transient(server, monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)
    proxy = _proxy(server.url)
    sdk.request_json(proxy, 'GET', '/networks/n1')
    server.close()
    with pytest.raises(CloudTransient, match='Connection to the cloud failed'):
        sdk.request_json(proxy, 'POST', '/networks', {'network': {}}, retry_writes=False)


def test_keystoneauth_logs_each_request_with_its_request_id(server, caplog):
    proxy = _proxy(server.url)
    with caplog.at_level(logging.DEBUG, logger='keystoneauth'):
        sdk.request_json(proxy, 'GET', '/networks/n1')
        sdk.request_json(proxy, 'DELETE', '/networks/n1')
    logged = '\n'.join(r.getMessage() for r in caplog.records)
    assert 'req-1' in logged and 'req-2' in logged
    assert 'tok-1' not in logged        # keystoneauth hides the token in its log


class _Config(object):
    """The connection's CloudRegion, as far as json_adapter reads it."""

    def __init__(self, rate_limit=None):
        self.rate_limit = rate_limit

    def get_rate_limit(self, service_type):
        return self.rate_limit

    def get_concurrency(self, service_type):
        return None


class _NetworkConn(object):
    """A connection whose network proxy is a keystoneauth Adapter, as openstacksdk's is."""

    def __init__(self, url, rate_limit=None):
        session = ksa_session.Session(auth=_Tokens(url, 'tok-1'), app_name='probe')
        _CountingAdapter.through = 0
        self.network = _CountingAdapter(
            session, service_type='network', endpoint_override=url, user_agent='probe-agent',
            additional_headers={'X-Probe': 'kept'}, connect_retries=2)
        self.config = _Config(rate_limit)


def test_warm_gives_neutron_a_json_adapter_with_the_proxys_session_endpoint_and_settings(server):
    conn = _NetworkConn(server.url)
    sdk.warm(conn, 'OS::Neutron::Port')
    adapter = sdk._json_adapter_of(conn.network)
    assert adapter is not conn.network and adapter.session is conn.network.session
    assert adapter.endpoint_override == server.url and adapter.connect_retries == 2
    sdk.request_json(conn.network, 'POST', '/ports', {'port': {}}, retry_writes=False)
    sdk.request_json(conn.network, 'DELETE', '/ports/p1')
    assert _CountingAdapter.through == 0          # the proxy's own request was not used
    assert [(s['method'], s['path']) for s in server.seen] == [
        ('POST', '/networking/v2.0/ports'), ('DELETE', '/networking/v2.0/ports/p1')]
    for seen in server.seen:
        # keystoneauth's token, and the proxy's user agent and headers
        assert seen['headers']['X-Auth-Token'] == 'tok-1'
        assert seen['headers']['User-Agent'] == 'probe-agent'
        assert seen['headers']['X-Probe'] == 'kept'
    server.plan = [401]
    sdk.request_json(conn.network, 'GET', '/ports/p1')
    assert server.seen[-1]['headers']['X-Auth-Token'] == 'tok-2'   # the session's new token


def test_a_rate_limited_service_keeps_its_proxy(server):
    conn = _NetworkConn(server.url, rate_limit=5)
    sdk.warm(conn, 'OS::Neutron::Port')
    assert sdk._json_adapter_of(conn.network) is conn.network
    sdk.request_json(conn.network, 'DELETE', '/ports/p1')
    assert _CountingAdapter.through == 1
    # a proxy that is no keystoneauth Adapter (a test's fake) has none
    assert sdk.json_adapter(conn, object()) is None
