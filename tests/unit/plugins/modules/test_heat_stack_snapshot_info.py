# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_snapshot_info through its real main(): list, show by name or
id, an unknown stack or snapshot named in the failure, no cloud asked."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner, snapshot
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_snapshot_info as module

TEMPLATE = '''heat_template_version: 2021-04-16
resources:
  a: {type: OS::Heat::TestResource, properties: {value: one}}
'''


def test_list_and_show(capsys, tmp_path):
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    store = str(tmp_path / 's.sqlite')
    runner.run(runner.StackRequest('web', template=str(path), store_path=store), None)
    code, out = run_main(module, capsys, {'stack': 'web', 'store_path': store})
    assert code == 0 and out['snapshots'] == [] and out['changed'] is False
    taken = snapshot.snapshot(snapshot.SnapshotRequest('web', name='s', store_path=store), None)['snapshot']
    code, out = run_main(module, capsys, {'stack': 'web', 'store_path': store})
    assert code == 0 and [s['id'] for s in out['snapshots']] == [taken['id']]
    code, out = run_main(module, capsys, {'stack': 'web', 'name': 's', 'store_path': store})
    assert code == 0 and out['snapshot'] == taken
    code, out = run_main(module, capsys, {'stack': 'web', 'id': taken['id'], 'store_path': store})
    assert code == 0 and out['snapshot']['name'] == 's'
    code, out = run_main(module, capsys, {'stack': 'web', 'name': 'other', 'store_path': store})
    assert code == 1 and out['msg'] == 'The Snapshot (other) for Stack (web) could not be found.'
    code, out = run_main(module, capsys, {'stack': 'nope', 'store_path': store})
    assert code == 1 and 'The Stack (nope) could not be found' in out['msg']
