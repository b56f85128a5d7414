# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Copies of a live server or volume made straight in the service's database: a crowded project
in a second, for tests that measure what a crowd costs (through the APIs, 2,000 servers and
volumes take many minutes on a small machine: every boot and every volume runs Nova's and
Cinder's whole flows).

A copy is the template's rows (the service's own, so the schema is whatever the installed
release has) with a new id and the name ``<template name>-clone-<n>``: the APIs list it, show
it and count it like any other.  Server copies are on no host (the compute ignores them: no
power sync, no resource tracking); they hold no port, volume or allocation.  Nothing but this
module removes them (``remove``): a copy deleted through the API would ask a compute that does
not know it.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sqlite3
import uuid

# kind -> (database files under the state dir, the root table and its id column, the tables
# keyed by that id (file, table, column)); only the rows a listing or a GET reads are copied.
KINDS = {
    'server': {
        'roots': (('nova/nova_cell1.sqlite', 'instances', 'uuid'),
                  ('nova/nova_cell0.sqlite', 'instances', 'uuid')),
        'name': 'display_name',
        'cleared': ('host', 'node', 'launched_on', 'compute_id'),
        'children': (('instance_extra', 'instance_uuid'), ('instance_info_caches', 'instance_uuid'),
                     ('instance_system_metadata', 'instance_uuid'),
                     ('instance_metadata', 'instance_uuid')),
        'elsewhere': (('nova/nova_api.sqlite', 'instance_mappings', 'instance_uuid'),),
    },
    'volume': {
        'roots': (('cinder/cinder.sqlite', 'volumes', 'id'),),
        'name': 'display_name',
        'cleared': (),
        'children': (('volume_metadata', 'volume_id'), ('volume_admin_metadata', 'volume_id'),
                     ('volume_glance_metadata', 'volume_id')),
        'elsewhere': (),
    },
}


def _connect(path):
    db = sqlite3.connect(path, timeout=60, isolation_level=None)
    db.execute('PRAGMA busy_timeout = 60000')
    return db


def _columns(db, table):
    """Column names, without an integer primary key (SQLite numbers the copies)."""
    cols = []
    for _cid, name, ctype, _notnull, _default, pk in db.execute('PRAGMA table_info("%s")' % table):
        if pk and ctype.upper().startswith('INT'):
            continue
        cols.append(name)
    return cols


def _copy_rows(db, table, column, template, new_ids, fixed=None):
    cols = _columns(db, table)
    if column not in cols:
        return
    rows = db.execute('SELECT %s FROM "%s" WHERE "%s" = ?' % (
        ', '.join('"%s"' % c for c in cols), table, column), (template,)).fetchall()
    if not rows:
        return
    at = cols.index(column)
    batch = []
    for n, new_id in enumerate(new_ids):
        for row in rows:
            row = list(row)
            row[at] = new_id
            for name, value in (fixed(n) if fixed else {}).items():
                if name in cols:
                    row[cols.index(name)] = value
            batch.append(row)
    db.executemany('INSERT INTO "%s" (%s) VALUES (%s)' % (
        table, ', '.join('"%s"' % c for c in cols), ', '.join('?' * len(cols))), batch)


def _root(state_dir, kind, template):
    spec = KINDS[kind]
    for path, table, column in spec['roots']:
        full = os.path.join(state_dir, path)
        if not os.path.exists(full):
            continue
        db = _connect(full)
        row = db.execute('SELECT "%s" FROM "%s" WHERE "%s" = ? AND deleted = 0' % (
            spec['name'], table, column), (template,)).fetchone()
        if row is not None:
            return db, table, column, row[0]
        db.close()
    raise ValueError('no live %s %s to copy' % (kind, template))


def clone(state_dir, kind, template, count):
    """Make ``count`` copies of the live ``kind`` ('server' | 'volume') ``template`` (its id);
    returns their ids."""
    if kind not in KINDS:
        raise ValueError('kind is one of %s' % ', '.join(sorted(KINDS)))
    count = int(count)
    if not 0 < count <= 10000:
        raise ValueError('count is between 1 and 10000')
    spec = KINDS[kind]
    db, table, column, name = _root(state_dir, kind, template)
    new_ids = [str(uuid.uuid4()) for _i in range(count)]

    def root_values(n):
        values = dict((c, None) for c in spec['cleared'])
        values[spec['name']] = '%s-clone-%d' % (name, n)
        if 'hostname' in _columns(db, table):
            values['hostname'] = '%s-clone-%d' % (name, n)
        return values
    try:
        db.execute('BEGIN IMMEDIATE')
        _copy_rows(db, table, column, template, new_ids, root_values)
        for child, child_column in spec['children']:
            _copy_rows(db, child, child_column, template, new_ids)
        db.execute('COMMIT')
    except Exception:
        db.execute('ROLLBACK')
        raise
    finally:
        db.close()
    for path, other, other_column in spec['elsewhere']:
        extra = _connect(os.path.join(state_dir, path))
        try:
            extra.execute('BEGIN IMMEDIATE')
            _copy_rows(extra, other, other_column, template, new_ids)
            extra.execute('COMMIT')
        finally:
            extra.close()
    return new_ids


def remove(state_dir, kind, ids):
    """Delete the rows of the copies ``ids`` of ``kind``; returns how many roots went."""
    spec = KINDS[kind]
    ids = list(ids)
    gone = 0
    for path, table, column in spec['roots']:
        full = os.path.join(state_dir, path)
        if not os.path.exists(full):
            continue
        db = _connect(full)
        try:
            db.execute('BEGIN IMMEDIATE')
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                marks = ', '.join('?' * len(chunk))
                for child, child_column in spec['children']:
                    if child_column in _columns(db, child):
                        db.execute('DELETE FROM "%s" WHERE "%s" IN (%s)' % (child, child_column, marks),
                                   chunk)
                gone += db.execute('DELETE FROM "%s" WHERE "%s" IN (%s)' % (table, column, marks),
                                   chunk).rowcount
            db.execute('COMMIT')
        finally:
            db.close()
    for path, other, other_column in spec['elsewhere']:
        extra = _connect(os.path.join(state_dir, path))
        try:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                extra.execute('DELETE FROM "%s" WHERE "%s" IN (%s)' % (
                    other, other_column, ', '.join('?' * len(chunk))), chunk)
        finally:
            extra.close()
    return gone
