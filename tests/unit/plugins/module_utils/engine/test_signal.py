# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Signals to scaling policies: the group scales as Heat's does, Heat's
refusals say why, the cooldown lasts across runs, and check mode only
says what would happen."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine import signal
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

from .test_autoscaling import ASG, members, outputs

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
