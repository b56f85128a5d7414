# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The chaos campaign's judge alone (no cloud): orphans, duplicates and lost records from a ledger,
the cloud's resources and a store file."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import sqlite3

from bench import chaos_judge as cj


def _store(path, rows):
    db = sqlite3.connect(str(path))
    db.execute('CREATE TABLE resources (physical_id TEXT, physical_name TEXT)')
    db.executemany('INSERT INTO resources VALUES (?, ?)', rows)
    db.commit()
    db.close()
    return str(path)


def _create(seq, kind, ident, name=None):
    return {'seq': seq, 'op': 'create', 'kind': kind, 'id': ident, 'name': name}


def test_logical_names():
    assert cj.logical('web-port1-abcdef123456') == 'web-port1'
    assert cj.logical('web-key') is None and cj.logical(None) is None


def test_orphans_duplicates_and_lost(tmp_path):
    store = _store(tmp_path / 's.sqlite', [('p1', 'web-port1-aaaaaaaaaaaa'), ('v1', 'web-vol1-bbbbbbbbbbbb'),
                                           ('gone', 'web-net-cccccccccccc')])
    ledger = {'entries': [
        _create(1, 'ports', 'p1', 'web-port1-aaaaaaaaaaaa'),
        _create(2, 'ports', 'p2', 'web-port1-dddddddddddd'),     # a second port1: a duplicate
        _create(3, 'volumes', 'v1', 'web-vol1-bbbbbbbbbbbb'),
        _create(4, 'floatingips', 'f9', None),                    # nobody knows it: an orphan
        _create(5, 'networks', 'gone', 'web-net-cccccccccccc'),   # recorded, not in the cloud: lost
        _create(6, 'ports', 'p3', 'web-port2-eeeeeeeeeeee'),      # made and deleted: fine
        {'seq': 7, 'op': 'delete', 'kind': 'ports', 'id': 'p3', 'name': None},
        _create(8, 'security-group-rules', 'r1', None),           # a kind the cloud does not list
    ]}
    resources = {'ports': [{'id': 'p1'}, {'id': 'p2'}], 'volumes': [{'id': 'v1'}],
                 'floating_ips': [{'id': 'f9'}], 'networks': []}
    verdict = cj.judge(ledger, resources, [store])
    assert verdict['duplicates'] == ['ports p2 (web-port1-dddddddddddd)']
    assert verdict['orphans'] == ['floating_ips f9 (None)']
    assert verdict['lost'] == ['networks gone (web-net-cccccccccccc) recorded, not in the cloud']
    # a window after the duplicate and the orphan were made sees neither
    later = cj.judge(ledger, resources, [store], after=4)
    assert later['duplicates'] == [] and later['orphans'] == []


def test_key_pairs_are_known_by_name_and_a_missing_store_records_nothing(tmp_path):
    ledger = {'entries': [_create(1, 'os-keypairs', 'web-key', 'web-key')]}
    resources = {'keypairs': [{'name': 'web-key', 'user_id': 'u'}]}
    assert cj.judge(ledger, resources, [str(tmp_path / 'none.sqlite')])['orphans'] == \
        ['keypairs web-key (web-key)']
    store = _store(tmp_path / 's.sqlite', [('web-key', 'web-key')])
    assert cj.judge(ledger, resources, [store]) == {'orphans': [], 'duplicates': [], 'lost': []}
