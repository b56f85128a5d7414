# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The adopt scenario (issue 35): adopting a stack of ``--adopt-size`` resources, our engine against
the local cloud's real Heat, from the same abandon data.

The stack (``adopt_template``: a network, its subnet, ports on it, and OS::Heat::RandomString and
OS::Heat::None for the rest) is created once by our engine and abandoned (``state: abandoned``,
which gives Heat's abandon data and leaves every port; test_heat_peer_abandon.py shows Heat's adopt
takes it).  Heat's own create of the 1,000-resource stack failed here after 7 minutes ("AST
constructor recursion depth mismatch", a Python error inside heat-engine), so the stack is not
made by Heat.  Then, in ``--peer-rounds`` alternating rounds, from that one data:

- our engine adopts it in-process (``runner.run(StackRequest(adopt_data=...))`` into a fresh
  SQLite store): the record made, each port read once (GET), no write; the store is then thrown
  away (nothing in the cloud is ours to delete);
- Heat adopts it (``POST /stacks`` with ``adopt_stack_data``, as ``openstack stack adopt`` sends
  it), polled until ADOPT_COMPLETE, then abandoned again (unmeasured) so that the next round starts
  from the same cloud.  Heat's adopt reads nothing: it takes each id as given.

Wall time from the request to the stack ADOPT_COMPLETE (Heat's: its poll's answer, late by at most
the poll interval) and the cloud's calls (the front door's counters; for Heat, the bench's own
token, POST and polls taken off); ratio ours / Heat of the medians.
At the end our engine adopts the stack once more and deletes it.  Figures under ``adopt``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import statistics
import time

import yaml

from .runs import engine_run, phase

SCENARIO_SIZE = 1000


def adopt_template(size):
    """A HOT template of ``size`` resources: net, subnet, a fifth of them ports, the rest
    RandomString and None in turn."""
    resources = {'net': {'type': 'OS::Neutron::Net'},
                 'sub': {'type': 'OS::Neutron::Subnet',
                         'properties': {'network': {'get_resource': 'net'},
                                        'cidr': '10.200.0.0/16'}}}
    ports = size // 5
    for i in range(ports):
        resources['port%04d' % i] = {'type': 'OS::Neutron::Port', 'depends_on': 'sub',
                                     'properties': {'network': {'get_resource': 'net'}}}
    for i in range(size - 2 - ports):
        if i % 2:
            resources['none%04d' % i] = {'type': 'OS::Heat::None'}
        else:
            resources['rand%04d' % i] = {'type': 'OS::Heat::RandomString',
                                         'properties': {'length': 8}}
    return {'heat_template_version': '2018-08-31', 'resources': resources}


class HeatAdopt(object):
    """The local cloud's Heat driven over its API (bench/peers/heat_service.Peer's requests)."""

    def __init__(self, peer):
        self.peer = peer

    def abandon(self, name):
        """Heat forgets the stack (every resource stays), and its row is purged."""
        self.peer._login()
        sid = self.peer.ids.pop(name)
        status, _h, data = self.peer._call('DELETE', '%s/%s/%s/abandon' % (self.peer.base, name, sid))
        if status != 200:
            raise RuntimeError('abandon of %s: %s %s' % (name, status, str(data)[:500]))
        self.peer._purged(sid, timeout=600)
        return data

    def adopt(self, name, data):
        peer = self.peer
        peer.cloud.reset_stats()
        peer._login()
        body = {'stack_name': name, 'adopt_stack_data': json.dumps(data), 'disable_rollback': True,
                'timeout_mins': int(peer.timeout_s // 60)}
        t0 = time.monotonic()
        status, _h, answer = peer._call('POST', peer.base, body)
        if status != 201:
            raise RuntimeError('adopt by Heat: POST %s %s' % (status, str(answer)[:2000]))
        sid = peer.ids[name] = answer['stack']['id']
        stack, end, polls = peer._wait(name, sid, 'ADOPT', t0)
        calls = peer.cloud.stats()['requests']
        if (stack or {}).get('stack_status') != 'ADOPT_COMPLETE':
            raise RuntimeError('adopt by Heat: %s' % (stack or {}).get('stack_status_reason'))
        # Heat's own requests: the bench's (token, POST, polls) taken off
        return {'wall_s': end - t0, 'polls': polls, 'calls': calls - sum(peer.routes.values()),
                'client_calls': sum(peer.routes.values())}


def scenario_adopt(cloud, workdir, args, out):
    from peers import heat_service
    size = getattr(args, 'adopt_size', None) or SCENARIO_SIZE
    path = os.path.join(workdir, 'adopt%d.yaml' % size)
    with open(path, 'w') as f:
        yaml.safe_dump(adopt_template(size), f)
    cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
    peer = heat_service.Peer(cloud, workdir, template=path, timeout_s=3600)
    heat = HeatAdopt(peer)
    print('\n== adopt: %d resources, our engine vs %s ==' % (size, peer.name))
    made_store = os.path.join(workdir, 'adopt-made.sqlite')
    t0 = time.monotonic()
    engine_run(cloud, 'adoptsrc', made_store, 'present', path)
    made_s = time.monotonic() - t0
    data = engine_run(cloud, 'adoptsrc', made_store, 'abandoned')['abandon_data']
    print('our engine made it in %.1fs; abandoned, its data taken' % made_s)
    rounds = []
    store = None
    try:
        for n in range(args.peer_rounds):
            store = os.path.join(workdir, 'adopt%d.sqlite' % n)
            ours = phase(cloud, 'adopted%d' % n, store, 'present', adopt_data=data)
            os.remove(store)
            store = None
            theirs = heat.adopt('heatadopt%d' % n, data)
            heat.abandon('heatadopt%d' % n)
            rounds.append({'engine': {'wall_s': ours['wall_s'], 'cpu_s': ours['cpu_s'],
                                      'calls': ours['calls'], 'write_calls': ours['write_calls']},
                           'heat': theirs})
            print('round %d: ours %.2fs (%d calls, %d writes), Heat %.2fs (%d calls)'
                  % (n + 1, ours['wall_s'], ours['calls'], ours['write_calls'], theirs['wall_s'],
                     theirs['calls']))
    finally:
        # the stack is ours at the end: adopted once more, then deleted with every port
        store = os.path.join(workdir, 'adopt-last.sqlite')
        engine_run(cloud, 'adoptlast', store, 'present', adopt_data=data)
        engine_run(cloud, 'adoptlast', store, 'absent')
    med = dict((who, dict((k, statistics.median(r[who][k] for r in rounds)) for k in ('wall_s', 'calls')))
               for who in ('engine', 'heat'))
    ratio = med['engine']['wall_s'] / med['heat']['wall_s']
    print('adopt of %d resources: ours %.2fs, Heat %.2fs (medians of %d rounds): ours / Heat %.2f'
          % (size, med['engine']['wall_s'], med['heat']['wall_s'], len(rounds), ratio))
    out['adopt'] = {'size': size, 'create_s': made_s, 'rounds': rounds,
                    'medians': med, 'ratio_wall': ratio}
