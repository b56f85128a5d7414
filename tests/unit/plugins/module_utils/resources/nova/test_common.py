# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nova/common.py: name lookups, once per run."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import pytest
from openstack.compute.v2 import server as _server

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import common

from .conftest import IMG, Obj


def test_image_and_flavor_names_are_looked_up_once_per_run(conn):
    conn.image.images.return_value = [Obj(id=IMG, name='cirros')]
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny'), Obj(id='2', name='m1.small')]
    for _i in range(3):
        assert common.image_id(conn, 'cirros') == IMG
        assert common.flavor_id(conn, 'm1.tiny') == '1'
        assert common.flavor_id(conn, '2') == '2'
    assert conn.image.images.call_count == 1 and conn.compute.flavors.call_count == 1
    assert common.image_id(conn, IMG) == IMG and conn.image.images.call_count == 1


def test_a_flavor_missing_from_the_runs_list_is_listed_again(conn):
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny')]
    assert common.flavor_id(conn, 'm1.tiny') == '1'
    # the stack made a flavor since the list was read
    conn.compute.flavors.return_value = [Obj(id='1', name='m1.tiny'), Obj(id='9', name='custom')]
    assert common.flavor_id(conn, 'custom') == '9'
    assert conn.compute.flavors.call_count == 2
    with pytest.raises(ResourceFailure):
        common.flavor_id(conn, 'nope')


def test_a_servers_image_and_flavor_show_what_the_api_sent_not_every_field_of_the_sdks_classes():
    body = {'id': 's1', 'name': 'web', 'status': 'ACTIVE', 'key_name': None, 'metadata': {},
            'image': {'id': 'img1', 'links': [{'href': 'h', 'rel': 'bookmark'}]},
            'flavor': {'vcpus': 1, 'ram': 512, 'disk': 1, 'ephemeral': 0, 'swap': 0,
                       'original_name': 'm1.tiny', 'extra_specs': {}}}
    view = common.as_dict(_server.Server.existing(**body))
    assert view['image']['id'] == 'img1'
    assert not [key for key in view['image'] if key.startswith('hw_')]
    assert None not in view['image'].values() and None not in view['flavor'].values()
    assert view['flavor']['original_name'] == 'm1.tiny' and view['flavor']['ram'] == 512
    assert 'key_name' in view and view['key_name'] is None   # the server's own nulls stay
