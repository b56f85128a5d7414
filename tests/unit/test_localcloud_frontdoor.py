# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The front door's byte counts, without the cloud: a backend of our own behind it.

CI once failed test_counters_are_exact: the last answer's bytes were missing from the counts the
client asked for right after reading it, because the front door counted them after the write.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import http.client
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from localcloud.frontdoor import FrontDoor, State

BODY = b'x' * (3 * 65536 + 17)   # more than one piece of the relay's copy loop


class _Backend(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def do_GET(self):
        body = BODY if self.path.endswith('/big') else b'{"NotFound": {}}'
        self.send_response(200 if self.path.endswith('/big') else 404)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get('Content-Length') or 0))
        body = b'{"port": {"id": "p1"}}'
        self.send_response(201)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _SlowCountState(State):
    """Counting takes a while: counts taken after the write would miss the client's next look."""

    def count_bytes(self, key, size):
        time.sleep(0.05)
        State.count_bytes(self, key, size)


@pytest.fixture
def door():
    backend = ThreadingHTTPServer(('127.0.0.1', 0), _Backend)
    backend.daemon_threads = True
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    state = _SlowCountState()
    front = FrontDoor(sock, [('/networking', 'network', backend.server_address[1])], state)
    threading.Thread(target=front.serve_forever, daemon=True).start()
    yield front.server_address[1], state
    front.shutdown()
    backend.shutdown()
    front.server_close()
    backend.server_close()


def _ask(port, method, path, body=None):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    conn.request(method, path, body=body)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, data


@pytest.mark.parametrize('method,path,status,size', [
    ('GET', '/networking/v2.0/big', 200, len(BODY)),
    ('GET', '/networking/v2.0/ports/0c1e2c7a-2b7e-4b8b-9f1e-1e2b3c4d5e6f', 404, 16),
    ('POST', '/networking/v2.0/ports', 201, 22),
])
def test_an_answers_bytes_are_counted_before_the_client_has_them(door, method, path, status, size):
    port, state = door
    got, data = _ask(port, method, path, body=b'{}' if method == 'POST' else None)
    assert (got, len(data)) == (status, size)
    stats = state.stats()
    assert stats['response_bytes'] == size
    assert list(stats['bytes_by_route'].values()) == [size]
    assert stats['requests'] == 1
