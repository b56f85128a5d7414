# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Rotating a store's key: every secret readable under the new key only."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import rotate
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError

TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  pw: {type: string, hidden: true}
resources:
  a: {type: OS::Heat::RandomString}
outputs:
  o: {value: {get_attr: [a, value]}}
'''


@pytest.fixture
def made(tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    store = str(tmp_path / 's.sqlite')

    def run(key=None, **kw):
        return runner.run(runner.StackRequest('web', template=str(path), store_path=store,
                                              parameters={'pw': 'hunter2'}, store_key=key, **kw), None)
    return store, run


def encrypted(store):
    s = Store(store)
    try:
        stack = s.get_stack('web')
        rows = [r for r in s.resources(stack['id']) if r.secret_data]
        return stack.get('secrets'), stack.get('outputs'), [r.secret_data for r in rows]
    finally:
        s.close()


def test_user_key_to_another_user_key(made):
    store, run = made
    first = run('old-secret')
    before = encrypted(store)
    counts = rotate.rotate_key(store, 'old-secret', 'new-secret')
    assert counts == {'stacks': 1, 'secrets': 3}
    after = encrypted(store)
    assert all(a != b for a, b in zip(before[:2], after[:2])) and before[2] != after[2]
    # the new key reads everything (the random string is kept, not made again)
    again = run('new-secret', existing=True)
    assert again['changed'] is False and again['stack']['outputs'] == first['stack']['outputs']
    with pytest.raises(StoreError, match='cannot be decrypted'):
        run('old-secret', existing=True)


def test_key_file_to_a_new_key_file(made):
    store, run = made
    first = run()
    old = open(store + '.key', 'rb').read()
    counts = rotate.rotate_key(store)
    assert counts['secrets'] == 2            # outputs and the random string (no user key: no hidden values)
    assert open(store + '.key', 'rb').read() != old and not os.path.exists(store + '.key.new')
    assert os.stat(store + '.key').st_mode & 0o777 == 0o600
    assert run()['stack']['outputs'] == first['stack']['outputs']


def test_user_key_to_key_file_drops_hidden_values(made):
    store, run = made
    run('old-secret')
    rotate.rotate_key(store, 'old-secret')
    assert encrypted(store)[0] is None
    run()


def test_check_mode_decrypts_and_writes_nothing(made):
    store, run = made
    run('old-secret')
    before = encrypted(store)
    assert rotate.rotate_key(store, 'old-secret', 'x', check_mode=True)['secrets'] == 3
    assert encrypted(store) == before
    with pytest.raises(StoreError, match='cannot be decrypted with the old key'):
        rotate.rotate_key(store, 'wrong', 'x', check_mode=True)
    assert encrypted(store) == before


def test_refused_while_a_run_holds_a_stack(made):
    store, run = made
    run('k')
    s = Store(store)
    s.lock('web', 'someone@host:1', 60)
    s.close()
    with pytest.raises(StoreError, match='being run'):
        rotate.rotate_key(store, 'k', 'k2')


def test_no_store_no_key(tmp_path):
    with pytest.raises(StoreError, match='no state store'):
        rotate.rotate_key(str(tmp_path / 'none.sqlite'))
    Store(str(tmp_path / 'empty.sqlite')).close()
    with pytest.raises(StoreError, match='no key file'):
        rotate.rotate_key(str(tmp_path / 'empty.sqlite'))
