# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_store_rotate_key through its real main(): an SQLite store, and a Swift store (a fake Swift)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils import connection
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.modules import heat_store_rotate_key as module

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

TEMPLATE = '''heat_template_version: 2021-04-16
resources:
  a: {type: OS::Heat::RandomString}
outputs:
  o: {value: {get_attr: [a, value]}}
'''


def run_module(capsys, args, check=False):
    return run_main(module, capsys, args, check=check)


def test_rotates_and_hides_both_keys(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    store = str(tmp_path / 's.sqlite')
    made = runner.run(runner.StackRequest('web', template=str(path), store_path=store,
                                          store_key='OLD-canary-1'), None)
    args = {'store_path': store, 'store_key': 'OLD-canary-1', 'new_store_key': 'NEW-canary-2'}
    code, out = run_module(capsys, args, check=True)
    assert code == 0 and out['changed'] is False and out['secrets'] == 2
    code, out = run_module(capsys, args)
    assert code == 0 and out['changed'] is True and (out['stacks'], out['secrets']) == (1, 2)
    assert 'canary' not in json.dumps(out)
    again = runner.run(runner.StackRequest('web', template=str(path), store_path=store,
                                           store_key='NEW-canary-2'), None)
    assert again['stack']['outputs'] == made['stack']['outputs']
    code, out = run_module(capsys, args)
    assert code == 1 and 'cannot be decrypted with the old key' in out['msg']


def test_a_swift_store_through_the_cloud_the_auth_options_name(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    conn, _swift, _proxy = swift_fake.cloud()
    opened = []
    monkeypatch.setattr(connection, 'openstack_connection', lambda params: opened.append(params['cloud']) or conn)
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    made = runner.run(runner.StackRequest('web', template=str(path), store_url='swift://state/p',
                                          store_key='OLD-canary-1'), conn)
    args = {'cloud': 'prod', 'store_url': 'swift://state/p', 'store_key': 'OLD-canary-1',
            'new_store_key': 'NEW-canary-2'}
    code, out = run_module(capsys, args)
    assert code == 0 and out['changed'] is True and (out['stacks'], out['secrets']) == (1, 2)
    assert out['store_url'] == 'swift://state/p' and 'store_path' not in out and opened == ['prod']
    assert 'canary' not in json.dumps(out)
    again = runner.run(runner.StackRequest('web', template=str(path), store_url='swift://state/p',
                                           store_key='NEW-canary-2'), conn)
    assert again['changed'] is False and again['stack']['outputs'] == made['stack']['outputs']
    code, out = run_module(capsys, dict(args, store_path=str(tmp_path / 's.sqlite')))
    assert code == 1 and 'mutually exclusive' in out['msg']
