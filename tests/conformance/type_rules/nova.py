# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nova's types: the rules of Heat 27's Server.validate() that the template
decides (resources/nova/server_rules.py).

A server kept here boots from a volume, not an image: Heat looks a given
image up in Glance while it validates (its status, its size against the
flavor), which the offline oracle cannot answer.  An image waiting on an
attribute is empty then, and looked up by no one.  Likewise no kept server
has a network ``tag`` or ``allocate_network`` alone, which Heat checks
against Nova's microversion.  OS::Nova::KeyPair's and ServerGroup's rules
all ask Nova for its microversion, and Flavor has none: no case here."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import rule

SERVER = 'OS::Nova::Server'
OTHER = '''
        other:
          type: OS::Cinder::Volume
          properties: {size: 1}
'''


def server(properties, extra=''):
    """A server's resources: section with these properties (a flow map's
    inside) and, after it, ``extra`` (other resources)."""
    return '''
        res:
          type: OS::Nova::Server
          properties: {flavor: m1.small, %s}
        ''' % properties + extra


BOOT = 'block_device_mapping_v2: [{volume_id: vol}]'


def networks(nets, more=''):
    return server(BOOT + ', networks: ' + nets + more)


CASES = (
    # -- what the server boots from ------------------------------------------------
    rule(SERVER, 'neither-image-nor-boot-volume', server('name: web'), server(BOOT),
         'Neither image nor bootable volume is specified for instance res')
    # an image waiting on an attribute is empty, not None: it boots the server
    + rule(SERVER, 'image-waiting-on-an-attribute',
           server('block_device_mapping_v2: [{volume_id: vol, boot_index: 1}]'),
           server('image: {get_attr: [other, size]}', OTHER),
           'Neither image nor bootable volume is specified for instance res')
    # so is an image given empty, or given as null (as a property given None
    # reads: the type's zero)
    + rule(SERVER, 'image-given-empty', server('image_update_policy: REPLACE'),
           server('image: ""'), 'Neither image nor bootable volume is specified for instance res')
    + rule(SERVER, 'image-given-null', server('image_update_policy: REBUILD'),
           server('image: null'), 'Neither image nor bootable volume is specified for instance res')
    + rule(SERVER, 'v1-mapping-boots-as-vda',
           server('block_device_mapping: [{device_name: vdb, volume_id: vol}]'),
           server('block_device_mapping: [{device_name: vda, volume_id: vol}]'),
           'Neither image nor bootable volume is specified for instance res')
    + rule(SERVER, 'v2-mapping-boots-at-index-0',
           server('block_device_mapping_v2: [{volume_id: vol, boot_index: -1}]'),
           server('block_device_mapping_v2: [{volume_id: vol, boot_index: "0"}]'),
           'Neither image nor bootable volume is specified for instance res')
    + rule(SERVER, 'multiple-bootable-sources',
           server('block_device_mapping_v2: [{volume_id: vol}, {snapshot_id: snap}]'),
           server('block_device_mapping_v2: [{volume_id: vol}, {snapshot_id: snap, boot_index: 1}]'),
           'Multiple bootable sources for instance res.')
    + rule(SERVER, 'image-and-boot-volume',
           server('image: {get_attr: [other, size]}, ' + BOOT, OTHER),
           server('image: {get_attr: [other, size]}, '
                  'block_device_mapping_v2: [{volume_id: vol, boot_index: 2}]', OTHER),
           'Multiple bootable sources for instance res.')
    # -- block_device_mapping ------------------------------------------------------------
    + rule(SERVER, 'both-mapping-versions',
           server('block_device_mapping: [{device_name: vda, volume_id: vol}], ' + BOOT),
           server('block_device_mapping: [], ' + BOOT),
           'Cannot define the following properties at the same time: block_device_mapping, '
           'block_device_mapping_v2.')
    + rule(SERVER, 'v1-volume-and-snapshot',
           server('block_device_mapping: [{device_name: vda, volume_id: vol, snapshot_id: snap}]'),
           server('block_device_mapping: [{device_name: vda, snapshot_id: snap}]'),
           'Cannot define the following properties at the same time: volume_id, snapshot_id.')
    + rule(SERVER, 'v1-neither-volume-nor-snapshot',
           server('block_device_mapping: [{device_name: vda, volume_size: 10}]'),
           server('block_device_mapping: [{device_name: vda, volume_id: vol, volume_size: 10}]'),
           'Either volume_id or snapshot_id must be specified for device mapping vda')
    # a volume id waiting on an attribute is empty, not None
    + rule(SERVER, 'v1-volume-waiting-on-an-attribute',
           server('block_device_mapping: [{device_name: vda, volume_size: {get_attr: [other, size]}}]',
                  OTHER),
           server('block_device_mapping: [{device_name: vda, volume_id: {get_attr: [other, size]}}]',
                  OTHER),
           'Either volume_id or snapshot_id must be specified for device mapping vda')
    # -- block_device_mapping_v2 ---------------------------------------------------------
    + rule(SERVER, 'v2-two-sources',
           server('block_device_mapping_v2: [{volume_id: vol, image: cirros}]'),
           server('block_device_mapping_v2: [{volume_id: vol, volume_size: 10}]'),
           'Cannot define the following properties at the same time: volume_id, snapshot_id, '
           'image, swap_size, ephemeral_size, ephemeral_format.')
    # image_id is Heat's deprecated name of image (translated into it)
    + rule(SERVER, 'v2-image-id-is-the-image',
           server('block_device_mapping_v2: [{image_id: cirros, volume_id: vol}]'),
           server('block_device_mapping_v2: [{image_id: cirros}]'),
           'Cannot define the following properties at the same time: volume_id, snapshot_id, '
           'image, swap_size, ephemeral_size, ephemeral_format.')
    + rule(SERVER, 'v2-ephemeral-and-volume',
           server('block_device_mapping_v2: [{volume_id: vol, ephemeral_format: ext4}]'),
           server('block_device_mapping_v2: [{volume_id: vol}, {ephemeral_format: ext4}]'),
           'Cannot define the following properties at the same time: volume_id, snapshot_id, '
           'image, swap_size, ephemeral_size, ephemeral_format.')
    # a swap size waiting on an attribute is 0, not None: a source
    + rule(SERVER, 'v2-swap-waiting-on-an-attribute',
           server('block_device_mapping_v2: [{volume_id: vol, swap_size: {get_attr: [other, size]}}]',
                  OTHER),
           server('block_device_mapping_v2: [{volume_id: vol}, {swap_size: {get_attr: [other, size]}}]',
                  OTHER),
           'Cannot define the following properties at the same time: volume_id, snapshot_id, '
           'image, swap_size, ephemeral_size, ephemeral_format.')
    + rule(SERVER, 'v2-no-source',
           server('block_device_mapping_v2: [{volume_id: vol}, {device_name: vdb}]'),
           server('block_device_mapping_v2: [{volume_id: vol}, {device_name: vdb, swap_size: 0}]'),
           'Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or ephemeral_format '
           'must be specified.')
    # an ephemeral size of 0 (waiting on an attribute) is no ephemeral disk
    # without a format; an image_id waiting is None (translation reads it raw)
    + rule(SERVER, 'v2-ephemeral-size-waiting-on-an-attribute',
           server('block_device_mapping_v2: [{volume_id: vol}, '
                  '{ephemeral_size: {get_attr: [other, size]}}]', OTHER),
           server('block_device_mapping_v2: [{volume_id: vol}, '
                  '{ephemeral_size: {get_attr: [other, size]}, ephemeral_format: ext4}]', OTHER),
           'Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or ephemeral_format '
           'must be specified.')
    + rule(SERVER, 'v2-image-id-waiting-on-an-attribute',
           server('block_device_mapping_v2: [{image_id: {get_attr: [other, size]}}]', OTHER),
           server('block_device_mapping_v2: [{image: {get_attr: [other, size]}}]', OTHER),
           'Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or ephemeral_format '
           'must be specified.')
    # -- metadata of a SOFTWARE_CONFIG server ---------------------------------------------
    + rule(SERVER, 'deployments-in-software-config-metadata', '''
        res:
          type: OS::Nova::Server
          properties: {flavor: m1.small, %s, user_data_format: SOFTWARE_CONFIG}
          metadata: {deployments: []}
        ''' % BOOT, '''
        res:
          type: OS::Nova::Server
          properties: {flavor: m1.small, %s, user_data_format: RAW}
          metadata: {deployments: []}
        ''' % BOOT, 'deployments key not allowed in resource metadata with user_data_format of '
                    'SOFTWARE_CONFIG')
    # user_data_format waiting on an attribute reads as its default
    + rule(SERVER, 'user-data-format-waiting-on-an-attribute', '''
        res:
          type: OS::Nova::Server
          properties: {flavor: m1.small, %s, user_data_format: SOFTWARE_CONFIG}
          metadata: {deployments: {get_attr: [other, size]}}
        ''' % BOOT + OTHER, '''
        res:
          type: OS::Nova::Server
          properties: {flavor: m1.small, %s, user_data_format: {get_attr: [other, size]}}
          metadata: {deployments: []}
        ''' % BOOT + OTHER, 'deployments key not allowed in resource metadata with '
                            'user_data_format of SOFTWARE_CONFIG')
    # -- networks ----------------------------------------------------------------------------
    + rule(SERVER, 'network-entry-names-no-network',
           networks('[{fixed_ip: 10.0.0.5}]'), networks('[{subnet: sub, fixed_ip: 10.0.0.5}]'),
           'One of the properties "network", "port", "allocate_network" or "subnet" should be set '
           'for the specified network of server "res".')
    # a network waiting on an attribute is empty, not None; uuid (Heat's
    # deprecated name of network) is read raw by the translation: None
    + rule(SERVER, 'network-waiting-on-an-attribute',
           networks('[{uuid: {get_attr: [other, size]}}]') + OTHER,
           networks('[{network: {get_attr: [other, size]}}]') + OTHER,
           'One of the properties "network", "port", "allocate_network" or "subnet" should be set '
           'for the specified network of server "res".')
    + rule(SERVER, 'allocate-network-with-other-keys',
           networks('[{allocate_network: auto, fixed_ip: 10.0.0.5}]'),
           networks('[{network: net, fixed_ip: 10.0.0.5}]'),
           'Can not specify "allocate_network" with other keys of networks at the same time.')
    # port_extra_properties waiting on an attribute is {}, not None: a key
    + rule(SERVER, 'allocate-network-with-keys-waiting',
           networks('[{allocate_network: none, port_extra_properties: {get_attr: [other, size]}}]')
           + OTHER,
           networks('[{network: net, port_extra_properties: {get_attr: [other, size]}}]') + OTHER,
           'Can not specify "allocate_network" with other keys of networks at the same time.')
    + rule(SERVER, 'allocate-network-among-several',
           networks('[{allocate_network: auto}, {network: net}]'),
           networks('[{network: net}, {network: net2}]'),
           'Property "allocate_network" can not be specified if multiple network interfaces set '
           'for server.', resource='res')
    + rule(SERVER, 'fixed-ip-and-port',
           networks('[{port: p1, fixed_ip: 10.0.0.5}]'),
           networks('[{port: p1, fixed_ip: {get_attr: [other, size]}}]') + OTHER,
           'Cannot define the following properties at the same time: networks/fixed_ip, '
           'networks/port.')
    + rule(SERVER, 'floating-ip-with-a-network-only',
           networks('[{network: net, floating_ip: fip}]'),
           networks('[{network: net, subnet: sub, floating_ip: fip}]'),
           'Property "floating_ip" is not supported if only "network" is specified, because the '
           'corresponding port can not be retrieved.')
    + rule(SERVER, 'floating-ip-with-port-extra-properties',
           networks('[{uuid: net, floating_ip: fip}]'),
           networks('[{network: net, floating_ip: fip, port_extra_properties: {mac_address: '
                    '"fa:16:3e:00:00:01"}}]'),
           'Property "floating_ip" is not supported if only "network" is specified, because the '
           'corresponding port can not be retrieved.')
    + rule(SERVER, 'port-and-security-groups',
           networks('[{port: p1}]', ', security_groups: [default]'),
           networks('[{network: net}]', ', security_groups: [default]'),
           'Cannot define the following properties at the same time: security_groups, '
           'networks/port.')
    # a port waiting on an attribute is a port; security groups waiting, none
    + rule(SERVER, 'port-and-security-groups-waiting',
           networks('[{port: {get_attr: [other, size]}}]', ', security_groups: [default]') + OTHER,
           networks('[{port: p1}]', ', security_groups: {get_attr: [other, size]}') + OTHER,
           'Cannot define the following properties at the same time: security_groups, '
           'networks/port.')
)
