# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""preflight: the cloud-backed checks of resources, before any write."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run.preflight import preflight
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError

TEMPLATE = '''heat_template_version: 2018-08-31
parameters:
  key: {type: string, default: ''}
resources:
  v: {type: OS::Heat::Value, properties: {value: 1}}
  kp:
    type: OS::Nova::KeyPair
    properties:
      name: k
      public_key: {get_param: key}
'''


class _EndpointData(object):
    max_microversion = (2, 96)


def _conn():
    conn = mock.MagicMock()
    conn.compute.get_endpoint_data.return_value = _EndpointData()
    return conn


def _sd(tmp_path, params=None, text=TEMPLATE):
    path = tmp_path / 'kp.yaml'
    path.write_text(text)
    return defs.build(defs.read_inputs(str(path), (), params or {}, None), 'st', stack_id='id')


def test_a_refusal_names_the_resource_property_and_line(tmp_path):
    sd = _sd(tmp_path)
    with pytest.raises(TemplateError) as err:
        preflight(sd, _conn())
    assert err.value.path == ('resources', 'kp', 'properties', 'public_key')
    assert str(err.value).endswith('resources.kp.properties.public_key: The public_key property is '
                                   'required by the nova API version currently used.')
    assert err.value.line == 10


def test_a_given_key_passes_and_asks_the_cloud_nothing(tmp_path):
    conn = _conn()
    preflight(_sd(tmp_path, {'key': 'ssh-ed25519 AAA'}), conn)
    assert conn.compute.get_endpoint_data.call_count == 0    # any Nova takes a given key


def test_stacks_without_such_types_ask_nothing(tmp_path):
    conn = _conn()
    preflight(_sd(tmp_path, text=TEMPLATE.split('  kp:', maxsplit=1)[0]), conn)
    assert conn.mock_calls == []


def test_no_cloud_checks_nothing(tmp_path, monkeypatch):
    # the template the first test sees refused: with no cloud, neither the key pair's check
    # nor the record is asked, and nothing is refused
    asked = []
    keypair = registry.PLUGINS['OS::Nova::KeyPair']
    assert keypair.has_preflight
    monkeypatch.setattr(keypair, 'preflight', lambda self, conn, props: asked.append(props) or
                        ('public_key', 'refused'))
    sd = _sd(tmp_path)
    assert preflight(sd, None, recorded=lambda: asked.append('record') or frozenset()) is None
    assert asked == []
    with pytest.raises(TemplateError):       # the same stack with a cloud is checked
        preflight(sd, _conn())
    assert len(asked) == 1


def test_the_runner_refuses_before_any_write(tmp_path):
    conn = _conn()
    path = tmp_path / 'kp.yaml'
    path.write_text(TEMPLATE)
    request = runner.StackRequest('st', template=str(path), store_path=str(tmp_path / 's.sqlite'))
    with pytest.raises(TemplateError):
        runner.run(request, conn)
    assert [c for c in conn.mock_calls if 'create' in str(c)] == []
    assert runner.open_store(str(tmp_path / 's.sqlite')).get_stack('st') is None


def test_resources_the_record_holds_are_not_asked_again(tmp_path):
    conn = _conn()
    preflight(_sd(tmp_path), conn, recorded=lambda: frozenset(['kp']))
    assert conn.mock_calls == []


def test_the_record_is_read_only_for_a_type_with_a_check(tmp_path):
    asked = []
    preflight(_sd(tmp_path, text=TEMPLATE.split('  kp:', maxsplit=1)[0]), _conn(),
              recorded=lambda: asked.append(1) or frozenset())
    assert asked == []
    preflight(_sd(tmp_path, {'key': 'ssh-ed25519 AAA'}), _conn(),
              recorded=lambda: asked.append(1) or frozenset())
    assert asked == [1]


def test_a_rerun_does_not_ask_again(tmp_path):
    path = tmp_path / 'kp.yaml'
    path.write_text(TEMPLATE)
    store = str(tmp_path / 's.sqlite')

    def run():
        conn = _conn()
        conn.compute.create_keypair.return_value = mock.Mock(name='k', public_key='ssh-ed25519 A',
                                                             private_key=None)
        conn.compute.create_keypair.return_value.name = 'k'
        request = runner.StackRequest('st', template=str(path), store_path=store,
                                      parameters={'key': 'ssh-ed25519 A'})
        result = runner.run(request, conn)
        return result, conn
    created, conn = run()
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE', created['stack']
    assert conn.compute.get_endpoint_data.call_count >= 1
    again, conn = run()
    assert again['changed'] is False
    assert conn.compute.get_endpoint_data.call_count == 0
