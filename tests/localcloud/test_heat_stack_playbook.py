# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack in real ansible-playbook runs against the local cloud: the multi-tier stack's whole life.

One test walks it in order (each step needs the previous one): create, outputs, an idempotent rerun with no
write call, check mode without drift, drift made behind the stack's back, an update in place and by
replacement predicted by check mode, suspend and resume, delete, and nothing of the stack left in the cloud.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import ipaddress
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner, outputs, plan, write_calls  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, 'stack_templates', 'multi_tier.yaml')
UPDATE = {'ssh_port': 2222, 'web_version': 'v2', 'volume_size': 2, 'second_on_net2': True}


def _by_name(result):
    return dict((r['resource_name'], r) for r in result['resources'])


def test_multi_tier_stack_lifecycle(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    conn = cloud.sdk()

    # -- create ---------------------------------------------------------------------------
    cloud.reset_stats()
    created = runner.run(name='web', template=TEMPLATE)
    assert created.get('failed') is not True, created.get('msg')
    routes = cloud.stats()['by_route']
    # the two servers building side by side were looked at together: one list call answered
    # both (poll_batch: their exact names in Nova's name filter, with changes-since), and nothing read
    # what no template uses
    assert routes.get('GET compute /v2.1/servers/detail', 0) >= 1, routes
    assert 'GET network /v2.0/segments' not in routes and 'GET network /v2.0/ports' not in routes
    assert created['changed'] is True
    stack = created['stack']
    assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
    assert stack['stack_name'] == 'web' and stack['id']
    resources = _by_name(created)
    assert len(resources) == 19
    assert all(r['resource_status'] == 'CREATE_COMPLETE' for r in resources.values())
    out = outputs(created)
    assert ipaddress.ip_address(out['server1_ip']) in ipaddress.ip_network('10.10.0.0/24')
    assert ipaddress.ip_address(out['server2_ip']) in ipaddress.ip_network('10.10.0.0/24')
    assert all(ipaddress.ip_address(ip) in ipaddress.ip_network('172.24.4.0/24') for ip in out['public_ips'])
    server = conn.compute.get_server(resources['server1']['physical_resource_id'])
    assert server.status == 'ACTIVE' and server.metadata['version'] == 'v1'
    assert conn.block_storage.get_volume(resources['vol1']['physical_resource_id']).status == 'in-use'
    events = created['events']
    assert events[0]['resource_name'] == 'web' and events[0]['resource_status'] == 'CREATE_IN_PROGRESS'
    assert events[-1]['resource_status'] == 'CREATE_COMPLETE'
    order = [(e['resource_name'], e['resource_status']) for e in events]
    # a resource starts only after what it requires completed
    assert order.index(('subnet', 'CREATE_COMPLETE')) < order.index(('port1', 'CREATE_IN_PROGRESS'))
    assert order.index(('server1', 'CREATE_COMPLETE')) < order.index(('att1', 'CREATE_IN_PROGRESS'))
    assert order.index(('router_if', 'CREATE_COMPLETE')) < order.index(('fip1', 'CREATE_IN_PROGRESS'))
    # Heat's API shape, the one heat_stack_info lists: action and status joined, no resource_action
    for event in events:
        assert set(event) == {'id', 'resource_name', 'logical_resource_id', 'physical_resource_id',
                              'resource_status', 'resource_status_reason', 'event_time'}, event
        assert event['logical_resource_id'] == event['resource_name']

    # -- a rerun changes nothing and writes nothing; then check mode: no drift, plan all keep
    (again, writes), (checked, _w) = runner.run_steps(
        [dict(name='web', template=TEMPLATE), dict(name='web', template=TEMPLATE, _check=True)])
    assert again['changed'] is False
    assert writes == {}
    assert outputs(again) == out

    assert checked['changed'] is False
    assert checked['stack']['stack_status'] == 'CHECK_COMPLETE'
    assert set(plan(checked).values()) == {'keep'}
    assert [c for c in checked['check'] if c['drift'] or c['resource_status'] != 'CHECK_COMPLETE'] == []

    # -- drift behind the stack's back ----------------------------------------------------
    conn.network.delete_ip(resources['fip2']['physical_resource_id'])
    drifted = runner.run(check=True, name='web', template=TEMPLATE)
    failed = dict((c['resource_name'], c) for c in drifted['check'] if c['resource_status'] == 'CHECK_FAILED')
    assert list(failed) == ['fip2'] and 'not found' in failed['fip2']['resource_status_reason'].lower()
    assert drifted['stack']['stack_status'] == 'CHECK_FAILED'
    repaired = runner.run(name='web', template=TEMPLATE, converge=True)
    assert repaired['changed'] is True
    assert _by_name(repaired)['fip2']['resource_status'] == 'CREATE_COMPLETE'
    assert _by_name(repaired)['fip2']['physical_resource_id'] != resources['fip2']['physical_resource_id']

    # -- update: predicted by check mode, then done ---------------------------------------
    # the prediction, the update and its rerun in one ansible-playbook run
    (predicted, _p), (updated, _u), (updated_again, _a) = runner.run_steps(
        [dict(name='web', template=TEMPLATE, parameters=UPDATE, _check=True, _diff=True),
         dict(name='web', template=TEMPLATE, parameters=UPDATE),
         dict(name='web', template=TEMPLATE, parameters=UPDATE)])
    actions = plan(predicted)
    assert actions['sg'] == 'update'
    assert actions['server1'] == 'update' and actions['server2'] == 'update'
    assert actions['vol1'] == 'update' and actions['vol2'] == 'update'
    assert actions['port2'] == 'replace'
    assert actions['net'] == 'keep' and actions['port1'] == 'keep'
    # each resource's diff is headed by its name, type, action and reason; each plan entry says why
    port2 = [d for d in predicted['diff'] if d['resource_name'] == 'port2'][0]
    assert port2['after']['network'] == '<known after apply>' or port2['after']['network'] != port2['before']['network']
    assert port2['after_header'].startswith('port2 (OS::Neutron::Port): replace, changed: ')
    reasons = dict((p['resource_name'], p['reason']) for p in predicted['plan'])
    assert reasons['net'] == 'unchanged' and 'updated in place' in reasons['server1']
    old_port2 = _by_name(repaired)['port2']['physical_resource_id']
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE', updated['stack']['stack_status_reason']
    res = _by_name(updated)
    done = dict((e['resource_name'], e['resource_status'][:-len('_COMPLETE')]) for e in updated['events']
                if e['resource_status'].endswith('_COMPLETE') and e['resource_name'] != 'web')
    for name, action in actions.items():
        if action == 'update':
            assert done.get(name) == 'UPDATE', (name, done.get(name))
        elif action == 'keep':
            assert name not in done, name
    assert res['port2']['physical_resource_id'] != old_port2
    assert conn.network.find_port(old_port2) is None
    assert ipaddress.ip_address(outputs(updated)['server2_ip']) in ipaddress.ip_network('10.20.0.0/24')
    server = conn.compute.get_server(res['server1']['physical_resource_id'])
    assert server.metadata['version'] == 'v2'
    assert conn.block_storage.get_volume(res['vol1']['physical_resource_id']).size == 2
    rules = conn.network.security_group_rules(security_group_id=res['sg']['physical_resource_id'])
    assert any(r.port_range_min == 2222 for r in rules)
    assert updated_again['changed'] is False

    # -- suspend and resume ---------------------------------------------------------------
    suspended = runner.run(name='web', state='suspended')
    assert suspended['stack']['stack_status'] == 'SUSPEND_COMPLETE'
    assert conn.compute.get_server(res['server1']['physical_resource_id']).status == 'SUSPENDED'
    resumed = runner.run(name='web', template=TEMPLATE, parameters=UPDATE)
    assert resumed['changed'] is True
    assert conn.compute.get_server(res['server1']['physical_resource_id']).status == 'ACTIVE'

    # -- delete -----------------------------------------------------------------------------
    (deleted, _d), (deleted_again, _a) = runner.run_steps([dict(name='web', state='absent'),
                                                           dict(name='web', state='absent')])
    assert deleted['changed'] is True
    assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert deleted_again['changed'] is False
    assert ids(cloud.resources()) == before


RESIZE = """heat_template_version: 2021-04-16
parameters:
  flavor: {type: string, default: m1.tiny}
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.50.0.0/24}
  server:
    type: OS::Nova::Server
    properties:
      image: cirros
      flavor: {get_param: flavor}
      networks: [{subnet: {get_resource: subnet}}]
outputs:
  flavor:
    value: {get_attr: [server, show, flavor, original_name]}
"""


def test_server_resized_in_place(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    (tmp_path / 'resize.yaml').write_text(RESIZE)
    template = str(tmp_path / 'resize.yaml')
    created = runner.run(name='rs', template=template)
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE', created.get('msg')
    server_id = _by_name(created)['server']['physical_resource_id']
    (planned, _p), (resized, _r) = runner.run_steps(
        [dict(name='rs', template=template, parameters={'flavor': 'm1.small'}, _check=True),
         dict(name='rs', template=template, parameters={'flavor': 'm1.small'})])
    assert plan(planned)['server'] == 'update'
    assert resized['stack']['stack_status'] == 'UPDATE_COMPLETE', resized['stack']['stack_status_reason']
    assert _by_name(resized)['server']['physical_resource_id'] == server_id
    server = cloud.sdk().compute.get_server(server_id)
    assert server.status == 'ACTIVE' and server.flavor['original_name'] == 'm1.small'
    runner.run(name='rs', state='absent')
    assert ids(cloud.resources()) == before


KEYPAIR_WITHOUT_KEY = '''heat_template_version: 2021-04-16
resources:
  net: {type: OS::Neutron::Net}
  key:
    type: OS::Nova::KeyPair
    properties:
      name: generated-key
'''


def test_key_pair_without_public_key_refused_as_heat_refuses_it(cloud, tmp_path):
    # The local Nova speaks 2.92+, where it generates no key pairs; Heat 27 refuses the template at
    # validation (tests/localcloud/test_heat_peer.py runs the real Heat), and so does heat_stack,
    # before any write.
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    (tmp_path / 'kp.yaml').write_text(KEYPAIR_WITHOUT_KEY)
    cloud.reset_stats()
    refused = runner.run(name='kp', template=str(tmp_path / 'kp.yaml'))
    assert refused.get('failed') is True
    assert refused['msg'].endswith('kp.yaml:6: resources.key.properties.public_key: The public_key '
                                   'property is required by the nova API version currently used.'), \
        refused['msg']
    assert write_calls(cloud.stats()) == {}


AUDIT = """heat_template_version: 2021-04-16
parameters:
  password: {type: string, hidden: true}
resources:
  pw: {type: OS::Heat::RandomString, properties: {length: 28}}
  uses:
    type: OS::Heat::Value
    properties:
      value: {str_replace: {template: "$p and $r", params: {$p: {get_param: password}, $r: {get_attr: [pw, value]}}}}
outputs:
  plain: {value: visible}
"""
HIDDEN = 'CANARY-lc-hidden-4b1d'


def test_secrets_audit_at_vvvv(cloud, tmp_path):
    # The module at -vvvv through a real ansible-playbook (create, then check and diff mode): neither the
    # hidden value, nor the random string the engine made, nor the cloud's password is printed, and the
    # store holds none of them in clear.  (The unit audit, test_secrets_audit.py, covers every canary.)
    import glob
    import sqlite3
    import yaml
    runner = StackRunner(cloud, tmp_path, tmp_path / 'state' / 'stacks.sqlite')
    (tmp_path / 'audit.yaml').write_text(AUDIT)
    args = dict(name='audit', template=str(tmp_path / 'audit.yaml'), parameters={'password': HIDDEN})
    made = runner.run(verbosity=4, **args)
    assert made['changed'] is True, made
    printed = runner.output
    runner.run(check=True, diff=True, verbosity=4, **dict(args, parameters={'password': HIDDEN + 'x'}))
    printed += runner.output
    db = sqlite3.connect(str(tmp_path / 'state' / 'stacks.sqlite'))
    stack_id = db.execute("SELECT id FROM stacks WHERE name='audit'").fetchone()[0]
    db.close()
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
    store = Store(str(tmp_path / 'state' / 'stacks.sqlite'))
    row = [r for r in store.resources(stack_id) if r.name == 'pw'][0]
    random = store.vault().decrypt(row.secret_data)['value']
    store.close()
    with open(cloud.clouds_yaml) as f:
        password = yaml.safe_load(f)['clouds']['localcloud']['auth']['password']
    stored = b''.join(open(p, 'rb').read() for p in glob.glob(str(tmp_path / 'state' / 'stacks.sqlite*')))
    for canary in (HIDDEN, random, password):
        assert canary not in printed, canary
        assert canary.encode() not in stored, canary
    assert 'visible' in printed


DRIFTING = """heat_template_version: 2021-04-16
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.60.0.0/24}
  sg:
    type: OS::Neutron::SecurityGroup
    properties:
      rules: [{protocol: tcp, port_range_min: 22, port_range_max: 22, remote_ip_prefix: 10.0.0.0/8}]
  port:
    type: OS::Neutron::Port
    properties:
      name: drift-port
      network: {get_resource: net}
      fixed_ips: [{subnet: {get_resource: subnet}}]
      security_groups: [{get_resource: sg}]
"""


def test_converge_puts_drift_back(cloud, tmp_path):
    """Heat's update --converge: a renamed port and a security group whose rules were changed behind
    the stack are found by check mode, put back in place by a converge, and a second converge has
    nothing to do."""
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    (tmp_path / 'drift.yaml').write_text(DRIFTING)
    template = str(tmp_path / 'drift.yaml')
    conn = cloud.sdk()
    created = runner.run(name='drift', template=template)
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE', created.get('msg')
    res = _by_name(created)
    port_id, sg_id = res['port']['physical_resource_id'], res['sg']['physical_resource_id']

    # -- behind the stack: the port renamed, the group's rule deleted and another added
    conn.network.update_port(port_id, name='renamed')
    ours = [r for r in conn.network.security_group_rules(security_group_id=sg_id) if r.port_range_min == 22]
    assert len(ours) == 1
    conn.network.delete_security_group_rule(ours[0].id)
    conn.network.create_security_group_rule(security_group_id=sg_id, direction='ingress', protocol='tcp',
                                            port_range_min=8080, port_range_max=8080,
                                            remote_ip_prefix='0.0.0.0/0', ethertype='IPv4')

    (plain, _w), (predicted, _p), (converged, _c), (again, _a) = runner.run_steps(
        [dict(name='drift', template=template),
         dict(name='drift', template=template, converge=True, _check=True, _diff=True),
         dict(name='drift', template=template, converge=True),
         dict(name='drift', template=template, converge=True)])
    # without converge the record is trusted: nothing to do
    assert plain['changed'] is False
    # check mode names what a converge puts back, and changes nothing
    drift = dict((c['resource_name'], c['drift']) for c in predicted['check'])
    assert drift['port'] == ['name'] and drift['sg'] == ['rules'], drift
    assert predicted['changed'] is True
    assert plan(predicted) == {'net': 'keep', 'subnet': 'keep', 'sg': 'update', 'port': 'update'}
    reasons = dict((p['resource_name'], p['reason']) for p in predicted['plan'])
    assert reasons['port'] == 'drifted: name; updated in place'
    assert reasons['sg'] == 'drifted: rules; updated in place'
    diff = dict((d['resource_name'], d) for d in predicted['diff'])
    assert diff['port']['after_header'] == 'port (OS::Neutron::Port): update, drifted: name; updated in place'
    assert diff['port']['before']['name'] == '<drifted in the cloud>' and diff['port']['after']['name'] == 'drift-port'
    # the converge updates both in place, Heat's events
    assert converged['changed'] is True
    assert converged['stack']['stack_status'] == 'UPDATE_COMPLETE', converged['stack']['stack_status_reason']
    done = [(e['resource_name'], e['resource_status']) for e in converged['events']]
    for name in ('port', 'sg'):
        assert (name, 'UPDATE_COMPLETE') in done, done
    assert not any(n in ('net', 'subnet') for n, _s in done)
    assert _by_name(converged)['port']['physical_resource_id'] == port_id
    assert conn.network.get_port(port_id).name == 'drift-port'
    rules = [(r.direction, r.protocol, r.port_range_min, r.remote_ip_prefix)
             for r in conn.network.security_group_rules(security_group_id=sg_id) if r.direction == 'ingress']
    assert rules == [('ingress', 'tcp', 22, '10.0.0.0/8')], rules
    # put back: nothing left to do
    assert again['changed'] is False and again['events'] == []

    runner.run(name='drift', state='absent')
    assert ids(cloud.resources()) == before
