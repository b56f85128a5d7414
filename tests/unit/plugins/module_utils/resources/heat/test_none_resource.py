# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.none_resource import NoneResource

TYPE = 'OS::Heat::None'


def test_any_properties_a_uuid_id_and_none_attributes():
    assert PLUGINS[TYPE] is NoneResource
    ctx = ResourceContext(name='n', type_name=TYPE, physical_name='s-n-abc',
                          properties=effective_properties(TYPE, {'anything': [1], 'x': 'y'}))
    plugin = NoneResource()
    pid = plugin.create(ctx)
    assert str(uuid.UUID(pid)) == pid and pid != 's-n-abc'
    ctx.physical_id = pid
    assert plugin.reference_id(ctx) == pid
    assert plugin.attributes(ctx, plugin.show(ctx)) == {'show': None}
    plugin.check(ctx)
    assert plugin.delete(ctx) is None and plugin.check_delete_complete(ctx)


def test_never_updated_nor_replaced():
    ctx = ResourceContext(name='n', type_name=TYPE, properties={'x': 2}, old_properties={'x': 1},
                          changed={'x'})
    assert NoneResource().needs_replace(ctx) is False
    assert NoneResource.never_update is True
