# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_info in a real ansible-playbook run, after heat_stack made a three-level stack of
template resources (a real Neutron network at the bottom) in the local cloud; its answers are
compared, key for key and row for row (not ids nor times), with what the cloud's real Heat answers
to `openstack stack show / resource list / event list -f json` for the same template."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT  # noqa: E402

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stack_templates', 'heat_peer')
STEP = 150

PLAYBOOK = """
- name: A stack made, then looked at with heat_stack_info
  hosts: localhost
  gather_facts: false
  module_defaults:
    stackers.orchestration.heat_stack_info: {store_path: "{{ store }}"}
  tasks:
    - name: Create the stack of three levels
      stackers.orchestration.heat_stack:
        cloud: localcloud
        name: infonest
        template: "{{ templates }}/top.yaml"
        environment: ["{{ templates }}/env.yaml"]
        store_path: "{{ store }}"

    - name: List the stacks
      stackers.orchestration.heat_stack_info: {}
      register: listed

    - name: Show the stack two levels down
      stackers.orchestration.heat_stack_info:
        name: infonest
        nested_depth: 2
        output: top_text
        resource: mid
        template: true
        environment: true
      register: shown

    - name: Its own resources and events, in check mode
      stackers.orchestration.heat_stack_info:
        name: infonest
      check_mode: true
      register: own

    - name: The last two events, newest first
      stackers.orchestration.heat_stack_info:
        name: infonest
        sort: [":desc"]
        limit: 2
      register: last

    - name: A stack the store does not have
      stackers.orchestration.heat_stack_info:
        name: nosuchstack
      register: missing
      ignore_errors: true

    - name: Hand the answers to the test
      ansible.builtin.copy:
        content: "{{ {'listed': listed, 'shown': shown, 'own': own, 'last': last, 'missing': missing} | to_json }}"
        dest: "{{ result_file }}"
        mode: '0600'

    - name: Delete the stack
      stackers.orchestration.heat_stack:
        cloud: localcloud
        name: infonest
        state: absent
        store_path: "{{ store }}"
"""


def _playbook(cloud, tmp_path):
    (tmp_path / 'info.yml').write_text(PLAYBOOK)
    result_file = str(tmp_path / 'answers.json')
    extra = {'templates': TEMPLATES, 'store': str(tmp_path / 'stacks.sqlite'), 'result_file': result_file}
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, ANSIBLE_NOCOLOR='1')
    env.pop('OS_CLOUD', None)
    proc = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), str(tmp_path / 'info.yml'),
                           '-e', json.dumps(extra)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    with open(result_file) as f:
        return json.load(f)


def _heat(cloud, name):
    """Real Heat's answers for the same template: show, resource list and event list (depth 2)."""
    template = os.path.join(TEMPLATES, 'top.yaml')
    cloud.osc('stack', 'create', '-t', template, '-e', os.path.join(TEMPLATES, 'env.yaml'), name, '--wait',
              timeout=STEP)
    try:
        return (cloud.osc('stack', 'show', name, as_json=True),
                cloud.osc('stack', 'resource', 'list', '--nested-depth', '2', name, as_json=True),
                cloud.osc('stack', 'event', 'list', '--nested-depth', '2', name, as_json=True),
                cloud.osc('stack', 'resource', 'show', name, 'mid', as_json=True),
                cloud.osc('stack', 'environment', 'show', name, as_json=True),
                cloud.osc('stack', 'output', 'show', name, 'top_text', as_json=True))
    finally:
        cloud.osc('stack', 'delete', name, '--yes', '--wait', timeout=STEP, check=False)


def _generic(name, top):
    """A stack name without its random parts: infonest-mid-6lm6zvaei2sh-leaf-wx3xbbn5y1o4 -> TOP-mid-leaf."""
    if name is None or not name.startswith(top):
        return name
    return 'TOP' + re.sub(r'-[a-z0-9]{12}', '', name[len(top):])


def _rows(resources, top):
    return sorted((r['resource_name'], _generic(r['stack_name'], top), r['resource_status']) for r in resources)


def _events(events, top):
    return [(_generic(e['resource_name'], top), _generic(e['stack_name'], top), e['resource_status'],
             e['resource_status_reason']) for e in events]


def test_info_lists_shows_and_matches_real_heats_shapes(cloud, tmp_path):
    answers = _playbook(cloud, tmp_path)
    heat_show, heat_resources, heat_events, heat_resource, heat_env, heat_output = _heat(cloud, 'infopeer')

    listed = [s for s in answers['listed']['stacks'] if s['stack_name'] == 'infonest']
    assert answers['listed']['changed'] is False and len(listed) == 1
    assert listed[0]['stack_status'] == 'CREATE_COMPLETE' and listed[0]['parent'] is None

    shown = answers['shown']
    stack = shown['stack']
    # every key of Heat's show but its links, and the same parameters and outputs
    assert set(heat_show) - {'links'} <= set(stack), set(heat_show) - set(stack)
    assert stack['stack_status'] == heat_show['stack_status'] == 'CREATE_COMPLETE'
    assert set(stack['parameters']) == set(heat_show['parameters'])
    assert stack['parameters']['text'] == heat_show['parameters']['text'] == 'one'
    # the project, though heat_stack_info never authenticates: heat_stack recorded it
    assert stack['parameters']['OS::project_id'] == heat_show['parameters']['OS::project_id'] != ''
    assert stack['description'] == heat_show['description'] and stack['tags'] == heat_show['tags'] == []
    assert [sorted(o) for o in stack['outputs']] == [sorted(o) for o in heat_show['outputs']]
    assert {o['output_key']: o['output_value'] for o in stack['outputs']}['top_text'] == 'one'

    # resource list --nested-depth 2: Heat's columns, the same rows at the same levels
    for ours in shown['resources']:
        assert set(heat_resources[0]) <= set(ours), set(heat_resources[0]) - set(ours)
    assert _rows(shown['resources'], 'infonest') == _rows(heat_resources, 'infopeer')
    leaf = next(r for r in shown['resources'] if r['resource_name'] == 'net')
    assert leaf['parent_resource'] == 'leaf' and leaf['physical_resource_id'] == \
        {o['output_key']: o['output_value'] for o in stack['outputs']}['leaf_net']

    # event list --nested-depth 2: Heat's columns, the same events (Heat's order within a second
    # varies between runs; ours is the order they were recorded in)
    for ours in shown['events']:
        assert set(heat_events[0]) <= set(ours), set(heat_events[0]) - set(ours)
    assert sorted(_events(shown['events'], 'infonest')) == sorted(_events(heat_events, 'infopeer'))
    brief = _events(shown['events'], 'infonest')
    assert brief[0][:3] == ('TOP', 'TOP', 'CREATE_IN_PROGRESS') and brief[-1][:3] == ('TOP', 'TOP', 'CREATE_COMPLETE')
    # a nested stack's events come inside its holder's create
    at = [e[:3] for e in brief].index
    assert at(('mid', 'TOP', 'CREATE_IN_PROGRESS')) < at(('TOP-mid', 'TOP-mid', 'CREATE_IN_PROGRESS')) < \
        at(('TOP-mid', 'TOP-mid', 'CREATE_COMPLETE')) < at(('mid', 'TOP', 'CREATE_COMPLETE'))

    assert shown['output'] == heat_output == {'output_key': 'top_text', 'output_value': 'one',
                                              'description': 'No description given'}
    # resource show: Heat's keys but its links, the same attributes (a template resource's outputs)
    resource = shown['resource']
    assert set(heat_resource) - {'links'} <= set(resource), set(heat_resource) - set(resource)
    assert resource['resource_name'] == 'mid' and resource['required_by'] == heat_resource['required_by'] == []
    assert set(resource['attributes']) == set(heat_resource['attributes'])
    assert resource['attributes']['mid_text'] == heat_resource['attributes']['mid_text'] == 'one'
    # environment show: the same sections and registry (Heat writes template paths as file: URLs)
    env = shown['environment']
    assert set(heat_env) <= set(env) and env['parameters'] == heat_env['parameters'] == {}

    def registry(shown_env):
        return dict((os.path.basename(k), os.path.basename(v)) for k, v in shown_env['resource_registry'].items()
                    if k != 'resources')
    assert registry(env) == registry(heat_env) == {'My::Leaf': 'leaf.yaml', 'mid.yaml': 'mid.yaml'}
    assert shown['template']['resources']['mid']['type'] == 'mid.yaml'

    # depth 0 (in check mode): the stack's own, without stack_name
    own = answers['own']
    assert [r['resource_name'] for r in own['resources']] == ['mid'] and 'stack_name' not in own['resources'][0]
    assert {e['resource_name'] for e in own['events']} == {'infonest', 'mid'}
    assert [(e['resource_name'], e['resource_status']) for e in answers['last']['events']] == [
        ('infonest', 'CREATE_COMPLETE'), ('mid', 'CREATE_COMPLETE')]

    missing = answers['missing']
    assert missing['failed'] is True and 'The Stack (nosuchstack) could not be found' in missing['msg']
