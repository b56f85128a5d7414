# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_snapshot through its real main(): its options' rules, the
request it makes, and a snapshot, its restore and delete of a stack in an
SQLite store (whose types need no cloud)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_snapshot as module

TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  v: {type: string, default: one}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
'''


class _Conn(object):
    current_project_id = 'p'


def _stack(tmp_path, value='one'):
    path = tmp_path / ('t-%s.yaml' % value)
    path.write_text(TEMPLATE.replace('default: one', 'default: %s' % value))
    store = str(tmp_path / 's.sqlite')
    runner.run(runner.StackRequest('web', template=str(path), store_path=store), None)
    return store


def test_options_rules(capsys, monkeypatch):
    monkeypatch.setattr(module.HeatStackSnapshot, 'conn', _Conn())
    code, out = run_main(module, capsys, {'stack': 'web'})
    assert code == 1 and 'one of the following is required: name, id' in out['msg']
    code, out = run_main(module, capsys, {'stack': 'web', 'id': 'x'})
    assert code == 1 and 'state is present but all of the following are missing: name' in out['msg']
    code, out = run_main(module, capsys, {'stack': 'web', 'id': 'x', 'name': 'y', 'state': 'absent'})
    assert code == 1 and 'mutually exclusive' in out['msg']


def test_the_request_made_from_the_options(capsys, monkeypatch):
    asked = []

    def fake(request, conn):
        asked.append(request)
        return {'changed': False, 'snapshots': []}
    monkeypatch.setattr(module.HeatStackSnapshot, 'conn', _Conn())
    monkeypatch.setattr(module.snapshot, 'snapshot', fake)
    code, out = run_main(module, capsys, {'stack': 'web', 'id': 'i', 'state': 'absent', 'store_key': 'k',
                                          'timeout': 60}, check=True)
    assert code == 0 and out['changed'] is False
    request = asked[0]
    assert (request.stack, request.snapshot_id, request.name, request.state) == ('web', 'i', None, 'absent')
    assert (request.store_key, request.timeout, request.check_mode, request.project_id) == ('k', 60, True, 'p')


def test_snapshot_restore_and_delete_tell_the_truth(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(module.HeatStackSnapshot, 'conn', _Conn())
    store = _stack(tmp_path)
    args = {'stack': 'web', 'name': 'before', 'store_path': store}
    code, out = run_main(module, capsys, args, check=True)
    assert code == 0 and out['changed'] is True and out['snapshot'] is None
    code, out = run_main(module, capsys, args)
    assert code == 0 and out['changed'] is True and out['snapshot']['status'] == 'COMPLETE'
    assert out['stack']['stack_status'] == 'SNAPSHOT_COMPLETE'
    assert [e['resource_status'] for e in out['events'] if e['resource_name'] == 'a'] == \
        ['SNAPSHOT_IN_PROGRESS', 'SNAPSHOT_COMPLETE']
    code, out = run_main(module, capsys, args)
    assert code == 0 and out['changed'] is False
    _stack(tmp_path, 'two')
    restore = dict(args, state='restored')
    code, out = run_main(module, capsys, restore, check=True)
    assert code == 0 and out['changed'] is True
    assert [p['action'] for p in out['plan']] == ['update']
    code, out = run_main(module, capsys, restore)
    assert code == 0 and out['changed'] is True and out['stack']['stack_status'] == 'RESTORE_COMPLETE'
    code, out = run_main(module, capsys, restore)
    assert code == 0 and out['changed'] is False
    code, out = run_main(module, capsys, dict(args, state='absent'))
    assert code == 0 and out['changed'] is True and [s['name'] for s in out['snapshots']] == ['before']
    code, out = run_main(module, capsys, dict(args, state='absent'))
    assert code == 0 and out['changed'] is False
