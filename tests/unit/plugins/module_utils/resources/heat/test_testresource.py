# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _waiting
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

TYPE = 'OS::Heat::TestResource'


def _ctx(props, **kw):
    return ResourceContext(name='t', type_name=TYPE, physical_name='s-t-abc',
                           properties=effective_properties(TYPE, props), **kw)


def _rewind(ctx, seconds):
    ctx.data['wait']['started'] -= seconds


def test_create_stores_value_at_once_without_wait():
    assert PLUGINS[TYPE] is TestResource
    ctx = _ctx({'value': 'hello'})
    plugin = TestResource()
    ctx.physical_id = plugin.create(ctx)
    assert ctx.physical_id == 's-t-abc'
    assert plugin.check_create_complete(ctx) is True
    assert plugin.attributes(ctx, {}) == {'output': 'hello', 'show': None}
    assert plugin.reference_id(ctx) == 's-t-abc'
    plugin.check(ctx)


def test_waiting_is_polled_against_a_deadline(monkeypatch):
    ctx = _ctx({'wait_secs': 5, 'action_wait_secs': {'create': 30}})
    plugin = TestResource()

    def sleep(seconds):
        raise AssertionError('slept %ss' % seconds)
    with monkeypatch.context() as patched:
        patched.setattr(time, 'sleep', sleep)             # never sleeps: it is polled
        plugin.create(ctx)
        assert plugin.check_create_complete(ctx) is False
    assert ctx.data['wait']['seconds'] == 30           # the action's own wait wins
    _rewind(ctx, 29)
    assert plugin.check_create_complete(ctx) is False
    _rewind(ctx, 2)
    assert plugin.check_create_complete(ctx) is True
    plugin.delete(ctx)
    assert ctx.data['wait']['seconds'] == 5            # global wait_secs for delete
    assert plugin.check_delete_complete(ctx) is False


def test_negative_wait_never_ends():
    ctx = _ctx({'wait_secs': -1})
    TestResource().create(ctx)
    _rewind(ctx, 10 ** 6)
    assert TestResource().check_create_complete(ctx) is False


def test_fail_fails_create_with_heats_message_and_no_id():
    ctx = _ctx({'fail': True}, action='CREATE')
    plugin = TestResource()
    assert plugin.create(ctx) is None
    assert 'value' not in ctx.data
    with pytest.raises(ResourceFailure) as exc:
        plugin.check_create_complete(ctx)
    assert str(exc.value) == 'Test Resource failed t'
    with pytest.raises(ResourceFailure) as exc:
        plugin.check(ctx)
    assert 'Resource not created' in str(exc.value)
    assert plugin.reference_id(ctx) == 't'
    plugin.delete(ctx)
    assert plugin.check_delete_complete(ctx) is True    # delete never fails


def test_update_replace_only_when_value_changes():
    plugin = TestResource()
    ctx = _ctx({'value': 'b', 'update_replace': True}, changed={'value'})
    assert plugin.needs_replace(ctx) is True
    ctx = _ctx({'value': 'b', 'update_replace': True, 'wait_secs': 3}, changed={'wait_secs'})
    assert plugin.needs_replace(ctx) is False


def test_update_in_place_stores_the_new_value_and_waits():
    plugin = TestResource()
    ctx = _ctx({'value': 'a'})
    ctx.physical_id = plugin.create(ctx)
    ctx.properties = effective_properties(TYPE, {'value': 'b', 'action_wait_secs': {'update': 2}})
    ctx.changed = frozenset(['value', 'action_wait_secs'])
    plugin.update(ctx)
    assert ctx.data['value'] == 'b'
    assert plugin.check_update_complete(ctx) is False
    _rewind(ctx, 3)
    assert plugin.check_update_complete(ctx) is True
    # without a value change there is no wait
    ctx.changed = frozenset(['action_wait_secs'])
    plugin.update(ctx)
    assert plugin.check_update_complete(ctx) is True


def test_update_with_fail_keeps_the_old_value_and_fails():
    plugin = TestResource()
    ctx = _ctx({'value': 'a'}, action='UPDATE')
    ctx.physical_id = plugin.create(ctx)
    ctx.properties = effective_properties(TYPE, {'value': 'b', 'fail': True})
    ctx.changed = frozenset(['value', 'fail'])
    plugin.update(ctx)
    assert ctx.data['value'] == 'a'
    with pytest.raises(ResourceFailure):
        plugin.check_update_complete(ctx)


def test_wait_state_is_json_plain():
    ctx = _ctx({'wait_secs': 1})
    TestResource().create(ctx)
    assert set(ctx.data['wait']) == {'started', 'seconds'}
    assert _waiting.elapsed(ctx)[1] == 1


def test_heat_resource_data_is_heats_value_key():
    assert TestResource().heat_resource_data(ResourceContext(data={'value': 'v'})) == {'value': 'v'}
    assert TestResource().heat_resource_data(ResourceContext()) == {}
