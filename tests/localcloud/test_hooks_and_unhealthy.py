# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Hooks and mark-unhealthy in real ansible-playbook runs against the local cloud.

A network, its subnet and a port, with a pre-create hook on the port and a pre-delete hook on the
network: the first run stops CREATE_IN_PROGRESS with Heat's event and no port made; clearing it
with heat_resource_signal (Heat's event; clearing again fails with Heat's message) lets the next
run finish the create. The network marked unhealthy is replaced by the next run (a new id, its
users following), a rerun writes nothing. The delete pauses before the network, and goes on once
that hook is cleared, leaving nothing."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

TEMPLATE = """heat_template_version: 2021-04-16
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.46.0.0/24}
  port:
    type: OS::Neutron::Port
    properties: {network: {get_resource: net}, fixed_ips: [{subnet: {get_resource: subnet}}]}
  marker: {type: OS::Heat::None}
"""

ENV = """resource_registry:
  resources:
    port: {hooks: pre-create}
    net: {hooks: [pre-delete]}
"""


def _said(result, name):
    return [tuple(e['resource_status'].split('_', 1)) + (e['resource_status_reason'],)
            for e in result['events'] if e['resource_name'] == name]


def _physical(result, name):
    return [r for r in result['resources'] if r['resource_name'] == name][0]['physical_resource_id']


def test_hooks_pause_runs_until_cleared_and_an_unhealthy_network_is_replaced(cloud, tmp_path):
    before = ids(cloud.resources())
    (tmp_path / 'net.yaml').write_text(TEMPLATE)
    (tmp_path / 'hooks.yaml').write_text(ENV)
    args = dict(name='hooked', template=str(tmp_path / 'net.yaml'),
                environment=[str(tmp_path / 'hooks.yaml')])
    stack = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    sig = dict(_module='heat_resource_signal', stack='hooked')
    conn = cloud.sdk()
    gone_already = False
    # consecutive runs with no look at the cloud between them share one ansible-playbook
    try:
        paused = stack.run(**args)
        assert not paused.get('failed'), paused
        assert paused['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
        assert paused['stack']['stack_status_reason'] == 'Paused at hooks of: port'
        assert _said(paused, 'port') == [
            ('INIT', 'COMPLETE', 'CREATE paused until Hook pre-create is cleared')]
        net_id = _physical(paused, 'net')
        assert [p for p in conn.network.ports(network_id=net_id) if p.device_owner == ''] == []

        (cleared, _c), (again, _a), (done, _d) = stack.run_steps(
            [dict(sig, resource='port', data={'unset_hook': 'pre-create'}),
             dict(sig, resource='port', data={'unset_hook': 'pre-create'}), dict(args)])
        assert cleared['changed'] and cleared['signal'] == {'resource': 'port', 'unset_hook': 'pre-create'}
        assert _said(cleared, 'port') == [('INIT', 'COMPLETE', 'Hook pre-create is cleared')]
        assert again['failed'] and again['msg'].startswith(
            'The "pre-create" hook is not defined on Port "port" Stack "hooked" ['), again['msg']
        assert done['stack']['stack_status'] == 'CREATE_COMPLETE', done['stack']
        assert done['stack']['stack_status_reason'] == 'Stack CREATE completed successfully'
        assert [s for _a, s, _r in _said(done, 'port')] == ['IN_PROGRESS', 'COMPLETE']
        port_id = _physical(done, 'port')
        assert conn.network.get_port(port_id).network_id == net_id

        unhealthy = dict(sig, resource='net', mark_unhealthy=True, reason='switch lost')
        (would, _w), (marked, _m), (planned, _p), (replaced, _r), (rerun, rerun_writes) = \
            stack.run_steps([dict(unhealthy, _check=True), dict(unhealthy), dict(args, _check=True),
                             dict(args), dict(args)])
        assert would['changed'] and would['events'] == []
        assert _said(marked, 'net') == [('CHECK', 'FAILED', 'switch lost')]
        plan = dict((p['resource_name'], p['action']) for p in planned['plan'])
        assert plan['net'] == 'replace', plan
        assert replaced['stack']['stack_status'] == 'UPDATE_COMPLETE', replaced['stack']
        assert ('UPDATE', 'IN_PROGRESS', 'Replacing the resource') in _said(replaced, 'net')
        new_net = _physical(replaced, 'net')
        assert new_net != net_id
        assert conn.network.get_port(_physical(replaced, 'port')).network_id == new_net
        assert conn.network.find_network(net_id) is None
        assert rerun['changed'] is False and rerun_writes == {}

        deleting = stack.run(state='absent', name='hooked')
        assert deleting['stack']['stack_status'] == 'DELETE_IN_PROGRESS'
        assert deleting['stack']['stack_status_reason'] == 'Paused at hooks of: net'
        assert _said(deleting, 'net') == [
            ('CREATE', 'COMPLETE', 'DELETE paused until Hook pre-delete is cleared')]
        assert conn.network.find_network(new_net) is not None
        assert conn.network.find_port(_physical(replaced, 'port')) is None
        (_cleared, _c), (gone, _g) = stack.run_steps(
            [dict(sig, resource='net', data={'unset_hook': 'pre-delete'}),
             dict(state='absent', name='hooked')])
        gone_already = True
        assert gone['stack']['stack_status'] == 'DELETE_COMPLETE', gone['stack']
        assert conn.network.find_network(new_net) is None
    finally:
        if not gone_already:
            stack.run_steps([dict(state='absent', name='hooked'),
                             dict(sig, resource='net', data={'unset_hook': 'pre-delete'}),
                             dict(state='absent', name='hooked')])
    assert ids(cloud.resources()) == before
