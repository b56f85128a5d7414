# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Rotating a Swift store's key: every value of every object (rows of nested stacks and kept
versions too) readable under the new key only, a rotation stopped half-way finished by running it
again, a stack held by a run named and left alone."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.rotate_swift import rotate_swift_key
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Vault, fernet_key
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.swift import SwiftStore
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackLocked, StoreError

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

URL = 'swift://state/team'
TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 12}}
  g:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: OS::Heat::RandomString}
outputs:
  secret: {value: {get_attr: [r, value]}}
  group: {value: {get_attr: [g, value]}}
'''


@pytest.fixture
def cloud():
    return swift_fake.cloud()


def _run(stacks, conn, key, name='st', **kw):
    request = stacks.request(TEMPLATE, name=name, store_path=None, store_url=URL, store_key=key,
                             parameters={'pw': 'hunter2'}, **kw)
    return runner.run(request, conn)


def _tokens(swift):
    """Every encrypted value in the container: (object, token)."""
    out = []
    for name, (body, _ts) in swift.containers['state']['objects'].items():
        if not name.endswith('.json'):
            continue
        doc = json.loads(body)
        docs = doc.get('stacks', []) + doc.get('resources', []) if 'stacks' in doc else [doc]
        for one in docs:
            for key in ('secrets', 'outputs', 'secret_data'):
                if isinstance(one.get(key), str):
                    out.append((name, one[key]))
    return out


def _readable(token, key):
    try:
        Vault(fernet_key(key), user_key=True).decrypt(token)
        return True
    except StoreError:
        return False


def _rotate(conn, old, new, check_mode=False):
    store = SwiftStore(URL, conn)
    try:
        return rotate_swift_key(store, old, new, check_mode=check_mode)
    finally:
        store.close()


def test_every_value_live_nested_and_kept_is_under_the_new_key(stacks, cloud):
    conn, swift, proxy = cloud
    made = _run(stacks, conn, 'old')
    _run(stacks, conn, 'old', existing=True)            # a second version kept
    before = _tokens(swift)
    assert any('/versions/' in n for n, _t in before) and any('/resources/' in n for n, _t in before)
    assert all(_readable(t, 'old') for _n, t in before)
    # check mode reads every value with the key it is given and writes nothing
    proxy.requests[:] = []
    assert _rotate(conn, 'old', None, check_mode=True)['stacks'] == 2     # st and its group
    assert proxy.writes() == []
    with pytest.raises(StoreError, match='cannot be decrypted with this key'):
        _rotate(conn, 'wrong', 'new', check_mode=True)
    counts = _rotate(conn, 'old', 'new')
    assert counts['stacks'] == 2 and counts['secrets'] >= 5
    after = _tokens(swift)
    assert sorted(n for n, _t in after) == sorted(n for n, _t in before)
    assert all(_readable(t, 'new') and not _readable(t, 'old') for _n, t in after)
    assert not any(n.endswith('.lock') for n in swift.containers['state']['objects'])
    # another node reads the stack with the new key: the same secrets, nothing made again
    again = _run(stacks, conn, 'new', existing=True)
    assert again['changed'] is False and again['stack']['outputs'] == made['stack']['outputs']
    with pytest.raises(StoreError, match='cannot be decrypted'):
        _run(stacks, conn, 'old', existing=True)


def test_a_held_stack_stops_the_rotation_and_the_same_command_finishes_it(stacks, cloud):
    conn, swift, _proxy = cloud
    _run(stacks, conn, 'old', name='a')
    _run(stacks, conn, 'old', name='b')
    held = SwiftStore(URL, conn)
    locked = held.lock('b', 'a-run-elsewhere', 600)
    try:
        with pytest.raises(StackLocked, match='"b"'):
            _rotate(conn, 'old', 'new')
    finally:
        held.unlock(locked['id'], 'a-run-elsewhere')
        held.close()
    # half-way: stack a is under the new key, b still under the old one
    mixed = _tokens(swift)
    assert all(_readable(t, 'new') for n, t in mixed if '/stacks/a/' in n)
    assert all(_readable(t, 'old') for n, t in mixed if '/stacks/b/' in n)
    assert _rotate(conn, 'old', 'new')['stacks'] == 4
    assert all(_readable(t, 'new') for _n, t in _tokens(swift))


def test_a_swift_store_is_rotated_between_two_user_keys(cloud, monkeypatch):
    conn, _swift, _proxy = cloud
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    with pytest.raises(StoreError, match='give store_key'):
        _rotate(conn, None, 'new')
    with pytest.raises(StoreError, match='give new_store_key'):
        _rotate(conn, 'old', None)
