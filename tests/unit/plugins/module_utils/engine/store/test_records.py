# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import (records,
                                                                                          sqlite as store)
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow, Rows


def test_a_row_has_exactly_the_columns_of_the_resources_table():
    assert set(records.COLUMNS) == set(store._RESOURCE_COLS)
    assert len(records.COLUMNS) == len(store._RESOURCE_COLS)


def test_rows_are_changed_by_copy_only():
    row = ResourceRow(uuid='u', name='a', status='IN_PROGRESS')
    done = row.replace(status='COMPLETE')
    assert (row.status, done.status) == ('IN_PROGRESS', 'COMPLETE')
    assert done.uuid == 'u' and done.role == records.CURRENT
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.status = 'COMPLETE'


def test_facts_is_never_none():
    assert ResourceRow(uuid='u', name='a').facts == {}
    assert ResourceRow(uuid='u', name='a', data={'k': 1}).facts == {'k': 1}


def test_rows_index_by_name_follows_every_change():
    rows = Rows()
    rows['u1'] = ResourceRow(uuid='u1', name='a')
    rows['u2'] = ResourceRow(uuid='u2', name='a', role=records.NEW)
    rows['u3'] = ResourceRow(uuid='u3', name='b')
    assert [r.uuid for r in rows.of('a')] == ['u1', 'u2']
    assert [r.uuid for r in rows.of('a', records.NEW)] == ['u2']
    rows['u3'] = rows['u3'].replace(name='c')           # renamed: moves in the index
    assert rows.of('b') == [] and [r.uuid for r in rows.of('c')] == ['u3']
    del rows['u1']
    assert [r.uuid for r in rows.of('a')] == ['u2']
    assert rows.pop('u2').uuid == 'u2' and rows.of('a') == []
    assert rows.pop('missing', None) is None
    with pytest.raises(KeyError):
        rows.pop('missing')


def test_replace_is_dataclasses_replace():
    """The row's own replace (no per-call introspection) makes what
    dataclasses.replace makes, leaves the original as it was, and refuses a
    name that is no field."""
    row = ResourceRow(uuid='u1', name='a', type='OS::Heat::None', data={'k': 1},
                      requires=['b'], status='IN_PROGRESS')
    changed = row.replace(status='COMPLETE', physical_id='p1')
    assert changed == dataclasses.replace(row, status='COMPLETE', physical_id='p1')
    assert changed is not row and row.status == 'IN_PROGRESS' and row.physical_id is None
    assert changed.data is row.data and changed.requires == ['b']
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.status = 'FAILED'
    with pytest.raises(TypeError, match='no field colour'):
        row.replace(colour='red')
