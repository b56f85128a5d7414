# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_info through its real main(): options in, the JSON Ansible
reads out, on a store a real engine run filled (no cloud: Heat types)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_info as module

TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  pw: {type: string, hidden: true}
resources:
  a: {type: OS::Heat::Value, properties: {value: {get_param: pw}}}
outputs:
  o: {value: done}
'''


def run_module(capsys, args):
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    return exc.value.code, json.loads(capsys.readouterr().out)


@pytest.fixture
def store_path(tmp_path):
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    store = str(tmp_path / 's.sqlite')
    runner.run(runner.StackRequest('web', template=str(path), parameters={'pw': 'hunter2-secret'},
                                   store_path=store), None)
    return store


def test_lists_and_shows(capsys, store_path):
    code, out = run_module(capsys, {'store_path': store_path})
    assert code == 0 and out['changed'] is False
    assert [s['stack_name'] for s in out['stacks']] == ['web']
    code, out = run_module(capsys, {'store_path': store_path, 'name': 'web', 'output': 'o',
                                    '_ansible_check_mode': True})
    assert code == 0 and out['stack']['parameters']['pw'] == '******'
    assert out['output']['output_value'] == 'done'
    assert [r['resource_name'] for r in out['resources']] == ['a']
    assert out['events'][0]['resource_status'] == 'CREATE_IN_PROGRESS'
    assert 'hunter2-secret' not in json.dumps(out)


def test_unknown_stack_fails_naming_it(capsys, store_path):
    code, out = run_module(capsys, {'store_path': store_path, 'name': 'nope'})
    assert code == 1 and out['failed'] is True
    assert 'The Stack (nope) could not be found' in out['msg']
    assert out['error']['type'] == 'StackNotFound'
