# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The front door's ledger and its fault kinds alone (no cloud: a stub service behind a real front
door): creates and deletes per kind, a create whose answer was lost still counted, slow answers,
the random fault kinds drawn from the seed, and tokens expired mid-run."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import contextlib
import json
import random
import time
import urllib.error
import uuid
from http.server import BaseHTTPRequestHandler

import pytest

from localcloud.harness import door_call, door_over_stub
from localcloud.frontdoor import FaultRule, State
from localcloud.ledger import Ledger

PORT_ID = '0c1e2c7a-2b7e-4b8b-9f1e-1e2b3c4d5e6f'


def test_creates_and_deletes_are_counted_per_kind():
    ledger = Ledger()
    made = json.dumps({'port': {'id': PORT_ID, 'name': 'answered-name'}}).encode()
    asked = json.dumps({'port': {'name': 's-port1-abc', 'network_id': 'n'}}).encode()
    entry = ledger.record('POST', '/v2.0/ports', '/v2.0/ports', 201, asked, made)
    assert entry['kind'] == 'ports' and entry['id'] == PORT_ID and entry['name'] == 's-port1-abc'
    # a key pair has no id: its name is its identity
    key = json.dumps({'keypair': {'name': 's-key', 'public_key': 'ssh-ed25519 AAAA'}}).encode()
    assert ledger.record('POST', '/v2.1/os-keypairs', '/v2.1/os-keypairs', 200, None, key)['id'] == 's-key'
    # not creates: a failed POST, an action answered with no body, a token
    assert ledger.record('POST', '/v2.0/ports', '/v2.0/ports', 409, asked, b'{"NeutronError": {}}') is None
    assert ledger.record('POST', '/v2.1/servers/{id}/action', '/v2.1/servers/x/action', 202, b'{}', b'') is None
    assert ledger.record('POST', '/v3/auth/tokens', '/v3/auth/tokens', 201, b'{}',
                         json.dumps({'token': {'methods': ['password']}}).encode()) is None
    # deletes: answered 2xx, of an item (not a collection)
    assert ledger.record('DELETE', '/v2.0/ports/{id}', '/v2.0/ports/' + PORT_ID, 404, None, None) is None
    assert ledger.record('DELETE', '/v2.0/ports', '/v2.0/ports', 204, None, None) is None
    gone = ledger.record('DELETE', '/v2.0/ports/{id}', '/v2.0/ports/' + PORT_ID, 204, None, None)
    assert gone['op'] == 'delete' and gone['id'] == PORT_ID and gone['kind'] == 'ports'
    summary = ledger.as_dict()
    assert summary['kinds'] == {'ports': {'created': 1, 'deleted': 1, 'live': []},
                                'os-keypairs': {'created': 1, 'deleted': 0, 'live': ['s-key']}}
    assert [e['seq'] for e in summary['entries']] == [1, 2, 3]
    ledger.reset()
    assert ledger.as_dict() == {'entries': [], 'kinds': {}}


def test_random_fault_kinds_come_from_the_seed():
    state = State(fault_rate=0.5, seed=7, fault_kinds=(500, 503, 409, 'drop', 'lost', 'slow'))
    got = [state.account('GET', 'network', '/networking', '/networking/v2.0/ports')[0] for _n in range(200)]
    again = State(fault_rate=0.5, seed=7, fault_kinds=(500, 503, 409, 'drop', 'lost', 'slow'))
    assert got == [again.account('GET', 'network', '/networking', '/networking/v2.0/ports')[0]
                   for _n in range(200)]
    assert set(got) == {None, 500, 503, 409, 0, 'lost', 'slow'}
    assert sum(state.stats()['injected'].values()) == sum(1 for g in got if g is not None)
    with pytest.raises(ValueError):
        FaultRule({'path': '/x', 'kind': 'melt'})
    assert FaultRule({'path': '/x', 'kind': 'lost'}).status == 'lost'
    assert FaultRule({'path': '/x', 'kind': 'drop'}).status == 0


class _Stub(BaseHTTPRequestHandler):
    """A service: POST /v2.0/ports makes a port, DELETE /v2.0/ports/<id> removes it."""
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def do_POST(self):
        asked = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        port = {'id': str(uuid.uuid4()), 'name': asked['port'].get('name')}
        self.server.ports[port['id']] = port
        data = json.dumps({'port': port}).encode()
        self.send_response(201)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_DELETE(self):
        found = self.server.ports.pop(self.path.rsplit('/', 1)[1], None)
        self.send_response(204 if found else 404)
        self.send_header('Content-Length', '0')
        self.end_headers()


@contextlib.contextmanager
def _door():
    state = State()
    with door_over_stub(_Stub, state) as (base, stub):
        stub.ports = {}
        yield base, state, stub


def test_a_lost_answer_still_made_the_port_and_the_ledger_says_so():
    with _door() as (base, state, stub):
        status, body = door_call(base + '/networking/v2.0/ports', 'POST', {'port': {'name': 'one'}})
        assert status == 201
        first = json.loads(body)['port']['id']
        state.rules = [FaultRule({'method': 'POST', 'path': '/ports$', 'kind': 'lost'})]
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            door_call(base + '/networking/v2.0/ports', 'POST', {'port': {'name': 'two'}})
        assert len(stub.ports) == 2              # the service made it; the client never heard
        assert door_call(base + '/networking/v2.0/ports/' + first, 'DELETE')[0] == 204
        ledger = door_call(base + '/_localcloud/ledger', 'GET')[1]
        kinds = json.loads(ledger)['kinds']
        lost = [p for p in stub.ports.values() if p['name'] == 'two'][0]['id']
        assert kinds == {'ports': {'created': 2, 'deleted': 1, 'live': [lost]}}
        assert state.stats()['status_by_route']['POST network /v2.0/ports'] == {'201': 1, 'None': 1}
        assert door_call(base + '/_localcloud/ledger', 'DELETE')[0] == 200
        assert json.loads(door_call(base + '/_localcloud/ledger', 'GET')[1])['entries'] == []


def test_a_token_expired_mid_run_is_refused_with_keystones_401_and_a_new_one_goes_through():
    with _door() as (base, state, stub):
        ports = base + '/networking/v2.0/ports'
        assert door_call(ports, 'POST', {'port': {'name': 'before'}}, token='old')[0] == 201
        assert json.loads(door_call(base + '/_localcloud/tokens/expire', 'POST')[1]) == {'expired': 1}
        status, body = door_call(ports, 'POST', {'port': {'name': 'refused'}}, token='old')
        assert status == 401 and json.loads(body)['error']['message'] == \
            'The request you have made requires authentication.'
        assert [p['name'] for p in stub.ports.values()] == ['before']     # no service saw it
        assert door_call(ports, 'POST', {'port': {'name': 'after'}}, token='new')[0] == 201
        # the door counts an answer once it is sent: the client may read it first
        deadline = time.monotonic() + 10
        while state.stats()['status_by_route']['POST network /v2.0/ports'] != {'201': 2, '401': 1}:
            assert time.monotonic() < deadline, state.stats()['status_by_route']
            time.sleep(0.01)
        # a token first seen after the expiry is not expired by it; DELETE forgives the old ones
        assert door_call(ports, 'POST', {'port': {'name': 'again'}}, token='new')[0] == 201
        assert door_call(base + '/_localcloud/tokens/expire', 'DELETE')[0] == 200
        assert door_call(ports, 'POST', {'port': {'name': 'forgiven'}}, token='old')[0] == 201


def test_a_slow_answer_comes_after_slow_ms_and_a_drop_reaches_no_service():
    with _door() as (base, state, stub):
        state.slow_ms = 300
        state.rules = [FaultRule({'method': 'POST', 'path': '/ports$', 'kind': 'slow'}),
                       FaultRule({'method': 'DELETE', 'path': '/ports/', 'kind': 'drop'})]
        start = time.monotonic()
        status, body = door_call(base + '/networking/v2.0/ports', 'POST', {'port': {'name': 'slow'}})
        assert status == 201 and time.monotonic() - start >= 0.3
        pid = json.loads(body)['port']['id']
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            door_call(base + '/networking/v2.0/ports/' + pid, 'DELETE')
        assert pid in stub.ports
        assert state.stats()['injected'] == {'slow': 1, '0': 1}


def test_seeded_fault_rate_with_one_kind_keeps_the_old_sequence():
    """A campaign's seed must replay the same faults as before kinds existed (503 only)."""
    state = State(fault_rate=0.2, seed=3)
    rng = random.Random(3)
    got = [state.account('GET', 'compute', '/compute', '/compute/v2.1/servers')[0] for _n in range(40)]
    assert got == [503 if rng.random() < 0.2 else None for _n in range(40)]
