# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid
from unittest import mock

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext

T = 'OS::Glance::Image'

TEMPLATE = """heat_template_version: 2021-04-16
resources:
  old:
    type: OS::Glance::Image
    properties: {location: 'http://example.com/x.img', disk_format: qcow2, whatever: 1}
outputs:
  show: {value: {get_attr: [old, show]}}
"""


def test_heat_27_keeps_it_as_a_hidden_placeholder():
    plugin = PLUGINS[T]
    assert plugin.heat_type().status == 'HIDDEN' and plugin.heat_type().is_none
    assert plugin.never_update


def test_it_makes_nothing_in_the_cloud():
    conn = mock.MagicMock()
    ctx = ResourceContext(conn=conn, stack_id='sid', stack_name='s', name='old', type_name=T,
                          properties={'location': 'x'})
    plugin = PLUGINS[T]()
    ctx.physical_id = plugin.create(ctx)
    assert str(uuid.UUID(ctx.physical_id)) == ctx.physical_id
    assert plugin.check_create_complete(ctx) is True
    assert plugin.attributes(ctx, plugin.show(ctx)) == {'show': None}
    plugin.delete(ctx)
    assert conn.mock_calls == []


def test_any_property_validates_and_the_type_is_supported():
    answer = validation.validate_template(TEMPLATE, strict=True)
    assert answer['UnsupportedTypes'] == []
