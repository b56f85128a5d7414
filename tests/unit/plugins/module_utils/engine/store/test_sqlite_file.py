# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A store file is a whole SQLite database, or a clear error (never "no stack")."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import sqlite3

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import (
    sqlite_file as store_file)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError


def _database(path, rows=200):
    db = sqlite3.connect(str(path))
    db.execute('CREATE TABLE t (x)')
    db.executemany('INSERT INTO t VALUES (?)', [('x' * 200,)] * rows)
    db.commit()
    db.close()


def test_no_file_is_a_new_store_and_a_whole_one_passes(tmp_path):
    assert store_file.check(str(tmp_path / 'none.sqlite')) is False
    _database(tmp_path / 'ok.sqlite')
    assert store_file.check(str(tmp_path / 'ok.sqlite')) is True


def test_an_empty_file_another_run_is_writing_is_waited_for(tmp_path):
    path = tmp_path / 'new.sqlite'
    path.write_bytes(b'')
    naps = []

    def sleep(seconds):
        naps.append(seconds)
        if len(naps) == 3:
            _database(path, rows=1)    # the other run's first page lands
    assert store_file.check(str(path), grace=10, sleep=sleep) is True
    assert len(naps) == 3


def test_an_empty_file_that_stays_empty_is_refused(tmp_path):
    path = tmp_path / 'cut.sqlite'
    path.write_bytes(b'')
    with pytest.raises(StoreError, match=r'empty \(0 bytes\).*backup'):
        store_file.check(str(path), grace=0)


def test_a_cut_file_is_refused_by_the_size_its_header_gives(tmp_path):
    path = tmp_path / 'cut.sqlite'
    _database(path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 4096])
    with pytest.raises(StoreError, match='truncated: %d bytes where its header says %d'
                       % (len(data) - 4096, len(data))):
        store_file.check(str(path))
    path.write_bytes(data[:60])
    with pytest.raises(StoreError, match=r'truncated \(60 bytes\)'):
        store_file.check(str(path))


def test_other_bytes_a_directory_and_an_unreadable_file_are_refused(tmp_path, monkeypatch):
    path = tmp_path / 'junk.sqlite'
    path.write_bytes(b'{"stacks": []}' * 10)
    with pytest.raises(StoreError, match='not an SQLite database'):
        store_file.check(str(path))
    (tmp_path / 'dir.sqlite').mkdir()
    with pytest.raises(StoreError, match='not a regular file'):
        store_file.check(str(tmp_path / 'dir.sqlite'))
    _database(tmp_path / 'locked.sqlite')

    def refused(*args, **kwargs):
        raise PermissionError(13, 'Permission denied')
    monkeypatch.setattr(store_file, 'open', refused, raising=False)
    with pytest.raises(StoreError, match='Cannot open the state store .*Permission denied'):
        store_file.check(str(tmp_path / 'locked.sqlite'))
