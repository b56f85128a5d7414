# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""poll_batch: one list call answers the polls of a kind that arrive together,
asking only for the objects polled."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import re
import threading
from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudError, CloudNotFound, CloudTransient)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import base, poll_batch


@pytest.fixture(autouse=True)
def _batching_on(monkeypatch):
    monkeypatch.setattr(poll_batch, 'MIN_BATCH', 2)


class Clock(object):
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Cloud(object):
    """Objects by id, each with its key (what a filter matches); counts the
    calls; a list may be held open.  A list answers the objects whose key
    it asked for (or every object: a service that ignores the filter)."""

    def __init__(self, objects, hold=None, keys=None):
        self.objects = dict(objects)
        self.keys = dict(keys or {})
        self.gets, self.lists = [], []
        self.hold = hold
        self.ignores_filter = False

    def get_one(self, obj_id):
        self.gets.append(obj_id)
        return self.objects.get(obj_id)

    def list_some(self, keys):
        self.lists.append(set(keys))
        if self.hold is not None:
            self.hold.wait(5)
        found = dict((i, o) for i, o in self.objects.items()
                     if self.ignores_filter or self.keys.get(i, i) in keys)
        return found, all(self.keys.get(i, i) in keys for i in found)


def _batch(cloud, clock=None):
    kwargs = {} if clock is None else {'clock': clock}
    return poll_batch.Batch(cloud.get_one, cloud.list_some, **kwargs)


def test_one_object_polling_gets_its_own_get():
    cloud, clock = Cloud({'a': 'A'}), Clock()
    batch = _batch(cloud, clock)
    assert batch.fetch('a', 'a') == 'A'
    clock.now += 1
    assert batch.fetch('a', 'a') == 'A'
    assert (cloud.gets, cloud.lists) == (['a', 'a'], [])


def test_polls_arriving_together_share_one_list_asking_for_them_only():
    hold = threading.Event()
    cloud = Cloud({'a': 'A', 'b': 'B', 'c': 'C', 'other': 'O'}, hold=hold)
    batch = _batch(cloud)
    # each asked once before (their previous poll): three objects are polling
    for key in 'abc':
        batch._ask(key, poll_batch.time.monotonic() - 1, key)
    got = {}
    threads = [threading.Thread(target=lambda k=k: got.setdefault(k, batch.fetch(k, k))) for k in 'abc']
    for t in threads:
        t.start()
    hold.set()
    for t in threads:
        t.join(5)
    assert got == {'a': 'A', 'b': 'B', 'c': 'C'}
    # the project's other object is not asked for: the list's size is the polls'
    assert cloud.lists == [{'a', 'b', 'c'}] and cloud.gets == []


def test_an_object_without_a_key_is_read_by_id_and_makes_no_batch():
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, None)          # polling, but no filter finds it
    assert batch.fetch('a', 'a') == 'A'           # no other keyed poll: a GET
    assert batch.fetch('b') == 'B'
    assert cloud.lists == [] and cloud.gets == ['a', 'b']


def test_an_old_list_is_not_an_answer():
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A'
    clock.now += poll_batch.JOIN_WINDOW / 2
    assert batch.fetch('b', 'b') == 'B'       # joins the list of a moment ago
    assert len(cloud.lists) == 1
    clock.now += poll_batch.JOIN_WINDOW * 2
    cloud.objects['a'] = 'A2'
    assert batch.fetch('a', 'a') == 'A2'      # a new look, not the old answer
    assert len(cloud.lists) == 2 and cloud.gets == []


def test_missing_from_a_list_is_read_by_id():
    # Not listed: gone, out of the filter (a volume no longer in transition,
    # a server renamed), or made after the list: its own GET says which.
    cloud, clock = Cloud({'b': 'B'}), Clock()
    cloud.get_one = lambda obj_id: cloud.gets.append(obj_id) or 'A-by-get'
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A-by-get' and cloud.gets == ['a']
    assert cloud.lists == [{'a', 'b'}]


def test_a_failed_list_fails_every_poll_that_joined_it():
    clock = Clock()

    def broken(keys):
        raise CloudTransient('503')
    batch = poll_batch.Batch(lambda i: 'X', broken, clock=clock)
    batch._ask('b', clock.now - 1, 'b')
    with pytest.raises(CloudTransient):
        batch.fetch('a', 'a')
    with pytest.raises(CloudTransient):      # the same list's answer, within the window
        batch.fetch('b', 'b')


def test_a_refused_filter_turns_listing_off_for_the_run():
    # A deployment whose resource_filters do not allow the filter answers 400:
    # every poll reads its own object, and no list is tried again.
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    calls = []

    def refused(keys):
        calls.append(keys)
        raise CloudError('Invalid filters metadata are found in query options.', status=400)
    batch = poll_batch.Batch(cloud.get_one, refused, clock=clock)
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A' and batch.listing_off
    clock.now += 1
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A' and batch.fetch('b', 'b') == 'B'
    assert len(calls) == 1 and cloud.gets == ['a', 'a', 'b']


def test_a_query_the_sdk_refuses_turns_listing_off_but_a_transient_fault_fails_the_polls():
    clock = Clock()
    for error, off in ((CloudError('Invalid query params: properties'), True),
                       (CloudTransient('Connection to the cloud failed'), False)):
        def broken(keys, error=error):
            raise error
        batch = poll_batch.Batch(lambda i: 'X', broken, clock=clock)
        batch._ask('b', clock.now - 1, 'b')
        if off:
            assert batch.fetch('a', 'a') == 'X' and batch.listing_off
        else:
            with pytest.raises(CloudTransient):
                batch.fetch('a', 'a')
            assert not batch.listing_off


def test_a_list_answering_beyond_its_filter_is_not_listed_again():
    # A service that ignores the filter answers the whole project: the answer
    # is right (used once), but listing would cost the project's size each tick.
    cloud, clock = Cloud({'a': 'A', 'b': 'B', 'x': 'X'}), Clock()
    cloud.ignores_filter = True
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A' and batch.listing_off
    clock.now += 1
    batch._ask('b', clock.now - 1, 'b')
    assert batch.fetch('a', 'a') == 'A'
    assert len(cloud.lists) == 1 and cloud.gets == ['a']


def test_objects_that_stopped_polling_no_longer_make_a_batch():
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = _batch(cloud, clock)
    batch.fetch('b', 'b')
    clock.now += poll_batch.STALE + 1
    assert batch.fetch('a', 'a') == 'A' and cloud.lists == []      # silent too long: forgotten
    assert cloud.gets == ['b', 'a']
    clock.now += 1
    assert batch.fetch('b', 'b') == 'B' and len(cloud.lists) == 1  # both polling again: one list


def test_a_list_started_before_an_objects_first_poll_does_not_answer_it():
    # An object made just after another poll's list started is not in that list.
    cloud, clock = Cloud({'a': 'A', 'c': 'C'}), Clock()
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    batch._ask('c', clock.now - 1, 'c')
    assert batch.fetch('a', 'a') == 'A' and cloud.lists == [{'a', 'b', 'c'}]
    cloud.objects['new'] = 'NEW'
    clock.now += poll_batch.JOIN_WINDOW / 3                  # within the window of a's list
    assert batch.fetch('new', 'new') == 'NEW'                # its own look, not a's list
    assert cloud.lists[1] == {'new', 'b', 'c'}               # b and c may still ask on this tick
    clock.now += poll_batch.JOIN_WINDOW / 3
    assert batch.fetch('c', 'c') == 'C' and len(cloud.lists) == 2   # the newer list answers c
    assert cloud.gets == []


def test_two_objects_starting_together_do_not_list_for_one():
    # The first poll of two objects made together: the first asker knows of no other and
    # reads its own; the second must not list for itself alone beside that GET.
    cloud, clock = Cloud({'a': 'A', 'b': 'B'}), Clock()
    batch = _batch(cloud, clock)
    assert batch.fetch('a', 'a') == 'A'
    clock.now += 0.002
    assert batch.fetch('b', 'b') == 'B'
    assert (cloud.gets, cloud.lists) == (['a', 'b'], [])
    clock.now += 0.5                          # the next tick: both polling, one list
    assert batch.fetch('b', 'b') == 'B'
    clock.now += 0.002
    assert batch.fetch('a', 'a') == 'A'
    assert (cloud.gets, len(cloud.lists)) == (['a', 'b'], 1)


def test_name_filters_match_exactly_the_names_and_stay_short():
    names = ['st-web.1-abc', 'st-db-xyz', 'st-db-xy']
    (spelled,) = poll_batch.name_filters(names)
    assert spelled == '^(st-db-xy|st-db-xyz|st-web[.]1-abc)$'
    pattern = re.compile(spelled)
    assert all(pattern.search(n) for n in names)
    for other in ('st-web-1-abc', 'st-web.1-abcd', 'xst-db-xy', 'st-db-x', 'st-webx1-abc'):
        assert not pattern.search(other), other
    many = ['stack-server%03d-abcdefghijkl' % i for i in range(300)]
    filters = poll_batch.name_filters(many)
    assert len(filters) > 1 and all(len(f) <= poll_batch.NAME_FILTER_CHARS + 10 for f in filters)
    assert sorted(n for f in filters for n in f[2:-2].split('|')) == many


def _ctx(**kw):
    args = dict(stack_id='sid', stack_name='st', name='srv', type_name='OS::Nova::Server',
                physical_name='st-srv-abcdefghijkl', properties={})
    args.update(kw)
    return base.ResourceContext(**args)


def test_servers_are_listed_by_the_names_the_engine_made_and_volumes_by_the_stack():
    assert poll_batch.server_key(_ctx()) == 'st-srv-abcdefghijkl'
    # a name the template chose may be anyone's: read by id
    assert poll_batch.server_key(_ctx(properties={'name': 'web'})) is None
    assert poll_batch.server_key(_ctx(physical_name=None)) is None
    assert poll_batch.server_key(_ctx(physical_name='st-a b-abc')) is None   # not a plain name
    assert poll_batch.volume_key(_ctx()) == 'sid'
    assert poll_batch.volume_key(_ctx(stack_id=None)) is None


class Srv(object):
    def __init__(self, id, name, status='ACTIVE'):
        self.id, self.name, self.status = id, name, status


class Vol(object):
    def __init__(self, id, status, stack='sid'):
        self.id, self.status = id, status
        self.metadata = {base.TAG_STACK: stack}


def test_server_lists_ask_for_the_polled_names_changed_recently():
    conn = mock.Mock()
    conn.compute.servers.return_value = [Srv('s1', 'st-a-x'), Srv('s2', 'st-b-y', 'DELETED')]
    servers = poll_batch.batch(conn, 'server')
    assert poll_batch.batch(conn, 'server') is servers       # one per run (connection)
    found, bounded = servers._list_some(frozenset(['st-a-x', 'st-b-y']))
    assert set(found) == {'s1', 's2'} and bounded
    kwargs = conn.compute.servers.call_args.kwargs
    # changes-since: deleted servers are listed too (a delete's poll sees DELETED)
    assert kwargs['details'] is True and kwargs['changes_since'].endswith('Z')
    assert kwargs['name'] == '^(st-a-x|st-b-y)$'
    # a Nova that ignored the filter: the answer holds servers nobody asked for
    conn.compute.servers.return_value.append(Srv('s3', 'unrelated'))
    assert servers._list_some(frozenset(['st-a-x']))[1] is False
    # a Nova that matched none of several (MySQL's escaped '|'): not listed again
    conn.compute.servers.return_value = []
    assert servers._list_some(frozenset(['st-a-x', 'st-b-y']))[1] is False
    assert servers._list_some(frozenset(['st-a-x'])) == ({}, True)   # one name: no '|'
    conn.compute.get_endpoint_data.assert_called_once_with()
    conn.compute.get_server.side_effect = None
    conn.compute.get_server.return_value = 'one'
    assert servers._get_one('s9') == 'one'


def test_volume_lists_ask_for_the_stacks_volumes_in_transition():
    conn = mock.Mock()
    conn.block_storage.volumes.return_value = [Vol('v1', 'creating'), Vol('v2', 'deleting')]
    volumes = poll_batch.batch(conn, 'volume')
    found, bounded = volumes._list_some(frozenset(['sid']))
    assert set(found) == {'v1', 'v2'} and bounded
    kwargs = conn.block_storage.volumes.call_args.kwargs
    assert kwargs['details'] is True
    assert json.loads(kwargs['properties']) == {base.TAG_STACK: 'sid'}
    # Cinder reads the status filter as a Python literal: a list is an IN
    assert kwargs['status'].startswith("['creating', ") and "'deleting'" in kwargs['status']
    assert 'available' not in kwargs['status'] and 'in-use' not in kwargs['status']
    conn.block_storage.get_endpoint_data.assert_called_once_with()
    # settled or another stack's: the filter was not applied
    conn.block_storage.volumes.return_value = [Vol('v1', 'available')]
    assert volumes._list_some(frozenset(['sid']))[1] is False
    conn.block_storage.volumes.return_value = [Vol('v1', 'creating', stack='other')]
    assert volumes._list_some(frozenset(['sid']))[1] is False


def test_a_poll_of_what_must_exist_fails_a_missing_object_as_the_services_get():
    conn = mock.Mock()
    conn.compute.get_server.side_effect = CloudNotFound('gone')
    conn.block_storage.get_volume.side_effect = CloudNotFound('gone')
    with pytest.raises(CloudNotFound, match='Instance s9 could not be found') as exc:
        poll_batch.batch(conn, 'server').poll('s9', 'st-a-x', existing=True)
    assert exc.value.status == 404
    with pytest.raises(CloudNotFound, match='Volume v9 could not be found'):
        poll_batch.batch(conn, 'volume').poll('v9', 'sid', existing=True)
    other = mock.Mock()          # another run: v9 no longer polling beside it
    other.block_storage.get_volume.return_value = 'V'
    assert poll_batch.batch(other, 'volume').poll('v1', 'sid', existing=True) == ('V', False)


def test_an_objects_next_poll_never_takes_the_answer_its_last_one_had():
    # polls may come less than JOIN_WINDOW apart (fast first looks): the
    # second must see the object as it is now, not the list of the first
    cloud, clock = Cloud({'a': 'A1', 'b': 'B1'}), Clock()
    batch = _batch(cloud, clock)
    batch.fetch('a', 'a')
    batch.fetch('b', 'b')
    clock.now += 1
    assert batch.fetch('a', 'a') == 'A1'          # a list for a and b
    assert batch.fetch('b', 'b') == 'B1'          # joins it
    cloud.objects.update(a='A2', b='B2')
    clock.now += poll_batch.JOIN_WINDOW / 3
    assert batch.fetch('a', 'a') == 'A2'
    assert batch.fetch('b', 'b') == 'B2'


class _Obj(object):
    def __init__(self, status):
        self.status = status


def _tick(batch, clock, ids):
    """One tick: every object polls (the first one's list answers them all)."""
    clock.now += 1
    return dict((i, batch.poll(i, i)) for i in ids)


def test_a_poll_is_told_when_another_object_of_its_list_moved():
    cloud, clock = Cloud({'a': _Obj('BUILD'), 'b': _Obj('BUILD')}), Clock()
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    first = _tick(batch, clock, 'ab')
    assert [first[i][1] for i in 'ab'] == [False, False]     # nothing seen before
    cloud.objects['a'] = _Obj('ACTIVE')
    second = _tick(batch, clock, 'ab')
    assert second['b'][1] is True and second['b'][0].status == 'BUILD'
    assert second['a'][1] is False        # its own move is its answer, not a hint
    third = _tick(batch, clock, 'b')
    assert third['b'][1] is False         # nothing moved since


def test_an_object_leaving_a_list_of_objects_in_transition_moved():
    # volumes: a list asks for those still in transition; one that ended is
    # missing from the next list (and read by id)
    cloud, clock = Cloud({'a': _Obj('creating'), 'b': _Obj('creating')}), Clock()
    batch = _batch(cloud, clock)
    batch._ask('b', clock.now - 1, 'b')
    _tick(batch, clock, 'ab')
    done = cloud.objects['a'] = _Obj('available')
    cloud.keys['a'] = 'out of the filter'
    got = _tick(batch, clock, 'ba')
    assert got['b'][1] is True and got['a'] == (done, False)
    assert cloud.lists[-1] == {'a', 'b'} and cloud.gets == ['a']


def test_look_sets_the_contexts_look_soon_and_fails_a_missing_object(monkeypatch):
    cloud, clock = Cloud({'a': _Obj('BUILD'), 'b': _Obj('BUILD')}), Clock()
    batch = _batch(cloud, clock)
    monkeypatch.setattr(poll_batch, 'batch', lambda conn, kind: batch)
    ctx = base.ResourceContext()
    assert ctx.look_soon is False
    batch._ask('b', clock.now - 1, 'b')
    clock.now += 1
    poll_batch.look(ctx, 'server', 'a', 'a')
    batch.poll('b', 'b')
    cloud.objects['a'] = _Obj('ACTIVE')
    clock.now += 1
    poll_batch.look(ctx, 'server', 'b', 'b')
    assert ctx.look_soon is True
    with pytest.raises(CloudNotFound):
        poll_batch.look(base.ResourceContext(), 'server', 'gone', None, existing=True)
