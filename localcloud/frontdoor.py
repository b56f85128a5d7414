# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The front door: one port that every public catalog URL points at.

It forwards each path prefix (/compute, /networking ...) to that service's process, unchanged
and with the client's Host header, so the links services build point back here.  On the way it
counts requests per route, adds the configured latency and answers injected faults.  The admin
API lives under /_localcloud/ (no auth).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import http.client
import json
import random
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from localcloud.ledger import Ledger
from localcloud.services._base import read_chunked

_ID = re.compile(r'^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
                 r'[0-9a-fA-F]{12}|\d+|req-[0-9a-f-]{36})$')
# after these segments comes a name chosen by the user, not an id
_NAMED = {'os-keypairs': '{name}', 'stacks': '{name}', 'resources': '{name}', 'outputs': '{name}'}
_HOP = {'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
        'trailers', 'transfer-encoding', 'upgrade', 'content-length', 'expect'}
ADMIN = '/_localcloud'
# Files the admin API serves over plain HTTP (Glance's web-download import fetches images from here)
FILES = ADMIN + '/files/'
_FILE_NAME = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$')
# Swift's own paths at the root, as on a devstack whose Swift has a port of its own: Heat builds
# its TempURLs (server metadata for POLL_TEMP_URL, TEMP_URL_SIGNAL) from the endpoint's scheme
# and host only (SwiftClientPlugin.get_temp_url drops the endpoint's path), so they name
# /v1/AUTH_<project>/... here, not /object-store/v1/...
SWIFT_ROOT = '/v1/AUTH_'


def route_template(stype, path):
    """'/v2.0/ports/<uuid>' -> '/v2.0/ports/{id}'; Swift paths -> '/v1/{account}/{container}/{object}'."""
    if stype == 'object-store':
        parts = path.split('/', 4)   # '', 'v1', account, container, object (may hold slashes)
        if len(parts) > 2 and parts[1] == 'v1':
            names = ['', 'v1', '{account}', '{container}', '{object}']
            return '/'.join(n if p else '' for n, p in zip(names, parts))
        return path
    out = []
    prev = ''
    for seg in path.split('/'):
        if seg and _ID.match(seg):
            out.append('{id}')
        elif seg and prev in _NAMED:
            out.append(_NAMED[prev])
        else:
            out.append(seg)
        prev = seg
    return '/'.join(out)


# What a random fault may be (``fault_kinds``): statuses, or the kinds the front door plays out
# itself ('drop' = status 0: hung up before forwarding; 'lost': forwarded, answer never sent;
# 'slow': forwarded after ``slow_ms``).
KINDS = ('drop', 'lost', 'slow')


def _fault_kind(value):
    if value == 'drop':
        return 0
    if value in KINDS:
        return value
    return int(value)


class FaultRule(object):
    def __init__(self, raw):
        if not isinstance(raw, dict) or 'path' not in raw:
            raise ValueError('each rule needs at least "path" (a regular expression)')
        self.method = (raw.get('method') or '').upper()
        self.path = raw['path']
        self.regex = re.compile(self.path)
        # a status (0 drops the connection before the service sees the request), or a kind:
        # 'lost' (the service does the request, its answer never reaches the client), 'slow'
        self.status = _fault_kind(raw.get('kind', raw.get('status', 503)))
        self.count = int(raw.get('count', 1))
        self.after = int(raw.get('after', 0))
        self.matched = 0
        self.fired = 0

    def hit(self, method, path):
        """Count a matching request; True when this one is among after+1 .. after+count."""
        if self.method and self.method != method:
            return False
        if not self.regex.search(path):
            return False
        self.matched += 1
        if self.after < self.matched <= self.after + self.count:
            self.fired += 1
            return True
        return False

    def as_dict(self):
        return {'method': self.method or None, 'path': self.path, 'status': self.status,
                'count': self.count, 'after': self.after, 'matched': self.matched, 'fired': self.fired}


class Tokens(object):
    """Tokens the front door has seen, and those it now treats as expired (admin
    ``POST /tokens/expire``): a request bearing one is answered 401 as a service answers an
    expired token, before the service sees it, so a client's renewal (keystoneauth invalidates
    its token on a 401 and authenticates again) is tested without short-lived tokens across the
    whole cloud, whose services' own tokens would expire too."""
    LIMIT = 100000      # seen tokens kept (a test session makes a few thousand)

    def __init__(self):
        self.lock = threading.Lock()
        self.seen = set()
        self.expired = set()

    def refused(self, token):
        """True when ``token`` (a request's X-Auth-Token, or None) is expired; else remembered."""
        if not token:
            return False
        with self.lock:
            if token in self.expired:
                return True
            if len(self.seen) >= self.LIMIT:
                self.seen.clear()
            self.seen.add(token)
            return False

    def expire(self):
        """Every token seen so far expires now: how many."""
        with self.lock:
            self.expired |= self.seen
            self.seen = set()
            return len(self.expired)

    def forgive(self):
        with self.lock:
            self.expired = set()


# Keystone's answer to an expired token (keystonemiddleware's, as the services send it).
EXPIRED = {'error': {'code': 401, 'title': 'Unauthorized',
                     'message': 'The request you have made requires authentication.'}}


class State(object):
    """Counters and knobs, shared by the request threads."""

    def __init__(self, latency_ms=0, fault_rate=0.0, seed=None, fault_kinds=(503,)):
        self.lock = threading.Lock()
        self.latency_ms = float(latency_ms)
        self.fault_rate = float(fault_rate)
        self.fault_kinds = [_fault_kind(k) for k in fault_kinds]
        self.slow_ms = 3000.0
        self.ledger = Ledger()
        self.injected = {}
        self.tokens = Tokens()
        self.seed = seed
        self.rng = random.Random(seed)
        self.rules = []
        self.requests = 0
        self.by_route = {}
        self.response_bytes = 0
        self.bytes_by_route = {}
        self.status_by_route = {}

    def reset_stats(self):
        with self.lock:
            self.requests = 0
            self.by_route = {}
            self.response_bytes = 0
            self.bytes_by_route = {}
            self.status_by_route = {}
            self.injected = {}

    def stats(self):
        with self.lock:
            return {'requests': self.requests, 'by_route': dict(self.by_route),
                    'response_bytes': self.response_bytes,
                    'bytes_by_route': dict(self.bytes_by_route),
                    'status_by_route': dict((k, dict(v)) for k, v in self.status_by_route.items()),
                    'injected': dict(self.injected)}

    @staticmethod
    def route_key(method, stype, prefix, path):
        return '%s %s %s' % (method, stype, route_template(stype, path[len(prefix):] or '/'))

    def count_status(self, key, status):
        """Count an answer's status (injected or the service's own; None: connection dropped).

        Tests need it to tell a retry the front door caused from one the service caused (Octavia's
        409 while a load balancer is immutable comes and goes with timing).
        """
        with self.lock:
            seen = self.status_by_route.setdefault(key, {})
            seen[str(status)] = seen.get(str(status), 0) + 1

    def count_bytes(self, key, size):
        """Add a forwarded answer's body size (bytes) to its route."""
        with self.lock:
            self.response_bytes += size
            self.bytes_by_route[key] = self.bytes_by_route.get(key, 0) + size

    def account(self, method, stype, prefix, path):
        """Count the request and decide its fate: (status to inject or None, latency seconds).

        ``path`` is the full request path (prefix included, query excluded): fault rules match
        it with re.search; the route key uses the path under the prefix.
        """
        key = self.route_key(method, stype, prefix, path)
        with self.lock:
            self.requests += 1
            self.by_route[key] = self.by_route.get(key, 0) + 1
            inject = None
            for rule in self.rules:
                # every rule counts its own matches, even when an earlier one already fired
                if rule.hit(method, path) and inject is None:
                    inject = rule.status
            if inject is None and self.fault_rate > 0 and self.rng.random() < self.fault_rate:
                kinds = self.fault_kinds or [503]
                # one kind alone draws nothing more: a seed's sequence of 503s stays what it was
                inject = kinds[0] if len(kinds) == 1 else kinds[int(self.rng.random() * len(kinds))]
            if inject is not None:
                self.injected[str(inject)] = self.injected.get(str(inject), 0) + 1
            return inject, self.latency_ms / 1000.0


class FrontDoor(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def __init__(self, sock, routes, state, admin=None):
        """routes: [(prefix, catalog type, backend port)]; admin: object with resources()/config()."""
        self.routes = sorted(routes, key=lambda r: -len(r[0]))
        self.state = state
        self.admin = admin
        # name -> bytes; a valid empty qcow2 is there from the start (the seed's cirros image)
        from localcloud.seed import tiny_qcow2
        self.files = {'cirros.qcow2': tiny_qcow2()}
        ThreadingHTTPServer.__init__(self, sock.getsockname()[:2], Handler, bind_and_activate=False)
        self.socket.close()
        self.socket = sock
        self.server_address = sock.getsockname()[:2]
        self.socket.listen(self.request_queue_size)

    def alias(self, path):
        """The path a request at Swift's root path goes to: under Swift's prefix."""
        if path.startswith(SWIFT_ROOT):
            for prefix, stype, _port in self.routes:
                if stype == 'object-store':
                    return prefix + path
        return path

    def route(self, path):
        for prefix, stype, port in self.routes:
            if path == prefix or path.startswith(prefix + '/'):
                return prefix, stype, port
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server_version = 'localcloud'
    sys_version = ''

    def log_message(self, *args):
        pass

    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _body(self):
        if 'chunked' in self.headers.get('Transfer-Encoding', '').lower():
            return read_chunked(self.rfile)
        length = int(self.headers.get('Content-Length') or 0)
        return self.rfile.read(length) if length else b''

    def _reply(self, status, body, ctype='application/json', extra=()):
        data = body if isinstance(body, bytes) else json.dumps(body, indent=1, sort_keys=True).encode()
        self.send_response(status)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    def _any(self):
        path = self.path.split('?', 1)[0]
        body = self._body()
        if path.startswith(FILES):
            return self._file(path[len(FILES):], body)
        if path == ADMIN or path.startswith(ADMIN + '/'):
            return self._admin(path[len(ADMIN):], body)
        aliased = self.server.alias(path)
        if aliased != path:
            self.path, path = aliased + self.path[len(path):], aliased
        target = self.server.route(path)
        if target is None:
            return self._reply(404, {'error': {'code': 404, 'message': 'no service at %s' % path}})
        prefix, stype, port = target
        inject, delay = self.server.state.account(self.command, stype, prefix, path)
        if delay:
            time.sleep(delay)
        state = self.server.state
        key = state.route_key(self.command, stype, prefix, path)
        if state.tokens.refused(self.headers.get('X-Auth-Token')):
            state.count_status(key, 401)
            return self._reply(401, EXPIRED)
        if inject == 'slow':
            time.sleep(state.slow_ms / 1000.0)
            inject = None
        if inject is not None and inject != 'lost':
            state.count_status(key, inject or None)
            return self._fault(inject)
        under = path[len(prefix):] or '/'

        def answered(status, data):
            # counted before the client hears it: whoever reads the ledger or the counts after its
            # answer (a test, the campaign's judge) sees this request in them
            state.count_status(key, None if inject == 'lost' else status)
            state.ledger.record(self.command, route_template(stype, under), under, status, body, data)

        self._forward(port, body, answered, lambda size: state.count_bytes(key, size),
                      lose=inject == 'lost')

    def _fault(self, status):
        if status == 0:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        reason = http.client.responses.get(status, 'Injected')
        self._reply(status, {'error': {'code': status, 'title': reason,
                                       'message': 'localcloud: injected fault'}},
                    extra=[('Retry-After', '0')] if status == 503 else ())

    def _forward(self, port, body, answered, sending, lose=False):
        """Relay the request; ``answered(status, body of a POST's answer)`` is told before the
        client is, and ``sending(size)`` before each piece of the answer's body goes out: a client
        that has read the whole answer and asks for the counts finds all of its bytes in them (counted
        after the write, the last piece raced the client's next request).  ``lose``: the service does
        the request and its answer is dropped with the connection, as when a network fails after the
        request went out."""
        conn = http.client.HTTPConnection('127.0.0.1', port, timeout=900)
        told = False
        try:
            conn.connect()
            conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for k, v in self.headers.items():
                if k.lower() not in _HOP:
                    conn.putheader(k, v)
            if body or self.command in ('POST', 'PUT', 'PATCH'):
                conn.putheader('Content-Length', str(len(body)))
            conn.endheaders(body or None)
            resp = conn.getresponse()
            headers = [(k, v) for k, v in resp.getheaders() if k.lower() not in _HOP]
            length = resp.getheader('Content-Length')
            no_body = self.command == 'HEAD' or resp.status in (204, 304) or 100 <= resp.status < 200
            data = None
            if not no_body and (length is None or self.command == 'POST' or lose):
                data = resp.read()   # a POST's answer is small: the ledger reads its id
                length = str(len(data))
            answered(resp.status, data)
            told = True
            if lose:
                self._fault(0)
                return
            self.send_response_only(resp.status, resp.reason)
            for k, v in headers:
                self.send_header(k, v)
            if length is not None:
                self.send_header('Content-Length', length)
            elif no_body and self.command != 'HEAD':
                self.send_header('Content-Length', '0')
            self.end_headers()
            if no_body:
                return
            if data is not None:
                sending(len(data))
                self.wfile.write(data)
                return
            remaining = int(length)
            while remaining > 0:
                chunk = resp.read(min(remaining, 1 << 16))
                if not chunk:
                    break
                sending(len(chunk))
                self.wfile.write(chunk)
                remaining -= len(chunk)
            if remaining:
                self.close_connection = True
        except (OSError, http.client.HTTPException) as exc:
            if not told:
                answered(502, None)
            self._reply(502, {'error': {'code': 502, 'message': 'localcloud: backend failed: %s' % exc}})
        finally:
            conn.close()

    def _file(self, name, body):
        """GET/HEAD a file, PUT one (any bytes), DELETE it: never counted, delayed nor faulted."""
        files = self.server.files
        if not _FILE_NAME.match(name):
            return self._reply(400, {'error': 'bad file name %r' % name})
        if self.command == 'PUT':
            files[name] = body
            return self._reply(201, {'name': name, 'size': len(body)})
        if name not in files:
            return self._reply(404, {'error': 'no file %s' % name})
        if self.command in ('GET', 'HEAD'):
            return self._reply(200, files[name], ctype='application/octet-stream')
        if self.command == 'DELETE':
            del files[name]
            return self._reply(204, b'')
        return self._reply(405, {'error': 'method not allowed'})

    def _admin(self, sub, body):
        state = self.server.state
        method = self.command
        try:
            payload = json.loads(body) if body.strip() else None
        except ValueError:
            return self._reply(400, {'error': 'body is not JSON'})
        try:
            if sub in ('', '/') and method == 'GET':
                return self._reply(200, self.server.admin.info() if self.server.admin else {})
            if sub == '/stats' and method == 'GET':
                return self._reply(200, state.stats())
            if sub == '/stats/reset' and method == 'POST':
                state.reset_stats()
                return self._reply(200, state.stats())
            if sub == '/ledger' and method == 'GET':
                return self._reply(200, state.ledger.as_dict())
            if sub == '/ledger' and method == 'DELETE':
                state.ledger.reset()
                return self._reply(200, state.ledger.as_dict())
            if sub == '/tokens/expire' and method in ('POST', 'DELETE'):
                if method == 'DELETE':
                    state.tokens.forgive()
                    return self._reply(200, {'expired': 0})
                return self._reply(200, {'expired': state.tokens.expire()})
            if sub == '/resources' and method == 'GET':
                return self._reply(200, self.server.admin.resources())
            if sub == '/clones':
                if method == 'POST':
                    return self._reply(200, self.server.admin.make_clones(payload))
                if method == 'DELETE':
                    return self._reply(200, self.server.admin.remove_clones())
                if method == 'GET':
                    return self._reply(200, self.server.admin.list_clones())
                return self._reply(405, {'error': 'method not allowed'})
            if sub == '/config' and method in ('GET', 'POST'):
                if method == 'POST':
                    self.server.admin.configure(payload or {})
                return self._reply(200, self.server.admin.config())
            if sub == '/faults':
                if method == 'POST':
                    rules = [FaultRule(r) for r in (payload or [])]
                    with state.lock:
                        state.rules = rules
                elif method == 'DELETE':
                    with state.lock:
                        state.rules = []
                elif method != 'GET':
                    return self._reply(405, {'error': 'method not allowed'})
                with state.lock:
                    return self._reply(200, [r.as_dict() for r in state.rules])
        except (ValueError, TypeError, re.error) as exc:
            return self._reply(400, {'error': str(exc)})
        except Exception as exc:   # a service answered oddly: say so instead of hanging up
            return self._reply(500, {'error': '%s: %s' % (type(exc).__name__, exc)})
        return self._reply(404, {'error': 'unknown admin path %s' % sub})

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_COPY = _any
