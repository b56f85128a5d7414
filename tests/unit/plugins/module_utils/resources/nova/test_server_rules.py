# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Server.validate (server_rules.py) through strict validation: where each
refusal points.  Heat's verdicts are tests/conformance/type_rules/nova.py's."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition

HEAD = '''heat_template_version: 2018-08-31
resources:
  other: {type: OS::Cinder::Volume, properties: {size: 1}}
  srv:
    type: OS::Nova::Server
'''
BOOT = 'block_device_mapping_v2: [{volume_id: vol}]'


def _validate(properties):
    text = HEAD + '    properties: {flavor: f, %s}\n' % properties
    StackDefinition(text, type_rules=resources.type_rule).validate(strict=True)


@pytest.mark.parametrize('properties, path, message', [
    ('name: web', (), 'Neither image nor bootable volume is specified for instance srv'),
    ('block_device_mapping_v2: [{volume_id: v}, {snapshot_id: s}]', ('block_device_mapping_v2',),
     'Multiple bootable sources for instance srv.'),
    ('block_device_mapping: [{device_name: vda}]', ('block_device_mapping', 0),
     'Either volume_id or snapshot_id must be specified for device mapping vda'),
    ('block_device_mapping_v2: [{volume_id: v}, {image_id: i, swap_size: 1}]',
     ('block_device_mapping_v2', 1),
     'Cannot define the following properties at the same time: volume_id, snapshot_id, image, '
     'swap_size, ephemeral_size, ephemeral_format.'),
    (BOOT + ', networks: [{network: n}, {fixed_ip: 10.0.0.1}]', ('networks', 1),
     'One of the properties "network", "port", "allocate_network" or "subnet" should be set for '
     'the specified network of server "srv".'),
    (BOOT + ', networks: [{port: {get_attr: [other, size]}}], security_groups: [default]',
     ('security_groups',),
     'Cannot define the following properties at the same time: security_groups, networks/port.'),
])
def test_a_refusal_names_heats_message_and_the_property(properties, path, message):
    with pytest.raises(TemplateError) as err:
        _validate(properties)
    assert err.value.message == message
    assert err.value.path == ('resources', 'srv', 'properties') + path


@pytest.mark.parametrize('properties', [
    'image: {get_attr: [other, size]}',        # empty while it waits: boots the server
    'image: {get_attr: [other, size]}, block_device_mapping_v2: [{volume_id: v, boot_index: 1}]',
    BOOT + ', networks: [{uuid: u, subnet: s, floating_ip: f}]',
    BOOT + ', networks: [{port: p}], security_groups: {get_attr: [other, size]}',
])
def test_what_heat_accepts_passes(properties):
    _validate(properties)
