# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Our oracle (heat_offline.py) answers every conformance case exactly as the
shared reference oracle does, so tests that use ours test against Heat.

The driver leaves dependency_order out of both answers (it varies with
PYTHONHASHSEED); the dependency edges (``resources.*.requires``) are compared.

One difference is on purpose: where Heat reaches for a service (Fn::GetAZs asks
Nova through Keystone) both oracles fail offline, but the shared one stops the
request inside keystoneauth (by replacing its Session.request) while ours lets
it go to a closed loopback port.  Such errors compare as "offline access" plus
the phase; everything else about those cases is compared as is.

Heat's "Circular Dependency Found: {...}" prints its graph's sets, whose order
follows the resources' identity hashes and so differs from run to run: both
answers compare with each set's members sorted.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

import pytest

import oracle_runner
from suite import ALL


def _shared_or_skip():
    script = oracle_runner.shared_oracle_script()
    if script is None:
        pytest.skip('needs ../shared/tools/heat-oracle (the reference oracle), which is not part of '
                    'the project')
    return script


# The shared oracle's "GET http://server.test:5000/v3" and keystoneauth's
# "Unable to establish connection to http://127.0.0.1:9/v3: ..." (ours).
NETWORK = re.compile(r'(GET|POST) http://server\.test:5000/\S*$|Unable to establish connection to '
                     r'http://127\.0\.0\.1:9/.*$')
NETWORK_TYPES = ('OfflineNetworkAccess', 'ConnectFailure')


CYCLE = 'Circular Dependency Found: '


def _split_top(text):
    """``text``'s items separated by ', ' outside any braces."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {'{': 1, '}': -1}.get(ch, 0)
        if depth == 0 and text.startswith(', ', i):
            items.append(text[start:i])
            start = i + 2
    return items + [text[start:]]


def _sorted_sets(text):
    """The brace-delimited sets in ``text``, nested ones included, each with its members sorted."""
    if not (text.startswith('{') and text.endswith('}')):
        return text
    members = []
    for item in _split_top(text[1:-1]):
        key, sep, value = item.partition(': {')
        members.append(key + sep[:-1] + _sorted_sets('{' + value) if sep else item)
    return '{' + ', '.join(sorted(members)) + '}'


def offline(answer):
    """``answer`` with offline-access failures in one form (see the docstring)."""
    if isinstance(answer, list):
        return [offline(item) for item in answer]
    if not isinstance(answer, dict):
        return answer
    out = {key: offline(value) for key, value in answer.items()}
    if isinstance(out.get('message'), str) and out['message'].startswith(CYCLE):
        out['message'] = CYCLE + _sorted_sets(out['message'][len(CYCLE):])
    if isinstance(out.get('message'), str) and NETWORK.search(out['message']):
        out['message'] = NETWORK.sub('<offline access>', out['message'])
        if out.get('type') in NETWORK_TYPES:
            out['type'] = '<offline access>'
    return out


def test_offline_forms_meet():
    ours = {'phase': 'output', 'type': 'ConnectFailure', 'message':
            'Unable to establish connection to http://127.0.0.1:9/v3: HTTPConnectionPool(...)'}
    theirs = {'phase': 'output', 'type': 'OfflineNetworkAccess',
              'message': 'GET http://server.test:5000/v3'}
    assert offline({'e': ours}) == offline({'e': theirs})
    assert offline(dict(ours, phase='validate')) != offline(theirs)
    plain = {'type': 'StackValidationFailed', 'message': 'The Parameter (x) was not provided.'}
    assert offline(plain) == plain


def test_cycle_messages_meet_whatever_their_sets_order():
    ours = {'message': CYCLE + '{A "r0": {B "r4"}, B "r3": {A "r2", B "r1", A "r0"}}'}
    theirs = {'message': CYCLE + '{B "r3": {A "r2", A "r0", B "r1"}, A "r0": {B "r4"}}'}
    assert offline(ours) == offline(theirs)
    assert offline(ours) != offline({'message': CYCLE + '{A "r0": {B "r4"}, B "r3": {A "r2"}}'})


def _ask(requests, script):
    try:
        return oracle_runner.ask(requests, script=script)
    except oracle_runner.OracleUnavailable as exc:
        pytest.skip('Heat oracle unavailable: %s' % exc)


def test_our_oracle_answers_as_the_shared_one():
    shared = _shared_or_skip()
    requests = [case.request() for case in ALL]
    theirs = _ask(requests, shared)
    ours = _ask(requests, None)
    differ = [(case.id, mine, ref) for case, mine, ref in zip(ALL, ours, theirs)
              if offline(mine) != offline(ref)]
    shown = '\n'.join('%s\n  ours:   %s\n  shared: %s'
                      % (cid, json.dumps(mine, sort_keys=True)[:600], json.dumps(ref, sort_keys=True)[:600])
                      for cid, mine, ref in differ[:10])
    assert not differ, '%d of %d cases differ:\n%s' % (len(differ), len(ALL), shown)
