# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/software_deployment.py against a fake Swift: the derived
config written to the server's document, the signal applied with Heat's
rules, NO_SIGNAL, replace_on_change, DELETE in ``actions`` and the cleanup."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import uuid

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import Peer  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _deploy_document as doc  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import software_deployment as mod  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_software  # noqa: E402

SD = 'OS::Heat::SoftwareDeployment'
SERVER_ID = 'srv-uuid'
CONFIG_PROPS = {'group': 'script', 'config': '#!/bin/sh\necho hi\n',
                'inputs': [{'name': 'who'}, {'name': 'token', 'replace_on_change': True},
                           {'name': 'n', 'type': 'Number', 'default': 3}],
                'outputs': [{'name': 'result'}, {'name': 'oops', 'error_output': True}]}


class World(object):
    """A fake Swift, a config row and a server row with its document."""

    def __init__(self):
        self.conn, self.swift, self.proxy = swift_fake.cloud('k')
        cfg = PLUGINS['OS::Heat::SoftwareConfig']()
        self.config = swift_fake.ctx('OS::Heat::SoftwareConfig', CONFIG_PROPS, self.conn,
                                     name='config')
        self.config.physical_id = cfg.create(self.config)
        self.server = swift_fake.ctx('OS::Nova::Server', {'image': 'i', 'flavor': 'f',
                                                          'user_data_format': 'SOFTWARE_CONFIG'},
                                     self.conn, name='server')
        self.user_data = server_software.user_data(self.server)
        self.peers = {self.config.physical_id: self.config, SERVER_ID: self.server}

    def lookup(self, physical_id):
        c = self.peers.get(physical_id)
        return Peer(c.name, c.type_name, physical_id, c.physical_name, c.data) if c else None

    def deployment(self, name='deploy', **props):
        base = {'config': self.config.physical_id, 'server': SERVER_ID,
                'signal_transport': 'TEMP_URL_SIGNAL',
                'input_values': {'who': 'me', 'token': 't1', 'extra': [1]}}
        base.update(props)
        ctx = swift_fake.ctx(SD, base, self.conn, name=name, lookup=self.lookup)
        return ctx

    def document(self):
        container, obj = self.server.data[doc.WHERE_KEY]
        return json.loads(self.swift.containers[container]['objects'][obj][0])

    def signal(self, ctx, body):
        self.swift.put('sid', ctx.physical_name, body if isinstance(body, str) else json.dumps(body))


@pytest.fixture
def world():
    return World()


def _inputs(entry):
    return dict((i['name'], i['value']) for i in entry['inputs'])


def test_create_writes_heats_derived_config_and_waits_for_the_signal(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment()
    ctx.physical_id = plugin.create(ctx)
    uuid.UUID(ctx.physical_id)
    [entry] = world.document()['deployments']
    assert entry['group'] == 'script' and entry['config'] == CONFIG_PROPS['config']
    assert entry['name'] == world.config.physical_name
    assert [i['name'] for i in entry['inputs']] == [
        'who', 'token', 'n', 'extra', 'deploy_server_id', 'deploy_action', 'deploy_stack_id',
        'deploy_resource_name', 'deploy_signal_transport', 'deploy_signal_id', 'deploy_signal_verb']
    values = _inputs(entry)
    assert values['n'] == 3 and values['extra'] == [1] and values['token'] == 't1'
    assert values['deploy_action'] == 'CREATE' and values['deploy_stack_id'] == 's/sid'
    assert values['deploy_server_id'] == SERVER_ID and values['deploy_resource_name'] == 'deploy'
    assert values['deploy_signal_verb'] == 'PUT'
    assert values['deploy_signal_id'] == ctx.data['signal_url']
    assert entry['outputs'][1] == {'name': 'oops', 'type': 'String', 'error_output': True}
    assert entry['deployment_key'] == ctx.physical_id
    assert plugin.check_create_complete(ctx) is False
    # what the agent's PUT to the TempURL leaves in Swift
    world.signal(ctx, {'deploy_stdout': 'out', 'deploy_stderr': '', 'deploy_status_code': 0,
                       'result': 'done'})
    assert plugin.check_create_complete(ctx) is True
    attrs = plugin.attributes(ctx, None)
    assert attrs['result'] == 'done' and attrs['deploy_stdout'] == 'out'
    assert attrs['deploy_status_code'] == 0 and attrs['oops'] is None


def test_non_zero_status_fails_with_heats_reason(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment()
    ctx.physical_id = plugin.create(ctx)
    world.signal(ctx, {'deploy_stdout': '', 'deploy_stderr': 'boom\n', 'deploy_status_code': 3})
    with pytest.raises(ResourceFailure) as err:
        plugin.check_create_complete(ctx)
    assert str(err.value) == ('Deployment to server failed: deploy_status_code : Deployment '
                              'exited with non-zero status code: 3')
    assert err.value.details['kind'] == 'Error'
    assert plugin.attributes(ctx, None)['deploy_stderr'] == 'boom\n'


def test_error_output_fails_and_bad_json_is_a_failure_not_a_crash(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment()
    ctx.physical_id = plugin.create(ctx)
    world.signal(ctx, {'deploy_status_code': 0, 'oops': 'it broke'})
    with pytest.raises(ResourceFailure, match='failed: oops : it broke$'):
        plugin.check_create_complete(ctx)
    other = world.deployment(name='other')
    other.physical_id = plugin.create(other)
    world.signal(other, 'not json')
    with pytest.raises(ResourceFailure, match='Failed to parse JSON data: not json'):
        plugin.check_create_complete(other)


def test_no_signal_completes_at_once_and_update_rewrites_its_entry(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment(signal_transport='NO_SIGNAL')
    ctx.physical_id = plugin.create(ctx)
    assert plugin.check_create_complete(ctx) is True
    first = world.document()['deployments'][0]
    assert 'deploy_signal_id' not in _inputs(first)
    ctx.properties['input_values'] = {'who': 'you', 'token': 't1'}
    plugin.update(ctx)
    assert plugin.check_update_complete(ctx) is True
    [entry] = world.document()['deployments']
    assert entry['id'] != first['id']    # a new derived config: the agent runs it again
    assert _inputs(entry)['deploy_action'] == 'UPDATE' and _inputs(entry)['who'] == 'you'


def test_update_waits_for_a_new_signal_not_the_create_one(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment()
    ctx.physical_id = plugin.create(ctx)
    world.signal(ctx, {'deploy_status_code': 0, 'result': 'one'})
    assert plugin.check_create_complete(ctx) is True
    plugin.update(ctx)
    assert plugin.check_update_complete(ctx) is False
    world.signal(ctx, {'deploy_status_code': 0, 'result': 'two'})
    assert plugin.check_update_complete(ctx) is True
    assert plugin.attributes(ctx, None)['result'] == 'two'


def test_two_deployments_share_the_document_sorted_by_name(world):
    plugin = PLUGINS[SD]()
    b = world.deployment(name='b', signal_transport='NO_SIGNAL')
    b.properties['name'] = 'zz'
    b.physical_id = plugin.create(b)
    a = world.deployment(name='a', signal_transport='NO_SIGNAL')
    a.properties['name'] = 'aa'
    a.physical_id = plugin.create(a)
    assert [e['name'] for e in world.document()['deployments']] == ['aa', 'zz']
    plugin.delete(a)
    assert plugin.check_delete_complete(a) is True
    assert [e['name'] for e in world.document()['deployments']] == ['zz']


def test_replace_on_change_compares_the_inputs_that_replace(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment(signal_transport='NO_SIGNAL')
    ctx.physical_id = plugin.create(ctx)
    old = dict(ctx.properties)
    ctx.old_properties = old
    ctx.properties = dict(old, input_values={'who': 'other', 'token': 't1'})
    assert plugin.needs_replace(ctx) is False
    ctx.properties = dict(old, input_values={'who': 'me', 'token': 't2'})
    assert plugin.needs_replace(ctx) is True


def test_delete_runs_the_delete_action_when_asked_then_leaves_nothing(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment(actions=['CREATE', 'UPDATE', 'DELETE'])
    ctx.physical_id = plugin.create(ctx)
    world.signal(ctx, {'deploy_status_code': 0})
    assert plugin.check_create_complete(ctx) is True
    # a delete sees the record's masked properties: the clear values are in data
    ctx.properties = dict(ctx.properties, input_values={'who': '***'})
    plugin.delete(ctx)
    [entry] = world.document()['deployments']
    assert _inputs(entry)['deploy_action'] == 'DELETE' and _inputs(entry)['who'] == 'me'
    assert plugin.check_delete_complete(ctx) is False
    world.signal(ctx, {'deploy_status_code': 0})
    assert plugin.check_delete_complete(ctx) is True
    assert world.document()['deployments'] == []
    assert world.swift.objects('sid') is None      # the handle and its container are gone


def test_delete_without_delete_action_removes_the_entry_at_once(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment()
    ctx.physical_id = plugin.create(ctx)
    plugin.delete(ctx)
    assert plugin.check_delete_complete(ctx) is True
    assert world.document()['deployments'] == []


def test_a_server_without_document_fails_a_signalled_deployment(world):
    plugin = PLUGINS[SD]()
    ctx = world.deployment(server='elsewhere')
    with pytest.raises(ResourceFailure, match='has no deployments document'):
        plugin.create(ctx)
    quiet = world.deployment(server='elsewhere', signal_transport='NO_SIGNAL')
    quiet.physical_id = plugin.create(quiet)
    assert plugin.check_create_complete(quiet) is True


def test_unknown_config_fails_and_the_schema_default_means_temp_url(world):
    plugin = PLUGINS[SD]()
    with pytest.raises(ResourceFailure, match='Software config nope not found'):
        plugin.create(world.deployment(config='nope'))
    assert mod.transport({'signal_transport': 'CFN_SIGNAL'}) == 'TEMP_URL_SIGNAL'
    assert mod.transport({'signal_transport': 'NO_SIGNAL'}) == 'NO_SIGNAL'


def test_the_server_delete_removes_its_document(world):
    container, obj = world.server.data[doc.WHERE_KEY]
    assert obj in world.swift.objects(container)
    server_software.delete(world.server)
    assert world.swift.objects(container) is None
