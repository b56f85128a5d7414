# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Neutron's types: the rules of Heat 27's NeutronResource.validate() and of
the types' own validate().  QoSPolicy, Trunk, ExtraRouteSet and
FloatingIPAssociation have none beyond NeutronResource's, which needs a
value_specs property they lack."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import textwrap

from type_rules import HEADER, RuleCase, rule

NET = 'OS::Neutron::Net'
PROVIDER_NET = 'OS::Neutron::ProviderNet'
SUBNET = 'OS::Neutron::Subnet'
PORT = 'OS::Neutron::Port'
ROUTER = 'OS::Neutron::Router'
INTERFACE = 'OS::Neutron::RouterInterface'
FLOATING_IP = 'OS::Neutron::FloatingIP'
GROUP = 'OS::Neutron::SecurityGroup'
GROUP_RULE = 'OS::Neutron::SecurityGroupRule'

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

CASES = NET_CASES
