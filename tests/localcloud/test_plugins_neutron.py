# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Neutron plugins against the real Neutron of the local cloud.

The scenario is a plain function of two connections (demo, admin), so it can
also run against an already running cloud while developing:

    OS_CLIENT_CONFIG_FILE=/tmp/devcloud/clouds.yaml .venv/bin/python \
        tests/localcloud/test_plugins_neutron.py
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time
import uuid

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(_ROOT, '.build') not in sys.path:   # when run as a script
    sys.path.insert(0, os.path.join(_ROOT, '.build'))

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (  # noqa: E402
    ResourceContext, effective_properties, physical_name)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402

NEUTRON_PLUGINS = dict((cls.type_name, cls) for cls in registry.NEUTRON)


class Driver(object):
    """Drives one plugin the way the engine does: contexts, polls, records."""

    def __init__(self, conn, stack_name):
        self.conn = conn
        self.stack_name = stack_name
        self.stack_id = str(uuid.uuid4())
        self.made = []

    def ctx(self, type_name, name, props, physical_id=None, pname=None):
        return ResourceContext(conn=self.conn, stack_id=self.stack_id, stack_name=self.stack_name,
                               name=name, type_name=type_name,
                               physical_name=pname or physical_name(self.stack_name, name),
                               physical_id=physical_id,
                               properties=effective_properties(type_name, props), action='CREATE')

    @staticmethod
    def poll(fn, ctx, timeout=60):
        deadline = time.time() + timeout
        while not fn(ctx):
            assert time.time() < deadline, 'timed out polling %s' % fn.__name__
            time.sleep(0.3)

    def create(self, type_name, name, props):
        plugin = NEUTRON_PLUGINS[type_name]()
        ctx = self.ctx(type_name, name, props)
        ctx.physical_id = plugin.create(ctx)
        assert ctx.physical_id
        self.poll(plugin.check_create_complete, ctx)
        later = plugin.create_later(ctx)     # as the engine does, once the object is usable
        if later is not None:
            later()
        self.made.append((plugin, ctx))
        return plugin, ctx

    def update(self, plugin, ctx, props):
        new = effective_properties(ctx.type_name, props)
        changed = set(k for k in set(new) | set(ctx.properties) if new.get(k) != ctx.properties.get(k))
        uctx = ResourceContext(conn=self.conn, stack_id=ctx.stack_id, stack_name=ctx.stack_name,
                               name=ctx.name, type_name=ctx.type_name, physical_name=ctx.physical_name,
                               physical_id=ctx.physical_id, properties=new,
                               old_properties=ctx.properties, changed=changed, data=ctx.data,
                               action='UPDATE')
        assert not any(not plugin.update_allowed(k) for k in changed), changed
        plugin.update(uctx)
        self.poll(plugin.check_update_complete, uctx)
        ctx.properties = new
        ctx.live = None
        return ctx

    def delete(self, plugin, ctx):
        ctx.action = 'DELETE'
        plugin.delete(ctx)
        self.poll(plugin.check_delete_complete, ctx)
        assert plugin.show(ctx) is None, (ctx.type_name, ctx.physical_id)
        self.made.remove((plugin, ctx))

    def cleanup(self):
        for plugin, ctx in reversed(list(self.made)):
            try:
                self.delete(plugin, ctx)
            except Exception as exc:   # noqa: B902 - best effort after a failure
                print('cleanup of %s failed: %s' % (ctx.name, exc))


def scenario(conn, admin, prefix=None):
    prefix = prefix or 'nxlive%s' % uuid.uuid4().hex[:6]
    d = Driver(conn, prefix)
    a = Driver(admin, prefix + 'adm')
    try:
        # QoS policies are admin-made (Neutron's policy); shared, the demo
        # project's network takes it by name
        qp, qctx = a.create('OS::Neutron::QoSPolicy', 'qos', {'description': 'q', 'shared': True})
        assert qp.attributes(qctx, qp.show(qctx))['rules'] == []
        a.update(qp, qctx, {'description': 'q2', 'shared': True})
        assert qp.show(qctx)['description'] == 'q2' and qp.drift(qctx, qp.show(qctx)) == []
        assert qp.find(qctx) == qctx.physical_id
        _network_part(d, conn, qctx)
    finally:
        d.cleanup()
        a.cleanup()
    _provider_part(Driver(admin, prefix + 'adm'))
    leftovers = [n.name for n in conn.network.networks() if (n.name or '').startswith(prefix)]
    leftovers += [s.name for s in conn.network.security_groups() if (s.name or '').startswith(prefix)]
    leftovers += [p.name for p in conn.network.ports() if (p.name or '').startswith(prefix)]
    leftovers += [r.name for r in conn.network.routers() if (r.name or '').startswith(prefix)]
    assert not leftovers, leftovers
    return prefix


def _network_part(d, conn, qctx):

    # Net with user tags, value_specs and a QoS policy by name
    np_, nctx = d.create('OS::Neutron::Net', 'net', {
        'tags': ['blue'], 'value_specs': {'mtu': 1400}, 'qos_policy': qctx.physical_name})
    live = np_.show(nctx)
    attrs = np_.attributes(nctx, live)
    assert attrs['mtu'] == 1400 and attrs['status'] == 'ACTIVE' and attrs['name'] == nctx.physical_name
    assert attrs['show']['tags'] == ['blue'] and attrs['qos_policy_id'] == qctx.physical_id
    assert isinstance(attrs['segments'], list)
    assert sorted(live['tags']) == sorted(nctx.tags(['blue']))     # the marks are there
    assert np_.find(nctx) == nctx.physical_id
    d.update(np_, nctx, {'tags': ['red'], 'value_specs': {'mtu': 1300}, 'name': d.stack_name + '-net2',
                         'qos_policy': None})
    live = np_.show(nctx)
    assert live['mtu'] == 1300 and np_.attributes(nctx, live)['show']['tags'] == ['red']
    assert live['qos_policy_id'] is None
    assert np_.drift(nctx, live) == []
    conn.network.update_network(nctx.physical_id, admin_state_up=False)
    assert np_.drift(nctx, np_.show(nctx)) == ['admin_state_up']
    conn.network.update_network(nctx.physical_id, admin_state_up=True)
    np_.check(nctx)
    net_name = d.stack_name + '-net2'

    # Subnet on the network by name
    sp, sctx = d.create('OS::Neutron::Subnet', 'sub', {
        'network': net_name, 'cidr': '10.77.0.0/24', 'dns_nameservers': ['8.8.8.8'],
        'allocation_pools': [{'start': '10.77.0.10', 'end': '10.77.0.100'}], 'tags': ['s']})
    attrs = sp.attributes(sctx, sp.show(sctx))
    assert attrs['network_id'] == nctx.physical_id and attrs['gateway_ip'] == '10.77.0.1'
    assert attrs['allocation_pools'] == [{'start': '10.77.0.10', 'end': '10.77.0.100'}]
    d.update(sp, sctx, dict(sctx.properties, name='sub2', gateway_ip='',
                            dns_nameservers=['1.1.1.1']))
    live = sp.show(sctx)
    assert live['name'] == 'sub2' and live['gateway_ip'] is None and live['dns_nameservers'] == ['1.1.1.1']
    assert sp.drift(sctx, live) == [], sp.drift(sctx, live)
    d.update(sp, sctx, dict(sctx.properties, gateway_ip='10.77.0.1'))

    # Router with a gateway on public (by name), interface on the subnet
    rp, rctx = d.create('OS::Neutron::Router', 'router', {
        'external_gateway_info': {'network': 'public'}})
    attrs = rp.attributes(rctx, rp.show(rctx))
    public = conn.network.find_network('public')
    assert attrs['external_gateway_info']['network_id'] == public.id
    assert rp.drift(rctx, rp.show(rctx)) == []
    ip_, ictx = d.create('OS::Neutron::RouterInterface', 'iface', {
        'router': rctx.physical_id, 'subnet': 'sub2'})
    assert ictx.physical_id == '%s:subnet_id=%s' % (rctx.physical_id, sctx.physical_id)
    assert ip_.find(ictx) == ictx.physical_id and ip_.show(ictx) is not None
    ip_.check(ictx)

    # Extra routes through a host of the subnet
    ep, ectx = d.create('OS::Neutron::ExtraRouteSet', 'routes', {
        'router': rctx.physical_id, 'routes': [{'destination': '10.88.0.0/24', 'nexthop': '10.77.0.5'}]})
    assert ectx.physical_id == rctx.physical_id and ep.find(ectx) == rctx.physical_id
    d.update(ep, ectx, {'router': rctx.physical_id, 'routes': [
        {'destination': '10.88.0.0/24', 'nexthop': '10.77.0.5'},
        {'destination': '10.89.0.0/24', 'nexthop': '10.77.0.6'}]})
    routes = conn.network.get_router(rctx.physical_id).routes
    assert len(routes) == 2
    try:   # a route the router already has is refused, as Heat refuses it
        d.create('OS::Neutron::ExtraRouteSet', 'dup', {
            'router': rctx.physical_id, 'routes': [{'destination': '10.89.0.0/24', 'nexthop': '10.77.0.6'}]})
        raise AssertionError('duplicate route accepted')
    except ResourceFailure as exc:
        assert 'exists' in str(exc)
    d.delete(ep, ectx)
    assert conn.network.get_router(rctx.physical_id).routes == []
    d.update(rp, rctx, {'external_gateway_info': None, 'name': 'r2'})
    assert conn.network.get_router(rctx.physical_id).external_gateway_info is None

    # Security group with rules (an egress rule: Neutron's egress defaults go)
    gp, gctx = d.create('OS::Neutron::SecurityGroup', 'sg', {'rules': [
        {'protocol': 'tcp', 'port_range_min': 22, 'port_range_max': 22, 'remote_ip_prefix': '0.0.0.0/0'},
        {'direction': 'egress', 'protocol': 'udp', 'port_range_min': 53, 'port_range_max': 53},
        {'remote_mode': 'remote_group_id'}]})
    rules = gp.show(gctx)['security_group_rules']
    assert sorted(((r['direction'], r['protocol']) for r in rules), key=str) == sorted(
        [('ingress', 'tcp'), ('egress', 'udp'), ('ingress', None)], key=str), rules
    assert [r['remote_group_id'] for r in rules if r['protocol'] is None] == [gctx.physical_id]
    assert gp.drift(gctx, gp.show(gctx)) == []
    d.update(gp, gctx, {'rules': [{'protocol': 'icmp'}], 'description': 'web'})
    rules = gp.show(gctx)['security_group_rules']
    assert sorted(((r['direction'], r['ethertype'], r['protocol']) for r in rules), key=str) == [
        ('egress', 'IPv4', None), ('egress', 'IPv6', None), ('ingress', 'IPv4', 'icmp')], rules
    assert gp.drift(gctx, gp.show(gctx)) == []
    rrp, rrctx = d.create('OS::Neutron::SecurityGroupRule', 'rule', {
        'security_group': gctx.physical_name, 'port_range_min': 80, 'port_range_max': 81,
        'remote_group': gctx.physical_id})
    assert rrp.find(rrctx) == rrctx.physical_id

    # Ports: fixed IP by subnet name, security group by name, pairs, value_specs
    pp, pctx = d.create('OS::Neutron::Port', 'port', {
        'network': nctx.physical_id,
        'fixed_ips': [{'subnet': 'sub2', 'ip_address': '10.77.0.20'}],
        'security_groups': [gctx.physical_name, 'default'],
        'allowed_address_pairs': [{'ip_address': '10.77.0.200'}],
        'value_specs': {'description': 'vs'}, 'tags': ['p']})
    live = pp.show(pctx)
    attrs = pp.attributes(pctx, live)
    assert attrs['fixed_ips'] == [{'subnet_id': sctx.physical_id, 'ip_address': '10.77.0.20'}]
    assert [s['id'] for s in attrs['subnets']] == [sctx.physical_id]
    assert attrs['network']['id'] == nctx.physical_id and attrs['mac_address']
    assert live['description'] == 'vs' and len(live['security_groups']) == 2
    assert attrs['show']['tags'] == ['p'] and pp.find(pctx) == pctx.physical_id
    assert pp.drift(pctx, live) == [], pp.drift(pctx, live)
    d.update(pp, pctx, dict(pctx.properties, fixed_ips=[{'subnet': 'sub2', 'ip_address': '10.77.0.21'}],
                            security_groups=[], allowed_address_pairs=[]))
    live = pp.show(pctx)
    assert [f['ip_address'] for f in live['fixed_ips']] == ['10.77.0.21'] and live['security_groups'] == []
    assert pp.drift(pctx, live) == [], pp.drift(pctx, live)
    d.update(pp, pctx, dict(pctx.properties, security_groups=None))   # back to default
    assert len(pp.show(pctx)['security_groups']) == 1
    p2, p2ctx = d.create('OS::Neutron::Port', 'port2', {'network': net_name, 'no_fixed_ips': True})
    assert p2.show(p2ctx)['fixed_ips'] == []
    p3, p3ctx = d.create('OS::Neutron::Port', 'port3', {'network': net_name})

    # Router back on public: floating IPs need the gateway
    d.update(rp, rctx, {'external_gateway_info': {'network': public.id}, 'name': 'r2'})
    fp, fctx = d.create('OS::Neutron::FloatingIP', 'fip', {
        'floating_network': 'public', 'port_id': pctx.physical_id})
    attrs = fp.attributes(fctx, fp.show(fctx))
    assert attrs['port_id'] == pctx.physical_id and attrs['fixed_ip_address'] == '10.77.0.21'
    assert attrs['floating_network_id'] == public.id and attrs['router_id'] == rctx.physical_id
    assert fp.find(fctx) == fctx.physical_id
    d.update(fp, fctx, {'floating_network': 'public', 'port_id': None})
    assert fp.show(fctx)['port_id'] is None
    d.update(fp, fctx, {'floating_network': 'public', 'port_id': p3ctx.physical_id})
    assert fp.show(fctx)['port_id'] == p3ctx.physical_id and fp.drift(fctx, fp.show(fctx)) == []

    f2, f2ctx = d.create('OS::Neutron::FloatingIP', 'fip2', {'floating_network': public.id})
    ap, actx = d.create('OS::Neutron::FloatingIPAssociation', 'assoc', {
        'floatingip_id': f2ctx.physical_id, 'port_id': pctx.physical_id})
    assert ap.reference_id(actx) == actx.physical_id == actx.physical_name
    assert f2.show(f2ctx)['port_id'] == pctx.physical_id and ap.find(actx) == actx.physical_id
    d.delete(ap, actx)
    assert f2.show(f2ctx)['port_id'] is None

    # Trunk: parent port3, sub-port port2 by name
    tp, tctx = d.create('OS::Neutron::Trunk', 'trunk', {
        'port': p3ctx.physical_id,
        'sub_ports': [{'port': p2ctx.physical_name, 'segmentation_type': 'vlan', 'segmentation_id': 101}]})
    attrs = tp.attributes(tctx, tp.show(tctx))
    assert attrs['port_id'] == p3ctx.physical_id
    assert [s['segmentation_id'] for s in attrs['show']['sub_ports']] == [101]
    assert tp.drift(tctx, tp.show(tctx)) == ['sub_ports']   # a name is not compared to an id
    d.update(tp, tctx, {'port': p3ctx.physical_id, 'description': 't', 'sub_ports': [
        {'port': p2ctx.physical_id, 'segmentation_type': 'vlan', 'segmentation_id': 102}]})
    live = tp.show(tctx)
    assert [s['segmentation_id'] for s in live['sub_ports']] == [102] and live['description'] == 't'
    assert tp.drift(tctx, live) == []
    d.delete(tp, tctx)
    d.cleanup()


def _provider_part(d):
    try:
        pp, pctx = d.create('OS::Neutron::ProviderNet', 'pnet', {
            'network_type': 'vxlan', 'segmentation_id': '4042', 'tags': ['x']})
        live = pp.show(pctx)
        assert live['provider:network_type'] == 'vxlan' and live['provider:segmentation_id'] == 4042
        assert live['shared'] is True and pp.attributes(pctx, live)['status'] == 'ACTIVE'
        assert pp.drift(pctx, live) == [], pp.drift(pctx, live)
        d.update(pp, pctx, {'network_type': 'vxlan', 'segmentation_id': '4042', 'shared': False,
                            'tags': ['y']})
        live = pp.show(pctx)
        assert live['shared'] is False and pp.attributes(pctx, live)['show']['tags'] == ['y']
        assert pp.drift(pctx, live) == []
        # enable_snat and fixed gateway addresses are admin-only in Neutron's policy
        rp, rctx = d.create('OS::Neutron::Router', 'router', {'external_gateway_info': {
            'network': 'public', 'enable_snat': False,
            'external_fixed_ips': [{'subnet': 'public-subnet', 'ip_address': '172.24.4.231'}]}})
        gw = rp.attributes(rctx, rp.show(rctx))['external_gateway_info']
        assert gw['enable_snat'] is False
        assert [f['ip_address'] for f in gw['external_fixed_ips']] == ['172.24.4.231']
        assert rp.drift(rctx, rp.show(rctx)) == []
        d.update(rp, rctx, {'external_gateway_info': {'network': 'public', 'enable_snat': True}})
        assert rp.show(rctx)['external_gateway_info']['enable_snat'] is True
    finally:
        d.cleanup()


def test_neutron_plugins(cloud):
    scenario(cloud.sdk(), cloud.sdk('localcloud-admin'))


if __name__ == '__main__':
    import openstack
    print(scenario(openstack.connect(cloud='localcloud'), openstack.connect(cloud='localcloud-admin')))
