# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Signals to scaling policies: the group scales as Heat's does, Heat's
refusals say why, the cooldown lasts across runs, and check mode only
says what would happen."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import signal
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

from ...resources.heat.test_autoscaling_group import ASG, members, outputs

# After the groups' creates (their own cooldown of 0 s ends when they are made)
NOW = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5)


def send(stacks, resource, check=False, at=NOW):
    return signal.signal(signal.SignalRequest('st', resource, store_path=stacks.store_path,
                                              check_mode=check), None, now=at)


def test_a_signal_scales_out_and_then_in_removing_the_oldest(stacks):
    stacks.run(ASG)
    first = members(stacks)
    would = send(stacks, 'up', check=True)
    assert would['changed'] is True and would['signal']['new_size'] == 3
    assert len(members(stacks)) == 2                   # check mode changed nothing
    up = send(stacks, 'up')
    assert up['signal'] == {'resource': 'up', 'group': 'asg', 'size': 2, 'new_size': 3}
    assert outputs(up)['size'] == 3
    grown = members(stacks)
    assert set(first) < set(grown)
    # the same template again keeps the size a signal gave
    assert stacks.run(ASG)['changed'] is False and len(members(stacks)) == 3
    oldest = sorted(grown.values(), key=lambda r: (r.created_time, r.seq))[0].name
    predicted = send(stacks, 'down', check=True)
    assert predicted['signal'] == {'resource': 'down', 'group': 'asg', 'size': 3, 'new_size': 2,
                                   'removed': [oldest]}
    assert len(members(stacks)) == 3
    down = send(stacks, 'down')
    assert outputs(down)['size'] == 2
    assert down['signal']['removed'] == [oldest] and oldest not in members(stacks)


def test_heats_refusals_say_why_and_change_nothing(stacks):
    stacks.run(ASG)
    assert send(stacks, 'down')['signal']['new_size'] == 1     # its cooldown: 600 s from now
    refused = send(stacks, 'down', at=NOW + datetime.timedelta(seconds=5))
    assert refused['changed'] is False
    assert refused['signal']['refused'] == ('asg NOT performing scaling adjustment, as there is no '
                                            'change in capacity.')
    cooling = send(stacks, 'up', at=NOW + datetime.timedelta(seconds=10))
    assert cooling['changed'] is False and len(members(stacks)) == 1
    assert cooling['signal']['refused'].startswith('The resource asg could not perform scaling '
                                                   'action: due to cooldown')
    later = send(stacks, 'up', at=NOW + datetime.timedelta(seconds=700))
    assert later['signal']['new_size'] == 2 and len(members(stacks)) == 2


def test_only_a_scaling_policy_takes_a_signal(stacks):
    stacks.run(ASG)
    with pytest.raises(StackersError) as err:
        send(stacks, 'asg')
    assert 'takes no signal' in str(err.value)
    with pytest.raises(StackersError):
        send(stacks, 'nothing')


HANDLES = '''
resources:
  wh: {type: OS::Heat::WaitConditionHandle}
  sh: {type: OS::Heat::SwiftSignalHandle}
  nh: {type: OS::Heat::WaitConditionHandle, properties: {signal_transport: NO_SIGNAL}}
'''


def _swift_cloud():
    from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake
    return swift_fake.cloud()


def test_a_handle_gets_its_data_put_to_its_temp_url_even_while_the_stack_is_locked(stacks):
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
    conn, swift, proxy = _swift_cloud()
    made = runner.run(stacks.request(HANDLES), conn)
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
    rows = stacks.rows()
    store = stacks.store()
    try:   # another run holds the lock (and waits on the handle)
        assert store.lock('st', 'someone-else', 600)
    finally:
        store.close()
    proxy.requests[:] = []
    out = signal.signal(signal.SignalRequest('st', 'wh', data={'status': 'SUCCESS', 'id': 'a'},
                                             store_path=stacks.store_path), conn)
    assert out['signal'] == {'resource': 'wh', 'handle': 'OS::Heat::WaitConditionHandle'}
    assert out['stack']['stack_name'] == 'st' and out['changed'] is True
    sid = made['stack']['id']
    body = swift.containers[sid]['objects'][rows['wh'].physical_id][0]
    assert json.loads(body) == {'status': 'SUCCESS', 'id': 'a'}
    # one PUT, to the TempURL, without a token (the fake checks the signature)
    assert [(m, '://' in p) for m, p, _k in proxy.requests] == [('PUT', True)]
    # no data: an empty body; check mode sends nothing
    signal.signal(signal.SignalRequest('st', 'sh', store_path=stacks.store_path), conn)
    assert swift.containers[sid]['objects'][rows['sh'].physical_id][0] == b''
    proxy.requests[:] = []
    would = signal.signal(signal.SignalRequest('st', 'sh', data={'x': 1}, check_mode=True,
                                               store_path=stacks.store_path), conn)
    assert would['changed'] is True and proxy.requests == []
    with pytest.raises(StackersError) as err:
        signal.signal(signal.SignalRequest('st', 'nh', store_path=stacks.store_path), conn)
    assert 'NO_SIGNAL' in str(err.value)


def test_locate_finds_a_resource_by_name_nested_path_or_physical_id(stacks):
    inner = stacks.dir / 'inner.yaml'
    inner.write_text('heat_template_version: 2018-08-31\n'
                     'resources:\n  r: {type: OS::Heat::TestResource}\n')
    stacks.run('resources:\n  nest: {type: %s}\n  c: {type: OS::Heat::TestResource}\n' % inner)
    store = stacks.store()
    try:
        top = store.get_stack('st')
        where, name, row = signal.locate(store, top, 'c')
        assert (where['id'], name, row.name) == (top['id'], 'c', 'c')
        where, name, row = signal.locate(store, top, row.physical_id)
        assert name == 'c'
        where, name, row = signal.locate(store, top, 'nest/r')
        assert where['parent_resource'] == 'nest' and row.stack_id == where['id'] and name == 'r'
        for missing in ('zz', 'c/r', 'nest/zz', 'r'):
            with pytest.raises(StackersError, match=r'The Resource \(%s\) could not be found in '
                                                    r'Stack st\.' % missing):
                signal.locate(store, top, missing)
    finally:
        store.close()
