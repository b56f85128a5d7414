# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The classic Heat stack, in real ansible-playbook runs against the local cloud: an Octavia load
balancer (listener, pool, health monitor) in front of an AutoScalingGroup (min 1, max 4, desired 2)
of a nested template file holding a server and its pool member, scaled by two ScalingPolicies
through heat_resource_signal.

Create; a rerun writes nothing; signal up: three members, all in the pool; a second signal inside
the cooldown changes nothing and says why; signal down: the oldest member goes, and its pool member
with it; the members' flavor under rolling_updates: resized in place one member at a time, the
other in service; check mode predicts each step (without a write); delete leaves nothing."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import StackRunner  # noqa: E402

# long enough for the two runs that meet it (the next steps of the same ansible-playbook) on a
# busy machine
UP_COOLDOWN = 12

TOP = """heat_template_version: 2021-04-16
parameters:
  flavor: {type: string, default: m1.tiny}
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.44.0.0/24}
  lb:
    type: OS::Octavia::LoadBalancer
    properties: {vip_subnet: {get_resource: subnet}}
  listener:
    type: OS::Octavia::Listener
    properties: {loadbalancer: {get_resource: lb}, protocol: HTTP, protocol_port: 80}
  pool:
    type: OS::Octavia::Pool
    properties: {listener: {get_resource: listener}, lb_algorithm: ROUND_ROBIN, protocol: HTTP}
  monitor:
    type: OS::Octavia::HealthMonitor
    properties: {pool: {get_resource: pool}, type: HTTP, delay: 5, timeout: 3, max_retries: 3}
  web:
    type: OS::Heat::AutoScalingGroup
    properties:
      min_size: 1
      max_size: 4
      desired_capacity: 2
      cooldown: 0
      rolling_updates: {min_in_service: 1, max_batch_size: 1}
      resource:
        type: member.yaml
        properties:
          flavor: {get_param: flavor}
          pool: {get_resource: pool}
          network: {get_resource: net}
          subnet: {get_resource: subnet}
  up:
    type: OS::Heat::ScalingPolicy
    properties:
      auto_scaling_group_id: {get_resource: web}
      adjustment_type: change_in_capacity
      scaling_adjustment: 1
      cooldown: %d
  down:
    type: OS::Heat::ScalingPolicy
    properties:
      auto_scaling_group_id: {get_resource: web}
      adjustment_type: change_in_capacity
      scaling_adjustment: -1
outputs:
  vip: {value: {get_attr: [lb, vip_address]}}
  addresses: {value: {get_attr: [web, outputs_list, address]}}
  size: {value: {get_attr: [web, current_size]}}
""" % UP_COOLDOWN

MEMBER = """heat_template_version: 2021-04-16
parameters:
  flavor: {type: string}
  pool: {type: string}
  network: {type: string}
  subnet: {type: string}
resources:
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: {get_param: flavor}, networks: [{network: {get_param: network}}]}
  member:
    type: OS::Octavia::PoolMember
    properties:
      pool: {get_param: pool}
      address: {get_attr: [server, first_address]}
      protocol_port: 80
      subnet: {get_param: subnet}
outputs:
  address: {value: {get_attr: [server, first_address]}}
"""


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def _pool_addresses(conn, result):
    pool = [r for r in result['resources'] if r['resource_name'] == 'pool'][0]['physical_resource_id']
    return sorted(m.address for m in conn.load_balancer.members(pool))


def _servers(conn):
    """The ids of the members' servers (named after their nested stacks), sorted."""
    return sorted(s.id for s in conn.compute.servers() if s.name.startswith('webtier-web-'))


def test_the_autoscaled_web_tier_lives_a_whole_life(cloud, tmp_path):
    before = ids(cloud.resources())
    (tmp_path / 'web.yaml').write_text(TOP)
    (tmp_path / 'member.yaml').write_text(MEMBER)
    stack = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = str(tmp_path / 'web.yaml')
    conn = cloud.sdk()
    gone_already = False
    sig = dict(_module='heat_resource_signal', stack='webtier')
    try:
        # consecutive runs share one ansible-playbook (run_steps): one Ansible start each group
        (made, _m), (again, again_writes), (would, would_writes) = stack.run_steps(
            [dict(name='webtier', template=template), dict(name='webtier', template=template),
             dict(sig, resource='up', _check=True)])
        assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
        out = _outputs(made)
        assert out['size'] == 2 and out['vip']
        assert sorted(out['addresses']) == _pool_addresses(conn, made)
        assert again['changed'] is False
        assert again_writes == {}
        assert would['changed'] is True and would['signal']['new_size'] == 3
        assert would_writes == {}

        (up, _u), (would_cool, cool_writes), (cooling, cooling_writes) = stack.run_steps(
            [dict(sig, resource='up'), dict(sig, resource='up', _check=True),
             dict(sig, resource='up')])
        cooldown_end = time.monotonic() + UP_COOLDOWN + 1    # the cooldown began before this
        assert up['signal'] == {'resource': 'up', 'group': 'web', 'size': 2, 'new_size': 3}, up
        out = _outputs(up)
        assert out['size'] == 3 and len(out['addresses']) == 3
        assert sorted(out['addresses']) == _pool_addresses(conn, up)
        assert would_cool['changed'] is False and 'due to cooldown' in would_cool['signal']['refused']
        assert cooling['changed'] is False
        assert 'due to cooldown' in cooling['signal']['refused']
        assert cool_writes == {} and cooling_writes == {}

        time.sleep(max(0, cooldown_end - time.monotonic()))
        # the two first members were made side by side; the one the scale-out added is the newest
        first = set(e['resource_name'] for e in made['events']
                    if e.get('stack_name', '').startswith('webtier-web-')
                    and e['resource_status'].startswith('CREATE_') and len(e['resource_name']) == 12)
        assert len(first) == 2
        (would_down, down_writes), (down, _d), (kept, _k) = stack.run_steps(
            [dict(sig, resource='down', _check=True), dict(sig, resource='down'),
             dict(name='webtier', template=template)])
        assert would_down['changed'] is True and would_down['signal']['new_size'] == 2
        assert len(would_down['signal']['removed']) == 1 and set(would_down['signal']['removed']) < first
        assert down_writes == {}
        assert down['signal']['new_size'] == 2, down
        assert down['signal']['removed'] == would_down['signal']['removed']
        out = _outputs(down)
        assert sorted(out['addresses']) == _pool_addresses(conn, down)
        gone = [e['resource_name'] for e in down['events'] if e['resource_status'] == 'DELETE_COMPLETE']
        assert len(first & set(gone)) == 1 and 'member' in gone and 'server' in gone, gone
        assert kept['changed'] is False

        # The members' flavor, under rolling_updates (min_in_service 1, max_batch_size 1): each
        # server is resized in place, one member at a time, so one is always in service.
        small = {'flavor': 'm1.small'}
        servers = _servers(conn)
        assert len(servers) == 2
        (predicted, predicted_writes), (rolled, _r), (rolled_again, _a) = stack.run_steps(
            [dict(name='webtier', template=template, parameters=small, _check=True),
             dict(name='webtier', template=template, parameters=small),
             dict(name='webtier', template=template, parameters=small)])
        assert predicted['changed'] is True
        assert dict((i['resource_name'], i['action']) for i in predicted['plan']) == dict(
            (r['resource_name'], 'update' if r['resource_name'] == 'web' else 'keep')
            for r in down['resources'])
        assert predicted_writes == {}
        assert rolled['stack']['stack_status'] == 'UPDATE_COMPLETE', rolled['stack']
        events = [(e['resource_name'], e['resource_status']) for e in rolled['events']
                  if e.get('stack_name', '').startswith('webtier-web-')
                  and e['resource_status'].startswith('UPDATE_') and len(e['resource_name']) == 12]
        assert len(events) == 4 and len(set(n for n, _s in events)) == 2, events
        updating = 0
        for _name, status in events:
            updating += 1 if status == 'UPDATE_IN_PROGRESS' else -1
            assert updating <= 1, events     # the other member stays in service
        assert _servers(conn) == servers
        assert set(conn.compute.get_server(s).flavor['original_name'] for s in servers) == {'m1.small'}
        assert sorted(_outputs(rolled)['addresses']) == _pool_addresses(conn, rolled)
        assert rolled_again['changed'] is False

        deleted = stack.run(name='webtier', state='absent')
        gone_already = True
        assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE'
        assert ids(cloud.resources()) == before
    finally:
        if not gone_already:
            stack.run(name='webtier', state='absent')
        conn.close()
