# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A user's first requests on a fresh cloud, several at once, must pass like later ones.

Neutron builds its policy enforcer lazily, in a way that is not thread-safe: on a cold process,
two concurrent requests of a non-admin user got "rule:create_network is disallowed by policy"
for all but one of them (the seed, run as admin, never reaches the enforcer).  The local cloud
now builds it at start (localcloud/services/neutron.py).  This file is named to run first in
tests/localcloud, on the session cloud right after its ready line: only then is Neutron cold,
and only then would this test catch the race again.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import threading
import uuid

N = 4


def test_concurrent_network_creates_as_demo(cloud):
    conns = [cloud.sdk() for _ in range(N)]
    barrier = threading.Barrier(N)
    results = [None] * N
    tag = uuid.uuid4().hex[:8]

    def create(i):
        barrier.wait(60)
        try:
            results[i] = conns[i].network.create_network(name='conc-%s-%d' % (tag, i))
        except Exception as exc:   # reported below, with the others
            results[i] = exc

    threads = [threading.Thread(target=create, args=(i,), daemon=True) for i in range(N)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        assert not any(t.is_alive() for t in threads), 'a create did not return in 180 s'
        failed = ['%r %s' % (r, getattr(r, 'details', '') or '') for r in results
                  if isinstance(r, Exception) or r is None]
        assert not failed, failed
        assert sorted(r.name for r in results) == ['conc-%s-%d' % (tag, i) for i in range(N)]
        assert all(r.project_id == conns[0].current_project_id for r in results)
    finally:
        for r in results:
            if r is not None and not isinstance(r, Exception):
                conns[0].network.delete_network(r.id, ignore_missing=True)
        for c in conns:
            c.close()
