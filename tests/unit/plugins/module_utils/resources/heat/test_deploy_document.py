# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/_deploy_document.py: a server's document in Swift, its
entries replaced per deployment, parallel writers serialised, no write when
nothing changed, and the delete."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swift_fake  # noqa: E402

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
