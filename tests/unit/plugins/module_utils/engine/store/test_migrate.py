# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.migrate import MigrateRequest, migrate
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    StackersError, StackLocked, StackNotFound, StoreError)

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

URL = 'swift://state/p'
# a nested stack (its own record), a generated secret and a hidden value
NESTED = '''
heat_template_version: 2018-08-31
resources:
  inner: {type: OS::Heat::RandomString}
outputs:
  v: {value: {get_attr: [inner, value]}}
'''
TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true}
resources:
  r: {type: OS::Heat::RandomString}
  v: {type: OS::Heat::Value, properties: {value: {get_param: pw}}}
  n: {type: nested.yaml}
outputs:
  secret: {value: {get_attr: [r, value]}}
  inner: {value: {get_attr: [n, v]}}
'''


@pytest.fixture
def made(stacks, monkeypatch):
    """A stack in the SQLite store, its secrets under the key file (no user key)."""
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    (stacks.dir / 'nested.yaml').write_text(NESTED)
    text = TEMPLATE.replace('type: nested.yaml', 'type: %s' % (stacks.dir / 'nested.yaml'))
    result = stacks.run(text, parameters={'pw': 'x'})
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    return text, result['stack']['outputs']


def _counts(store, name='st'):
    stack = store.get_stack(name)
    kids = store.children(stack['id'])
    return (len(kids), len(store.resources(stack['id'])), len(store.events(stack['id'])))


def test_a_stack_moves_to_swift_and_back_with_its_nested_stacks_and_secrets(stacks, made):
    text, outputs = made
    conn, swift, _proxy = swift_fake.cloud()
    before = Store(stacks.store_path)
    counts = _counts(before)
    before.close()
    moved = migrate(MigrateRequest('st', store_path=stacks.store_path, to_store_url=URL, store_key='k'), conn)
    assert moved['target'] == URL and moved['resources'] == counts[1] + 1
    assert stacks.rows() == {}                    # gone from the source
    # run from Swift: nothing to change, the same generated values read back
    again = runner.run(stacks.request(text, store_path=None, store_url=URL, store_key='k',
                                      parameters={'pw': 'x'}), conn)
    assert again['changed'] is False and again['stack']['outputs'] == outputs
    assert any(n.startswith('p/versions/st/') for n in swift.objects('state'))
    # and back to another SQLite file, kept in Swift too
    back = str(stacks.dir / 'back.sqlite')
    migrate(MigrateRequest('st', store_url=URL, to_store_path=back, store_key='k', keep_source=True), conn)
    store = Store(back)
    assert _counts(store)[:2] == counts[:2] and _counts(store)[2] > counts[2]
    assert store.get_stack('st')['lock_owner'] is None
    store.close()


def test_refusals_leave_both_stores_whole(stacks, made):
    conn, swift, _proxy = swift_fake.cloud()
    with pytest.raises(StackNotFound, match='"nope" not found in .*nothing to migrate'):
        migrate(MigrateRequest('nope', store_path=stacks.store_path, to_store_url=URL, store_key='k'), conn)
    with pytest.raises(StackersError, match='the same'):
        migrate(MigrateRequest('st', store_path=stacks.store_path, to_store_path=stacks.store_path))
    with pytest.raises(StoreError, match='give store_key'):
        migrate(MigrateRequest('st', store_path=stacks.store_path, to_store_url=URL), conn)
    copy = MigrateRequest('st', store_path=stacks.store_path, to_store_url=URL, store_key='k', keep_source=True)
    migrate(copy, conn)
    with pytest.raises(StoreError, match='already in swift://state/p'):
        migrate(copy, conn)
    # a run holding the source's lock: refused, nothing copied
    other = str(stacks.dir / 'other.sqlite')
    store = Store(stacks.store_path)
    store.lock('st', 'otherhost:1:aa', 60)
    with pytest.raises(StackLocked, match='otherhost:1:aa'):
        migrate(MigrateRequest('st', store_path=stacks.store_path, to_store_path=other))
    store.close()
    assert Store(other).get_stack('st') is None
    assert stacks.rows() != {}


def test_check_mode_writes_nothing(stacks, made):
    conn, swift, proxy = swift_fake.cloud()
    moved = migrate(MigrateRequest('st', store_path=stacks.store_path, to_store_url=URL, store_key='k',
                                   check_mode=True), conn)
    assert moved['changed'] is True and 'resources' not in moved
    assert [n for n in swift.objects('state') if '.stackers-probe' not in n] == []
    assert stacks.rows() != {}
