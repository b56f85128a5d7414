# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_build as sb

from .conftest import IMG


def test_user_data_raw_and_software_config_pass_through():
    for fmt in ('RAW', 'SOFTWARE_CONFIG'):
        out = sb.user_data({'user_data': '#cloud-config\n', 'user_data_format': fmt})
        assert base64.b64decode(out) == b'#cloud-config\n'
    assert sb.user_data({'user_data': ''}) is None


def test_meta_serialize():
    assert sb.meta_serialize({'a': 1, 'b': 'x', 'c': [1]}) == {'a': '1', 'b': 'x', 'c': '[1]'}


def test_bdm_v2_as_heat_builds_it(conn):
    out = sb.block_device_mapping_v2(conn, [
        {'volume_id': 'v1', 'delete_on_termination': True, 'device_name': 'vda'},
        {'image': IMG, 'volume_size': 2},
        {'swap_size': 1}])
    assert out[0] == {'uuid': 'v1', 'source_type': 'volume', 'destination_type': 'volume',
                      'boot_index': 0, 'delete_on_termination': True, 'device_name': 'vda'}
    assert out[1] == {'uuid': IMG, 'source_type': 'image', 'destination_type': 'volume',
                      'boot_index': 0, 'delete_on_termination': False, 'volume_size': 2}
    assert out[2]['guest_format'] == 'swap' and out[2]['boot_index'] == -1


def test_bdm_v1_converted():
    out = sb.block_device_mapping_v1([{'device_name': 'vda', 'volume_id': 'v', 'volume_size': 1}])
    assert out == [{'uuid': 'v', 'source_type': 'volume', 'destination_type': 'volume',
                    'device_name': 'vda', 'delete_on_termination': False, 'volume_size': 1,
                    'boot_index': 0}]
