# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/structured_deployment.py: the inputs substituted into the
structured config of the entry the agent reads, input_key, LAX and STRICT."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import Peer  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _deploy_document as doc  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import structured_deployment as mod  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_software  # noqa: E402

CONFIG = {'files': {'/etc/a': {'content': {'get_input': 'who'}}},
          'action': [{'get_input': 'deploy_action'}], 'keep': {'get_input': 'who', 'x': 1},
          'other': {'my_input': 'who'}}


def _setup(props):
    conn, swift, proxy = swift_fake.cloud('k')
    cfg = swift_fake.ctx('OS::Heat::StructuredConfig', {'config': CONFIG}, conn, name='cfg')
    cfg.physical_id = PLUGINS['OS::Heat::StructuredConfig']().create(cfg)
    server = swift_fake.ctx('OS::Nova::Server', {'image': 'i', 'flavor': 'f',
                                                 'user_data_format': 'SOFTWARE_CONFIG'}, conn, name='srv')
    server_software.user_data(server)
    peers = {cfg.physical_id: cfg, 'sid-1': server}

    def lookup(pid):
        c = peers.get(pid)
        return Peer(c.name, c.type_name, pid, c.physical_name, c.data) if c else None
    base = {'config': cfg.physical_id, 'server': 'sid-1', 'signal_transport': 'NO_SIGNAL',
            'input_values': {'who': 'me'}}
    base.update(props)
    ctx = swift_fake.ctx('OS::Heat::StructuredDeployment', base, conn, name='d', lookup=lookup)
    container, obj = server.data[doc.WHERE_KEY]
    return ctx, lambda: json.loads(swift.containers[container]['objects'][obj][0])


def test_inputs_are_substituted_where_the_config_asks():
    ctx, document = _setup({})
    ctx.physical_id = PLUGINS['OS::Heat::StructuredDeployment']().create(ctx)
    [entry] = document()['deployments']
    assert entry['config'] == {'files': {'/etc/a': {'content': 'me'}}, 'action': ['CREATE'],
                               'keep': {'get_input': 'who', 'x': 1}, 'other': {'my_input': 'who'}}


def test_input_key_names_the_function_and_strict_refuses_a_missing_input():
    ctx, document = _setup({'input_key': 'my_input'})
    ctx.physical_id = PLUGINS['OS::Heat::StructuredDeployment']().create(ctx)
    assert document()['deployments'][0]['config']['other'] == 'me'
    assert mod.parse({}, 'get_input', {'a': {'get_input': 'nope'}}) == {'a': None}
    with pytest.raises(ResourceFailure, match=r'^The Parameter \(nope\) was not provided.$'):
        mod.parse({}, 'get_input', {'a': {'get_input': 'nope'}}, strict=True)
