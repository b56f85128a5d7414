# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""octavia/loadbalancer.py: LoadBalancer and Listener bodies, updates, attributes."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

LB = 'OS::Octavia::LoadBalancer'
LISTENER = 'OS::Octavia::Listener'
LoadBalancer, Listener = PLUGINS[LB], PLUGINS[LISTENER]


class Subnet(object):
    def __init__(self, ident):
        self.id = ident


def test_lb_body_as_heat_prepares_it():
    ctx = fakes.ctx(LB, {'vip_subnet': 'lbsub', 'tenant_id': 'p1', 'vip_address': '10.0.0.5',
                         'provider': 'noop_driver'})
    ctx.conn.network.subnets.return_value = [Subnet(fakes.SUBNET_ID)]
    ctx.physical_id = LoadBalancer().create(ctx)
    (path, body), = fakes.sent(ctx.conn, 'POST')
    assert path == '/lbaas/loadbalancers'
    assert body['loadbalancer'] == {
        'vip_subnet_id': fakes.SUBNET_ID, 'project_id': 'p1', 'vip_address': '10.0.0.5',
        'provider': 'noop_driver', 'name': 's-res-abc', 'description': '',
        'admin_state_up': True, 'tags': ['stackers-stack-id=sid', 'stackers-resource=res']}
    ctx.conn.network.subnets.assert_called_once_with(name='lbsub')


def test_lb_flavor_by_name():
    c = fakes.conn()
    c.fake.objects['/lbaas/flavors/f1'] = {'id': 'f1', 'name': 'small'}
    ctx = fakes.ctx(LB, {'vip_subnet': fakes.SUBNET_ID, 'flavor': 'small'}, conn=c)
    LoadBalancer().create(ctx)
    assert fakes.sent(c, 'POST')[0][1]['loadbalancer']['flavor_id'] == 'f1'


def test_lb_update_sends_heats_prop_diff():
    ctx = fakes.ctx(LB, {'vip_subnet': fakes.SUBNET_ID})
    ctx.physical_id = LoadBalancer().create(ctx)
    ctx.properties = fakes.ctx(LB, {'vip_subnet': fakes.SUBNET_ID, 'admin_state_up': False}).properties
    ctx.changed = frozenset(['admin_state_up', 'name'])
    LoadBalancer().update(ctx)
    assert fakes.sent(ctx.conn, 'PUT') == [
        ('/lbaas/loadbalancers/%s' % ctx.physical_id,
         {'loadbalancer': {'admin_state_up': False, 'name': None}})]
    assert LoadBalancer().update_allowed('name') and not LoadBalancer().update_allowed('vip_subnet')


def test_lb_attributes():
    ctx = fakes.ctx(LB, {'vip_subnet': fakes.SUBNET_ID})
    ctx.physical_id = LoadBalancer().create(ctx)
    ctx.conn.fake.objects['/lbaas/loadbalancers/%s' % ctx.physical_id].update(
        vip_address='10.0.0.9', vip_port_id='port', pools=[{'id': 'p'}], flavor_id=None)
    attrs = LoadBalancer().attributes(ctx, LoadBalancer().show(ctx))
    assert attrs['vip_address'] == '10.0.0.9' and attrs['vip_port_id'] == 'port'
    assert attrs['vip_subnet_id'] == fakes.SUBNET_ID and attrs['pools'] == [{'id': 'p'}]
    assert attrs['flavor_id'] is None and attrs['show']['name'] == 's-res-abc'


def test_listener_default_pool_is_sent_as_its_id():
    c = fakes.conn()
    ctx = fakes.ctx(LISTENER, {'loadbalancer': fakes.LB_ID, 'protocol': 'TCP', 'protocol_port': 22,
                               'default_pool': fakes.POOL_ID, 'tenant_id': 'p1',
                               'allowed_cidrs': ['10.0.0.0/8']}, conn=c)
    ctx.physical_id = Listener().create(ctx)
    body = fakes.sent(c, 'POST')[0][1]['listener']
    assert body['default_pool_id'] == fakes.POOL_ID and body['loadbalancer_id'] == fakes.LB_ID
    assert body['tenant_id'] == 'p1' and body['allowed_cidrs'] == ['10.0.0.0/8']
    ctx.properties = dict(ctx.properties, default_pool=None)
    ctx.changed = frozenset(['default_pool'])
    Listener().update(ctx)
    assert fakes.sent(c, 'PUT')[0][1] == {'listener': {'default_pool_id': None}}


def test_listener_validate_is_heats():
    props = {'loadbalancer': 'lb', 'protocol': 'TERMINATED_HTTPS', 'protocol_port': 443}
    assert fakes.refusal(Listener, props) == (
        ('default_tls_container_ref',),
        'Property default_tls_container_ref required when protocol is TERMINATED_HTTPS.')
    assert fakes.refusal(Listener, dict(props, default_tls_container_ref='ref')) is None
    # null reads as '', which Heat's rule takes for a reference
    assert fakes.refusal(Listener, dict(props, default_tls_container_ref=None)) is None
    assert fakes.refusal(Listener, dict(props, protocol='HTTPS')) is None
