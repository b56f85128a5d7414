# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nova plugins against the local cloud's real Nova/Neutron/Glance.

Each scenario is a plain function taking connections, so that it runs from
pytest (the session cloud) and from a script against an already running
cloud (``python tests/localcloud/test_plugins_nova.py CLOUDS_YAML``)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time
import uuid
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, '.build'))

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import base  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

POLL_LIMIT = 240


def _ctx(conn, type_name, name, props, prefix):
    return base.ResourceContext(
        conn=conn, stack_id='stk-' + prefix, stack_name=prefix, name=name, type_name=type_name,
        physical_name=base.physical_name(prefix, name),
        properties=base.effective_properties(type_name, props), action='CREATE')


def _poll(fn, ctx, interval=0.5):
    for _ in range(POLL_LIMIT):
        if fn(ctx):
            return
        time.sleep(interval)
    raise AssertionError('%s never completed' % fn.__name__)


def _update(plugin, ctx, props):
    ctx.old_properties = ctx.properties
    ctx.properties = base.effective_properties(ctx.type_name, props)
    ctx.changed = frozenset(k for k in ctx.properties
                            if ctx.properties[k] != ctx.old_properties.get(k))
    ctx.action = 'UPDATE'
    assert not plugin.needs_replace(ctx)
    plugin.update(ctx)
    _poll(plugin.check_update_complete, ctx)


def _delete(plugin, ctx):
    ctx.action = 'DELETE'
    plugin.delete(ctx)
    _poll(plugin.check_delete_complete, ctx)
    assert plugin.show(ctx) is None


PUBLIC_KEY = ('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBRP9V9DZiUN4PfPFZdvFuOGG7hwbvsFP17t25pxTBJD '
              'plugins-test')


def run_keypair(conn, prefix):
    plugin = PLUGINS['OS::Nova::KeyPair']()
    # This Nova speaks 2.92+, where it generates no key pairs: refused as Heat refuses it
    # (a replacement reaches create without the run's preflight), and nothing is made.
    ctx = _ctx(conn, 'OS::Nova::KeyPair', 'key', {'name': prefix + '-key', 'save_private_key': True}, prefix)
    with pytest.raises(ResourceFailure) as err:
        plugin.create(ctx)
    assert str(err.value) == 'The public_key property is required by the nova API version currently used.'
    assert plugin.find(ctx) is None
    # an imported key
    ctx2 = _ctx(conn, 'OS::Nova::KeyPair', 'key2',
                {'name': prefix + '-key2', 'public_key': PUBLIC_KEY, 'save_private_key': True}, prefix)
    ctx2.physical_id = plugin.create(ctx2)
    assert ctx2.physical_id == prefix + '-key2'
    attrs = plugin.attributes(ctx2, plugin.show(ctx2))
    assert attrs['private_key'] == '' and attrs['public_key'] == PUBLIC_KEY
    assert 'private_key' not in attrs['show']
    assert plugin.find(ctx2) == ctx2.physical_id
    plugin.check(ctx2)
    _delete(plugin, ctx2)


def run_server_group(conn, prefix):
    plugin = PLUGINS['OS::Nova::ServerGroup']()
    ctx = _ctx(conn, 'OS::Nova::ServerGroup', 'group',
               {'policies': ['anti-affinity'], 'rules': {'max_server_per_host': 2}}, prefix)
    ctx.physical_id = plugin.create(ctx)
    live = plugin.show(ctx)
    assert live['policy'] == 'anti-affinity' and live['rules'] == {'max_server_per_host': 2}
    assert live['name'] == ctx.physical_name
    assert plugin.find(ctx) == ctx.physical_id
    assert not plugin.needs_replace_failed(ctx)
    _delete(plugin, ctx)


def run_flavor(admin, prefix):
    plugin = PLUGINS['OS::Nova::Flavor']()
    ctx = _ctx(admin, 'OS::Nova::Flavor', 'flavor',
               {'ram': 128, 'vcpus': 1, 'disk': 1, 'is_public': False,
                'extra_specs': {'hw:cpu_policy': 'shared'}}, prefix)
    ctx.physical_id = plugin.create(ctx)
    attrs = plugin.attributes(ctx, plugin.show(ctx))
    assert attrs['is_public'] is False
    assert attrs['extra_specs'] == {'hw:cpu_policy': 'shared'}
    access = admin.compute.get_flavor_access(ctx.physical_id)
    assert [a['tenant_id'] for a in access] == [admin.current_project_id]
    _update(plugin, ctx, {'ram': 128, 'vcpus': 1, 'disk': 1, 'is_public': False,
                          'extra_specs': {'hw:mem_page_size': 'small'}})
    live = plugin.show(ctx)
    assert live['extra_specs'] == {'hw:mem_page_size': 'small'}
    assert plugin.drift(ctx, live) == []
    assert plugin.find(ctx) == ctx.physical_id
    _delete(plugin, ctx)


def run_server(conn, prefix):
    plugin = PLUGINS['OS::Nova::Server']()
    ctx = None
    net = conn.network.create_network(name=prefix + '-net')
    subnet = conn.network.create_subnet(network_id=net.id, ip_version=4, cidr='10.77.0.0/24',
                                        name=prefix + '-subnet')
    try:
        props = {'image': 'cirros', 'flavor': 'm1.tiny', 'metadata': {'role': 'web', 'n': 1},
                 'networks': [{'network': prefix + '-net'}, {'subnet': subnet.id}],
                 'user_data': '#!/bin/sh\necho hi\n', 'user_data_format': 'RAW',
                 'tags': ['a', 'b']}
        ctx = _ctx(conn, 'OS::Nova::Server', 'server', props, prefix)
        ctx.physical_id = plugin.create(ctx)
        assert len(ctx.data['internal_ports']) == 1
        _poll(plugin.check_create_complete, ctx)
        assert plugin.find(ctx) == ctx.physical_id
        live = plugin.show(ctx)
        attrs = plugin.attributes(ctx, live)
        assert attrs['name'] == ctx.physical_name
        assert sorted(attrs['tags']) == ['a', 'b']
        assert attrs['show']['metadata'] == {'role': 'web', 'n': '1'}
        assert len(attrs['addresses'][prefix + '-net']) == 2
        assert attrs['addresses'][net.id] == attrs['addresses'][prefix + '-net']
        assert ctx.data['internal_ports'][0] in [a['port'] for a in attrs['addresses'][net.id]]
        assert attrs['first_address'] in attrs['networks'][net.id]
        assert plugin.drift(ctx, live) == []
        plugin.check(ctx)
        # update in place: name, metadata, tags, networks (a resize cannot
        # work here: the one fake compute is no other host, and Nova 2026.2
        # does not resize to the same host unless configured to)
        new = dict(props, name=prefix + '-renamed', metadata={'role': 'db'}, tags=['c'],
                   networks=[{'network': net.id}])
        _update(plugin, ctx, new)
        live = plugin.show(ctx)
        assert live['name'] == prefix + '-renamed'
        assert base.own_metadata(live['metadata']) == {'role': 'db'}
        assert live['metadata'][base.TAG_STACK] == 'stk-' + prefix
        assert live['tags'] == ['c']
        # which of the two ports stays is Heat's matching (both are on the net)
        ports = list(conn.network.ports(device_id=ctx.physical_id))
        assert len(ports) == 1
        assert plugin.drift(ctx, live) == []
        # suspend / resume
        plugin.suspend(ctx)
        _poll(plugin.check_suspend_complete, ctx)
        plugin.resume(ctx)
        _poll(plugin.check_resume_complete, ctx)
        # image policy REPLACE asks for a replacement
        ctx.old_properties, ctx.changed = ctx.properties, frozenset(['image'])
        ctx.properties = base.effective_properties(
            ctx.type_name, dict(new, image='other', image_update_policy='REPLACE'))
        assert plugin.needs_replace(ctx)
        assert not plugin.needs_replace_failed(ctx)
        _delete(plugin, ctx)
        assert list(conn.network.ports(network_id=net.id, device_owner='compute:nova')) == []
    finally:
        if ctx is not None and ctx.physical_id and plugin.show(ctx) is not None:
            conn.compute.delete_server(ctx.physical_id)
            conn.compute.wait_for_delete(conn.compute.get_server(ctx.physical_id), wait=120)
        for port in conn.network.ports(network_id=net.id):
            if not port.device_owner.startswith('network:'):
                conn.network.delete_port(port)
        conn.network.delete_subnet(subnet)
        conn.network.delete_network(net)


def run_server_show(conn, prefix):
    """A server's show is Nova's own body at the microversion Heat 27's
    client speaks (Nova's newest, capped at novaclient's 2.96): the keys of
    a raw GET at that microversion and os_collect_config, whatever the
    connection's default; its key set is returned to compare with Heat's."""
    plugin = PLUGINS['OS::Nova::Server']()
    ctx = None
    net = conn.network.create_network(name=prefix + '-shownet')
    subnet = conn.network.create_subnet(network_id=net.id, ip_version=4, cidr='10.78.0.0/24')
    try:
        ctx = _ctx(conn, 'OS::Nova::Server', 'shown',
                   {'image': 'cirros', 'flavor': 'm1.tiny', 'metadata': {'role': 'web'},
                    'networks': [{'network': net.id}]}, prefix)
        ctx.metadata = {'os-collect-config': {'polling_interval': 30}}
        ctx.physical_id = plugin.create(ctx)
        _poll(plugin.check_create_complete, ctx)
        url = '/servers/' + ctx.physical_id
        newest = tuple(conn.compute.get_endpoint_data().max_microversion)
        heats = '%d.%d' % min(newest, (2, 96))
        raw = conn.compute.get(url, microversion=heats).json()['server']
        assert len(conn.compute.get(url, microversion='2.1').json()['server']) < len(raw)
        before = conn.compute.default_microversion
        conn.compute.default_microversion = '2.1'    # the show asks its own
        try:
            show = plugin.attributes(ctx, plugin.show(ctx), names={'show'})['show']
        finally:
            conn.compute.default_microversion = before
        assert sorted(show) == sorted(list(raw) + ['os_collect_config'])
        assert show['os_collect_config'] == {'polling_interval': 30}
        assert show['metadata'] == {'role': 'web'}
        assert base.TAG_STACK in raw['metadata']
        for key in raw:
            if key not in ('metadata', 'updated'):
                assert show[key] == raw[key], key
        # the live object (the SDK's) is still what drift and the other attributes read
        assert plugin.drift(ctx, plugin.show(ctx)) == []
        return set(show)
    finally:
        if ctx is not None and ctx.physical_id and plugin.show(ctx) is not None:
            _delete(plugin, ctx)
        for port in conn.network.ports(network_id=net.id):
            if not port.device_owner.startswith('network:'):
                conn.network.delete_port(port)
        conn.network.delete_subnet(subnet)
        conn.network.delete_network(net)


SHOW_TEMPLATE = """
heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  sub:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.79.0.0/24}
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, metadata: {role: web}, networks: [{subnet: {get_resource: sub}}]}
outputs:
  show:
    value: {get_attr: [server, show]}
"""


def run_server_error(conn, prefix):
    """A missing image fails before anything is made; no networks fails as Heat 27."""
    plugin = PLUGINS['OS::Nova::Server']()
    ctx = _ctx(conn, 'OS::Nova::Server', 'bad', {'image': prefix + '-nope', 'flavor': 'm1.tiny',
                                                 'networks': [{'network': 'public'}]}, prefix)
    try:
        plugin.create(ctx)
        raise AssertionError('created')
    except ResourceFailure as exc:
        assert 'could not be found' in str(exc)
    ctx = _ctx(conn, 'OS::Nova::Server', 'nonet', {'image': 'cirros', 'flavor': 'm1.tiny'}, prefix)
    try:
        plugin.create(ctx)
        raise AssertionError('created')
    except ResourceFailure as exc:
        assert 'nics are required' in str(exc)


def run_all(conn, admin, prefix):
    run_keypair(conn, prefix)
    run_server_group(conn, prefix)
    run_flavor(admin, prefix)
    run_server_error(conn, prefix)
    run_server(conn, prefix)


def test_nova_plugins(cloud):
    prefix = 'tn' + uuid.uuid4().hex[:6]
    run_all(cloud.sdk(), cloud.sdk('localcloud-admin'), prefix)
    left = cloud.resources()
    for kind in ('servers', 'keypairs', 'flavors', 'ports', 'networks'):
        assert not [r for r in left.get(kind, []) if prefix in str(r.get('name'))], kind


def test_server_show_is_novas_body_as_heats(cloud, tmp_path):
    prefix = 'ts' + uuid.uuid4().hex[:6]
    ours = run_server_show(cloud.sdk(), prefix)
    # Heat's peer: the same key set (its metadata is its own)
    template = tmp_path / 'show.yaml'
    template.write_text(SHOW_TEMPLATE)
    name = prefix + '-peer'
    try:
        cloud.osc('stack', 'create', '-t', str(template), name, '--wait', timeout=400)
        heat = cloud.osc('stack', 'output', 'show', name, 'show', as_json=True)['output_value']
        assert sorted(heat) == sorted(ours)
        assert heat['metadata'] == {'role': 'web'}
    finally:
        cloud.osc('stack', 'delete', name, '--yes', '--wait', timeout=400, check=False)


if __name__ == '__main__':
    import openstack
    os.environ.setdefault('OS_CLIENT_CONFIG_FILE', sys.argv[1] if len(sys.argv) > 1 else '')
    which = sys.argv[2] if len(sys.argv) > 2 else 'all'
    c, a = openstack.connect(cloud='localcloud'), openstack.connect(cloud='localcloud-admin')
    p = 'tn' + uuid.uuid4().hex[:6]
    if which == 'all':
        run_all(c, a, p)
    elif which == 'flavor':
        run_flavor(a, p)
    else:
        globals()['run_' + which](c, p)
    print('ok', which)
