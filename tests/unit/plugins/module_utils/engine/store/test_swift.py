# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Swift store (engine/store/swift.py) against the fake Swift: a run's record, its lazy
reading (what one stack costs in a container of many, counted as requests) and the lock."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import time
import uuid

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.info import InfoRequest, info
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import swift as ss
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.swift import SwiftStore
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackLocked, StoreError

from ...resources.heat import swift_fake

URL = 'swift://state/team'
OWNER = 'host-a:1:aa'
TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 12}}
  v: {type: OS::Heat::Value, properties: {value: {get_param: pw}}}
outputs:
  secret: {value: {get_attr: [r, value]}}
'''


@pytest.fixture
def cloud():
    return swift_fake.cloud()


def _run(stacks, conn, text=TEMPLATE, **kw):
    kw.setdefault('parameters', {'pw': 'hunter2'})
    request = stacks.request(text, store_path=None, store_url=URL, store_key='k', **kw)
    return runner.run(request, conn)


def _objects(swift):
    return swift.objects('state') or []


def _store(conn):
    return SwiftStore(URL, conn)


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


# -- a run's record --------------------------------------------------------------------------------
def test_parse_url():
    assert ss.parse_url('swift://c/a/b/') == ('c', 'a/b')
    assert ss.parse_url('swift://c') == ('c', '')
    for bad in ('s3://c/p', 'swift:///p'):
        with pytest.raises(StoreError, match='swift://container/prefix'):
            ss.parse_url(bad)


def test_a_run_keeps_its_record_in_swift_and_another_node_reruns_it_with_no_write(stacks, cloud):
    conn, swift, proxy = cloud
    made = _run(stacks, conn)
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE'
    names = _objects(swift)
    assert sum(n.startswith('team/stacks/st/resources/') for n in names) == 2
    assert sum(n.startswith('team/stacks/st/events/') for n in names) >= 6
    assert 'team/versions/st/000001.json' in names
    assert 'team/st.lock' not in names           # released at the end
    secret = made['stack']['outputs'][0]['output_value']
    for name in names:                            # secrets never reach Swift in clear
        body = swift.containers['state']['objects'][name][0].decode()
        assert 'hunter2' not in body, name
    # another execution node: a fresh private copy, every record read anew
    proxy.requests[:] = []
    again = _run(stacks, conn)
    assert again['changed'] is False
    assert again['stack']['outputs'][0]['output_value'] == secret
    # a rerun that changes nothing writes only its lease: no stack row, no
    # event, no version of the record
    assert set(proxy.writes()) == {('PUT', '/state/team/st.lock'), ('DELETE', '/state/team/st.lock')}
    gets = [k for m, p, k in proxy.requests if m == 'GET']
    assert gets and all(k['headers'].get('X-Newest') == 'true' for k in gets)


def test_each_completed_action_is_a_version_and_a_delete_keeps_them(stacks, cloud):
    conn, swift, _proxy = cloud
    _run(stacks, conn)
    _run(stacks, conn, TEMPLATE.replace('length: 12', 'length: 14'))
    _run(stacks, conn, state='absent')
    names = _objects(swift)
    versions = [n for n in names if '/versions/' in n]
    assert versions == ['team/versions/st/%06d.json' % n for n in (1, 2, 3)]
    second = json.loads(swift.containers['state']['objects'][versions[1]][0])
    assert second['stacks'][0]['action'] == 'UPDATE'
    assert second['stacks'][0]['status'] == 'COMPLETE'
    assert len(second['resources']) == 2
    last = json.loads(swift.containers['state']['objects'][versions[2]][0])
    assert (last['stacks'][0]['action'], last['stacks'][0]['status']) == ('DELETE', 'COMPLETE')
    # the stack's tree is gone; its trace stays, for Swift's expirer to drop
    trace = [n for n in names if '/versions/' not in n]
    assert trace == ['team/deleted/%s.json' % second['stacks'][0]['id']]
    assert ('state', trace[0]) in swift.expiry
    store = _store(conn)
    try:
        gone = store.deleted(second['stacks'][0]['id'])
    finally:
        store.close()
    assert (gone['stack']['action'], gone['stack']['status']) == ('DELETE', 'COMPLETE')
    assert (gone['events'][-1]['resource_action'], gone['events'][-1]['resource_status']) == ('DELETE', 'COMPLETE')


def test_a_store_url_that_cannot_be_read_or_written_is_a_clear_error(cloud, stacks):
    conn, swift, _proxy = cloud
    with pytest.raises(StoreError, match='does not exist: check store_url'):
        SwiftStore(URL, conn, writable=False)
    swift.refuse.add('PUT')
    with pytest.raises(StoreError, match='swift://state/team refused PUT .* may read and write'):
        _run(stacks, conn)
    with pytest.raises(StoreError, match='needs a cloud connection'):
        SwiftStore(URL, None)


def test_a_swift_store_needs_the_users_key(stacks, cloud, monkeypatch):
    conn, swift, _proxy = cloud
    monkeypatch.delenv('STACKERS_STORE_KEY', raising=False)
    request = stacks.request(TEMPLATE, store_path=None, store_url=URL, parameters={'pw': 'x'})
    with pytest.raises(StoreError, match='give store_key'):
        runner.run(request, conn)
    assert [n for n in _objects(swift) if not n.endswith('/')] == []


def test_a_failed_write_loses_no_record(stacks, cloud):
    conn, swift, proxy = cloud
    _run(stacks, conn)
    before = dict(swift.containers['state']['objects'])
    swift.refuse.add('PUT')
    with pytest.raises(StoreError):
        _run(stacks, conn, TEMPLATE.replace('length: 12', 'length: 20'))
    assert swift.containers['state']['objects'] == before


def test_a_swift_ignoring_conditional_puts_is_refused_once_checked_it_is_not_asked_again(cloud):
    conn, swift, proxy = cloud
    swift.conditional = False
    with pytest.raises(StoreError, match='ignores "If-None-Match: \\*".*store_path'):
        _store(conn)
    assert _objects(swift) == []                  # the probe is gone
    swift.conditional = True
    _store(conn).close()
    assert swift.containers['state']['headers'][ss.CHECKED] == 'true'
    proxy.requests[:] = []
    _store(conn).close()
    assert proxy.writes() == []


def test_heat_stack_info_reads_a_swift_store_and_writes_nothing(stacks, cloud):
    conn, _swift, proxy = cloud
    made = _run(stacks, conn)
    proxy.requests[:] = []
    shown = info(InfoRequest('st', store_url=URL, store_key='k'), conn)
    assert shown['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert shown['stack']['outputs'] == made['stack']['outputs']
    assert [e['resource_status'] for e in shown['events']][-1] == 'CREATE_COMPLETE'
    assert [s['stack_name'] for s in info(InfoRequest(store_url=URL), conn)['stacks']] == ['st']
    assert proxy.writes() == []
    with pytest.raises(StoreError, match='swift://nothere/p does not exist: check store_url'):
        info(InfoRequest('st', store_url='swift://nothere/p'), conn)


def test_a_signal_beside_a_run_neither_loses_a_hook_state_nor_overwrites_an_event(cloud):
    conn, swift, _proxy = cloud
    run = _store(conn)
    stack = run.lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    run.change_hooks(stack['id'], lambda hooks: dict(hooks, r={'pre-create': 'pending'}))
    run.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'paused'})
    signal = _store(conn)                         # another process, no lock: clears the hook
    signal.change_hooks(stack['id'], lambda hooks: dict(hooks, r={'pre-create': 'cleared'}))
    signal.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'cleared'})
    run.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'goes on'})
    run.update_stack(stack['id'], status_reason='still running')
    seen = run.change_hooks(stack['id'], lambda hooks: hooks)
    assert seen == {'r': {'pre-create': 'cleared'}}
    reader = _store(conn)
    assert reader.get_stack('st')['hooks'] == seen
    assert reader.get_stack('st')['status_reason'] == 'still running'
    assert [e['resource_status_reason'] for e in reader.events(stack['id'])] == ['paused', 'cleared', 'goes on']


def test_an_event_written_beside_a_run_is_kept_when_the_runs_put_races_it(cloud):
    conn, swift, _proxy = cloud
    run = _store(conn)
    stack = run.lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    run.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'paused'})
    signal = _store(conn)                         # another process, no lock
    # Swift checks If-None-Match before it writes: two PUTs racing on one
    # absent object are both answered 201 and the later one stays
    swift.conditional = False
    signal.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'cleared'})
    run.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'goes on'})
    events = _store(conn).events(stack['id'])
    assert [e['resource_status_reason'] for e in events] == ['paused', 'cleared', 'goes on']
    assert [e['seq'] for e in events] == [1, 2, 2]
    names = sorted(n.rsplit('/', 1)[1] for n in _objects(swift) if '/events/' in n)
    assert names == ['0000000001.json', '0000000002-%s.json' % events[1]['id'], '0000000002.json']
    # once it has let go of the lock, its events are written beside the next run's
    run.unlock(stack['id'], 'host-a:1:aa')
    late = run.add_event(stack['id'], {'resource_name': 'r', 'resource_status_reason': 'after'})
    assert '0000000003-%s.json' % late['id'] in [n.rsplit('/', 1)[1] for n in _objects(swift)]


# -- reading, lazily -------------------------------------------------------------------------------
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
    # the top-level stack leaves its trace alone
    assert 'team/deleted/%s.json' % stack_id in left and 'team/deleted/%s.json' % child['id'] not in left
    left = [n for n in left if '/deleted/' not in n]
    assert left and all(n.startswith('team/stacks/kept/') for n in left), left


LEAF = '''heat_template_version: 2021-04-16
resources:
  v: {type: OS::Heat::None}
'''
NESTED = '''
resources:
  mid: {type: leaf.yaml}
  u: {type: OS::Heat::None, depends_on: [mid]}
'''


def test_a_deleted_nested_stack_leaves_its_trace_under_its_top_level_stacks_id(stacks, cloud):
    conn, swift, proxy = cloud
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    _run(stacks, conn, NESTED, parameters={})
    store = _store(conn)
    try:
        top = store.get_stack('st')
        child = store.children(top['id'])[0]
    finally:
        store.close()
    _run(stacks, conn, state='absent')
    traces = [n for n in _objects(swift) if n.startswith('team/deleted/')]
    assert traces == ['team/deleted/%s.json' % top['id'], 'team/deleted/%s/%s.json' % (top['id'], child['id'])]
    assert all(('state', n) in swift.expiry for n in traces)
    reader = SwiftStore(URL, conn, writable=False)
    try:
        proxy.requests[:] = []
        nested = reader.nested_traces(top['id'])
        assert _requests(proxy) == [('GET', '/state'), ('GET', '/state/' + traces[1])]   # one listing
        assert reader.deleted(child['id']) is None       # read with its tree's
    finally:
        reader.close()
    assert list(nested) == [child['id']]
    kept = nested[child['id']]
    assert (kept['stack']['parent_id'], kept['stack']['parent_resource'], kept['root']) == (top['id'], 'mid', top['id'])
    assert [(e['resource_name'], e['resource_action'], e['resource_status']) for e in kept['events']][-1] == (
        child['name'], 'DELETE', 'COMPLETE')
    swift.now = lambda: time.time() + ss.TRACE_LIFE + 1      # Swift's expirer: gone after a day
    reader = SwiftStore(URL, conn, writable=False)
    try:
        assert reader.nested_traces(top['id']) == {} and reader.deleted(top['id']) is None
    finally:
        reader.close()


def test_a_follower_on_swift_prints_the_nested_stacks_delete_once(stacks, cloud):
    conn, _swift, _proxy = cloud
    (stacks.dir / 'leaf.yaml').write_text(LEAF)
    _run(stacks, conn, NESTED, parameters={})
    state, printed = {}, []

    def look():
        answer = info(InfoRequest('st', store_url=URL, nested_depth=1, follow=state), conn)
        state.clear()
        state.update(answer['follow'])
        printed.extend(answer['events'])
        return answer

    look()
    history = len(printed)
    _run(stacks, conn, state='absent')
    answer = look()
    assert state['done'] and answer['stack']['stack_status'] == 'DELETE_COMPLETE'
    shown = [(e['resource_name'], e['resource_status']) for e in printed[history:]]
    nested = printed[2]['stack_name']
    assert shown == [('st', 'DELETE_IN_PROGRESS'), ('u', 'DELETE_IN_PROGRESS'), ('u', 'DELETE_COMPLETE'),
                     ('mid', 'DELETE_IN_PROGRESS'), (nested, 'DELETE_IN_PROGRESS'), ('v', 'DELETE_IN_PROGRESS'),
                     ('v', 'DELETE_COMPLETE'), (nested, 'DELETE_COMPLETE'), ('mid', 'DELETE_COMPLETE'),
                     ('st', 'DELETE_COMPLETE')]
    assert len(set(e['id'] for e in printed)) == len(printed)


# -- the lock --------------------------------------------------------------------------------------
def test_a_live_lock_is_refused_naming_its_holder_and_since(cloud):
    conn, swift, _proxy = cloud
    first, second = _store(conn), _store(conn)
    first.lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    held = json.loads(swift.containers['state']['objects']['team/st.lock'][0])
    assert held['owner'] == 'host-a:1:aa' and held['expiry'] > time.time() + 50
    with pytest.raises(StackLocked) as err:
        second.lock('st', 'host-b:2:bb', 60)
    assert 'host-a:1:aa' in str(err.value) and 'since ' + ss.when(held['since']) in str(err.value)
    assert 'lock_timeout' in str(err.value)
    # the holder renews; after its unlock another takes it
    first.refresh_lock(first.get_stack('st')['id'], 'host-a:1:aa', 120)
    renewed = json.loads(swift.containers['state']['objects']['team/st.lock'][0])
    assert renewed['expiry'] > held['expiry'] + 50 and renewed['since'] == held['since']
    first.unlock(first.get_stack('st')['id'], 'host-a:1:aa')
    assert 'team/st.lock' not in _objects(swift)
    assert second.lock('st', 'host-b:2:bb', 60) is not None


def _expire(swift):
    box = swift.containers['state']['objects']
    held = json.loads(box['team/st.lock'][0])
    held['expiry'] = time.time() - 1
    swift.put('state', 'team/st.lock', json.dumps(held))


def test_a_crashed_runs_lock_is_taken_over_after_its_lease_and_renewing_it_then_fails(cloud):
    conn, swift, _proxy = cloud
    crashed, taker = _store(conn), _store(conn)
    stack = crashed.lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    _expire(swift)
    assert taker.lock('st', 'host-b:2:bb', 60)['id'] == stack['id']
    assert json.loads(swift.containers['state']['objects']['team/st.lock'][0])['owner'] == 'host-b:2:bb'
    with pytest.raises(StackLocked, match='lost its lock .* to host-b:2:bb'):
        crashed.refresh_lock(stack['id'], 'host-a:1:aa', 60)


def test_two_takers_of_one_expired_lease_cannot_both_win(cloud, monkeypatch):
    conn, swift, _proxy = cloud
    _store(conn).lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    _expire(swift)
    one, two = _store(conn), _store(conn)
    stale = two._get('team/st.lock')
    one.lock('st', 'host-b:2:bb', 60)
    # the second read the stale lock before the first replaced it
    real = two._get
    monkeypatch.setattr(two, '_get', lambda obj: stale if obj == 'team/st.lock' and stale else real(obj))
    with pytest.raises(StackLocked, match='another run is taking it over'):
        two.lock('st', 'host-c:3:cc', 60)
    assert json.loads(swift.containers['state']['objects']['team/st.lock'][0])['owner'] == 'host-b:2:bb'


def _racing_put(swift, monkeypatch, owner):
    """Swift checks If-None-Match before it writes, so a PUT that passed the check beside this
    run's may land during the settle: ``owner``'s lease replaces the lock object then."""
    paused = []

    def pause(seconds):
        paused.append(seconds)
        swift.put('state', 'team/st.lock', json.dumps(ss.lease(owner, 60)))
    monkeypatch.setattr(ss, 'SETTLE', 0.5)
    monkeypatch.setattr(ss, '_pause', pause)
    return paused


def test_a_lock_a_racing_put_replaced_is_refused_naming_the_run_whose_put_stayed(cloud, monkeypatch):
    conn, swift, _proxy = cloud
    paused = _racing_put(swift, monkeypatch, 'host-c:3:cc')
    with pytest.raises(StackLocked, match=r'is locked in swift://state/team by another run \(host-c:3:cc\)'):
        _store(conn).lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    assert paused == [0.5]
    # the other run's lock is left as it is: it is the one that holds it
    assert json.loads(swift.containers['state']['objects']['team/st.lock'][0])['owner'] == 'host-c:3:cc'


def test_a_lock_still_its_own_after_the_settle_is_held(cloud, monkeypatch):
    conn, swift, _proxy = cloud
    paused = []
    monkeypatch.setattr(ss, 'SETTLE', 0.5)
    monkeypatch.setattr(ss, '_pause', paused.append)
    assert _store(conn).lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    assert paused == [0.5]
    assert json.loads(swift.containers['state']['objects']['team/st.lock'][0])['owner'] == 'host-a:1:aa'


def test_a_taker_of_an_expired_lease_whose_put_was_replaced_does_not_hold_it(cloud, monkeypatch):
    conn, swift, _proxy = cloud
    _store(conn).lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    _expire(swift)
    _racing_put(swift, monkeypatch, 'host-c:3:cc')
    with pytest.raises(StackLocked, match=r'by another run \(host-c:3:cc\)'):
        _store(conn).lock('st', 'host-b:2:bb', 60)


def test_a_cancel_is_an_object_beside_the_lock_that_the_holders_row_writes_never_touch(cloud):
    conn, swift, _proxy = cloud
    run, canceller = _store(conn), _store(conn)
    sid = run.lock('st', 'host-a:1:aa', 60, create={'action': 'UPDATE', 'status': 'IN_PROGRESS'})['id']
    assert canceller.get_stack('st')['status'] == 'IN_PROGRESS'
    assert canceller.lock_holder(sid)[0] == 'host-a:1:aa'
    assert not canceller.request_cancel(sid, 'host-z:9:zz', True)
    assert canceller.request_cancel(sid, 'host-a:1:aa', True)
    run.update_stack(sid, status_reason='still going')      # the run's row written whole
    assert run.cancel_request(sid, 'host-a:1:aa')['rollback'] is True
    assert run.cancel_request(sid, 'host-b:2:bb') is None
    run.unlock(sid, 'host-a:1:aa')
    assert not [o for o in _objects(swift) if o.startswith('team/st.lock')]
    assert canceller.lock_holder(sid) is None and not canceller.request_cancel(sid, 'host-a:1:aa', True)


def test_snapshots_live_in_the_stacks_tree_are_read_by_another_node_and_go_with_it(cloud):
    conn, swift, _proxy = cloud
    stack_id = _make(conn, 'st', nested=False)
    store = _store(conn)
    try:
        made = store.save_snapshot({'id': 'snap-1', 'stack_id': stack_id, 'name': 'before', 'action': 'CREATE',
                                    'status': 'COMPLETE', 'data': {'resources': {}}, 'inputs': {'template': 't'},
                                    'secrets': 'token', 'creation_time': '2026-01-01T00:00:00Z',
                                    'status_reason': None})
    finally:
        store.close()
    assert 'team/stacks/st/snapshots/snap-1.json' in _objects(swift)
    store = _store(conn)
    try:
        assert store.snapshots(stack_id) == [made]
        store.delete_snapshot('snap-1')
        assert store.snapshots(stack_id) == []
        store.save_snapshot(dict(made, id='snap-2'))
    finally:
        store.close()
    assert 'team/stacks/st/snapshots/snap-1.json' not in _objects(swift)
    store = _store(conn)
    try:
        store.lock('st', OWNER, 60)
        store.delete_stack(stack_id)
    finally:
        store.close()
    assert not [o for o in _objects(swift) if '/snapshots/' in o]
