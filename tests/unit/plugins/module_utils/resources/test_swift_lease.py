# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/swift_lease.py: a lease object made with If-None-Match and
X-Delete-After, waited for while another writer holds it, ended by Swift's
clock when its holder died, and left alone by a holder that outlived it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import swift_lease as mod  # noqa: E402


class Clock(object):
    """One fake time for the writer (its clock and sleep) and Swift (its now)."""

    def __init__(self, swift):
        self.t = 1000.0
        self.slept = []
        swift.now = self.now

    def now(self):
        return self.t

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.t += seconds


def _swift():
    conn, swift, proxy = swift_fake.cloud('k')
    swift.containers['box'] = {'headers': {}, 'objects': {}}
    return swift, proxy, Clock(swift)


def test_the_lease_is_an_object_while_held_and_gone_after():
    swift, proxy, clock = _swift()
    with mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=clock.sleep):
        assert swift.objects('box') == ['doc.lock']
        assert swift.expiry[('box', 'doc.lock')] == clock.t - mod.SETTLE + mod.LEASE
    assert swift.objects('box') == []
    # the one pause: the read-back after a racing PUT could have landed
    assert clock.slept == [mod.SETTLE]


def test_a_second_writer_waits_until_the_first_releases():
    swift, proxy, clock = _swift()
    first = mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=clock.sleep)
    first.__enter__()

    def sleep(seconds):
        clock.sleep(seconds)
        if len(clock.slept) == 4:       # the first's settle, then three pauses of the second
            first.__exit__(None, None, None)
    with mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=sleep):
        assert len(clock.slept) == 5 and clock.slept[0] == clock.slept[4] == mod.SETTLE
        # growing pauses
        assert clock.slept[1] < clock.slept[3]
    assert swift.objects('box') == []


def test_a_dead_writers_lease_ends_by_swifts_clock():
    swift, proxy, clock = _swift()
    dead = mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=clock.sleep)
    dead.__enter__()        # never released (kept referenced: a collected one would release)
    start = clock.t
    with mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=clock.sleep):
        waited = clock.t - start
    assert mod.LEASE <= waited < mod.LEASE + mod.LONGEST_PAUSE * 1.5
    assert swift.objects('box') == []


def test_a_lease_that_never_ends_fails_after_the_wait_naming_it():
    swift, proxy, clock = _swift()
    swift.put('box', 'doc.lock', 'stuck')      # no X-Delete-After: nothing ends it
    with pytest.raises(ResourceFailure, match='box/doc.lock stayed held by another writer for 5 s'):
        with mod.held(proxy, 'box', 'doc.lock', wait=5, clock=clock.now, sleep=clock.sleep):
            raise AssertionError('not reached')
    assert 5 <= clock.t - 1000.0 < 5 + mod.LONGEST_PAUSE * 1.5
    assert swift.objects('box') == ['doc.lock']


def test_a_put_retried_after_a_lost_answer_finds_its_own_lease():
    swift, proxy, clock = _swift()
    swift.put('box', 'doc.lock', 'my-token')
    assert mod._try(proxy, 'box', 'doc.lock', 'my-token', 20) is True
    assert mod._try(proxy, 'box', 'doc.lock', 'other-token', 20) is False


def test_a_holder_that_outlived_its_lease_leaves_the_next_holders_object():
    swift, proxy, clock = _swift()
    with mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=clock.sleep):
        clock.t += mod.LEASE + 1
        # expired: another writer takes it
        assert mod._try(proxy, 'box', 'doc.lock', 'next-holder', mod.LEASE) is True
    assert swift.objects('box') == ['doc.lock']
    assert swift.containers['box']['objects']['doc.lock'][0] == b'next-holder'


def test_a_missing_container_is_the_callers_to_handle():
    swift, proxy, clock = _swift()
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudNotFound
    with pytest.raises(CloudNotFound):
        with mod.held(proxy, 'gone', 'doc.lock', clock=clock.now, sleep=clock.sleep):
            raise AssertionError('not reached')


def test_a_writer_whose_put_a_racing_put_replaced_waits_for_that_writer():
    """Swift checks If-None-Match before it writes: two PUTs on an absent object both answer 201
    and the later body stays. The writer reading another's token after the settle does not hold."""
    swift, proxy, clock = _swift()
    order = []

    def sleep(seconds):
        clock.sleep(seconds)
        if len(clock.slept) == 1:       # the settle: the racing writer's PUT lands now
            swift.put('box', 'doc.lock', 'racing-token')
            swift.expiry[('box', 'doc.lock')] = clock.t + mod.LEASE
        elif len(clock.slept) == 4:     # it released its lease
            order.append('released')
            swift.containers['box']['objects'].pop('doc.lock')
    with mod.held(proxy, 'box', 'doc.lock', clock=clock.now, sleep=sleep):
        order.append('held')
        assert swift.containers['box']['objects']['doc.lock'][0] != b'racing-token'
    assert order == ['released', 'held']
    assert clock.slept[0] == clock.slept[-1] == mod.SETTLE and len(clock.slept) == 5
