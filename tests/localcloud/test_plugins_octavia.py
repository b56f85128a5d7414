# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Octavia plugins through the engine, against the local cloud's real Octavia API.

One flat stack: a network and subnet, a load balancer on it (its VIP a real Neutron port), a
listener, a pool, a member, a health monitor, an L7 policy redirecting to the pool and its rule.
Siblings are made side by side, so Octavia answers some of them 409 while the load balancer is
immutable: the plugins call again, as Heat does.  Then an update of updatable properties (one
PUT each, nothing replaced: the front door's write counts), a rerun with no writes, and a delete
that leaves nothing behind.  The same template then lives a whole life through the local cloud's
real Heat, whose outputs agree but for one attribute Heat caches before it is true."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sys
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, '.build'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner    # noqa: E402
from localcloud.harness import ids  # noqa: E402
from localcloud.playbook import stack_objects, write_calls  # noqa: E402

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  algorithm: {type: string, default: ROUND_ROBIN}
  limit: {type: number, default: -1}
  weight: {type: number, default: 1}
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.61.0.0/24}
  lb:
    type: OS::Octavia::LoadBalancer
    properties: {vip_subnet: {get_resource: subnet}}
  listener:
    type: OS::Octavia::Listener
    properties:
      loadbalancer: {get_resource: lb}
      protocol: HTTP
      protocol_port: 80
      connection_limit: {get_param: limit}
  pool:
    type: OS::Octavia::Pool
    properties:
      listener: {get_resource: listener}
      lb_algorithm: {get_param: algorithm}
      protocol: HTTP
  member:
    type: OS::Octavia::PoolMember
    properties:
      pool: {get_resource: pool}
      address: 10.61.0.10
      protocol_port: 8080
      subnet: {get_resource: subnet}
      weight: {get_param: weight}
  monitor:
    type: OS::Octavia::HealthMonitor
    properties: {pool: {get_resource: pool}, type: HTTP, delay: 5, timeout: 3, max_retries: 3}
  policy:
    type: OS::Octavia::L7Policy
    properties:
      listener: {get_resource: listener}
      action: REDIRECT_TO_POOL
      redirect_pool: {get_resource: pool}
      position: 1
  rule:
    type: OS::Octavia::L7Rule
    properties: {l7policy: {get_resource: policy}, type: PATH, compare_type: STARTS_WITH,
                 value: /api}
outputs:
  vip: {value: {get_attr: [lb, vip_address]}}
  vip_port: {value: {get_attr: [lb, vip_port_id]}}
  pool_lbs: {value: {get_attr: [listener, loadbalancers]}}
  members: {value: {get_attr: [pool, members]}}
  monitor_pools: {value: {get_attr: [monitor, pools]}}
  rules: {value: {get_attr: [policy, rules]}}
  member_weight: {value: {get_attr: [member, show, weight]}}
"""

OCTAVIA_KINDS = ('loadbalancers', 'listeners', 'pools', 'members', 'health_monitors',
                 'healthmonitors', 'l7policies', 'l7rules')


def _run(conn, store, state, **kw):
    result = runner.run(runner.StackRequest('octo', state=state, store_path=store, timeout=600,
                                            **kw), conn)
    return result


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])


def _left(cloud, before):
    now = ids(cloud.resources())
    return dict((k, v - before.get(k, set())) for k, v in now.items() if v - before.get(k, set()))


def _made_once_after_refusals(stats, route, made, injected=0):
    """The route was answered ``made`` once, after at least ``injected`` 409s, each made again."""
    answers = stats['status_by_route'][route]
    refused = answers.get('409', 0)
    assert refused >= injected and answers == dict({str(made): 1}, **({'409': refused} if refused else {})), \
        (route, answers)
    assert stats['by_route'][route] == refused + 1, (route, stats['by_route'][route], answers)


def test_octavia_stack_create_update_rerun_delete(cloud, tmp_path):
    before = ids(cloud.resources())
    template = tmp_path / 'lb.yaml'
    template.write_text(TEMPLATE)
    store = str(tmp_path / 'stacks.sqlite')
    conn = cloud.sdk()
    # Octavia's 409 while the load balancer is immutable, made sure of: the member's create is
    # refused twice and the pool's update once; each is made again at a later poll.
    cloud.admin('POST', '/faults', [
        {'method': 'POST', 'path': '/lbaas/pools/[^/]+/members$', 'status': 409, 'count': 2}])
    try:
        cloud.reset_stats()
        result = _run(conn, store, 'present', template=str(template))
        stack = result['stack']
        # Made again after each refusal, once made: the two injected 409s and any Octavia gave
        # itself (the load balancer is immutable while its pool or listener is being made).
        _made_once_after_refusals(cloud.stats(), 'POST load-balancer /v2.0/lbaas/pools/{id}/members',
                                  injected=2, made=201)
        assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
        out = _outputs(result)
        assert out['vip'].startswith('10.61.0.'), out
        port = conn.network.get_port(out['vip_port'])
        assert port.fixed_ips[0]['ip_address'] == out['vip']
        lb_id = [r for r in result['resources'] if r['resource_name'] == 'lb'][0]
        lb_id = lb_id['physical_resource_id']
        assert out['pool_lbs'] == [{'id': lb_id}]
        assert len(out['members']) == 1 and len(out['monitor_pools']) == 1
        assert len(out['rules']) == 1 and out['member_weight'] == 1
        lb = conn.load_balancer.get_load_balancer(lb_id)
        assert lb.provisioning_status == 'ACTIVE'
        assert lb.name.startswith('octo-lb-')
        # the engine's marks are on the objects, hidden from show
        assert 'stackers-resource=lb' in lb.tags

        # Updatable properties change in place: one PUT each (the pool's made twice: refused
        # once), nothing made or deleted.
        cloud.admin('DELETE', '/faults')
        cloud.admin('POST', '/faults', [
            {'method': 'PUT', 'path': '/lbaas/pools/[^/]+$', 'status': 409, 'count': 1}])
        cloud.reset_stats()
        result = _run(conn, store, 'present', template=str(template),
                      parameters={'algorithm': 'LEAST_CONNECTIONS', 'limit': 100, 'weight': 5})
        assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', \
            result['stack']['stack_status_reason']
        stats = cloud.stats()
        writes = write_calls(stats)
        assert sorted(writes) == ['PUT load-balancer /v2.0/lbaas/listeners/{id}',
                                  'PUT load-balancer /v2.0/lbaas/pools/{id}',
                                  'PUT load-balancer /v2.0/lbaas/pools/{id}/members/{id}'], writes
        _made_once_after_refusals(stats, 'PUT load-balancer /v2.0/lbaas/pools/{id}', injected=1, made=200)
        _made_once_after_refusals(stats, 'PUT load-balancer /v2.0/lbaas/listeners/{id}', made=200)
        _made_once_after_refusals(stats, 'PUT load-balancer /v2.0/lbaas/pools/{id}/members/{id}',
                                  made=200)
        pool_id = [r for r in result['resources'] if r['resource_name'] == 'pool'][0]
        pool = conn.load_balancer.get_pool(pool_id['physical_resource_id'])
        assert pool.lb_algorithm == 'LEAST_CONNECTIONS'
        assert _outputs(result)['member_weight'] == 5

        # A rerun with nothing changed writes nothing.
        cloud.reset_stats()
        result = _run(conn, store, 'present', template=str(template),
                      parameters={'algorithm': 'LEAST_CONNECTIONS', 'limit': 100, 'weight': 5})
        assert write_calls(cloud.stats()) == {}

        stack_id = result['stack']['id']
        result = _run(conn, store, 'absent')
        assert result['stack']['stack_status'] == 'DELETE_COMPLETE', \
            result['stack']['stack_status_reason']
        assert stack_objects(cloud, stack_id) == []
        assert _left(cloud, before) == {}
    finally:
        cloud.admin('DELETE', '/faults')
        # a failed assertion above must not leave the stack to the tests that follow (they
        # compare the project with its baseline)
        _run(conn, store, 'absent')
        conn.close()


def _heat_outputs(cloud, tmp_path, name):
    template = tmp_path / 'heat-lb.yaml'
    doc = yaml.safe_load(TEMPLATE)
    doc['resources']['subnet']['properties']['cidr'] = '10.62.0.0/24'
    doc['resources']['member']['properties']['address'] = '10.62.0.10'
    template.write_text(yaml.safe_dump(doc))
    cloud.osc('stack', 'create', '--wait', '-t', str(template), name, timeout=600)
    try:
        stack = cloud.osc('stack', 'show', name, '-f', 'json', as_json=True)
        assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
        return dict((o['output_key'], o['output_value']) for o in stack['outputs'])
    finally:
        cloud.osc('stack', 'delete', '--yes', '--wait', name, timeout=600)


def test_heat_makes_the_same_outputs(cloud, tmp_path):
    before = ids(cloud.resources())
    out = _heat_outputs(cloud, tmp_path, 'octo-heat-%d' % int(time.time()))
    assert out['vip'].startswith('10.62.0.')
    assert len(out['pool_lbs']) == 1 and set(out['pool_lbs'][0]) == {'id'}
    assert len(out['members']) == 1 and len(out['monitor_pools']) == 1
    assert out['member_weight'] == 1
    # Heat keeps the attributes a resource had when it settled: the policy settled before its
    # rule existed.  The engine reads the outputs' attributes again at the end of a run that
    # changed something (docs/architecture.md), so its output lists the rule.
    assert out['rules'] == []
    assert _left(cloud, before) == {}


ADMIN_TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  description: {type: string, default: first}
  lbs: {type: number, default: 7}
resources:
  profile:
    type: OS::Octavia::FlavorProfile
    properties: {provider_name: noop_driver, flavor_data: '{"loadbalancer_topology": "SINGLE"}'}
  flavor:
    type: OS::Octavia::Flavor
    properties: {flavor_profile: {get_resource: profile}, description: {get_param: description}}
  quota:
    type: OS::Octavia::Quota
    properties: {project: demo, loadbalancer: {get_param: lbs}, listener: 20}
outputs:
  profile_id: {value: {get_attr: [flavor, flavor_profile_id]}}
"""


def test_admin_types_flavor_profile_flavor_quota(cloud, tmp_path):
    template = tmp_path / 'admin.yaml'
    template.write_text(ADMIN_TEMPLATE)
    store = str(tmp_path / 'admin.sqlite')
    conn = cloud.sdk('localcloud-admin')
    demo = conn.identity.find_project('demo')
    try:
        result = runner.run(runner.StackRequest('octo-admin', template=str(template),
                                                store_path=store, timeout=300), conn)
        assert result['stack']['stack_status'] == 'CREATE_COMPLETE', \
            result['stack']['stack_status_reason']
        ids_ = dict((r['resource_name'], r['physical_resource_id']) for r in result['resources'])
        assert _outputs(result)['profile_id'] == ids_['profile']
        flavor = conn.load_balancer.get_flavor(ids_['flavor'])
        assert flavor.description == 'first' and flavor.name.startswith('octo-admin-flavor-')
        quota = conn.load_balancer.get_quota(demo.id)
        assert (quota.load_balancers, quota.listeners) == (7, 20)

        cloud.reset_stats()
        result = runner.run(runner.StackRequest(
            'octo-admin', template=str(template), store_path=store, timeout=300,
            parameters={'description': 'second', 'lbs': 9}), conn)
        assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', \
            result['stack']['stack_status_reason']
        writes = write_calls(cloud.stats())
        assert writes == {'PUT load-balancer /v2.0/lbaas/flavors/{id}': 1,
                          'PUT load-balancer /v2.0/lbaas/quotas/{id}': 1}, writes
        assert conn.load_balancer.get_flavor(ids_['flavor']).description == 'second'
        assert conn.load_balancer.get_quota(demo.id).load_balancers == 9

        result = runner.run(runner.StackRequest('octo-admin', state='absent', store_path=store), conn)
        assert result['stack']['stack_status'] == 'DELETE_COMPLETE'
        assert conn.load_balancer.find_flavor(ids_['flavor'], ignore_missing=True) is None
        assert conn.load_balancer.find_flavor_profile(ids_['profile'], ignore_missing=True) is None
        # the project's quotas are back to the defaults
        assert conn.load_balancer.get_quota(demo.id).load_balancers in (None, -1)
    finally:
        conn.close()


QUOTA_TEMPLATE = """heat_template_version: 2021-04-16
resources:
  quota:
    type: OS::Octavia::Quota
    properties: {project: demo, loadbalancer: 3}
"""


def test_heat_27_cannot_set_an_octavia_quota(cloud, tmp_path):
    """Heat 27's OctaviaQuota hands the limits to octaviaclient's quota_set as keyword
    arguments, which the client passes on to the HTTP request instead of sending the ``quota``
    body (its own CLI passes ``json=``): the create fails.  The engine sends the body
    (test_admin_types_flavor_profile_flavor_quota)."""
    template = tmp_path / 'quota.yaml'
    template.write_text(QUOTA_TEMPLATE)
    name = 'octo-quota-%d' % int(time.time())
    made = cloud.osc('stack', 'create', '--wait', '-t', str(template), name,
                     cloud='localcloud-admin', timeout=300, check=False)
    try:
        shown = cloud.osc('stack', 'show', name, '-f', 'json', cloud='localcloud-admin', check=False)
        assert shown.returncode == 0, 'create: %s\n%s\nshow: %s' % (made.stdout, made.stderr,
                                                                    shown.stderr)
        stack = json.loads(shown.stdout)
        assert stack['stack_status'] == 'CREATE_FAILED', stack
        assert 'unexpected keyword argument' in stack['stack_status_reason'], stack
    finally:
        cloud.osc('stack', 'delete', '--yes', '--wait', name, cloud='localcloud-admin',
                  timeout=300, check=False)
