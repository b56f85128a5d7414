# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's own types: the rules of Heat 27's validate() of RandomString,
Delay, ScalingPolicy, SoftwareComponent and SoftwareDeployment (a server
named without get_resource), and of the types run as nested stacks
(AutoScalingGroup's sizes, the member types of ResourceGroup, ResourceChain
and AutoScalingGroup, and their member definitions, which Heat validates as
the group's nested stack: names, each member type's own rule)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import HEADER, rule

RANDOM = 'OS::Heat::RandomString'
DELAY = 'OS::Heat::Delay'
POLICY = 'OS::Heat::ScalingPolicy'
COMPONENT = 'OS::Heat::SoftwareComponent'
DEPLOYMENT = 'OS::Heat::SoftwareDeployment'
STRUCTURED = 'OS::Heat::StructuredDeployment'
ASG = 'OS::Heat::AutoScalingGroup'
GROUP = 'OS::Heat::ResourceGroup'
CHAIN = 'OS::Heat::ResourceChain'

# Added to a case's resources, at their indentation: a resource whose
# attribute is not made while Heat validates (None)...
LATER = '''
        other:
          type: OS::Heat::Value
          properties: {value: 1}
'''
# ... a server Heat validates with no client call (a boot volume, no image).
SERVER = '''
        srv:
          type: OS::Nova::Server
          properties:
            flavor: m1.tiny
            block_device_mapping_v2: [{volume_id: vol, boot_index: 0}]
'''
SOFTWARE_SERVER = SERVER + '            user_data_format: SOFTWARE_CONFIG\n'
TOO_SHORT = 'Length property cannot be smaller than combined character class and character ' \
    'sequence minimums'
MIN_OVER_MAX = 'MinSize can not be greater than MaxSize'
DESIRED = 'DesiredCapacity must be between MinSize and MaxSize'
STEP = 'min_adjustment_step property should only be specified for adjustment_type with value ' \
    'percent_change_in_capacity.'
SAME_ACTION = 'Defining more than one configuration for the same action in SoftwareComponent "res"'
USER_DATA = "Resource srv's property user_data_format should be set to SOFTWARE_CONFIG"
NOT_FOUND = 'The Resource Type (OS::Nope::Nope) could not be found.'
# A group's members, validated as the group's nested stack (values unchecked).
UNKNOWN = 'Unknown Property nope'
NOT_INTEGER = "Value 'abc' is not an integer"
NO_SOURCE = 'If neither "backup_id" nor "size" is provided, one and only one of "source_volid", ' \
    '"snapshot_id" must be specified, but currently specified options: [].'
NO_BOOT = 'Neither image nor bootable volume is specified for instance 0'


def with_p(cases):
    """The cases with a parameter ``p`` (a string, 'vol' by default)."""
    return [case._replace(template=case.template.replace(
        HEADER, HEADER + 'parameters:\n  p: {type: string, default: vol}\n')) for case in cases]


CASES = (
    rule(RANDOM, 'minimums-over-length', '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: 3
            character_classes: [{class: digits, min: 2}, {class: lowercase, min: 2}]
        ''', '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: 4
            character_classes: [{class: digits, min: 2}, {class: lowercase, min: 2}]
        ''', TOO_SHORT)
    + rule(RANDOM, 'default-class-counts', '''
        res:
          type: OS::Heat::RandomString
          properties: {length: 3, character_sequences: [{sequence: '!', min: 3}]}
        ''', '''
        res:
          type: OS::Heat::RandomString
          properties: {length: 3, character_sequences: [{sequence: '!', min: 2}]}
        ''', TOO_SHORT)
    + rule(RANDOM, 'length-from-an-attribute-is-the-default', '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: {get_attr: [other, value]}
            character_classes: [{class: digits, min: 33}]
        ''' + LATER, '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: {get_attr: [other, value]}
            character_classes: [{class: digits, min: 32}]
        ''' + LATER, TOO_SHORT)
    + rule(RANDOM, 'min-from-an-attribute-is-the-default', '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: 1
            character_classes:
              - {class: digits, min: {get_attr: [other, value]}}
              - {class: lowercase, min: 1}
        ''' + LATER, '''
        res:
          type: OS::Heat::RandomString
          properties:
            length: 2
            character_classes:
              - {class: digits, min: {get_attr: [other, value]}}
              - {class: lowercase, min: 1}
        ''' + LATER, TOO_SHORT)
    + rule(DELAY, 'longer-than-the-stack-timeout', '''
        res:
          type: OS::Heat::Delay
          properties: {min_wait: 3000, max_jitter: 700}
        ''', '''
        res:
          type: OS::Heat::Delay
          properties: {min_wait: 3000, max_jitter: 600}
        ''', 'maximum delay 3700.0s exceeds stack timeout.')
    + rule(DELAY, 'jitter-multiplier', '''
        res:
          type: OS::Heat::Delay
          properties: {min_wait: 3000, max_jitter: 400, jitter_multiplier: 2}
        ''', '''
        res:
          type: OS::Heat::Delay
          properties: {min_wait: 3000, max_jitter: 400, jitter_multiplier: 1.5}
        ''', 'maximum delay 3800s exceeds stack timeout.')
    + rule(POLICY, 'step-without-percent', '''
        res:
          type: OS::Heat::ScalingPolicy
          properties: {auto_scaling_group_id: g, adjustment_type: change_in_capacity,
                       scaling_adjustment: 1, min_adjustment_step: 1}
        ''', '''
        res:
          type: OS::Heat::ScalingPolicy
          properties: {auto_scaling_group_id: g, adjustment_type: percent_change_in_capacity,
                       scaling_adjustment: 1, min_adjustment_step: 1}
        ''', STEP)
    + rule(POLICY, 'null-step-is-given', '''
        res:
          type: OS::Heat::ScalingPolicy
          properties: {auto_scaling_group_id: g, adjustment_type: exact_capacity,
                       scaling_adjustment: 1, min_adjustment_step: null}
        ''', '''
        res:
          type: OS::Heat::ScalingPolicy
          properties: {auto_scaling_group_id: g, adjustment_type: exact_capacity,
                       scaling_adjustment: 1}
        ''', STEP)
    + rule(COMPONENT, 'one-config-per-action', '''
        res:
          type: OS::Heat::SoftwareComponent
          properties:
            configs:
              - {config: a, tool: script, actions: [CREATE]}
              - {config: b, tool: script, actions: [DELETE, CREATE]}
        ''', '''
        res:
          type: OS::Heat::SoftwareComponent
          properties:
            configs:
              - {config: a, tool: script, actions: [CREATE]}
              - {config: b, tool: script, actions: [DELETE, UPDATE]}
        ''', SAME_ACTION)
    + rule(COMPONENT, 'default-actions', '''
        res:
          type: OS::Heat::SoftwareComponent
          properties:
            configs:
              - {config: a, tool: script}
              - {config: b, tool: script, actions: [UPDATE]}
        ''', '''
        res:
          type: OS::Heat::SoftwareComponent
          properties:
            configs:
              - {config: a, tool: script}
              - {config: b, tool: script, actions: [DELETE]}
        ''', SAME_ACTION)
    + rule(DEPLOYMENT, 'server-named-without-get-resource', '''
        res:
          type: OS::Heat::SoftwareDeployment
          properties: {server: srv, signal_transport: TEMP_URL_SIGNAL}
        ''' + SERVER, '''
        res:
          type: OS::Heat::SoftwareDeployment
          properties: {server: srv, signal_transport: TEMP_URL_SIGNAL}
        ''' + SOFTWARE_SERVER, USER_DATA)
    + rule(DEPLOYMENT, 'server-name-made-by-a-function', '''
        res:
          type: OS::Heat::SoftwareDeployment
          properties: {server: {list_join: ['', [s, r, v]]}, signal_transport: TEMP_URL_SIGNAL}
        ''' + SERVER, '''
        res:
          type: OS::Heat::SoftwareDeployment
          properties: {server: {list_join: ['', [s, r, v]]}, signal_transport: TEMP_URL_SIGNAL}
        ''' + SOFTWARE_SERVER, USER_DATA)
    + rule(STRUCTURED, 'server-named-without-get-resource', '''
        res:
          type: OS::Heat::StructuredDeployment
          properties: {server: srv, signal_transport: TEMP_URL_SIGNAL}
        ''' + SERVER, '''
        res:
          type: OS::Heat::StructuredDeployment
          properties: {server: srv, signal_transport: TEMP_URL_SIGNAL}
        ''' + SOFTWARE_SERVER, USER_DATA)
    + rule(ASG, 'min-over-max', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 3, max_size: 2, resource: {type: OS::Heat::None}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 2, max_size: 2, resource: {type: OS::Heat::None}}
        ''', MIN_OVER_MAX)
    + rule(ASG, 'max-from-an-attribute-is-zero', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 1, max_size: {get_attr: [other, value]},
                       resource: {type: OS::Heat::None}}
        ''' + LATER, '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: {get_attr: [other, value]},
                       resource: {type: OS::Heat::None}}
        ''' + LATER, MIN_OVER_MAX)
    + rule(ASG, 'desired-outside-the-sizes', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 2, max_size: 3, desired_capacity: 1,
                       resource: {type: OS::Heat::None}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 2, max_size: 3, desired_capacity: 3,
                       resource: {type: OS::Heat::None}}
        ''', DESIRED)
    + rule(ASG, 'desired-over-max', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, desired_capacity: 4,
                       resource: {type: OS::Heat::None}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, desired_capacity: 0,
                       resource: {type: OS::Heat::None}}
        ''', DESIRED)
    + rule(ASG, 'desired-from-an-attribute-is-zero', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 1, max_size: 3, desired_capacity: {get_attr: [other, value]},
                       resource: {type: OS::Heat::None}}
        ''' + LATER, '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, desired_capacity: {get_attr: [other, value]},
                       resource: {type: OS::Heat::None}}
        ''' + LATER, DESIRED)
    + rule(ASG, 'member-type', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 1, max_size: 3, resource: {type: OS::Nope::Nope}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 1, max_size: 3, resource: {type: OS::Heat::None}}
        ''', NOT_FOUND)
    + rule(ASG, 'member-type-of-a-group-starting-empty', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, desired_capacity: 1,
                       resource: {type: OS::Nope::Nope}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, resource: {type: OS::Nope::Nope}}
        ''', NOT_FOUND)
    + rule(GROUP, 'member-type', '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {count: 2, resource_def: {type: OS::Nope::Nope}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {count: 2, resource_def: {type: OS::Heat::None}}
        ''', NOT_FOUND)
    + rule(GROUP, 'member-type-of-an-empty-group', '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {count: {get_attr: [other, value]}, resource_def: {type: OS::Nope::Nope}}
        ''' + LATER, '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {count: 0, resource_def: {type: OS::Nope::Nope}}
        ''', NOT_FOUND)
    + rule(GROUP, 'member-unknown-property', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Heat::Value, properties: {value: 1, nope: 2}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Heat::Value, properties: {value: 1}}
        ''', UNKNOWN)
    + rule(GROUP, 'member-unknown-property-of-an-attribute', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Heat::Value
              properties: {value: 1, nope: {get_attr: [other, value]}}
        ''' + LATER, '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 0
            resource_def:
              type: OS::Heat::Value
              properties: {value: 1, nope: {get_attr: [other, value]}}
        ''' + LATER, UNKNOWN)
    + rule(GROUP, 'member-property-type-its-rule-reads', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Heat::RandomString, properties: {length: abc}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Heat::RandomString, properties: {length: '12'}}
        ''', NOT_INTEGER)
    + rule(GROUP, 'member-property-type-heat-reads-to-ask-nova', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Nova::Server
              properties:
                flavor: m1.tiny
                block_device_mapping_v2: [{volume_id: vol, boot_index: 0}]
                metadata: not-a-map
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Nova::Server
              properties:
                flavor: m1.tiny
                block_device_mapping_v2: [{volume_id: vol, boot_index: 0}]
                metadata: {}
        ''', '"not-a-map" is not a map')
    + rule(GROUP, 'member-property-type-no-rule-reads', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Nova::Server, properties: {flavor: m1.tiny}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Nova::Server
              properties:
                flavor: m1.tiny
                block_device_mapping_v2: [{volume_id: vol, boot_index: 0}]
                name: [a]
                user_data: {a: 1}
        ''', NO_BOOT)
    + rule(GROUP, 'member-type-rule', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Cinder::Volume, properties: {name: v}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Cinder::Volume, properties: {name: v, size: 1}}
        ''', NO_SOURCE)
    + rule(GROUP, 'member-required-property-is-not-checked', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Neutron::Subnet, properties: {cidr: 10.0.0.0/24, nope: 1}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def: {type: OS::Neutron::Subnet, properties: {cidr: 10.0.0.0/24}}
        ''', UNKNOWN)
    + with_p(rule(GROUP, 'member-values-known-at-run-time', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Cinder::Volume
              properties: {name: {list_join: ['-', [{get_param: p}, '%index%']]}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            resource_def:
              type: OS::Cinder::Volume
              properties:
                name: {list_join: ['-', [{get_param: p}, '%index%']]}
                size: {get_attr: [other, value]}
                description: {get_resource: other}
        ''' + LATER, NO_SOURCE))
    + rule(GROUP, 'member-index-substituted', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            index_var: '%n%'
            resource_def: {type: OS::Heat::RandomString, properties: {length: '%index%'}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 2
            removal_policies: [{resource_list: ['0']}]
            resource_def: {type: OS::Heat::RandomString, properties: {length: '%index%'}}
        ''', "Value '%index%' is not an integer")
    + rule(GROUP, 'member-of-a-member', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 1
            resource_def:
              type: OS::Heat::ResourceGroup
              properties:
                resource_def: {type: OS::Heat::Value, properties: {value: 1, nope: 2}}
        ''', '''
        res:
          type: OS::Heat::ResourceGroup
          properties:
            count: 1
            resource_def:
              type: OS::Heat::ResourceGroup
              properties:
                resource_def: {type: OS::Heat::Value, properties: {value: 1}}
        ''', UNKNOWN)
    + rule(GROUP, 'member-type-from-an-attribute', '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {resource_def: {type: {get_attr: [other, value]}}}
        ''' + LATER, '''
        res:
          type: OS::Heat::ResourceGroup
          properties: {count: 0, resource_def: {type: {get_attr: [other, value]}}}
        ''' + LATER, 'Resource "None" has no type')
    + rule(ASG, 'member-unknown-property', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 1
            max_size: 3
            resource: {type: OS::Heat::Value, properties: {value: 1, nope: 2}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 0
            max_size: 3
            resource: {type: OS::Heat::Value, properties: {value: 1, nope: 2}}
        ''', UNKNOWN)
    + rule(ASG, 'member-property-type', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 0
            max_size: 3
            desired_capacity: 1
            resource: {type: OS::Heat::RandomString, properties: {length: abc}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 0
            max_size: 3
            desired_capacity: 1
            resource: {type: OS::Heat::RandomString, properties: {length: 8}}
        ''', NOT_INTEGER)
    + with_p(rule(ASG, 'member-type-rule', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 1
            max_size: 3
            resource: {type: OS::Cinder::Volume, properties: {name: v}}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 1
            max_size: 3
            resource:
              type: OS::Cinder::Volume
              properties: {name: {get_param: p}, size: {get_attr: [other, value]}}
        ''' + LATER, NO_SOURCE))
    + rule(ASG, 'member-deletion-policy', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 1
            max_size: 3
            resource: {type: OS::Heat::None, deletion_policy: Bogus}
        ''', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties:
            min_size: 1
            max_size: 3
            resource: {type: OS::Heat::None, deletion_policy: Retain}
        ''', 'Invalid deletion policy "Bogus"')
    + rule(ASG, 'member-type-from-an-attribute', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 1, max_size: 3, resource: {type: {get_attr: [other, value]}}}
        ''' + LATER, '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, resource: {type: OS::Nope::Nope}}
        ''', 'Resource member type type must be string')
    + rule(ASG, 'member-type-from-an-attribute-of-a-group-starting-empty', '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, resource: {type: {get_attr: [other, value]}}}
        ''' + LATER, '''
        res:
          type: OS::Heat::AutoScalingGroup
          properties: {min_size: 0, max_size: 3, resource: {type: OS::Heat::None}}
        ''', 'Resource member type type must be string')
    + rule(CHAIN, 'member-unknown-type', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Nope::Nope], resource_properties: {value: 1}}
        ''', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Heat::Value], resource_properties: {value: 1}}
        ''', NOT_FOUND)
    + rule(CHAIN, 'member-unknown-property', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Heat::Value], resource_properties: {value: 1, nope: 2}}
        ''', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Heat::None], resource_properties: {value: 1, nope: 2}}
        ''', UNKNOWN)
    + rule(CHAIN, 'member-type-rule', '''
        res:
          type: OS::Heat::ResourceChain
          properties:
            resources: [OS::Cinder::Volume, OS::Cinder::Volume]
            resource_properties: {name: v}
        ''', '''
        res:
          type: OS::Heat::ResourceChain
          properties:
            resources: [OS::Cinder::Volume, OS::Cinder::Volume]
            resource_properties: {name: v, size: {get_attr: [other, value]}}
        ''' + LATER, NO_SOURCE)
    + rule(CHAIN, 'member-type-from-an-attribute', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [{get_attr: [other, value]}]}
        ''' + LATER, '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: []}
        ''', 'Non-empty resource type is required for resource "None"')
    + rule(CHAIN, 'member-types', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Heat::None, OS::Nope::Nope]}
        ''', '''
        res:
          type: OS::Heat::ResourceChain
          properties: {resources: [OS::Heat::None, OS::Heat::Value]}
        ''', NOT_FOUND)
)
