# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/software_config.py: the config record kept in the row, in
Heat's shapes, its id a uuid, its ``config`` attribute."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import software_config as mod  # noqa: E402

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.http_fakes import ctx as make_ctx  # noqa: E402

T = 'OS::Heat::SoftwareConfig'


def test_the_record_holds_heats_config_and_makes_no_request():
    plugin = PLUGINS[T]()
    assert plugin.record_only
    inputs = [{'name': 'a'}, {'name': 'b', 'type': 'Number', 'default': 2, 'replace_on_change': True}]
    ctx = make_ctx(T, {'config': 'echo hi', 'inputs': inputs,
                       'outputs': [{'name': 'o', 'description': 'd'}]}, name='cfg')
    ctx.physical_id = plugin.create(ctx)
    uuid.UUID(ctx.physical_id)
    assert ctx.conn.method_calls == []
    assert ctx.data['config'] == {
        'id': ctx.physical_id, 'name': 's-cfg-x', 'group': 'Heat::Ungrouped', 'config': 'echo hi',
        'inputs': [{'name': 'a', 'type': 'String'},
                   {'name': 'b', 'type': 'Number', 'default': 2, 'replace_on_change': True}],
        'outputs': [{'name': 'o', 'type': 'String', 'error_output': False, 'description': 'd'}],
        'options': {}}
    attrs = plugin.attributes(ctx, None)
    assert attrs['config'] == 'echo hi' and attrs['show']['id'] == ctx.physical_id
    assert plugin.reference_id(ctx) == ctx.physical_id


def test_before_create_there_is_no_config():
    plugin = PLUGINS[T]()
    ctx = make_ctx(T, {'config': 'x'})
    assert plugin.attributes(ctx, None) == {'config': None, 'show': None}
    assert mod.io_input({'name': 'n', 'replace_on_change': False}) == {'name': 'n', 'type': 'String'}
