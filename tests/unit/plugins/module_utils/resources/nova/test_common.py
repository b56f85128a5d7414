# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nova/common.py: name lookups, once per run."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import pytest

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
