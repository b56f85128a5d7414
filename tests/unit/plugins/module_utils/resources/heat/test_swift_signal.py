# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/_swift_signal.py: the handle's container and object as
Heat makes them, the TempURL, reading signals at the cost of one HEAD when
nothing changed, and deleting every version."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _swift_signal as mod  # noqa: E402

OBJ = 's-h-abcdefabcdef'


def _handle(key=None):
    conn, swift, proxy = swift_fake.cloud(key)
    url = mod.make_handle(conn, 'sid', OBJ)
    return conn, swift, proxy, url


def test_the_handle_is_a_versioned_container_a_seeded_object_and_a_put_temp_url():
    conn, swift, proxy, url = _handle()
    assert swift.containers['sid']['headers'] == {'X-Versions-Location': 'sid'}
    assert swift.containers['sid']['objects'][OBJ][0] == b'in progress'
    # the account had no key: one is set (32 hex digits, as Heat's)
    assert len(swift.account[swift_fake.KEY]) == 32
    assert proxy.writes() == [('PUT', '/sid'), ('PUT', '/sid/' + OBJ), ('POST', '/')]
    # the front door's path before /v1/ kept; Heat's far-future expiry
    assert url.startswith(swift_fake.ENDPOINT + '/sid/' + OBJ + '?temp_url_sig=')
    assert url.endswith('&temp_url_expires=2147483587')
    # an agent's PUT to it is accepted by the account's key
    mod.put_signal(conn, url, b'{"status": "SUCCESS"}')
    assert swift.containers['sid']['objects'][OBJ][0] == b'{"status": "SUCCESS"}'


def test_an_existing_key_is_used_and_asked_once_per_run():
    conn, swift, proxy = swift_fake.cloud(key='k' * 32)
    mod.make_handle(conn, 'sid', 'a')
    mod.make_handle(conn, 'sid', 'b')
    assert ('POST', '/') not in proxy.writes()
    assert [r[:2] for r in proxy.requests].count(('HEAD', '/')) == 1


def test_the_key_is_noted_as_a_secret_of_the_connection():
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
    conn, swift, proxy = swift_fake.cloud(key='CANARY' + 'k' * 26)
    mod.make_handle(conn, 'sid', 'a')
    assert 'CANARY' + 'k' * 26 in sdk.secrets_noted(conn)
    conn, swift, proxy, url = _handle()     # a key the collection set
    assert swift.account[swift_fake.KEY] in sdk.secrets_noted(conn)


def test_a_run_that_set_the_key_signs_with_the_one_the_account_holds_after_the_settle(monkeypatch):
    """Another run that found no key either posts its own while this one waits: this run reads
    the key again after KEY_SETTLE and signs with that one, so the account accepts its URLs."""
    conn, swift, proxy = swift_fake.cloud()
    swift.containers['sid'] = {'headers': {}, 'objects': {}}
    settled = []

    def other_run_posts(seconds):
        settled.append(seconds)
        swift.account[swift_fake.KEY] = 'b' * 32
    monkeypatch.setattr(mod, 'KEY_SETTLE', 1.0)
    monkeypatch.setattr(mod.time, 'sleep', other_run_posts)
    url = mod.temp_url(conn, 'sid', 'a')
    assert settled == [1.0]
    assert [r[:2] for r in proxy.requests] == [('HEAD', '/'), ('POST', '/'), ('HEAD', '/')]
    mod.put_signal(conn, url, b'signal')
    assert swift.containers['sid']['objects']['a'][0] == b'signal'


def test_a_wrong_signature_is_refused_by_swift():
    conn, swift, proxy, url = _handle()
    swift.account[swift_fake.KEY] = 'another'
    with pytest.raises(Exception):
        mod.put_signal(conn, url, b'{}')


def test_bodies_in_arrival_order_and_an_unchanged_object_costs_one_head():
    conn, swift, proxy, url = _handle()
    seen = {}
    assert mod.read_bodies(conn, 'sid', OBJ, seen) == []    # only "in progress"
    proxy.requests[:] = []
    assert mod.read_bodies(conn, 'sid', OBJ, seen) == []
    assert [r[:2] for r in proxy.requests] == [('HEAD', '/sid/' + OBJ)]
    for body in ('one', 'two', 'three'):
        swift.put('sid', OBJ, body)
    proxy.requests[:] = []
    assert mod.read_bodies(conn, 'sid', OBJ, seen) == ['one', 'two', 'three']
    # the listing asks only for this object's archives
    listing = [r for r in proxy.requests if r[:2] == ('GET', '/sid')]
    assert listing[0][2]['params']['prefix'] == '%03x%s/' % (len(OBJ), OBJ)
    swift.put('sid', OBJ, 'four')
    proxy.requests[:] = []
    assert mod.read_bodies(conn, 'sid', OBJ, seen) == ['one', 'two', 'three', 'four']
    # archives read before are not read again: the listing, the new archive, the object
    gets = [r[1] for r in proxy.requests if r[0] == 'GET']
    assert gets == ['/sid', '/sid/%03x%s/%s' % (len(OBJ), OBJ, sorted(seen['archives'])[-1]
                                                .rsplit('/', 1)[1]), '/sid/' + OBJ]


def test_other_objects_of_the_container_cost_nothing():
    conn, swift, proxy, url = _handle()
    for i in range(50):
        swift.put('sid', 'other-%d' % i, 'x')
    seen = {}
    swift.put('sid', OBJ, 'mine')
    assert mod.read_bodies(conn, 'sid', OBJ, seen) == ['mine']
    assert len(proxy.requests) <= 10
    assert not any('other' in r[1] for r in proxy.requests)


def test_a_missing_object_or_container_reads_as_no_signal():
    conn, swift, proxy = swift_fake.cloud()
    assert mod.read_bodies(conn, 'nope', OBJ, {}) == []


def test_delete_removes_every_version_then_the_container_when_empty():
    conn, swift, proxy, url = _handle()
    for body in ('a', 'b', 'c'):
        swift.put('sid', OBJ, body)
    assert len(swift.objects('sid')) == 4
    mod.delete_handle(conn, 'sid', OBJ)
    assert swift.objects('sid') is None
    # another handle's object keeps the container
    conn, swift, proxy, url = _handle()
    swift.put('sid', 'other', 'x')
    swift.put('sid', OBJ, 'a')
    mod.delete_handle(conn, 'sid', OBJ)
    assert swift.objects('sid') == ['other']
    # gone already: nothing fails
    mod.delete_handle(conn, 'sid', OBJ)


@pytest.mark.parametrize('url, part', [
    ('http://127.0.0.1:8080/object-store/v1/AUTH_p1/sid', 'Swift TempURL path'),
    ('http://127.0.0.1:8080/object-store/v2/AUTH_p1/sid/o', 'Swift TempURL path'),
    ('http://127.0.0.1:8080/object-store/v1/AUTH_other/sid/o', 'Swift TempURL path'),
    ('not a url', 'Swift TempURL path'),
])
def test_a_url_that_is_no_temp_url_of_this_account_is_refused_in_heats_words(url, part):
    conn, swift, proxy = swift_fake.cloud()
    with pytest.raises(ValueError) as err:
        mod.parse_url(conn, url)
    assert str(err.value).endswith('is not a valid SwiftSignalHandle.  The %s is invalid' % part)


def test_a_temp_url_parses_back_to_its_container_and_object():
    conn, swift, proxy, url = _handle()
    assert mod.parse_url(conn, url) == ('sid', OBJ)


def test_handles_waiting_together_share_one_listing_a_tick():
    """Five deployments of one server wait at once: a tick of their polls costs one listing of the
    stack's container, not a HEAD each; each still sees its own signals, and a handle that looks
    again within the tick gets a fresh listing, never an old answer."""
    conn, swift, proxy = swift_fake.cloud('k')
    names = ['dep-%d' % i for i in range(5)]
    for name in names:
        mod.make_handle(conn, 'sid', name)
    seen = dict((name, {}) for name in names)
    proxy.requests[:] = []
    mod.read_bodies(conn, 'sid', names[0], seen[names[0]])     # alone for now: a HEAD
    assert proxy.requests[0][:2] == ('HEAD', '/sid/dep-0')
    for _tick in range(2):      # the others start waiting too
        time.sleep(mod.JOIN_WINDOW + 0.05)
        for name in names:
            assert mod.read_bodies(conn, 'sid', name, seen[name]) == []
    swift.put('sid', 'dep-3', 'done three')
    swift.put('sid', 'dep-3', 'again three')
    time.sleep(mod.JOIN_WINDOW + 0.05)          # the next tick
    proxy.requests[:] = []
    got = dict((name, mod.read_bodies(conn, 'sid', name, seen[name])) for name in names)
    assert got == {'dep-0': [], 'dep-1': [], 'dep-2': [], 'dep-3': ['done three', 'again three'],
                   'dep-4': []}
    heads = [r for r in proxy.requests if r[0] == 'HEAD']
    listings = [r for r in proxy.requests if r[:2] == ('GET', '/sid')]
    assert heads == [] and len(listings) == 1 and listings[0][2]['params']['prefix'] == ''
    # only the changed handle read bodies: its two new archives and itself
    reads = [r[1] for r in proxy.requests if r[0] == 'GET' and r[1] != '/sid']
    assert len(reads) == 3 and reads[-1] == '/sid/dep-3', reads
    assert all(r.startswith('/sid/' + mod.archive_prefix('dep-3')) for r in reads[:2]), reads
    # the same handle asking twice in one tick: a second listing, which sees a new signal
    swift.put('sid', 'dep-1', 'late one')
    assert mod.read_bodies(conn, 'sid', 'dep-1', seen['dep-1']) == ['late one']
    assert len([r for r in proxy.requests if r[:2] == ('GET', '/sid')]) == 2
