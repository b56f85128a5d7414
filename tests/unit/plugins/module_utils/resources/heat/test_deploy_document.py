# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/_deploy_document.py: a server's document in Swift, its
entries replaced per deployment, parallel writers serialised (threads of one
process, and processes that share only Swift), no write when nothing
changed, and the delete."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import threading
import time
from unittest import mock

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _deploy_document as mod  # noqa: E402


def _doc(swift):
    return json.loads(swift.containers['box']['objects']['doc'][0])


def test_parallel_writers_of_one_document_lose_nothing():
    conn, swift, proxy = swift_fake.cloud('k')
    mod.create(conn, 'box', 'doc', mod.metadata(conn, 'box', 'doc'))
    threads = [threading.Thread(target=mod.set_entry,
                                args=(conn, ('box', 'doc'), 'd%02d' % i, {'id': str(i), 'name': 'n%02d' % i}))
               for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    entries = _doc(swift)['deployments']
    assert [e['name'] for e in entries] == ['n%02d' % i for i in range(20)]
    assert entries[3]['deployment_key'] == 'd03'


def test_an_unchanged_entry_is_not_written_and_a_gone_document_is_said():
    conn, swift, proxy = swift_fake.cloud('k')
    mod.create(conn, 'box', 'doc', mod.metadata(conn, 'box', 'doc'))
    assert mod.set_entry(conn, ('box', 'doc'), 'a', {'id': '1', 'name': 'x'}) is True
    stamp = swift.containers['box']['objects']['doc'][1]
    assert mod.set_entry(conn, ('box', 'doc'), 'a', {'id': '1', 'name': 'x'}) is True
    assert swift.containers['box']['objects']['doc'][1] == stamp
    mod.set_entry(conn, ('box', 'doc'), 'a', None)
    assert _doc(swift)['deployments'] == []
    mod.delete(conn, 'box', 'doc')
    assert swift.objects('box') is None
    assert mod.set_entry(conn, ('box', 'doc'), 'a', {'id': '2'}) is False
    mod.delete(conn, 'box', 'doc')      # twice: nothing to do


class _Process(object):
    """A writer as another heat_stack process sees the document: its own
    connection (its own remembered TempURL key) and no lock shared with the
    others in memory: only Swift is shared."""

    def __init__(self, swift):
        conn, _unused, _proxy = swift_fake.cloud()
        conn.object_store = swift_fake.SwiftProxy(swift, endpoint=swift_fake.ENDPOINT)
        self.conn = conn

    def write(self, owner, entry):
        self.done = mod.set_entry(self.conn, ('box', 'doc'), owner, entry)


def _slow_reads(swift):
    """Widen the window between a writer's read and its write (a pause of a
    few ms after each read of the document, Swift's guard released), so
    that writers with no lease between them would overwrite each other."""
    plain = swift._object_now

    def slow(method, container, name, box, kw):
        answer = plain(method, container, name, box, kw)
        if method == 'GET' and name == 'doc':
            swift._guard.release()
            try:
                time.sleep(0.005)
            finally:
                swift._guard.acquire()
        return answer
    swift._object_now = slow


def test_writers_in_separate_processes_never_lose_an_entry():
    conn, swift, proxy = swift_fake.cloud('k')
    mod.create(conn, 'box', 'doc', mod.metadata(conn, 'box', 'doc'))
    _slow_reads(swift)
    writers = [_Process(swift) for _unused in range(6)]
    threads = [threading.Thread(target=w.write, args=('p%d' % i, {'id': str(i), 'name': 'n%d' % i}))
               for i, w in enumerate(writers)]
    # no lock in memory between the writers: threading locks never cross processes
    # (and short pauses between tries: the waits stay in milliseconds)
    with mock.patch.object(mod, '_lock', lambda container, obj: threading.Lock()), \
            mock.patch.object(mod.swift_lease, 'FIRST_PAUSE', 0.002), \
            mock.patch.object(mod.swift_lease, 'LONGEST_PAUSE', 0.01):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert [w.done for w in writers] == [True] * 6
    assert [e['deployment_key'] for e in _doc(swift)['deployments']] == ['p%d' % i for i in range(6)]
    # every lease went with its writer
    assert swift.objects('box') == ['doc']
    puts = [r for r in swift.requests if r[0] == 'PUT' and r[2] == 'doc.lock']
    assert len(puts) >= 6


def test_an_unchanged_entry_takes_no_lease_and_delete_leaves_no_container():
    conn, swift, proxy = swift_fake.cloud('k')
    mod.create(conn, 'box', 'doc', mod.metadata(conn, 'box', 'doc'))
    mod.set_entry(conn, ('box', 'doc'), 'a', {'id': '1', 'name': 'x'})
    del swift.requests[:]
    mod.set_entry(conn, ('box', 'doc'), 'a', {'id': '1', 'name': 'x'})
    assert swift.requests == [('GET', 'box', 'doc')]
    mod.delete(conn, 'box', 'doc')
    assert ('PUT', 'box', 'doc.lock') in swift.requests
    assert swift.objects('box') is None
