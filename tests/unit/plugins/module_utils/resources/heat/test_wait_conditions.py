# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/wait_conditions.py: Heat's rules for waits - count, the
`data` attribute's shape, FAILURE with its reason, a repeated id replacing,
early signals counting, the timeout's message, malformed bodies failing as
Heat fails them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import time

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.resource_tasks import failure_reason  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import wait_conditions as mod  # noqa: E402

OBJ = 's-h-abcdefghijkl'    # <stack>-<handle>-<12 random>


class Setup(object):
    """A handle's object in the fake Swift and a wait on it."""

    def __init__(self, type_name, count=2, timeout=60, handle='os'):
        self.conn, self.swift, self.proxy = swift_fake.cloud()
        from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import (
            _swift_signal)
        self.url = _swift_signal.make_handle(self.conn, 'sid', OBJ)
        ref = {'os': OBJ, 'url': self.url, 'none': 'NO_SIGNAL:' + OBJ}[handle]
        keys = ('Handle', 'Timeout', 'Count') if type_name.startswith('AWS') else \
            ('handle', 'timeout', 'count')
        props = dict(zip(keys, (ref, timeout, count)))
        self.plugin = PLUGINS[type_name]()
        self.ctx = swift_fake.ctx(type_name, props, self.conn, name='w')

    def signal(self, body):
        self.swift.put('sid', OBJ, body if isinstance(body, str) else json.dumps(body))

    def create(self):
        self.ctx.physical_id = self.plugin.create(self.ctx)

    def poll(self):
        return self.plugin.check_create_complete(self.ctx)

    def reason(self):
        with pytest.raises(ResourceFailure) as err:
            self.poll()
        return failure_reason(err.value, 'w')

    def data(self, key='data'):
        return json.loads(self.plugin.attributes(self.ctx, None)[key])


def test_registered_with_heats_schemas():
    assert PLUGINS['OS::Heat::WaitCondition'] is mod.WaitCondition
    assert PLUGINS['OS::Heat::SwiftSignal'] is mod.SwiftSignal
    assert PLUGINS['AWS::CloudFormation::WaitCondition'] is mod.AwsWaitCondition
    assert PLUGINS['OS::Heat::WaitCondition'].update_allowed('count')
    assert not PLUGINS['OS::Heat::SwiftSignal'].update_allowed('count')


def test_wait_condition_counts_two_signals_and_gives_heats_data():
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    assert s.poll() is False
    s.signal({'status': 'SUCCESS', 'data': 'one', 'id': 'a'})
    assert s.poll() is False
    s.signal({'data': 'two'})                     # defaults: id = size of the map + 1
    assert s.poll() is True
    assert s.data() == {'a': 'one', '2': 'two'}
    assert list(s.data()) == ['a', '2']


def test_a_repeated_id_replaces_the_earlier_signal():
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    s.signal({'id': 'x', 'data': 1})
    s.signal({'id': 'x', 'data': 2})
    assert s.poll() is False                      # still one signal
    s.signal({'id': 'y', 'data': 3})
    assert s.poll() is True
    assert s.data() == {'x': 2, 'y': 3}


def test_signals_sent_before_the_wait_started_count():
    s = Setup('OS::Heat::WaitCondition')
    s.signal({'data': 'early'})
    s.signal({'data': 'earlier still counts'})
    s.create()
    assert s.poll() is True
    assert s.data() == {'1': 'early', '2': 'earlier still counts'}


def test_a_failure_fails_the_wait_with_its_reason():
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    s.signal({'status': 'FAILURE', 'reason': 'disk full'})
    assert s.reason() == 'WaitConditionFailure: resources.w: disk full'


def test_the_timeout_says_what_was_received_in_heats_words():
    s = Setup('OS::Heat::WaitCondition', count=3, timeout=1)
    s.create()
    s.signal({'data': 'x'})
    assert s.poll() is False
    s.ctx.data['wait']['started'] = time.time() - 2
    assert s.reason() == 'WaitConditionTimeout: resources.w: 1 of 3 received - Signal 1 received'
    s = Setup('OS::Heat::WaitCondition', count=2, timeout=1)
    s.create()
    s.ctx.data['wait']['started'] = time.time() - 2
    assert s.reason() == 'WaitConditionTimeout: resources.w: 0 of 2 received'


@pytest.mark.parametrize('body, reason', [
    ('{not json', 'Error: resources.w: Failed to parse JSON data: {not json'),
    ('{"status": "WORKING"}', 'ValueError: resources.h: Metadata format invalid'),
    ('{"extra": 1}', 'ValueError: resources.h: Metadata format invalid'),
    ('[1, 2]', "AttributeError: resources.h: 'list' object has no attribute 'setdefault'"),
    ('"text"', "AttributeError: resources.h: 'str' object has no attribute 'copy'"),
])
def test_a_malformed_body_fails_the_wait_as_heats_handle_fails_it(body, reason):
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    s.signal(body)
    assert s.reason() == reason


def test_falsy_bodies_are_empty_signals_for_the_openstack_handle():
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    s.signal('')
    s.signal('null')
    assert s.poll() is True
    assert s.data() == {'1': None, '2': None}


def test_the_aws_wait_takes_cfn_signal_bodies_from_the_handles_url():
    s = Setup('AWS::CloudFormation::WaitCondition', count=1, handle='url')
    s.create()
    s.signal({'Status': 'SUCCESS', 'Reason': 'ok', 'UniqueId': 'i1', 'Data': 'up'})
    assert s.poll() is True
    assert s.data('Data') == {'i1': 'up'}
    s = Setup('AWS::CloudFormation::WaitCondition', count=1, handle='url')
    s.create()
    s.signal({'status': 'SUCCESS'})               # the OpenStack keys are not the AWS ones
    assert s.reason() == 'ValueError: resources.h: Metadata format invalid'


def test_the_aws_wait_refuses_a_handle_that_is_not_a_url():
    s = Setup('AWS::CloudFormation::WaitCondition', handle='os')
    with pytest.raises(ResourceFailure) as err:
        s.create()
    assert failure_reason(err.value, 'w').startswith('ValueError: resources.w: WaitCondition invalid Handle')


def test_a_handle_of_another_stack_is_not_a_wait_condition_handle():
    s = Setup('OS::Heat::WaitCondition')
    s.ctx.properties['handle'] = 'other-h-abcdefghijkl'
    with pytest.raises(ResourceFailure) as err:
        s.create()
    assert failure_reason(err.value, 'w') == ('ValueError: resources.w: other-h-abcdefghijkl is not a '
                                              'valid wait condition handle.')


def test_no_signal_counts_one_signal_per_look():
    s = Setup('OS::Heat::WaitCondition', count=3, handle='none')
    s.create()
    s.proxy.requests[:] = []
    assert [s.poll(), s.poll(), s.poll()] == [False, False, True]
    assert s.proxy.requests == []
    assert s.data() == {'1': None, '2': None, '3': None}


def test_an_update_of_count_waits_again_with_the_signals_kept():
    s = Setup('OS::Heat::WaitCondition', count=1)
    s.create()
    s.signal({})
    assert s.poll() is True
    s.ctx.properties['count'] = 2
    s.plugin.update(s.ctx)
    assert s.plugin.check_update_complete(s.ctx) is False
    s.signal({})
    assert s.plugin.check_update_complete(s.ctx) is True


def test_swift_signal_counts_reads_defaults_and_data():
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.create()
    s.signal('')
    assert s.poll() is False
    s.signal({'data': 'b', 'id': 'later'})
    assert s.poll() is True
    assert s.data() == {'1': None, 'later': 'b'}


def test_swift_signal_repeated_id_moves_to_the_end_and_ordinals_go_on():
    s = Setup('OS::Heat::SwiftSignal', count=3, handle='url')
    s.create()
    s.signal({'id': 'a', 'data': 1})
    s.signal({'data': 2})
    s.signal({'id': 'a', 'data': 3})
    assert s.poll() is False
    assert list(s.data().items()) == [('2', 2), ('a', 3)]
    s.signal({})
    assert s.poll() is True
    assert s.data() == {'2': 2, 'a': 3, '4': None}


def test_swift_signal_failure_unknown_status_and_timeout():
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.create()
    s.signal({'status': 'FAILURE', 'reason': 'no'})
    s.signal({'status': 'FAILURE'})
    assert s.reason() == 'SwiftSignalFailure: resources.w: no;Signal 2 received'
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.create()
    s.signal({'status': 'MAYBE'})
    assert s.reason() == 'Error: resources.w: Unknown status: MAYBE'
    s = Setup('OS::Heat::SwiftSignal', handle='url', timeout=1)
    s.create()
    s.signal({'reason': 'first'})
    s.poll()
    s.ctx.data['wait']['started'] = time.time() - 2
    assert s.reason() == 'SwiftSignalTimeout: resources.w: 1 of 2 received - first'
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.create()
    s.signal('oops')
    assert s.reason() == 'Error: resources.w: Failed to parse JSON data: oops'


def test_swift_signal_refuses_a_handle_that_is_no_temp_url_of_its_stack():
    s = Setup('OS::Heat::SwiftSignal', handle='os')
    with pytest.raises(ResourceFailure) as err:
        s.create()
    assert 'is not a valid SwiftSignalHandle.  The Swift TempURL path is invalid' in str(err.value)
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.ctx.stack_id = 'another'
    with pytest.raises(ResourceFailure) as err:
        s.create()
    assert str(err.value).endswith('The container name is invalid')


def test_an_unchanged_handle_costs_one_head_per_look():
    s = Setup('OS::Heat::WaitCondition')
    s.create()
    s.signal({})
    s.poll()
    s.proxy.requests[:] = []
    for _i in range(5):
        s.poll()
    assert [r[0] for r in s.proxy.requests] == ['HEAD'] * 5


def test_attributes_make_no_request():
    s = Setup('OS::Heat::SwiftSignal', handle='url')
    s.create()
    s.signal({'data': 'x'})
    s.poll()
    s.proxy.requests[:] = []
    assert s.data() == {'1': 'x'}
    assert s.proxy.requests == []
