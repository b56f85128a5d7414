# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""openstacksdk against each service of the local cloud (what the collection's engine will use)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import urllib.error
import urllib.request
import uuid

import pytest

from localcloud.harness import wait_for


@pytest.fixture(scope='module')
def conn(cloud):
    c = cloud.sdk()
    yield c
    c.close()


@pytest.fixture(scope='module')
def admin_conn(cloud):
    c = cloud.sdk('localcloud-admin')
    yield c
    c.close()


def test_identity(conn, admin_conn):
    assert conn.current_project.name == 'demo'
    names = {p.name for p in admin_conn.identity.projects()}
    assert {'admin', 'demo', 'service'} <= names
    types = {s.type for s in admin_conn.identity.services()}
    assert {'identity', 'compute', 'network', 'block-storage', 'image', 'load-balancer',
            'object-store'} <= types


def test_compute_flavors_and_keypairs(conn):
    flavors = {f.name: f for f in conn.compute.flavors()}
    assert sorted(flavors) == ['m1.large', 'm1.medium', 'm1.small', 'm1.tiny']
    assert flavors['m1.tiny'].ram == 512
    name = 'kp-' + uuid.uuid4().hex[:8]
    kp = conn.compute.create_keypair(name=name)
    try:
        assert kp.private_key.startswith('-----BEGIN')
        assert conn.compute.find_keypair(name) is not None
    finally:
        conn.compute.delete_keypair(name)
    assert conn.compute.find_keypair(name) is None


def test_network_public_and_ipam(conn):
    public = conn.network.find_network('public')
    assert public.is_router_external
    subnet = conn.network.get_subnet(public.subnet_ids[0])
    assert subnet.cidr == '172.24.4.0/24'
    net = conn.network.create_network(name='sdk-net')
    try:
        sub = conn.network.create_subnet(network_id=net.id, cidr='10.20.0.0/29', ip_version=4)
        ports = [conn.network.create_port(network_id=net.id) for _ in range(5)]
        addresses = {p.fixed_ips[0]['ip_address'] for p in ports}
        assert len(addresses) == 5      # real IPAM: distinct addresses from the pool
        from openstack import exceptions
        with pytest.raises(exceptions.HttpException) as exc:   # the /29 pool is exhausted
            conn.network.create_port(network_id=net.id)
        assert exc.value.status_code == 409
        for p in ports:
            conn.network.delete_port(p)
        conn.network.delete_subnet(sub)
    finally:
        conn.network.delete_network(net)


def test_image_cirros(conn):
    image = conn.image.find_image('cirros')
    assert image.status == 'active'
    assert image.disk_format == 'qcow2'
    assert image.visibility == 'public'


def test_block_storage_volume(conn):
    vol = conn.block_storage.create_volume(size=1, name='sdk-vol')
    try:
        vol = conn.block_storage.wait_for_status(vol, 'available', wait=120)
        assert vol.size == 1
    finally:
        conn.block_storage.delete_volume(vol)
        conn.block_storage.wait_for_delete(vol, wait=120)


def test_server_boot_and_delete(conn, admin_conn):
    net = conn.network.create_network(name='sdk-boot-net')
    sub = conn.network.create_subnet(network_id=net.id, cidr='10.30.0.0/24', ip_version=4)
    server = None
    try:
        server = conn.compute.create_server(
            name='sdk-server', flavor_id=conn.compute.find_flavor('m1.tiny').id,
            image_id=conn.image.find_image('cirros').id, networks=[{'uuid': net.id}])
        server = conn.compute.wait_for_server(server, wait=180)
        assert server.status == 'ACTIVE'
        # binding details are admin-only in Neutron's policy
        ports = list(admin_conn.network.ports(device_id=server.id))
        assert len(ports) == 1
        assert ports[0].binding_vif_type == 'ovs' and ports[0].binding_host_id == 'localcloud'
        assert ports[0].status == 'ACTIVE'
        assert server.addresses['sdk-boot-net'][0]['addr'] == ports[0].fixed_ips[0]['ip_address']
    finally:
        if server is not None:
            conn.compute.delete_server(server)
            conn.compute.wait_for_delete(server, wait=180)
            # the port nova made is gone with the server
            wait_for(lambda: not list(conn.network.ports(device_id=server.id)), what='port deleted')
        conn.network.delete_subnet(sub)
        conn.network.delete_network(net)


def test_load_balancer(conn):
    net = conn.network.create_network(name='sdk-lb-net')
    sub = conn.network.create_subnet(network_id=net.id, cidr='10.40.0.0/24', ip_version=4)
    lb = None
    try:
        assert 'noop_driver' in {p.name for p in conn.load_balancer.providers()}
        lb = conn.load_balancer.create_load_balancer(name='sdk-lb', vip_subnet_id=sub.id)
        lb = conn.load_balancer.wait_for_load_balancer(lb.id, wait=120)
        assert lb.provisioning_status == 'ACTIVE'
        vip_ports = list(conn.network.ports(network_id=net.id))
        assert [p.fixed_ips[0]['ip_address'] for p in vip_ports] == [lb.vip_address]
    finally:
        if lb is not None:
            conn.load_balancer.delete_load_balancer(lb, cascade=True)
            conn.load_balancer.wait_for_delete(lb, wait=120)
            wait_for(lambda: not list(conn.network.ports(network_id=net.id)), what='VIP port released')
        conn.network.delete_subnet(sub)
        conn.network.delete_network(net)


def test_object_store_tempurl_and_if_none_match(cloud, conn):
    from openstack import exceptions
    container = 'sdk-' + uuid.uuid4().hex[:8]
    conn.object_store.create_container(name=container)
    try:
        conn.object_store.upload_object(container=container, name='a.txt', data=b'first')
        assert conn.object_store.download_object('a.txt', container=container) == b'first'
        with pytest.raises(exceptions.HttpException) as exc:
            conn.object_store.upload_object(container=container, name='a.txt', data=b'second',
                                            if_none_match='*')
        assert exc.value.status_code == 412
        conn.object_store.set_account_temp_url_key('tempurl-secret')
        path = conn.object_store.generate_temp_url(
            '/v1/AUTH_%s/%s/a.txt' % (conn.current_project_id, container), 300, 'GET')
        url = cloud.url + '/object-store' + path
        with urllib.request.urlopen(url, timeout=60) as resp:
            assert resp.read() == b'first'
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(urllib.request.Request(url, data=b'x', method='PUT'), timeout=60)
        assert denied.value.code == 401
    finally:
        for obj in conn.object_store.objects(container):
            conn.object_store.delete_object(obj, container=container)
        conn.object_store.delete_container(container)
        conn.object_store.delete_account_metadata(['temp_url_key'])
