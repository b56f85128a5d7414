# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/signal_handles.py: what each handle makes, its attributes
and reference id per transport, an interrupted create found again, and its
delete taking every version of its object."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import signal_handles as mod  # noqa: E402

TYPES = ('OS::Heat::SwiftSignalHandle', 'OS::Heat::WaitConditionHandle',
         'AWS::CloudFormation::WaitConditionHandle', 'OS::Heat::UpdateWaitConditionHandle')


def _made(type_name, props=None, key=None):
    conn, swift, proxy = swift_fake.cloud(key)
    ctx = swift_fake.ctx(type_name, props or {}, conn, name='h')
    plugin = PLUGINS[type_name]()
    ctx.physical_id = plugin.create(ctx)
    assert plugin.check_create_complete(ctx) is True
    return plugin, ctx, swift, proxy


@pytest.mark.parametrize('type_name', TYPES)
def test_registered_and_every_handle_is_an_object_of_the_stacks_container(type_name):
    assert PLUGINS[type_name].__module__ == mod.__name__
    plugin, ctx, swift, proxy = _made(type_name)
    assert ctx.physical_id == 's-h-x'
    assert swift.objects('sid') == ['s-h-x']
    assert ctx.data['url'].startswith(swift_fake.ENDPOINT + '/sid/s-h-x?temp_url_sig=')
    assert set(plugin.attributes(ctx, None)) >= set(plugin.heat_type().attributes)


def test_swift_signal_handle_attributes_and_reference_are_heats():
    plugin, ctx, swift, proxy = _made('OS::Heat::SwiftSignalHandle')
    url = ctx.data['url']
    assert plugin.attributes(ctx, None) == {'token': '', 'endpoint': url,
                                            'curl_cli': "curl -i -X PUT '%s'" % url, 'show': None}
    assert plugin.reference_id(ctx) == url


def test_wait_condition_handle_default_stands_for_a_temp_url():
    plugin, ctx, swift, proxy = _made('OS::Heat::WaitConditionHandle')
    url = ctx.data['url']
    attrs = plugin.attributes(ctx, None)
    assert attrs['endpoint'] == url and attrs['token'] == ''
    assert attrs['curl_cli'] == "curl -i -X PUT '%s'" % url
    assert json.loads(attrs['signal']) == {'alarm_url': url}
    assert plugin.reference_id(ctx) == 's-h-x'


def test_wait_condition_handle_temp_url_signal_has_heats_attributes():
    plugin, ctx, swift, proxy = _made('OS::Heat::WaitConditionHandle',
                                      {'signal_transport': 'TEMP_URL_SIGNAL'})
    attrs = plugin.attributes(ctx, None)
    assert (attrs['endpoint'], attrs['token'], attrs['curl_cli']) == (None, None, None)
    assert json.loads(attrs['signal']) == {'alarm_url': ctx.data['url']}


def test_no_signal_makes_nothing_and_says_so_in_its_reference():
    plugin, ctx, swift, proxy = _made('OS::Heat::WaitConditionHandle', {'signal_transport': 'NO_SIGNAL'})
    assert proxy.requests == [] and 'url' not in ctx.data
    assert plugin.reference_id(ctx) == 'NO_SIGNAL:s-h-x'
    assert json.loads(plugin.attributes(ctx, None)['signal']) == {}
    plugin.delete(ctx)
    assert proxy.requests == []


@pytest.mark.parametrize('transport', ['HEAT_SIGNAL', 'ZAQAR_SIGNAL', 'CFN_SIGNAL'])
def test_transports_needing_a_heat_api_fail_before_any_request(transport):
    conn, swift, proxy = swift_fake.cloud()
    ctx = swift_fake.ctx('OS::Heat::WaitConditionHandle', {'signal_transport': transport}, conn)
    with pytest.raises(ResourceFailure) as err:
        PLUGINS['OS::Heat::WaitConditionHandle']().create(ctx)
    assert 'TEMP_URL_SIGNAL' in str(err.value) and transport in str(err.value)
    assert proxy.requests == []


@pytest.mark.parametrize('type_name', ['AWS::CloudFormation::WaitConditionHandle',
                                       'OS::Heat::UpdateWaitConditionHandle'])
def test_aws_handles_reference_their_temp_url(type_name):
    plugin, ctx, swift, proxy = _made(type_name)
    assert plugin.reference_id(ctx) == ctx.data['url']
    assert plugin.attributes(ctx, None) == {'show': None}


def test_only_the_update_handle_is_replaced_by_every_stack_update():
    assert PLUGINS['OS::Heat::UpdateWaitConditionHandle'].replace_on_stack_update is True
    assert not getattr(PLUGINS['AWS::CloudFormation::WaitConditionHandle'], 'replace_on_stack_update', False)


def test_an_interrupted_create_is_found_and_finished():
    plugin, ctx, swift, proxy = _made('OS::Heat::SwiftSignalHandle')
    assert plugin.find(ctx) == 's-h-x'
    ctx.data.clear()
    assert plugin.check_create_complete(ctx) is True and ctx.data['url']
    swift.containers.clear()
    assert plugin.find(ctx) is None


def test_delete_takes_every_version_and_the_emptied_container():
    plugin, ctx, swift, proxy = _made('OS::Heat::WaitConditionHandle')
    for body in ('{}', '{"id": 2}', '{"status": "FAILURE"}'):
        swift.put('sid', 's-h-x', body)
    plugin.delete(ctx)
    assert plugin.check_delete_complete(ctx) is True
    assert swift.objects('sid') is None
    assert 'url' not in ctx.data


def test_heat_resource_data_of_the_handles():
    url = 'https://swift/v1/AUTH_x/c/o?temp_url_sig=s'
    ctx = ResourceContext(data={mod.URL: url}, physical_id='st-h-x')
    assert mod.SwiftSignalHandle().heat_resource_data(ctx) == {'endpoint': url}
    ctx = ResourceContext(data={mod.URL: url}, physical_id='st-h-x',
                          properties={'signal_transport': 'TEMP_URL_SIGNAL'})
    assert mod.WaitConditionHandle().heat_resource_data(ctx) == {
        'swift_signal_url': url, 'swift_signal_object_name': 'st-h-x'}
    # TOKEN_SIGNAL's data is a Keystone user's token in Heat: nothing of it here
    ctx = ResourceContext(data={mod.URL: url}, physical_id='st-h-x')
    assert mod.WaitConditionHandle().heat_resource_data(ctx) == {}
