# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_migrate through its real main(), between two SQLite files (no
cloud: Heat types; the Swift side is test_migrate.py's)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_migrate as module

TEMPLATE = '''heat_template_version: 2021-04-16
resources:
  a: {type: OS::Heat::RandomString}
outputs:
  o: {value: {get_attr: [a, value]}}
'''


def run_module(capsys, args):
    return run_main(module, capsys, args)


def test_moves_a_stack_and_refuses_both_stores_of_one_side(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    source, target = str(tmp_path / 'a.sqlite'), str(tmp_path / 'b.sqlite')
    made = runner.run(runner.StackRequest('web', template=str(path), store_path=source), None)
    code, out = run_module(capsys, {'name': 'web', 'store_path': source, 'to_store_path': target})
    assert code == 0 and out['changed'] is True and (out['source'], out['target']) == (source, target)
    again = runner.run(runner.StackRequest('web', template=str(path), store_path=target), None)
    assert again['changed'] is False and again['stack']['outputs'] == made['stack']['outputs']
    assert Store(source).get_stack('web') is None
    code, out = run_module(capsys, {'name': 'web', 'store_path': target, 'store_url': 'swift://c',
                                    'to_store_path': source})
    assert code == 1 and 'mutually exclusive' in out['msg']
