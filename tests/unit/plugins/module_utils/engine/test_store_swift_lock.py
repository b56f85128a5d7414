# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The lock of a Swift store (store_swift_lock.py), through SwiftStore against the fake Swift."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine import store_swift_lock as sl
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store_swift import SwiftStore
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackLocked

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

URL = 'swift://state/team'


@pytest.fixture
def cloud():
    return swift_fake.cloud()


def _objects(swift):
    return swift.objects('state') or []


def _store(conn):
    return SwiftStore(URL, conn)


def test_a_live_lock_is_refused_naming_its_holder_and_since(cloud):
    conn, swift, _proxy = cloud
    first, second = _store(conn), _store(conn)
    first.lock('st', 'host-a:1:aa', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS'})
    held = json.loads(swift.containers['state']['objects']['team/st.lock'][0])
    assert held['owner'] == 'host-a:1:aa' and held['expiry'] > time.time() + 50
    with pytest.raises(StackLocked) as err:
        second.lock('st', 'host-b:2:bb', 60)
    assert 'host-a:1:aa' in str(err.value) and 'since ' + sl.when(held['since']) in str(err.value)
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
        swift.put('state', 'team/st.lock', json.dumps(sl.lease(owner, 60)))
    monkeypatch.setattr(sl, 'SETTLE', 0.5)
    monkeypatch.setattr(sl, '_pause', pause)
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
    monkeypatch.setattr(sl, 'SETTLE', 0.5)
    monkeypatch.setattr(sl, '_pause', paused.append)
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
