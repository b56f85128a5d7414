# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""poll_batch: one list call answers the polls of a kind that arrive together."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import threading
from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudNotFound, CloudTransient
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import poll_batch


@pytest.fixture(autouse=True)
def _batching_on(monkeypatch):
    monkeypatch.setattr(poll_batch, 'MIN_BATCH', 2)


class Clock(object):
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Cloud(object):
    """Objects by id; counts the calls; a list may be held open."""

    def __init__(self, objects, hold=None):
        self.objects = dict(objects)
        self.gets, self.lists = [], 0
        self.hold = hold

    def get_one(self, obj_id):
        self.gets.append(obj_id)
        return self.objects.get(obj_id)

    def list_all(self):
        self.lists += 1
        if self.hold is not None:
            self.hold.wait(5)
        return dict(self.objects)


def test_one_object_polling_gets_its_own_get():
    cloud, clock = Cloud({'a': 'A'}), Clock()
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    assert batch.fetch('a') == 'A'
    clock.now += 1
    assert batch.fetch('a') == 'A'
    assert (cloud.gets, cloud.lists) == (['a', 'a'], 0)


def test_polls_arriving_together_share_one_list_call():
    hold = threading.Event()
    cloud = Cloud({'a': 'A', 'b': 'B', 'c': 'C'}, hold=hold)
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True)
    # each asked once before (their previous poll): three objects are polling
    for key in 'abc':
        batch._ask(key, poll_batch.time.monotonic() - 1)
    got = {}
    threads = [threading.Thread(target=lambda k=k: got.setdefault(k, batch.fetch(k))) for k in 'abc']
    for t in threads:
        t.start()
    hold.set()
    for t in threads:
        t.join(5)
    assert got == {'a': 'A', 'b': 'B', 'c': 'C'}
    assert cloud.lists == 1 and cloud.gets == []


def test_an_old_list_is_not_an_answer():
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    batch._ask('b', clock.now - 1)
    assert batch.fetch('a') == 'A'
    clock.now += poll_batch.JOIN_WINDOW / 2
    assert batch.fetch('b') == 'B'            # joins the list of a moment ago
    assert cloud.lists == 1
    clock.now += poll_batch.JOIN_WINDOW * 2
    cloud.objects['a'] = 'A2'
    assert batch.fetch('a') == 'A2'           # a new look, not the old answer
    assert cloud.lists == 2 and cloud.gets == []


def test_missing_from_a_whole_list_is_gone_from_a_narrowed_one_is_read():
    cloud, clock = Cloud({'b': 'B'}), Clock()
    whole = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    whole._ask('b', clock.now - 1)
    assert whole.fetch('a') is None and cloud.gets == []
    narrowed = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=False, clock=clock)
    narrowed._ask('b', clock.now - 1)
    cloud.objects = {'b': 'B'}
    cloud.get_one = lambda obj_id: cloud.gets.append(obj_id) or 'A-by-get'
    narrowed = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=False, clock=clock)
    narrowed._ask('b', clock.now - 1)
    assert narrowed.fetch('a') == 'A-by-get' and cloud.gets == ['a']


def test_a_failed_list_fails_every_poll_that_joined_it():
    clock = Clock()

    def broken():
        raise CloudTransient('503')
    batch = poll_batch.Batch(lambda i: 'X', broken, authoritative=True, clock=clock)
    batch._ask('b', clock.now - 1)
    with pytest.raises(CloudTransient):
        batch.fetch('a')
    with pytest.raises(CloudTransient):      # the same list's answer, within the window
        batch.fetch('b')


def test_objects_that_stopped_polling_no_longer_make_a_batch():
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    batch.fetch('b')
    clock.now += poll_batch.STALE + 1
    assert batch.fetch('a') == 'A' and cloud.lists == 0      # silent too long: forgotten
    assert cloud.gets == ['b', 'a']
    clock.now += 1
    assert batch.fetch('b') == 'B' and cloud.lists == 1      # both polling again: one list


def test_server_lists_ask_for_recent_changes_and_volume_lists_for_all():
    conn = mock.Mock()
    conn.compute.servers.return_value = [mock.Mock(id='s1')]
    conn.block_storage.volumes.return_value = [mock.Mock(id='v1')]
    servers = poll_batch.batch(conn, 'server')
    assert poll_batch.batch(conn, 'server') is servers       # one per run (connection)
    assert set(servers._list_all()) == {'s1'}
    kwargs = conn.compute.servers.call_args.kwargs
    # changes-since: deleted servers are listed too (a delete's poll sees DELETED)
    assert kwargs['details'] is True and kwargs['changes_since'].endswith('Z')
    assert servers._authoritative is False
    volumes = poll_batch.batch(conn, 'volume')
    assert set(volumes._list_all()) == {'v1'} and volumes._authoritative is True
    conn.block_storage.volumes.assert_called_once_with(details=True)
    # each kind's first polls read their service's version document once, first
    conn.compute.get_endpoint_data.assert_called_once_with()
    conn.block_storage.get_endpoint_data.assert_called_once_with()
    conn.compute.get_server.side_effect = None
    conn.compute.get_server.return_value = 'one'
    assert servers._get_one('s9') == 'one'


def test_a_list_started_before_an_objects_first_poll_does_not_answer_it():
    # A volume made just after another poll's list started is not in that list: the
    # whole list would say "gone" of a volume that exists.
    cloud, clock = Cloud({'a': 'A', 'c': 'C'}), Clock()
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    batch._ask('b', clock.now - 1)
    batch._ask('c', clock.now - 1)
    assert batch.fetch('a') == 'A' and cloud.lists == 1      # a's list, before 'new' existed
    cloud.objects['new'] = 'NEW'
    clock.now += poll_batch.JOIN_WINDOW / 3                  # within the window of a's list
    assert batch.fetch('new') == 'NEW'                       # its own look, not a's list
    assert cloud.lists == 2                                  # c may still ask on this tick
    clock.now += poll_batch.JOIN_WINDOW / 3
    assert batch.fetch('c') == 'C' and cloud.lists == 2      # the newer list answers c too
    assert cloud.gets == []


def test_fetch_existing_fails_a_missing_object_as_the_services_get():
    conn = mock.Mock()
    conn.compute.get_server.side_effect = CloudNotFound('gone')
    conn.block_storage.get_volume.side_effect = CloudNotFound('gone')
    with pytest.raises(CloudNotFound, match='Instance s9 could not be found') as exc:
        poll_batch.batch(conn, 'server').fetch_existing('s9')
    assert exc.value.status == 404
    with pytest.raises(CloudNotFound, match='Volume v9 could not be found'):
        poll_batch.batch(conn, 'volume').fetch_existing('v9')
    other = mock.Mock()          # another run: v9 no longer polling beside it
    other.block_storage.get_volume.return_value = 'V'
    assert poll_batch.batch(other, 'volume').fetch_existing('v1') == 'V'


def test_two_objects_starting_together_do_not_list_for_one():
    # The first poll of two objects made together: the first asker knows of no other and
    # reads its own; the second must not list for itself alone beside that GET.
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = poll_batch.Batch(cloud.get_one, cloud.list_all, authoritative=True, clock=clock)
    assert batch.fetch('a') == 'A'
    clock.now += 0.002
    assert batch.fetch('b') == 'B'
    assert (cloud.gets, cloud.lists) == (['a', 'b'], 0)
    clock.now += 0.5                          # the next tick: both polling, one list
    assert batch.fetch('b') == 'B'
    clock.now += 0.002
    assert batch.fetch('a') == 'A'
    assert (cloud.gets, cloud.lists) == (['a', 'b'], 1)
