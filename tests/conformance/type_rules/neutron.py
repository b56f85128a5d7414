# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Neutron's types: the rules of Heat 27's NeutronResource.validate() and of
the types' own validate().  QoSPolicy, Trunk, ExtraRouteSet,
FloatingIPAssociation, AddressScope, the QoS rules, ExtraRoute,
FloatingIPPortForward and the metering types have none beyond
NeutronResource's, which needs a value_specs property they lack."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import textwrap

from type_rules import HEADER, rule

NET = 'OS::Neutron::Net'
PROVIDER_NET = 'OS::Neutron::ProviderNet'
SUBNET = 'OS::Neutron::Subnet'
PORT = 'OS::Neutron::Port'
ROUTER = 'OS::Neutron::Router'
INTERFACE = 'OS::Neutron::RouterInterface'
FLOATING_IP = 'OS::Neutron::FloatingIP'
GROUP = 'OS::Neutron::SecurityGroup'
GROUP_RULE = 'OS::Neutron::SecurityGroupRule'
POOL = 'OS::Neutron::SubnetPool'
RBAC = 'OS::Neutron::RBACPolicy'
QUOTA = 'OS::Neutron::Quota'
SEGMENT = 'OS::Neutron::Segment'

# A value Heat reads as None while it validates (an attribute of a resource
# not created yet).
VALUE = '''
        o:
          type: OS::Heat::Value
          properties: {value: %s}
        '''


def with_sections(type_name, name, broken, kept, message):
    """``rule`` for templates that need sections beside ``resources``
    (parameters, conditions): ``broken`` and ``kept`` are whole templates
    but for the version line."""
    return [case._replace(template=HEADER + textwrap.dedent(text).lstrip('\n'))
            for case, text in zip(rule(type_name, name, '', '', message), (broken, kept))]


CONDITIONED = '''
        parameters:
          x: {type: boolean, default: false}
        conditions:
          c: {get_param: x}
        resources:'''

NET_CASES = (
    rule(NET, 'value-specs-repeats-a-property', '''
        res:
          type: OS::Neutron::Net
          properties: {value_specs: {name: other}}
        ''', '''
        res:
          type: OS::Neutron::Net
          properties: {value_specs: {mtu: 1400}}
        ''', 'name not allowed in value_specs')
    + rule(NET, 'value-specs-from-an-attribute', '''
        res:
          type: OS::Neutron::Net
          properties: {value_specs: {tenant_id: t}}
        ''', '''
        res:
          type: OS::Neutron::Net
          properties: {value_specs: {get_attr: [o, value]}}
        ''' + VALUE % '{shared: true}', 'tenant_id not allowed in value_specs')
    + rule(PROVIDER_NET, 'segmentation-id-on-flat', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: flat, physical_network: p, segmentation_id: '5'}
        ''', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: vlan, physical_network: p, segmentation_id: '5'}
        ''', 'segmentation_id not allowed for network types: local, flat')
    + rule(PROVIDER_NET, 'segmentation-id-zero-or-an-attribute', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: local, segmentation_id: 0}
        ''', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: local, segmentation_id: {get_attr: [o, value]}}
        ''' + VALUE % '5', 'segmentation_id not allowed for network types: local, flat')
    + rule(PROVIDER_NET, 'physical-network-on-a-tunnel', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: vxlan, physical_network: p}
        ''', '''
        res:
          type: OS::Neutron::ProviderNet
          properties: {network_type: flat, physical_network: p}
        ''', 'physical_network not allowed for network types: vxlan, gre, geneve, flat')
)

SUBNET_CASES = (
    rule(SUBNET, 'neither-cidr-nor-subnetpool', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, subnetpool: pool}
        ''', 'At least one of the following properties must be specified: subnetpool, cidr.')
    + rule(SUBNET, 'cidr-or-subnetpool-from-an-attribute', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: {get_attr: [o, value]}}
        ''' + VALUE % '10.0.0.0/24', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, subnetpool: {get_attr: [o, value]}}
        ''' + VALUE % 'pool', 'At least one of the following properties must be specified')
    + rule(SUBNET, 'subnetpool-and-cidr', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, subnetpool: {get_resource: o}, cidr: 10.0.0.0/24}
        ''' + VALUE % 'pool', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24}
        ''', 'Cannot define the following properties at the same time: subnetpool, cidr.')
    + rule(SUBNET, 'prefixlen-and-cidr', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, prefixlen: 24}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, prefixlen: 0}
        ''', 'Cannot define the following properties at the same time: prefixlen, cidr.')
    + rule(SUBNET, 'ipv6-modes-on-ipv4-by-default', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 'fd00::/64', ipv6_address_mode: slaac}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 'fd00::/64', ip_version: 6, ipv6_address_mode: slaac}
        ''', 'ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.')
    + rule(SUBNET, 'ipv6-modes-on-an-attribute-ip-version', '''
        res:
          type: OS::Neutron::Subnet
          properties:
            network: n
            cidr: 'fd00::/64'
            ip_version: {get_attr: [o, value]}
            ipv6_ra_mode: slaac
        ''' + VALUE % '6', '''
        res:
          type: OS::Neutron::Subnet
          properties:
            network: n
            cidr: 'fd00::/64'
            ip_version: {get_attr: [o, value]}
            ipv6_ra_mode: {get_attr: [o, value]}
        ''' + VALUE % '6', 'ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.')
    + rule(SUBNET, 'ipv6-modes-differ', '''
        res:
          type: OS::Neutron::Subnet
          properties:
            network: n
            cidr: 'fd00::/64'
            ip_version: 6
            ipv6_ra_mode: slaac
            ipv6_address_mode: dhcpv6-stateful
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties:
            network: n
            cidr: 'fd00::/64'
            ip_version: 6
            ipv6_ra_mode: dhcpv6-stateful
            ipv6_address_mode: dhcpv6-stateful
        ''', 'When both ipv6_ra_mode and ipv6_address_mode are set, they must be equal.')
    + rule(SUBNET, 'gateway-ip-format', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, gateway_ip: 10.0.0.x}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, gateway_ip: '10.1'}
        ''', '(\'Gateway IP address "%(gateway)s" is in invalid format.\', \'10.0.0.x\')')
    + rule(SUBNET, 'gateway-ip-a-resource-or-none', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, gateway_ip: {get_resource: o}}
        ''' + VALUE % '10.0.0.1', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, gateway_ip: '~'}
        ''', 'is in invalid format.')
    + rule(SUBNET, 'gateway-ip-scoped-ipv6', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 'fd00::/64', ip_version: 6, gateway_ip: 'fe80::1%'}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 'fd00::/64', ip_version: 6, gateway_ip: 'fe80::1%eth0'}
        ''', 'is in invalid format.')
    # Heat's Subnet.validate drops NeutronResource's answer
    + rule(SUBNET, 'value-specs-unchecked', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, value_specs: {name: other}}
        ''', '''
        res:
          type: OS::Neutron::Subnet
          properties: {network: n, cidr: 10.0.0.0/24, value_specs: {name: other, shared: true}}
        ''', 'At least one of the following properties must be specified: subnetpool, cidr.')
)

PORT_CASES = (
    rule(PORT, 'fixed-ips-and-no-fixed-ips', '''
        res:
          type: OS::Neutron::Port
          properties: {network: n, no_fixed_ips: true, fixed_ips: [{ip_address: 10.0.0.3}]}
        ''', '''
        res:
          type: OS::Neutron::Port
          properties: {network: n, no_fixed_ips: true, fixed_ips: []}
        ''', 'Cannot define the following properties at the same time: fixed_ips, no_fixed_ips.')
    + rule(PORT, 'fixed-ips-from-an-attribute', '''
        res:
          type: OS::Neutron::Port
          properties: {network: n, no_fixed_ips: true, fixed_ips: [{get_attr: [o, value]}]}
        ''' + VALUE % '{ip_address: 10.0.0.3}', '''
        res:
          type: OS::Neutron::Port
          properties: {network: n, no_fixed_ips: true, fixed_ips: {get_attr: [o, value]}}
        ''' + VALUE % '[{ip_address: 10.0.0.3}]', 'Cannot define the following properties at '
                                                  'the same time: fixed_ips, no_fixed_ips.')
    + rule(PORT, 'value-specs-unchecked', '''
        res:
          type: OS::Neutron::Port
          properties:
            network: n
            no_fixed_ips: true
            fixed_ips: [{ip_address: 10.0.0.3}]
            value_specs: {name: other}
        ''', '''
        res:
          type: OS::Neutron::Port
          properties: {network: n, value_specs: {name: other, tenant_id: t}}
        ''', 'Cannot define the following properties at the same time: fixed_ips, no_fixed_ips.')
)

FLOATING_IP_CASES = (
    rule(FLOATING_IP, 'fixed-ip-without-port', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, fixed_ip_address: 10.0.0.3}
        ''', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, fixed_ip_address: 10.0.0.3, port_id: p}
        ''', 'fixed_ip_address cannot be specified without port_id.')
    + rule(FLOATING_IP, 'fixed-ip-or-port-from-an-attribute', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, fixed_ip_address: {get_attr: [o, value]}}
        ''' + VALUE % '10.0.0.3', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, fixed_ip_address: 10.0.0.3,
                       port_id: {get_attr: [o, value]}}
        ''' + VALUE % 'p', 'fixed_ip_address cannot be specified without port_id.')
    + rule(FLOATING_IP, 'value-specs-unchecked', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, fixed_ip_address: 10.0.0.3,
                       value_specs: {port_id: p}}
        ''', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: n, value_specs: {port_id: p, tenant_id: t}}
        ''', 'fixed_ip_address cannot be specified without port_id.')
)

ROUTER_CASES = (
    rule(ROUTER, 'l3-agent-id-and-l3-agent-ids', '''
        res:
          type: OS::Neutron::Router
          properties: {l3_agent_id: a, l3_agent_ids: []}
        ''', '''
        res:
          type: OS::Neutron::Router
          properties: {l3_agent_id: a}
        ''', 'Incorrect translation rule using - cannot resolve Add rule for non-list '
             'translation value "l3_agent_ids.0".')
    + with_sections(ROUTER, 'l3-agent-ids-null-from-a-condition', CONDITIONED + '''
          res:
            type: OS::Neutron::Router
            properties: {l3_agent_id: a, l3_agent_ids: {if: [c, [b], null]}}
        ''', CONDITIONED + '''
          res:
            type: OS::Neutron::Router
            properties: {l3_agent_id: {if: [c, a, '']}, l3_agent_ids: [b]}
        ''', 'Incorrect translation rule using')
    + rule(ROUTER, 'l3-agent-id-from-an-attribute', '''
        res:
          type: OS::Neutron::Router
          properties: {l3_agent_id: a, l3_agent_ids: {get_attr: [o, value]}}
        ''' + VALUE % '[b]', '''
        res:
          type: OS::Neutron::Router
          properties: {l3_agent_id: {get_attr: [o, value]}, l3_agent_ids: [b]}
        ''' + VALUE % 'a', 'Incorrect translation rule using')
    + rule(ROUTER, 'distributed-with-agents', '''
        res:
          type: OS::Neutron::Router
          properties: {distributed: true, l3_agent_id: a}
        ''', '''
        res:
          type: OS::Neutron::Router
          properties: {distributed: false, l3_agent_ids: [a]}
        ''', 'Cannot define the following properties at the same time: distributed, '
             'l3_agent_id/l3_agent_ids.')
    + rule(ROUTER, 'distributed-and-ha', '''
        res:
          type: OS::Neutron::Router
          properties: {distributed: true, ha: true}
        ''', '''
        res:
          type: OS::Neutron::Router
          properties: {distributed: {get_attr: [o, value]}, ha: true}
        ''' + VALUE % 'true', 'Cannot define the following properties at the same time: '
                              'distributed, ha.')
    + rule(ROUTER, 'agents-of-a-non-ha-router', '''
        res:
          type: OS::Neutron::Router
          properties: {l3_agent_ids: [{get_attr: [o, value]}, b]}
        ''' + VALUE % 'a', '''
        res:
          type: OS::Neutron::Router
          properties: {ha: true, l3_agent_ids: [a, b]}
        ''', 'Non HA routers can only have one L3 agent.')
    + rule(ROUTER, 'value-specs-unchecked', '''
        res:
          type: OS::Neutron::Router
          properties: {distributed: true, ha: true, value_specs: {name: other}}
        ''', '''
        res:
          type: OS::Neutron::Router
          properties: {value_specs: {name: other, tenant_id: t}}
        ''', 'Cannot define the following properties at the same time: distributed, ha.')
    + rule(INTERFACE, 'subnet-and-port', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r, subnet: s, port: p}
        ''', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r, subnet: s}
        ''', 'Cannot define the following properties at the same time: subnet, port.')
    + rule(INTERFACE, 'legacy-subnet-id-and-port', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router_id: r, subnet_id: s, port: p}
        ''', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router_id: r, subnet_id: s}
        ''', 'Cannot define the following properties at the same time: subnet, port.')
    + rule(INTERFACE, 'null-subnet-and-port', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r, subnet: null, port: p}
        ''', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r, port: {get_attr: [o, value]}}
        ''' + VALUE % 'p', 'Cannot define the following properties at the same time: subnet, port.')
    + rule(INTERFACE, 'neither-subnet-nor-port', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r}
        ''', '''
        res:
          type: OS::Neutron::RouterInterface
          properties: {router: r, port_id: p}
        ''', 'At least one of the following properties must be specified: subnet, port.')
)

GROUP_CASES = (
    with_sections(GROUP, 'named-default', '''
        parameters:
          name: {type: string, default: default}
        resources:
          res:
            type: OS::Neutron::SecurityGroup
            properties: {name: {get_param: name}}
        ''', '''
        resources:
          res:
            type: OS::Neutron::SecurityGroup
            properties: {name: web}
        ''', 'Security groups cannot be assigned the name "default".')
    + rule(GROUP, 'named-default-by-an-attribute', '''
        res:
          type: OS::Neutron::SecurityGroup
          properties: {name: default}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroup
          properties: {name: {get_attr: [o, value]}}
        ''' + VALUE % 'default', 'Security groups cannot be assigned the name "default".')
    + rule(GROUP_RULE, 'remote-group-and-prefix', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, remote_group: h, remote_ip_prefix: 10.0.0.0/8}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, remote_ip_prefix: 10.0.0.0/8}
        ''', 'Cannot define the following properties at the same time: remote_group, '
             'remote_ip_prefix.')
    + rule(GROUP_RULE, 'null-remote-group-and-prefix', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, remote_group: null, remote_ip_prefix: 10.0.0.0/8}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, remote_group: h}
        ''', 'Cannot define the following properties at the same time: remote_group, '
             'remote_ip_prefix.')
    + rule(GROUP_RULE, 'port-range-reversed', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, protocol: udp, port_range_min: 90, port_range_max: 80}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, protocol: icmp, port_range_min: 90, port_range_max: 80}
        ''', 'The minimum port number must be less than or equal to the maximum port number.')
    + rule(GROUP_RULE, 'port-range-max-from-an-attribute', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, port_range_min: 90,
                       port_range_max: {get_attr: [o, value]}}
        ''' + VALUE % '100', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: g, protocol: ipv6-icmp, port_range_min: 90,
                       port_range_max: {get_attr: [o, value]}}
        ''' + VALUE % '100', 'The minimum port number must be less than or equal to the '
                             'maximum port number.')
)

POOL_CASES = (
    rule(POOL, 'min-above-max', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], min_prefixlen: 28, max_prefixlen: 24}
        ''', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], min_prefixlen: 24, max_prefixlen: 28}
        ''', 'Illegal prefix bounds: max_prefixlen=24, min_prefixlen=28.')
    + rule(POOL, 'default-above-max', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], default_prefixlen: 29, max_prefixlen: 28}
        ''', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], default_prefixlen: 28, max_prefixlen: 28}
        ''', 'Illegal prefix bounds: max_prefixlen=28, default_prefixlen=29.')
    + rule(POOL, 'default-below-min', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], default_prefixlen: 20, min_prefixlen: 24}
        ''', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], default_prefixlen: {get_attr: [o, value]},
                       min_prefixlen: 24}
        ''' + VALUE % '20', 'Illegal prefix bounds: min_prefixlen=24, default_prefixlen=20.')
    # a bound of 0 (or null, which Heat reads as 0) is no bound to Heat's truth tests
    + rule(POOL, 'zero-is-no-bound', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], min_prefixlen: 30, default_prefixlen: 29}
        ''', '''
        res:
          type: OS::Neutron::SubnetPool
          properties: {prefixes: [10.0.0.0/16], min_prefixlen: 30, max_prefixlen: 0,
                       default_prefixlen: null}
        ''', 'Illegal prefix bounds: min_prefixlen=30, default_prefixlen=29.')
)

RBAC_CASES = (
    rule(RBAC, 'external-on-a-qos-policy', '''
        res:
          type: OS::Neutron::RBACPolicy
          properties: {object_type: qos_policy, object_id: q, action: access_as_external,
                       target_tenant: t}
        ''', '''
        res:
          type: OS::Neutron::RBACPolicy
          properties: {object_type: network, object_id: n, action: access_as_external,
                       target_tenant: t}
        ''', 'Invalid action "access_as_external" for object type qos_policy. Valid actions: '
             'access_as_shared')
)

QUOTA_CASES = (
    rule(QUOTA, 'no-limit', '''
        res:
          type: OS::Neutron::Quota
          properties: {project: p}
        ''', '''
        res:
          type: OS::Neutron::Quota
          properties: {project: p, network: {get_attr: [o, value]}}
        ''' + VALUE % '5', 'At least one of the following properties must be specified: floatingip, '
                           'network, port, rbac_policy, router, security_group, security_group_rule, '
                           'subnet, subnetpool.')
)

SEGMENT_CASES = (
    rule(SEGMENT, 'vlan-without-physical-network', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vlan, segmentation_id: 5}
        ''', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vlan, segmentation_id: 5,
                       physical_network: {get_attr: [o, value]}}
        ''' + VALUE % 'p', 'physical_network is required for vlan provider network.')
    + rule(SEGMENT, 'vlan-without-segmentation-id', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vlan, physical_network: p}
        ''', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: flat, physical_network: p}
        ''', 'segmentation_id is required for vlan provider network.')
    + rule(SEGMENT, 'segmentation-id-on-flat', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: flat, physical_network: p, segmentation_id: 5}
        ''', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vxlan, segmentation_id: 5}
        ''', 'segmentation_id is prohibited for flat provider network.')
    + rule(SEGMENT, 'physical-network-on-a-tunnel', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: geneve, physical_network: p}
        ''', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: local}
        ''', 'physical_network is prohibited for geneve provider network.')
    + rule(SEGMENT, 'vlan-id-above-4094', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vlan, physical_network: p, segmentation_id: 4095}
        ''', '''
        res:
          type: OS::Neutron::Segment
          properties: {network: n, network_type: vlan, physical_network: p, segmentation_id: 4094}
        ''', 'Up to 4094 VLAN network segments can exist on each physical_network.')
)

CASES = (NET_CASES + SUBNET_CASES + PORT_CASES + FLOATING_IP_CASES + ROUTER_CASES + GROUP_CASES
         + POOL_CASES + RBAC_CASES + QUOTA_CASES + SEGMENT_CASES)
