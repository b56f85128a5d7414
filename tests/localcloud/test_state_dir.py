# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A cloud restarted on a kept --state-dir keeps Nova's servers, keypairs and server groups.

Starts its own cloud (not the session one) twice on one state dir, stopping it with SIGTERM.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import CLOUD_PY, process_gone, start_cloud, stop_cloud, wait_for  # noqa: E402


def _start(workdir, state_dir, tag):
    log_path = os.path.join(workdir, 'localcloud-%s.log' % tag)
    c, _proc = start_cloud(workdir, ['--state-dir', state_dir], log_path)
    if c is None:
        with open(log_path) as f:
            pytest.fail('local cloud (%s) did not start:\n%s' % (tag, f.read()[-5000:]))
    c.info = c.admin('GET', '/')
    return c


def _stop_cleanly(c):
    assert stop_cloud(c.proc) == 0
    for name, pid in c.info['pids'].items():
        assert process_gone(pid), name


def test_restart_on_kept_state_dir_keeps_servers_and_keypairs(tmp_path):
    if not os.path.exists(CLOUD_PY):
        pytest.skip('the local cloud needs .venv-cloud: run `make cloud-venv`')
    workdir, state_dir = str(tmp_path), str(tmp_path / 'state')
    c = _start(workdir, state_dir, 'first')
    try:
        conn = c.sdk()
        net = conn.network.create_network(name='kept-net')
        sub = conn.network.create_subnet(network_id=net.id, cidr='10.50.0.0/24', ip_version=4)
        kp = conn.compute.create_keypair(name='kept-kp')
        # a flavor a user made survives too (the seed only adds its four)
        c.sdk('localcloud-admin').compute.create_flavor(name='kept.flavor', ram=128, vcpus=1, disk=1)
        group = conn.compute.create_server_group(name='kept-group', policy='affinity')
        server = conn.compute.create_server(
            name='kept-server', flavor_id=conn.compute.find_flavor('m1.tiny').id,
            image_id=conn.image.find_image('cirros').id, networks=[{'uuid': net.id}],
            scheduler_hints={'group': group.id})
        server = conn.compute.wait_for_server(server, wait=180)
        assert server.status == 'ACTIVE'
        port_ids = sorted(p.id for p in conn.network.ports(device_id=server.id))
        assert len(port_ids) == 1
    finally:
        _stop_cleanly(c)

    c = _start(workdir, state_dir, 'second')
    try:
        conn = c.sdk()
        again = conn.compute.get_server(server.id)
        assert again.status == 'ACTIVE' and again.name == 'kept-server'
        assert again.flavor.original_name == 'm1.tiny'
        assert conn.compute.find_keypair('kept-kp').fingerprint == kp.fingerprint
        admin = c.sdk('localcloud-admin')
        kept_flavor = admin.compute.find_flavor('kept.flavor')
        assert kept_flavor is not None and kept_flavor.ram == 128
        assert conn.compute.get_server_group(group.id).member_ids == [server.id]
        assert sorted(p.id for p in conn.network.ports(device_id=server.id)) == port_ids
        # the restarted compute owns it: it neither errors it out nor stops it
        time.sleep(3)
        assert conn.compute.get_server(server.id).status == 'ACTIVE'
        assert server.id in {s['id'] for s in c.resources()['servers']}
        # and it can delete it, releasing the port nova made
        conn.compute.delete_server(server)
        conn.compute.wait_for_delete(server, wait=180)
        wait_for(lambda: not list(conn.network.ports(device_id=server.id)), what='port deleted')
        conn.compute.delete_keypair('kept-kp')
        assert conn.compute.find_keypair('kept-kp') is None
        conn.compute.delete_server_group(group)
        admin.compute.delete_flavor(kept_flavor)
        conn.network.delete_subnet(sub)
        conn.network.delete_network(net)
    finally:
        _stop_cleanly(c)
