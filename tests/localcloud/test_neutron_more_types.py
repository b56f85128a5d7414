# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 37's Neutron types, faithful to Heat and shown against Heat.

One template of the new types (an address scope and a subnet pool in it, the four QoS rules, an
RBAC policy, an extra route, a floating IP's port forwarding, a metering label and rule, a
project's quota and a segment) is made by the local cloud's real Heat, its objects read through
Neutron's API, and the stack deleted; then heat_stack makes the same template and its objects
are compared field by field with Heat's (the ids of the stack's own objects and the generated
names aside).  heat_stack then updates the stack (a QoS rule in place: the same id; a segment
replaced: a new one), and deletes it: every object gone, the project's quota back to Neutron's
defaults.  Heat 27's quota delete leaves the limits in place (docs/differences.md)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, '.build'))

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner    # noqa: E402

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  max_kbps: {type: number, default: 1000}
  vlan: {type: number, default: 161}
  project: {type: string}
resources:
  scope:
    type: OS::Neutron::AddressScope
    properties: {ip_version: 4}
  pool:
    type: OS::Neutron::SubnetPool
    properties:
      prefixes: [10.72.0.0/16]
      address_scope: {get_resource: scope}
      default_prefixlen: 24
      min_prefixlen: 20
      max_prefixlen: 28
      default_quota: 1024
  policy:
    type: OS::Neutron::QoSPolicy
  bw:
    type: OS::Neutron::QoSBandwidthLimitRule
    properties: {policy: {get_resource: policy}, max_kbps: {get_param: max_kbps}, max_burst_kbps: 100}
  dscp:
    type: OS::Neutron::QoSDscpMarkingRule
    properties: {policy: {get_resource: policy}, dscp_mark: 16}
  minbw:
    type: OS::Neutron::QoSMinimumBandwidthRule
    properties: {policy: {get_resource: policy}, min_kbps: 100}
  minpps:
    type: OS::Neutron::QoSMinimumPacketRateRule
    properties: {policy: {get_resource: policy}, min_kpps: 10, direction: any}
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.71.0.0/24}
  rbac:
    type: OS::Neutron::RBACPolicy
    properties:
      object_type: network
      object_id: {get_resource: net}
      action: access_as_shared
      target_tenant: {get_param: project}
  router:
    type: OS::Neutron::Router
    properties: {external_gateway_info: {network: public}}
  iface:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
  route:
    type: OS::Neutron::ExtraRoute
    properties: {router_id: {get_resource: router}, destination: 10.99.0.0/24, nexthop: 10.71.0.5}
  port:
    type: OS::Neutron::Port
    properties:
      network: {get_resource: net}
      fixed_ips: [{subnet: {get_resource: subnet}, ip_address: 10.71.0.10}]
  fip:
    type: OS::Neutron::FloatingIP
    properties: {floating_network: public}
  forward:
    type: OS::Neutron::FloatingIPPortForward
    properties:
      floating_ip: {get_resource: fip}
      internal_port: {get_resource: port}
      internal_ip_address: 10.71.0.10
      internal_port_number: 22
      external_port: 2222
      protocol: tcp
  label:
    type: OS::Neutron::MeteringLabel
    properties: {description: counted}
  meter:
    type: OS::Neutron::MeteringRule
    properties: {metering_label_id: {get_resource: label}, remote_ip_prefix: 10.71.0.0/24,
                 direction: egress}
  quota:
    type: OS::Neutron::Quota
    properties: {project: {get_param: project}, network: 400, port: 4000}
  segnet:
    type: OS::Neutron::ProviderNet
    properties: {network_type: vlan, physical_network: physnet1, segmentation_id: 160}
  segment:
    type: OS::Neutron::Segment
    properties: {network: {get_resource: segnet}, network_type: vlan, physical_network: physnet1,
                 segmentation_id: {get_param: vlan}, description: second}
outputs:
  label_name: {value: {get_attr: [label, name]}}
  label_shared: {value: {get_attr: [label, shared]}}
  meter_direction: {value: {get_attr: [meter, direction]}}
  meter_prefix: {value: {get_attr: [meter, remote_ip_prefix]}}
  meter_excluded: {value: {get_attr: [meter, excluded]}}
"""

QOS_KINDS = {'bw': 'bandwidth_limit_rule', 'dscp': 'dscp_marking_rule', 'minbw': 'minimum_bandwidth_rule',
             'minpps': 'minimum_packet_rate_rule'}
# fields every object has that say when, not what
VOLATILE = ('created_at', 'updated_at', 'revision_number', 'tags')


def _get(conn, path):
    response = conn.network.get(path)
    return response.status_code, (response.json() if response.status_code == 200 else None)


def _objects(conn, ids, project):
    """resource name -> Neutron's JSON of what it made (the route: the router's routes)."""
    paths = {'scope': '/address-scopes/%s', 'pool': '/subnetpools/%s', 'rbac': '/rbac-policies/%s',
             'label': '/metering/metering-labels/%s', 'meter': '/metering/metering-label-rules/%s',
             'segment': '/segments/%s'}
    paths.update((name, '/qos/policies/%s/%ss/%%s' % (ids['policy'], kind)) for name, kind in QOS_KINDS.items())
    out = {}
    for name, path in paths.items():
        status, body = _get(conn, path % ids[name])
        assert status == 200, (name, status)
        (out[name],) = body.values()
    out['route'] = _get(conn, '/routers/%s' % ids['router'])[1]['router']['routes']
    status, body = _get(conn, '/floatingips/%s/port_forwardings/%s' % (ids['fip'], ids['forward']))
    out['forward'] = body['port_forwarding']
    out['quota'] = _get(conn, '/quotas/%s' % project)[1]['quota']
    return out


def _normal(value, ids, stack_name):
    """The stack's own ids as their resources' names, its generated names as one placeholder."""
    by_id = dict((v, '<%s>' % k) for k, v in ids.items())
    if isinstance(value, dict):
        return dict((k, _normal(v, ids, stack_name)) for k, v in value.items() if k not in VOLATILE)
    if isinstance(value, list):
        return [_normal(v, ids, stack_name) for v in value]
    if isinstance(value, str) and value.startswith(stack_name + '-'):
        return '<generated>'
    return by_id.get(value, value)


def _heat_ids(cloud, name):
    listed = cloud.osc('stack', 'resource', 'list', name, cloud='localcloud-admin', as_json=True)
    return dict((r['resource_name'], r['physical_resource_id']) for r in listed)


def _gone(conn, ids, project):
    """The paths of the stack's objects Neutron still answers."""
    left = [p for p in ('/address-scopes/%s' % ids['scope'], '/subnetpools/%s' % ids['pool'],
                        '/rbac-policies/%s' % ids['rbac'], '/segments/%s' % ids['segment'],
                        '/metering/metering-labels/%s' % ids['label'], '/networks/%s' % ids['net'],
                        '/qos/policies/%s' % ids['policy'], '/floatingips/%s' % ids['fip'])
            if _get(conn, p)[0] != 404]
    return left


def test_heat_and_heat_stack_make_the_same_objects(cloud, tmp_path):
    template = tmp_path / 'neutron.yaml'
    template.write_text(TEMPLATE)
    conn = cloud.sdk('localcloud-admin')
    project = conn.identity.find_project('demo').id
    defaults = _get(conn, '/quotas/%s/default' % project)[1]['quota']
    heat_name = 'n37heat%d' % int(time.time())
    try:
        cloud.osc('stack', 'create', '--wait', '-t', str(template), '--parameter', 'project=%s' % project,
                  heat_name, cloud='localcloud-admin', timeout=600)
        heat_ids = _heat_ids(cloud, heat_name)
        heats = _normal(_objects(conn, heat_ids, project), heat_ids, heat_name)
        stack = cloud.osc('stack', 'show', heat_name, cloud='localcloud-admin', as_json=True)
        heat_outputs = _normal(dict((o['output_key'], o['output_value']) for o in stack['outputs']),
                               heat_ids, heat_name)
        cloud.osc('stack', 'delete', '--yes', '--wait', heat_name, cloud='localcloud-admin', timeout=600)
        assert _gone(conn, heat_ids, project) == []
        # Heat 27 resets the quotas of a project named by the resource's physical name: none
        assert _get(conn, '/quotas/%s' % project)[1]['quota']['network'] == 400

        store = str(tmp_path / 'stacks.sqlite')
        request = dict(template=str(template), store_path=store, timeout=600)
        result = runner.run(runner.StackRequest('n37ours', parameters={'project': project}, **request), conn)
        assert result['stack']['stack_status'] == 'CREATE_COMPLETE', result['stack']['stack_status_reason']
        ids = dict((r['resource_name'], r['physical_resource_id']) for r in result['resources'])
        ours = _normal(_objects(conn, ids, project), ids, 'n37ours')
        assert ours == heats
        outputs = dict((o['output_key'], o['output_value']) for o in result['stack']['outputs'])
        assert _normal(outputs, ids, 'n37ours') == heat_outputs == {
            'label_name': '<generated>', 'label_shared': False, 'meter_direction': 'egress',
            'meter_prefix': '10.71.0.0/24', 'meter_excluded': False}

        # a QoS rule changes in place, a segment's VLAN is a new segment
        result = runner.run(runner.StackRequest('n37ours', parameters={
            'project': project, 'max_kbps': 2000, 'vlan': 162}, **request), conn)
        assert result['stack']['stack_status'] == 'UPDATE_COMPLETE', result['stack']['stack_status_reason']
        after = dict((r['resource_name'], r['physical_resource_id']) for r in result['resources'])
        assert after['bw'] == ids['bw'] and after['segment'] != ids['segment']
        assert dict((k, v) for k, v in after.items() if k != 'segment') == dict(
            (k, v) for k, v in ids.items() if k != 'segment')
        rule = _get(conn, '/qos/policies/%s/bandwidth_limit_rules/%s' % (ids['policy'], ids['bw']))[1]
        assert rule['bandwidth_limit_rule']['max_kbps'] == 2000
        assert _get(conn, '/segments/%s' % ids['segment'])[0] == 404
        assert _get(conn, '/segments/%s' % after['segment'])[1]['segment']['segmentation_id'] == 162

        result = runner.run(runner.StackRequest('n37ours', state='absent', store_path=store), conn)
        assert result['stack']['stack_status'] == 'DELETE_COMPLETE'
        assert _gone(conn, after, project) == []
        assert _get(conn, '/routers/%s' % after['router'])[0] == 404
        assert _get(conn, '/quotas/%s' % project)[1]['quota'] == defaults
    finally:
        cloud.osc('stack', 'delete', '--yes', '--wait', heat_name, cloud='localcloud-admin', timeout=600,
                  check=False)
        conn.network.delete('/quotas/%s' % project)
        conn.close()
