# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/clone.py on small stand-ins of Nova's and Cinder's tables (no cloud needed)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sqlite3

import pytest

from localcloud import clone


def _db(path, script):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript(script)
    db.commit()
    db.close()


@pytest.fixture
def state(tmp_path):
    d = str(tmp_path)
    _db(os.path.join(d, 'nova', 'nova_cell1.sqlite'), """
        CREATE TABLE instances (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT UNIQUE,
            display_name TEXT, hostname TEXT, host TEXT, node TEXT, project_id TEXT, deleted INT);
        CREATE TABLE instance_extra (id INTEGER PRIMARY KEY, instance_uuid TEXT, flavor TEXT);
        CREATE TABLE instance_info_caches (id INTEGER PRIMARY KEY, instance_uuid TEXT, network_info TEXT);
        CREATE TABLE instance_system_metadata (id INTEGER PRIMARY KEY, instance_uuid TEXT, key TEXT);
        CREATE TABLE instance_metadata (id INTEGER PRIMARY KEY, instance_uuid TEXT, key TEXT);
        INSERT INTO instances (uuid, display_name, hostname, host, node, project_id, deleted)
            VALUES ('s-1', 'crowd', 'crowd', 'localcloud', 'localcloud', 'p', 0);
        INSERT INTO instance_extra (instance_uuid, flavor) VALUES ('s-1', '{"tiny": 1}');
        INSERT INTO instance_info_caches (instance_uuid, network_info) VALUES ('s-1', '[]');
        INSERT INTO instance_system_metadata (instance_uuid, key) VALUES ('s-1', 'a'), ('s-1', 'b');
    """)
    _db(os.path.join(d, 'nova', 'nova_api.sqlite'), """
        CREATE TABLE instance_mappings (id INTEGER PRIMARY KEY, instance_uuid TEXT, project_id TEXT);
        INSERT INTO instance_mappings (instance_uuid, project_id) VALUES ('s-1', 'p');
    """)
    _db(os.path.join(d, 'cinder', 'cinder.sqlite'), """
        CREATE TABLE volumes (id TEXT PRIMARY KEY, display_name TEXT, project_id TEXT, deleted INT);
        CREATE TABLE volume_metadata (id INTEGER PRIMARY KEY, volume_id TEXT, key TEXT);
        CREATE TABLE volume_admin_metadata (id INTEGER PRIMARY KEY, volume_id TEXT, key TEXT);
        CREATE TABLE volume_glance_metadata (id INTEGER PRIMARY KEY, volume_id TEXT, key TEXT);
        INSERT INTO volumes VALUES ('v-1', 'vol', 'p', 0);
        INSERT INTO volume_metadata (volume_id, key) VALUES ('v-1', 'k');
    """)
    return d


def _rows(state, path, sql):
    db = sqlite3.connect(os.path.join(state, path))
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def test_server_copies_carry_every_row_a_listing_reads_on_no_host(state):
    ids = clone.clone(state, 'server', 's-1', 3)
    assert len(set(ids)) == 3 and 's-1' not in ids
    cell = 'nova/nova_cell1.sqlite'
    copies = _rows(state, cell, "SELECT uuid, display_name, hostname, host, node, project_id "
                                "FROM instances WHERE uuid != 's-1' ORDER BY id")
    assert copies == [(ids[n], 'crowd-clone-%d' % n, 'crowd-clone-%d' % n, None, None, 'p')
                      for n in range(3)]
    assert _rows(state, cell, "SELECT count(*) FROM instance_system_metadata")[0][0] == 8
    assert _rows(state, cell, "SELECT count(*) FROM instance_extra WHERE flavor = '{\"tiny\": 1}'")[0][0] == 4
    assert _rows(state, 'nova/nova_api.sqlite', "SELECT count(*) FROM instance_mappings")[0][0] == 4
    assert clone.remove(state, 'server', ids) == 3
    assert _rows(state, cell, "SELECT uuid FROM instances") == [('s-1',)]
    assert _rows(state, cell, "SELECT count(*) FROM instance_system_metadata")[0][0] == 2
    assert _rows(state, 'nova/nova_api.sqlite', "SELECT instance_uuid FROM instance_mappings") == [('s-1',)]


def test_volume_copies_and_their_metadata(state):
    ids = clone.clone(state, 'volume', 'v-1', 2)
    path = 'cinder/cinder.sqlite'
    assert sorted(_rows(state, path, "SELECT display_name FROM volumes")) == [
        ('vol',), ('vol-clone-0',), ('vol-clone-1',)]
    assert _rows(state, path, "SELECT count(*) FROM volume_metadata")[0][0] == 3
    assert clone.remove(state, 'volume', ids) == 2
    assert _rows(state, path, "SELECT id FROM volumes") == [('v-1',)]


def test_only_live_objects_of_a_known_kind_are_copied(state):
    with pytest.raises(ValueError, match='no live server nope'):
        clone.clone(state, 'server', 'nope', 1)
    with pytest.raises(ValueError, match='kind is one of'):
        clone.clone(state, 'network', 'n-1', 1)
    with pytest.raises(ValueError, match='count'):
        clone.clone(state, 'volume', 'v-1', 0)
