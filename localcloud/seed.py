# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Seed the cloud like a fresh single-node deployment (idempotent: a kept state dir is reseeded).

Keystone's part (projects demo/service, users, roles, catalog) is done inside the Keystone process
at start; this adds, through the services' APIs as admin: the external network `public` with its
subnet 172.24.4.0/24, the image `cirros`, the flavors m1.tiny..m1.large, and the default security
groups of demo, admin and service (Neutron makes them lazily: made here, they are part of the baseline).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import struct

FLAVORS = [
    # name, id, ram MB, disk GB, vcpus
    ('m1.tiny', '1', 512, 1, 1),
    ('m1.small', '2', 2048, 20, 1),
    ('m1.medium', '3', 4096, 40, 2),
    ('m1.large', '4', 8192, 80, 4),
]


def seed(sup, stop=None):
    have = sup.plan['services']
    if 'nova' in have:
        _flavors(sup)
    if 'neutron' in have:
        _public_network(sup)
        _default_security_groups(sup, [sup.project_id(n) for n in ('demo', 'admin', 'service')])
    if 'glance' in have:
        _image(sup)


def _flavors(sup):
    have = {f['name']: f for f in sup.get('nova', '/v2.1/flavors/detail?is_public=None', 'flavors')}
    # Nova's test-base flavors are never created (services/nova_db.py), so whatever else is here
    # was made by a user and survives a restart on a kept state dir.
    for name, fid, ram, disk, vcpus in FLAVORS:
        if name in have:
            continue
        sup.call('POST', 'nova', '/v2.1/flavors', {'flavor': {
            'name': name, 'id': fid, 'ram': ram, 'disk': disk, 'vcpus': vcpus,
            'os-flavor-access:is_public': True}})


def _public_network(sup):
    nets = sup.get('neutron', '/v2.0/networks?name=public', 'networks')
    if nets:
        net = nets[0]
    else:
        net = sup.call('POST', 'neutron', '/v2.0/networks', {'network': {
            'name': 'public', 'router:external': True, 'shared': False,
            'provider:network_type': 'flat', 'provider:physical_network': 'public',
            'admin_state_up': True}}).json()['network']
    if not sup.get('neutron', '/v2.0/subnets?network_id=%s' % net['id'], 'subnets'):
        sup.call('POST', 'neutron', '/v2.0/subnets', {'subnet': {
            'name': 'public-subnet', 'network_id': net['id'], 'ip_version': 4,
            'cidr': '172.24.4.0/24', 'gateway_ip': '172.24.4.1', 'enable_dhcp': False,
            'allocation_pools': [{'start': '172.24.4.2', 'end': '172.24.4.254'}]}})


def tiny_qcow2(virtual_size=112 * 1024 * 1024):
    """A valid, empty qcow2 image (header + one L1 table + refcounts): passes Glance's format check."""
    cluster = 65536
    l1_entries = (virtual_size + (cluster * cluster // 8) - 1) // (cluster * cluster // 8)
    header = struct.pack('>4sIQIIQIIQQIIQ', b'QFI\xfb', 2, 0, 0, 16, virtual_size, 0,
                         l1_entries, 3 * cluster, cluster, 1, 0, 0)
    image = bytearray(4 * cluster)
    image[:len(header)] = header
    # refcount table (cluster 1) -> refcount block (cluster 2); clusters 0..3 are in use
    image[cluster:cluster + 8] = struct.pack('>Q', 2 * cluster)
    for i in range(4):
        image[2 * cluster + 2 * i:2 * cluster + 2 * i + 2] = struct.pack('>H', 1)
    return bytes(image)


def _image(sup):
    images = sup.get('glance', '/v2/images?name=cirros', 'images')
    if images and images[0]['status'] == 'active':
        return
    for stale in images:
        sup.call('DELETE', 'glance', '/v2/images/%s' % stale['id'])
    image = sup.call('POST', 'glance', '/v2/images', {
        'name': 'cirros', 'disk_format': 'qcow2', 'container_format': 'bare',
        'visibility': 'public', 'min_disk': 0, 'min_ram': 0}).json()
    sup.call('PUT', 'glance', '/v2/images/%s/file' % image['id'], ok=(204,),
             data=tiny_qcow2(), headers={'Content-Type': 'application/octet-stream'})


def _default_security_groups(sup, projects):
    # asking for a project's groups makes Neutron create its 'default' group; the service
    # project's appears as soon as Octavia asks Neutron anything, so it belongs to the baseline
    for project in projects:
        sup.get('neutron', '/v2.0/security-groups?project_id=%s' % project, 'security_groups')
