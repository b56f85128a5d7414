# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""--with-heat: the local cloud's real Heat runs composition through whole lives, driven by OSC.

Nested template resources, a ResourceGroup and an AutoScalingGroup with its scaling policies are
created, updated or signalled, and deleted. Each step is bounded: before the fixes in
localcloud/README.md ("Heat") a nested update or delete never finished and a ScalingPolicy failed
to create.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import subprocess
import time

from localcloud.harness import wait_for

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stack_templates', 'heat_peer')
STEP = 150      # seconds any one create, update, signal or delete may take (each is ~2-10 s here)


def _template(name):
    return os.path.join(TEMPLATES, name)


def _run(cloud, *args):
    """An openstack command that must finish within STEP seconds (a hang fails, saying so)."""
    try:
        return cloud.osc(*args, timeout=STEP)
    except subprocess.TimeoutExpired:
        raise AssertionError('openstack %s did not finish within %ss' % (' '.join(args), STEP))


def _show(cloud, name, status):
    stack = cloud.osc('stack', 'show', name, as_json=True)
    assert stack['stack_status'] == status, (stack['stack_status'], stack['stack_status_reason'])
    return stack


def _outputs(stack):
    """output key -> value; an output Heat could not resolve fails here with Heat's reason."""
    outputs = {}
    for out in stack['outputs']:
        assert 'output_error' not in out, out
        outputs[out['output_key']] = out['output_value']
    return outputs


def _stacks_named(cloud, prefix):
    """The names of the user's stacks, nested ones included, that start with the prefix."""
    return sorted(s['Stack Name'] for s in cloud.osc('stack', 'list', '--nested', as_json=True)
                  if s['Stack Name'].startswith(prefix))


def _delete(cloud, name):
    _run(cloud, 'stack', 'delete', name, '--yes', '--wait')
    # --wait ends on the stack's DELETE_COMPLETE event; Heat marks the stack deleted just after
    wait_for(lambda: _stacks_named(cloud, name) == [], timeout=60, interval=1,
             what='stack %s and its nested stacks to leave the list' % name)


def _cleanup(cloud, name):
    """After a failure: try to delete the stack, without hiding the failure."""
    try:
        cloud.osc('stack', 'delete', name, '--yes', '--wait', timeout=STEP, check=False)
    except subprocess.TimeoutExpired:
        pass


def _members(cloud, name, rtype):
    """The physical ids of the members (resources of type rtype) one level down."""
    rows = cloud.osc('stack', 'resource', 'list', '--nested-depth', '1', name, as_json=True)
    return sorted(r['physical_resource_id'] for r in rows if r['resource_type'] == rtype)


def test_three_levels_of_template_resources_live_a_whole_life(cloud):
    try:
        _run(cloud, 'stack', 'create', '-t', _template('top.yaml'), '-e', _template('env.yaml'),
             'nest', '--wait')
        created = _outputs(_show(cloud, 'nest', 'CREATE_COMPLETE'))
        assert created['top_text'] == 'one'
        names = _stacks_named(cloud, 'nest')
        assert len(names) == 3, names
        leaf_name = max(names, key=len)
        assert leaf_name.startswith('nest-mid-') and '-leaf-' in leaf_name, names
        rows = cloud.osc('stack', 'resource', 'list', '--nested-depth', '2', 'nest', as_json=True)
        assert {r['resource_name'] for r in rows} == {'mid', 'leaf', 'value', 'net'}

        _run(cloud, 'stack', 'update', '-t', _template('top.yaml'), '-e', _template('env.yaml'),
             '--parameter', 'text=two', 'nest', '--wait')
        updated = _outputs(_show(cloud, 'nest', 'UPDATE_COMPLETE'))
        assert updated['top_text'] == 'two'
        # only the value changed: the leaf's network is the same one
        assert updated['leaf_net'] == created['leaf_net']
        for name in names:
            _show(cloud, name, 'UPDATE_COMPLETE')
        _delete(cloud, 'nest')
    except BaseException:
        _cleanup(cloud, 'nest')
        raise
    networks = {n['id'] for n in cloud.resources()['networks']}
    assert created['leaf_net'] not in networks


def test_a_resource_group_scales_by_count(cloud):
    try:
        _run(cloud, 'stack', 'create', '-t', _template('resource_group.yaml'), 'group', '--wait')
        three = _outputs(_show(cloud, 'group', 'CREATE_COMPLETE'))
        assert three['values'] == ['member-0', 'member-1', 'member-2']

        _run(cloud, 'stack', 'update', '--existing', '--parameter', 'count=2', 'group', '--wait')
        two = _outputs(_show(cloud, 'group', 'UPDATE_COMPLETE'))
        assert two['values'] == ['member-0', 'member-1']
        assert two['refs_map'] == {k: three['refs_map'][k] for k in ('0', '1')}

        _run(cloud, 'stack', 'update', '--existing', '--parameter', 'count=4', 'group', '--wait')
        four = _outputs(_show(cloud, 'group', 'UPDATE_COMPLETE'))
        # without removal_policies Heat reuses the index it removed
        assert four['values'] == ['member-0', 'member-1', 'member-2', 'member-3']
        assert {k: four['refs_map'][k] for k in ('0', '1')} == two['refs_map']
        _delete(cloud, 'group')
    except BaseException:
        _cleanup(cloud, 'group')
        raise


def _size(cloud):
    return _outputs(_show(cloud, 'asg', 'CREATE_COMPLETE'))['size']


def _signal(cloud, policy, size, signalled):
    """Signal the policy; Heat acts on it in the background. Its SIGNAL_COMPLETE event is written
    only after the group's scaling finished (metadata scaling_in_progress cleared): until then Heat
    drops any other policy's signal "due to scaling activity", so the next signal waits for it."""
    _run(cloud, 'stack', 'resource', 'signal', 'asg', policy)
    wait_for(lambda: len(_signal_events(cloud, policy)) == signalled, timeout=STEP, interval=1,
             what='signal %s number %d to be complete' % (policy, signalled))
    assert _size(cloud) == size
    assert len(_members(cloud, 'asg', 'OS::Heat::None')) == size


def _signal_events(cloud, policy):
    events = cloud.osc('stack', 'event', 'list', 'asg', as_json=True)
    return [e for e in events if e['resource_name'] == policy and
            e['resource_status'] == 'SIGNAL_COMPLETE']


def test_an_autoscaling_group_scales_on_its_policies_signals(cloud):
    try:
        _run(cloud, 'stack', 'create', '-t', _template('autoscaling.yaml'), 'asg', '--wait')
        stack = _show(cloud, 'asg', 'CREATE_COMPLETE')
        assert _outputs(stack)['size'] == 1
        first = _members(cloud, 'asg', 'OS::Heat::None')

        _signal(cloud, 'up', 2, signalled=1)
        assert set(first) < set(_members(cloud, 'asg', 'OS::Heat::None'))
        _signal(cloud, 'down', 1, signalled=1)
        # At min_size Heat takes the signal, changes nothing and records no event for it. It acts
        # in the background, and nothing shows when it is done: give it a moment before the next
        # signal, whose effect then shows the group held at 1 (a late no-op would scale 2 -> 1,
        # with a second down event, and fail below).
        _run(cloud, 'stack', 'resource', 'signal', 'asg', 'down')
        time.sleep(5)
        _signal(cloud, 'up', 2, signalled=2)
        assert len(_signal_events(cloud, 'down')) == 1
        _delete(cloud, 'asg')
    except BaseException:
        _cleanup(cloud, 'asg')
        raise
