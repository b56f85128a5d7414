# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_service_abandon through its real main(), a fake orchestration proxy answering as Heat does."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

from ansible.module_utils import basic
from openstack import exceptions
from openstack.orchestration.v1 import _proxy

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils import connection
from ansible_collections.stackers.orchestration.plugins.modules import heat_service_abandon as module

DATA = {'name': 'web', 'id': 'i', 'action': 'CREATE', 'status': 'COMPLETE', 'template': {}, 'resources': {}}
# Heat's body when heat.conf's enable_stack_abandon is off (openstacksdk's abandon does not raise on it)
REFUSED = {'code': 400, 'title': 'Bad Request', 'explanation': 'The server could not comply with the request',
           'error': {'message': 'Stack Abandon is not supported.', 'type': 'NotSupported', 'traceback': None}}


def _cloud(monkeypatch, **answers):
    proxy = mock.create_autospec(_proxy.Proxy, instance=True)
    proxy.find_stack.return_value = mock.sentinel.stack
    for name, answer in answers.items():
        getattr(proxy, name).side_effect = answer if isinstance(answer, Exception) else None
        getattr(proxy, name).return_value = answer
    conn = mock.Mock(orchestration=proxy)
    monkeypatch.setattr(connection, 'openstack_connection', lambda params: conn)
    return proxy


def test_abandon_and_export(capsys, monkeypatch):
    proxy = _cloud(monkeypatch, abandon_stack=DATA, export_stack=DATA)
    code, out = run_main(module, capsys, {'cloud': 'c', 'name': 'web', 'wait': False})
    assert code == 0 and out['abandoned'] is True and out['changed'] is True and out['abandon_data'] == DATA
    proxy.abandon_stack.assert_called_once_with(mock.sentinel.stack)
    for args, check in (({'cloud': 'c', 'name': 'web', 'export': True}, False),
                        ({'cloud': 'c', 'name': 'web'}, True)):
        code, out = run_main(module, capsys, args, check=check)
        assert code == 0 and out['abandoned'] is False and out['changed'] is False
    assert proxy.export_stack.call_count == 2 and proxy.abandon_stack.call_count == 1


def test_abandon_disabled_says_what_to_ask(capsys, monkeypatch):
    _cloud(monkeypatch, abandon_stack=REFUSED,
           export_stack=exceptions.BadRequestException('Stack Abandon is not supported.'))
    for args in ({'cloud': 'c', 'name': 'web'}, {'cloud': 'c', 'name': 'web', 'export': True}):
        code, out = run_main(module, capsys, args)
        assert code == 1
        assert out['msg'].startswith('Stack Abandon is not supported.'), out['msg']
        assert 'enable_stack_abandon' in out['msg']


def test_a_stack_heat_does_not_have(capsys, monkeypatch):
    proxy = _cloud(monkeypatch)
    proxy.find_stack.return_value = None
    code, out = run_main(module, capsys, {'cloud': 'c', 'name': 'gone'})
    assert code == 1 and out['msg'] == 'Stack gone not found in the Heat service'


def test_the_nested_stacks_heat_keeps_are_abandoned_too(capsys, monkeypatch):
    """Heat's convergence abandon retains a nested stack's resource, and so
    keeps the nested stack: it is abandoned by its id, at every level."""
    leaf = dict(DATA, name='web-mid-x-leaf-y', id='leaf-id')
    mid = dict(DATA, name='web-mid-x', id='mid-id', resources={'leaf': leaf, 'n': {'resource_id': 'n'}})
    data = dict(DATA, resources={'mid': mid, 'net': {'resource_id': 'net-1', 'type': 'OS::Neutron::Net'}})
    proxy = _cloud(monkeypatch, abandon_stack=data)
    proxy.find_stack.side_effect = lambda name, ignore_missing: None if name == 'leaf-id' else name
    code, out = run_main(module, capsys, {'cloud': 'c', 'name': 'web', 'wait': False})
    assert code == 0 and out['abandoned_nested'] == ['mid-id'], out
    assert [c.args for c in proxy.abandon_stack.call_args_list] == [('web',), ('mid-id',)]


def test_the_abandon_waits_until_heat_lists_the_stacks_no_more(capsys, monkeypatch):
    """Heat answers the data, then drops its record in the background (DELETE_IN_PROGRESS in its list)."""
    mid = dict(DATA, name='web-mid-x', id='mid-id')
    proxy = _cloud(monkeypatch, abandon_stack=dict(DATA, resources={'mid': mid}))
    monkeypatch.setattr(module.time, 'sleep', lambda s: None)
    looks = {'web-id': ['CREATE_COMPLETE', 'DELETE_IN_PROGRESS', 'DELETE_IN_PROGRESS', None],
             'mid-id': ['CREATE_COMPLETE', 'DELETE_IN_PROGRESS', 'DELETE_COMPLETE']}

    def find(name, ignore_missing):
        key = 'web-id' if name == 'web' else name
        status = looks[key].pop(0) if len(looks[key]) > 1 else looks[key][0]
        return None if status is None else mock.Mock(id=key, status=status)
    proxy.find_stack.side_effect = find
    # the module's warnings as it makes them (Ansible keeps them in a store of its process, which the other
    # tests of a run share)
    warned = []
    monkeypatch.setattr(basic.AnsibleModule, 'warn', lambda self, msg: warned.append(msg))
    code, out = run_main(module, capsys, {'cloud': 'c', 'name': 'web'})
    assert code == 0 and out['abandoned_nested'] == ['mid-id'] and warned == [], (out, warned)
    assert looks == {'web-id': [None], 'mid-id': ['DELETE_COMPLETE']}
    # a Heat that keeps listing it: a warning once the timeout is spent, the data still answered
    looks.update({'web-id': ['DELETE_IN_PROGRESS'], 'mid-id': ['CREATE_COMPLETE', 'DELETE_COMPLETE']})
    clock = iter(range(0, 1000, 5))
    monkeypatch.setattr(module.time, 'monotonic', lambda: next(clock))
    code, out = run_main(module, capsys, {'cloud': 'c', 'name': 'web', 'timeout': 20})
    assert code == 0 and out['abandon_data']['id'] == 'i'
    assert warned == ['Heat still lists the abandoned stack(s) web-id after 20 s: its abandon goes on there']
