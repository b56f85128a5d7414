# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import inspect

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import backends as stores
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.swift import SwiftStore
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402


def test_sqlite_is_the_default_and_a_store_url_selects_swift(tmp_path):
    path = str(tmp_path / 's.sqlite')
    store = stores.open_store(path)
    assert isinstance(store, Store) and store.path == path
    store.close()
    conn, _swift, _proxy = swift_fake.cloud()
    store = stores.open_store(None, 'swift://c/p', conn)
    assert isinstance(store, SwiftStore) and store.path == 'swift://c/p'
    store.close()
    with pytest.raises(StoreError, match='store_path or store_url, not both'):
        stores.open_store(path, 'swift://c/p', conn)


def test_both_backends_have_every_method_of_the_interface():
    wanted = [n for n in vars(stores.StateStore) if not n.startswith('_') and callable(vars(stores.StateStore)[n])]
    assert 'lock' in wanted and 'add_event' in wanted
    for backend in (Store, SwiftStore):
        for name in wanted:
            assert inspect.signature(getattr(backend, name)).parameters.keys() == \
                inspect.signature(getattr(stores.StateStore, name)).parameters.keys(), (backend, name)
