# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lazy reading of a Swift store (store_swift_read.py): what one stack costs in a container of many,
counted as requests to the fake Swift."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store_swift import SwiftStore

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

URL = 'swift://state/team'
OWNER = 'host-a:1:aa'


@pytest.fixture
def cloud():
    return swift_fake.cloud()


def _make(conn, name, nested=True):
    """A stack with two resources, a nested stack holding one, and events in both."""
    store = SwiftStore(URL, conn)
    try:
        top = store.lock(name, OWNER, 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
        for res in ('a', 'b'):
            store.save_resource(ResourceRow(uuid=str(uuid.uuid4()), name=res, stack_id=top['id'],
                                            physical_id='%s-%s' % (name, res)))
            store.add_event(top['id'], {'resource_name': res, 'resource_status': 'CREATE_COMPLETE'})
        if nested:
            child = store.create_stack({'name': name + '-b-x', 'parent_id': top['id'], 'parent_resource': 'b',
                                        'action': 'CREATE', 'status': 'COMPLETE'})
            store.save_resource(ResourceRow(uuid=str(uuid.uuid4()), name='c', stack_id=child['id'],
                                            physical_id='%s-c' % name))
            store.add_event(child['id'], {'resource_name': 'c', 'resource_status': 'CREATE_COMPLETE'})
        store.unlock(top['id'], OWNER)
        return top['id']
    finally:
        store.close()


def _show(conn, name):
    """What heat_stack_info asks of a store for one stack: its row, resources, nested stacks, events."""
    store = SwiftStore(URL, conn, writable=False)
    try:
        stack = store.get_stack(name)
        children = store.children(stack['id'])
        rows = store.resources(stack['id']) + store.resources(children[0]['id'])
        events = store.events(stack['id']) + store.events(children[0]['id'])
        return stack, rows, events
    finally:
        store.close()


def _requests(proxy):
    return [(m, p) for m, p, _kw in proxy.requests]


def test_one_stack_costs_the_same_in_a_container_of_one_or_of_fifty(cloud):
    conn, swift, proxy = cloud
    _make(conn, 'st7')
    proxy.requests[:] = []
    stack, rows, events = _show(conn, 'st7')
    alone = _requests(proxy)
    assert stack['name'] == 'st7' and sorted(r.name for r in rows) == ['a', 'b', 'c']
    assert [e['resource_name'] for e in events] == ['a', 'b', 'c']
    for n in range(50):
        _make(conn, 'other%d' % n)
    proxy.requests[:] = []
    stack, rows, events = _show(conn, 'st7')
    among_fifty = _requests(proxy)
    assert sorted(r.name for r in rows) == ['a', 'b', 'c'] and len(events) == 3
    assert len(among_fifty) == len(alone)
    # a HEAD, one listing of the stack's tree, then one GET per object of that tree (2 stack rows,
    # 3 resources, 3 events): nothing of the 50 other stacks
    assert len(among_fifty) == 1 + 1 + 8, among_fifty
    assert not [p for _m, p in among_fifty if 'other' in p]


def test_a_stack_list_reads_the_stack_rows_alone(cloud):
    conn, _swift, proxy = cloud
    for n in range(3):
        _make(conn, 'st%d' % n)
    proxy.requests[:] = []
    store = SwiftStore(URL, conn, writable=False)
    try:
        names = sorted(s['name'] for s in store.stacks())
    finally:
        store.close()
    assert names == ['st0', 'st0-b-x', 'st1', 'st1-b-x', 'st2', 'st2-b-x']
    read = [p for m, p in _requests(proxy) if m == 'GET' and p.endswith('.json')]
    assert len(read) == 6 and all('/stack/' in p for p in read), read


def test_events_are_read_when_asked_and_a_second_look_reads_only_what_changed(cloud):
    conn, _swift, proxy = cloud
    stack_id = _make(conn, 'st', nested=False)
    reader = SwiftStore(URL, conn, writable=False)
    try:
        proxy.requests[:] = []
        reader.get_stack('st')
        assert not [p for _m, p in _requests(proxy) if '/events/' in p]     # noted, not read
        assert len(reader.events(stack_id)) == 2
        writer = SwiftStore(URL, conn)
        try:
            writer.lock('st', OWNER, 60)
            writer.add_event(stack_id, {'resource_name': 'a', 'resource_status': 'UPDATE_COMPLETE'})
            writer.update_stack(stack_id, status_reason='updated')
            writer.unlock(stack_id, OWNER)
        finally:
            writer.close()
        proxy.requests[:] = []
        reader._load_tree('st')     # what taking the lock does: the tree listed again
        assert reader.get_stack('st')['status_reason'] == 'updated'
        assert [e['resource_status'] for e in reader.events(stack_id)][-1] == 'UPDATE_COMPLETE'
        got = [p for m, p in _requests(proxy) if m == 'GET' and p.endswith('.json')]
        assert len(got) == 2 and [p for p in got if '/events/' in p] == [got[-1]], got
    finally:
        reader.close()


def test_a_resource_of_another_tree_is_found_by_its_physical_id(cloud):
    conn, _swift, _proxy = cloud
    _make(conn, 'one')
    _make(conn, 'two')
    store = SwiftStore(URL, conn, writable=False)
    try:
        store.get_stack('one')
        assert store.resource_by_physical_id('one-a').name == 'a'
        assert store.resource_by_physical_id('two-c').name == 'c'       # read on demand
        assert store.resource_by_physical_id('nowhere') is None
    finally:
        store.close()


def test_deleting_a_stack_tree_leaves_no_object_of_it(cloud):
    conn, swift, _proxy = cloud
    stack_id = _make(conn, 'gone')
    _make(conn, 'kept', nested=False)
    store = SwiftStore(URL, conn)
    try:
        store.lock('gone', OWNER, 60)
        child = store.children(stack_id)[0]
        store.delete_stack(stack_id)        # the parent first: its child's objects are still found
        store.delete_stack(child['id'])
    finally:
        store.close()
    left = [n for n in swift.objects('state') if '/versions/' not in n]
    assert left and all(n.startswith('team/stacks/kept/') for n in left), left
