# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine import store_swift as ss
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store_swift import SwiftStore
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

URL = 'swift://state/team'
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
    # the record of the rerun (an UPDATE with its events, as Heat's) and the
    # lock are written; no resource changed
    writes = set(proxy.writes())
    assert {('PUT', '/state/team/st.lock'), ('DELETE', '/state/team/st.lock'),
            ('PUT', '/state/team/versions/st/000002.json')} <= writes
    assert [p for _m, p in writes if '/resources/' in p] == []
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
    assert [n for n in names if '/versions/' not in n] == []


def _store(conn):
    return SwiftStore(URL, conn)


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
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.info import InfoRequest, info
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
