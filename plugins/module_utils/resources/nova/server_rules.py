# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rules of Heat 27's Server.validate() that the template decides,
in Heat's order: a SOFTWARE_CONFIG server's metadata, the block devices and
what the server boots from, each ``networks`` entry, ``allocate_network``
alone and explicit ports without ``security_groups``.

Heat decides the rest by asking Nova or Glance (the image's status and its
size against the flavor, the microversions behind ``allocate_network``,
``tag``, ``tags``, ``volume_type`` and ``personality``, the absolute limits
on metadata and personality): those are not rules here.

Values are read as Heat's properties give them while it validates (the
``props`` view): a value that waits on an attribute reads as its type's
zero, so counts as given where Heat tests ``is not None``.  Heat's
translation of the deprecated keys (a ``block_device_mapping_v2`` entry's
``image_id`` into ``image``, a network's ``uuid`` into ``network``) takes
the raw value, where one waiting on an attribute is None.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...hot import functions as fns
from ...hot.type_checks import conflict

_BDM = 'block_device_mapping'
_BDM_V2 = 'block_device_mapping_v2'
_V2_SOURCES = ('volume_id', 'snapshot_id', 'image', 'swap_size', 'ephemeral_size',
               'ephemeral_format')


def validate(given):
    props = given.props
    _software_config_metadata(given, props)
    _block_devices(given, props)
    props.get('flavor')     # read by Heat (its checks against the flavor ask Nova)
    networks = [_translated(net, raw, 'uuid', 'network')
                for net, raw in zip(props.get('networks') or [], _raw_list(given, 'networks'))]
    for index, net in enumerate(networks):
        _network(given, net, index)
    if any(net.get('allocate_network') for net in networks) and len(networks) != 1:
        given.fail('Property "allocate_network" can not be specified if multiple network '
                   'interfaces set for server.', 'networks')
    if any(net.get('port') is not None for net in networks) and props.get('security_groups'):
        given.fail(conflict('security_groups', 'networks/port'), 'security_groups')
    # Read by Heat for checks that ask Nova: a value of the wrong type is
    # refused by that read where nothing checked the values (a group's
    # member, type_checks.ReadView).
    for key in ('tags', 'metadata', 'personality'):
        props.get(key)


def _raw_list(given, key):
    """The entries of a list property as given (a value waiting on an
    attribute is None), beside the ``props`` view of the same entries."""
    value = given.data.get(key)
    return [item if isinstance(item, dict) else {} for item in value] \
        if isinstance(value, list) else []


def _translated(entry, raw, old, new):
    """Heat's REPLACE translation: ``old``'s value, when given, becomes
    ``new``'s (read raw, as Heat reads it)."""
    entry = dict(entry)
    if raw.get(old) is not None:
        entry[new] = raw[old]
    entry[old] = None
    return entry


def _software_config_metadata(given, props):
    if props.get('user_data_format') != 'SOFTWARE_CONFIG':
        return
    metadata = getattr(given.defn, 'metadata', None)
    metadata = fns.resolve(metadata) if metadata is not None else None
    if isinstance(metadata, dict) and 'deployments' in metadata:
        given.fail('deployments key not allowed in resource metadata with user_data_format of '
                   'SOFTWARE_CONFIG', 'user_data_format')


def _block_devices(given, props):
    bdm = props.get(_BDM) or []
    bdm_v2 = [_translated(m, raw, 'image_id', 'image')
              for m, raw in zip(props.get(_BDM_V2) or [], _raw_list(given, _BDM_V2))]
    image = props.get('image')
    if bdm and bdm_v2:
        given.fail(conflict(_BDM, _BDM_V2), _BDM)
    bootable = image is not None
    for index, mapping in enumerate(bdm):
        device = mapping.get('device_name')
        if device == 'vda':
            bootable = True
        volume, snapshot = mapping.get('volume_id'), mapping.get('snapshot_id')
        if volume is not None and snapshot is not None:
            given.fail(conflict('volume_id', 'snapshot_id'), _BDM, index)
        if volume is None and snapshot is None:
            given.fail('Either volume_id or snapshot_id must be specified for device mapping %s'
                       % device, _BDM, index)
    boot_sources = [image]
    for index, mapping in enumerate(bdm_v2):
        given_sources = [mapping.get(key) for key in _V2_SOURCES[:4]]
        # Heat counts the ephemeral disk once: a size of 0 (an attribute not
        # made yet) and no format is no ephemeral disk
        given_sources.append(mapping.get('ephemeral_size') or mapping.get('ephemeral_format'))
        count = len([value for value in given_sources if value is not None])
        if count > 1:
            given.fail(conflict(*_V2_SOURCES), _BDM_V2, index)
        if count == 0:
            given.fail('Either volume_id, snapshot_id, image_id, swap_size, ephemeral_size or '
                       'ephemeral_format must be specified.', _BDM_V2, index)
        disks = given_sources[:3]
        if any(disk is not None for disk in disks) and mapping.get('boot_index') in (None, 0):
            bootable = True
            boot_sources.extend(disks)
    if not bootable:
        given.fail('Neither image nor bootable volume is specified for instance %s'
                   % given.resource_name)
    if bdm_v2 and len([dev for dev in boot_sources if dev is not None]) != 1:
        given.fail('Multiple bootable sources for instance %s.' % given.resource_name, _BDM_V2)


def _network(given, net, index):
    here = ('networks', index)
    port = net.get('port')
    allocate = net.get('allocate_network')
    if (net.get('network') is None and port is None and net.get('subnet') is None
            and not allocate):
        given.fail('One of the properties "network", "port", "allocate_network" or "subnet" '
                   'should be set for the specified network of server "%s".'
                   % given.resource_name, *here)
    if allocate and len([key for key, value in net.items() if value is not None]) != 1:
        given.fail('Can not specify "allocate_network" with other keys of networks at the same '
                   'time.', *here)
    if net.get('fixed_ip') and port is not None:
        given.fail(conflict('networks/fixed_ip', 'networks/port'), *here)
    if (net.get('floating_ip') is not None and net.get('network') is not None and port is None
            and net.get('subnet') is None and not net.get('port_extra_properties')):
        given.fail('Property "floating_ip" is not supported if only "network" is specified, '
                   'because the corresponding port can not be retrieved.', *here)
