# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The front door's knobs on the running cloud: counters, latency, fault rules, fault rate, builds."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import random
import time

import pytest


@pytest.fixture(scope='module')
def token(cloud):
    conn = cloud.sdk()
    tok = conn.session.get_token()
    project = conn.current_project_id
    conn.close()
    return tok, project


@pytest.fixture(autouse=True)
def clean_knobs(cloud):
    cloud.admin('DELETE', '/faults')
    cloud.configure(latency_ms=0, fault_rate=0, fault_kinds=[503])
    yield
    cloud.admin('DELETE', '/faults')
    cloud.configure(latency_ms=0, fault_rate=0, build_seconds={'volume': 0, 'loadbalancer': 0,
                                                               'server': 0})


def test_counters_are_exact(cloud, token):
    tok, project = token
    cloud.reset_stats()
    assert cloud.stats() == {'requests': 0, 'by_route': {}, 'response_bytes': 0, 'bytes_by_route': {},
                             'status_by_route': {}, 'injected': {}}
    sizes = {}

    def get(route, path):
        status, body = cloud.http('GET', path, tok)
        sizes[route] = sizes.get(route, 0) + len(body)
        return status
    for _ in range(3):
        assert get('GET compute /v2.1/flavors', '/compute/v2.1/flavors') == 200
    for _ in range(2):
        assert get('GET network /v2.0/networks', '/networking/v2.0/networks') == 200
    assert get('GET block-storage /v3/{id}/volumes', '/volume/v3/%s/volumes' % project) == 200
    assert get('GET network /v2.0/ports/{id}',
               '/networking/v2.0/ports/0c1e2c7a-2b7e-4b8b-9f1e-1e2b3c4d5e6f') == 404
    stats = cloud.stats()
    assert {'requests': stats['requests'], 'by_route': stats['by_route']} == {'requests': 7, 'by_route': {
        'GET compute /v2.1/flavors': 3,
        'GET network /v2.0/networks': 2,
        'GET block-storage /v3/{id}/volumes': 1,
        'GET network /v2.0/ports/{id}': 1,
    }}
    # the bytes of the answers' bodies, per route, as the client received them
    assert stats['bytes_by_route'] == sizes and stats['response_bytes'] == sum(sizes.values())
    # the admin API is not counted
    cloud.admin('GET', '/config')
    assert cloud.stats()['requests'] == 7


def test_latency_is_added_to_every_request(cloud, token):
    tok, _ = token

    # Minima, not means: the cloud's own answer time varies with load (a slow
    # Neutron moment moved a mean by 0.15 s), while the fastest of a few
    # requests shows the floor the front door adds to every one of them.
    def timed(n=4):
        times = []
        for _ in range(n):
            t0 = time.monotonic()
            assert cloud.http('GET', '/networking/v2.0/networks', tok)[0] == 200
            times.append(time.monotonic() - t0)
        return times
    fast = timed()
    cloud.configure(latency_ms=300)
    assert cloud.admin('GET', '/config')['latency_ms'] == 300
    slow = timed()
    assert min(slow) >= 0.3          # every request, not on average
    assert min(slow) - min(fast) >= 0.25
    cloud.configure(latency_ms=0)
    assert min(timed()) < min(slow) - 0.25


def test_fault_rule_fires_exactly_on_matching_requests(cloud, token):
    tok, _ = token
    cloud.admin('POST', '/faults', [
        {'method': 'GET', 'path': r'/v2\.0/networks$', 'status': 503, 'count': 2, 'after': 1}])
    cloud.reset_stats()
    got = [cloud.http('GET', '/networking/v2.0/networks', tok)[0] for _ in range(4)]
    assert got == [200, 503, 503, 200]
    # the answers' statuses are counted per route, injected ones and the service's alike
    assert cloud.stats()['status_by_route']['GET network /v2.0/networks'] == {'200': 2, '503': 2}
    # other paths and other methods do not match
    assert cloud.http('GET', '/networking/v2.0/subnets', tok)[0] == 200
    assert cloud.http('GET', '/networking/v2.0/networks/nope', tok)[0] == 404
    rules = cloud.admin('GET', '/faults')
    assert rules[0]['matched'] == 4 and rules[0]['fired'] == 2


def test_fault_rule_status_zero_drops_the_connection(cloud, token):
    tok, _ = token
    cloud.admin('POST', '/faults', [{'path': '/compute/v2.1/flavors', 'status': 0, 'count': 1}])
    assert cloud.http('GET', '/compute/v2.1/flavors', tok)[0] is None
    assert cloud.http('GET', '/compute/v2.1/flavors', tok)[0] == 200


def test_fault_rule_blocks_the_request_from_the_service(cloud, token):
    tok, project = token
    cloud.admin('POST', '/faults', [{'method': 'POST', 'path': '/networking/v2.0/networks$',
                                     'status': 409, 'count': 1}])
    status, _ = cloud.http('POST', '/networking/v2.0/networks', tok,
                           body={'network': {'name': 'never-made'}})
    assert status == 409
    status, body = cloud.http('GET', '/networking/v2.0/networks?name=never-made', tok)
    assert status == 200 and b'never-made' not in body


def test_fault_rate_is_reproducible_with_a_seed(cloud, token):
    tok, _ = token

    def outcomes():
        return [cloud.http('GET', '/compute/v2.1/flavors', tok)[0] for _ in range(16)]
    cloud.configure(fault_rate=0.5, seed=7)
    first = outcomes()
    cloud.configure(fault_rate=0.5, seed=7)
    second = outcomes()
    rng = random.Random(7)
    expected = [503 if rng.random() < 0.5 else 200 for _ in range(16)]
    assert first == second == expected
    assert 503 in first and 200 in first


def test_admin_api_rejects_bad_input(cloud):
    import urllib.error
    for path, body in (('/config', {'latency_ms': 1, 'bogus': 2}), ('/config', {'fault_rate': 2}),
                       ('/faults', [{'status': 503}]), ('/faults', [{'path': '('}])):
        with pytest.raises(urllib.error.HTTPError) as exc:
            cloud.admin('POST', path, body)
        assert exc.value.code == 400


def test_build_seconds_hold_volumes_and_load_balancers(cloud):
    conn = cloud.sdk()
    try:
        cloud.configure(build_seconds={'volume': 3, 'loadbalancer': 3})
        t0 = time.time()
        vol = conn.block_storage.create_volume(size=1, name='slow-vol')
        assert conn.block_storage.get_volume(vol).status == 'creating'
        conn.block_storage.wait_for_status(vol, 'available', wait=60, interval=0.2)
        assert time.time() - t0 >= 3
        net = conn.network.create_network(name='slow-lb-net')
        sub = conn.network.create_subnet(network_id=net.id, cidr='10.50.0.0/24', ip_version=4)
        t0 = time.time()
        lb = conn.load_balancer.create_load_balancer(name='slow-lb', vip_subnet_id=sub.id)
        assert conn.load_balancer.get_load_balancer(lb.id).provisioning_status == 'PENDING_CREATE'
        conn.load_balancer.wait_for_load_balancer(lb.id, wait=60, interval=0.2)
        assert time.time() - t0 >= 3
        cloud.configure(build_seconds={'volume': 0, 'loadbalancer': 0})
        conn.load_balancer.delete_load_balancer(lb, cascade=True)
        conn.load_balancer.wait_for_delete(lb, wait=60)
        conn.block_storage.delete_volume(vol)
        conn.block_storage.wait_for_delete(vol, wait=60)
        conn.network.delete_subnet(sub)
        conn.network.delete_network(net)
    finally:
        conn.close()


def test_resources_cover_every_kind(cloud):
    res = cloud.resources()
    for kind in ('networks', 'subnets', 'ports', 'routers', 'floating_ips', 'security_groups',
                 'servers', 'volumes', 'load_balancers', 'listeners', 'pools', 'members',
                 'health_monitors', 'containers', 'objects', 'keypairs', 'images', 'flavors'):
        assert isinstance(res[kind], list), kind


def _descendants(roots):
    """The pids of ``roots`` and every process below them (from /proc)."""
    parents = {}
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open('/proc/%s/stat' % entry) as f:
                    fields = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry))
    seen, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(parents.get(pid, ()))
    return seen


def _listening():
    """socket inode -> (family, local address, port: /proc's hex) of every listening TCP socket."""
    out = {}
    for family in ('tcp', 'tcp6'):
        with open('/proc/net/%s' % family) as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if cols[3] == '0A':                        # LISTEN
                    out[cols[9]] = (family,) + tuple(cols[1].split(':'))
    return out


LOOPBACK = {('tcp', '0100007F'), ('tcp6', '00000000000000000000000001000000')}


def test_every_socket_the_cloud_listens_on_is_on_the_loopback(cloud):
    """The front door and every service process listen on 127.0.0.1 (the cloud's default), never
    on every interface: nothing outside this host can reach the local cloud."""
    listening = _listening()
    found = []
    for pid in _descendants([cloud.proc.pid] + list(cloud.info['pids'].values())):
        try:
            fds = os.listdir('/proc/%d/fd' % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink('/proc/%d/fd/%s' % (pid, fd))
            except OSError:
                continue
            inode = target[len('socket:['):-1] if target.startswith('socket:[') else None
            if inode in listening:
                found.append((pid, listening[inode]))
    # the front door and one per service at least
    assert len(set(a for _p, a in found)) >= len(cloud.info['services']) + 1, found
    assert [f for f in found if f[1][:2] not in LOOPBACK] == []
