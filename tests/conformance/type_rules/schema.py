# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Property schema edges Heat 27 checks at stack create beside the types'
own rules: how a value is compared with its allowed values, and a String
given as null."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import rule

CASES = (
    # AllowedValues compares in the property's type: the protocol number 6
    # is the String "6", which the allowed numbers 0-255 hold.
    rule('OS::Neutron::SecurityGroupRule', 'protocol-allowed-as-a-number', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: sg, protocol: 256}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: sg, protocol: 6}
        ''', 'is not an allowed value')
    + rule('OS::Neutron::SecurityGroupRule', 'protocol-allowed-as-a-string', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: sg, protocol: "ttcp"}
        ''', '''
        res:
          type: OS::Neutron::SecurityGroupRule
          properties: {security_group: sg, protocol: "17"}
        ''', 'is not an allowed value')
    # A String given as null is read as "" and its custom constraint checks
    # that; one not given is not checked.
    + rule('OS::Neutron::FloatingIP', 'null-fixed-ip-is-no-address', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: public, port_id: p, fixed_ip_address: null}
        ''', '''
        res:
          type: OS::Neutron::FloatingIP
          properties: {floating_network: public, port_id: p}
        ''', "Error validating value ''")
)
