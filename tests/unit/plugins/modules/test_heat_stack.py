# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack through its real main(), with the engine's entry point replaced: what Ansible
reads back, the invocation it echoes at -vvv included, never holds a hidden parameter's value."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack as module

SECRET = 'Sw0rdf1sh-hidden'

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  password: {type: string, hidden: true}
  flavor: {type: string}
resources: {}
"""


class _Conn(object):
    current_project_id = 'p1'


def _run(capsys, monkeypatch, args, answer):
    calls = []

    def fake_run(request, conn):
        calls.append(request)
        return answer(request)
    monkeypatch.setattr(module.runner, 'run', fake_run)
    monkeypatch.setattr(module.HeatStack, 'conn', _Conn())
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    return exc.value.code, json.loads(capsys.readouterr().out), calls


def _args(tmp_path, **more):
    path = tmp_path / 'stack.yaml'
    path.write_text(TEMPLATE)
    return dict(name='web', template=str(path), parameters={'password': SECRET, 'flavor': 'm1.tiny'},
                _ansible_verbosity=3, **more)


def test_the_echoed_invocation_masks_a_hidden_parameter(capsys, monkeypatch, tmp_path):
    rc, result, calls = _run(capsys, monkeypatch, _args(tmp_path),
                             lambda request: {'changed': True, 'stack': {'stack_status': 'CREATE_COMPLETE'}})
    assert rc == 0, result
    # the engine got the value; Ansible's output shows it nowhere
    assert calls[0].parameters['password'] == SECRET
    assert SECRET not in json.dumps(result)
    assert result['invocation']['module_args']['parameters']['flavor'] == 'm1.tiny'
    assert result['invocation']['module_args']['parameters']['password'] != SECRET


def test_a_failure_quoting_the_value_masks_it_too(capsys, monkeypatch, tmp_path):
    answer = {'changed': True, 'stack': {'stack_status': 'CREATE_FAILED',
                                         'stack_status_reason': 'bad password %s' % SECRET}}
    rc, result, _calls = _run(capsys, monkeypatch, _args(tmp_path), lambda request: answer)
    assert rc == 1
    assert result['msg'].startswith('Stack web CREATE_FAILED: bad password ')
    assert SECRET not in json.dumps(result)


def test_a_visible_parameter_is_shown(capsys, monkeypatch, tmp_path):
    rc, result, _calls = _run(capsys, monkeypatch, _args(tmp_path),
                              lambda request: {'changed': False, 'stack': {'stack_status': 'CREATE_COMPLETE'},
                                               'flavor_seen': 'm1.tiny'})
    assert rc == 0
    assert result['flavor_seen'] == 'm1.tiny'


def test_events_come_back_in_heat_api_shape(capsys, monkeypatch, tmp_path):
    stored = {'id': 'e1', 'resource_name': 'server', 'resource_type': 'OS::Nova::Server',
              'physical_resource_id': 'p1', 'resource_action': 'UPDATE', 'resource_status': 'IN_PROGRESS',
              'resource_status_reason': 'state changed', 'event_time': '2024-01-01T00:00:00Z'}
    nested = dict(stored, id='e2', resource_action='CREATE', resource_status='COMPLETE', stack_name='web-g-x')
    rc, result, _calls = _run(capsys, monkeypatch, _args(tmp_path), lambda request: {
        'changed': True, 'stack': {'stack_status': 'UPDATE_COMPLETE'}, 'events': [stored, nested]})
    assert rc == 0, result
    assert result['events'] == [
        {'id': 'e1', 'resource_name': 'server', 'logical_resource_id': 'server', 'physical_resource_id': 'p1',
         'resource_status': 'UPDATE_IN_PROGRESS', 'resource_status_reason': 'state changed',
         'event_time': '2024-01-01T00:00:00Z'},
        {'id': 'e2', 'resource_name': 'server', 'logical_resource_id': 'server', 'physical_resource_id': 'p1',
         'resource_status': 'CREATE_COMPLETE', 'resource_status_reason': 'state changed',
         'event_time': '2024-01-01T00:00:00Z', 'stack_name': 'web-g-x'}]


def test_the_diff_names_each_resource_and_what_happens_to_it():
    """Ansible shows a list of diffs one by one under their headers: each resource's change is headed by
    its name, its type, the action and the reason, wherever in its properties the change is."""
    changes = [
        {'resource_name': 'port', 'resource_type': 'OS::Neutron::Port', 'action': 'replace',
         'reason': 'changed: network; replaced: network cannot change in place', 'replacement': True,
         'before': {'network': 'a', 'name': 'p'}, 'after': {'network': 'b', 'name': 'p'}},
        {'resource_name': 'new', 'resource_type': 'OS::Heat::Value', 'action': 'create', 'reason': 'new',
         'replacement': False, 'before': None, 'after': {'value': 1}},
        {'resource_name': 'old', 'resource_type': 'OS::Heat::Value', 'action': 'delete',
         'reason': 'not in the template', 'replacement': False, 'before': {'value': 0}, 'after': None},
    ]
    shown = module.diff_view(changes)
    assert [d['resource_name'] for d in shown] == ['port', 'new', 'old']
    port, new, old = shown
    assert port['before_header'] == 'port (OS::Neutron::Port)'
    assert port['after_header'] == \
        'port (OS::Neutron::Port): replace, changed: network; replaced: network cannot change in place'
    assert port['before'] == {'network': 'a', 'name': 'p'} and port['after'] == {'network': 'b', 'name': 'p'}
    assert new['before'] == {} and new['after_header'].endswith(': create, new')
    assert old['after'] == {} and old['after_header'].endswith(': delete, not in the template')
