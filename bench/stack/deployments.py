# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scenario 5 (deployments, issue 14, ``--scenario deployments``): software deployments through
the guests' real agents (the cloud runs with --guests and --with-heat).

1. Beside Heat: the same template (a network, two servers with user_data_format SOFTWARE_CONFIG
   and POLL_TEMP_URL, a script SoftwareDeployment to each over TEMP_URL_SIGNAL) created once by
   our engine in-process and once by the local cloud's real Heat, the servers' guests running the
   real os-collect-config and heat-config hooks for both.  The figure is the time from the
   servers being ACTIVE to the stack being COMPLETE, each engine's own events: the last server's
   CREATE_COMPLETE event to the stack's (ours: the run's end; Heat: its database's event times).
   That is the deployments' path (document written, agent's poll, hook, signal, signal seen),
   which the agent's polling interval (5 s here) dominates on both sides.  Ratio ours / Heat; one
   run each, at zero latency and build time (the path after ACTIVE does not build anything).
2. Poll cost: 1 and then 5 deployments pending on one server whose guest runs no agent (its user
   data removes Heat's metadata, as the role's test does), so they wait for a signal that does
   not come.  Once every deployment is CREATE_IN_PROGRESS the cloud's counters are reset and read
   again WINDOW_S seconds later: requests per second of waiting, in total and per pending
   deployment (the engine's requests only: nothing else talks to the cloud then).  Per
   deployment it must not grow with their number; in total it should not either: deployments
   waiting together share one listing of the stack's container a tick (a deployment waiting
   alone pays one HEAD of its signal object); the server's document is written once per
   deployment and never polled by the engine.  Then each deployment is signalled as an agent would (a PUT to its deploy_signal_id,
   read from the server's document), the run completes, and the stack is deleted.

Heat leaves its servers' deployments documents (container and object) in Swift after its stack
delete; the bench deletes them and says so.  Its figures go under the key ``deployments``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import json
import os
import sqlite3
import threading
import time
import urllib.request

from localcloud.harness import wait_for

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner

from .runs import OBSERVER, STACKS, drop_private, engine_run, phase

WINDOW_S = 10.0
PENDING_SIZES = (1, 5)
DEPLOYMENT = 'OS::Heat::SoftwareDeployment'
SERVER = 'OS::Nova::Server'

SCRIPT = """#!/bin/sh
echo "deployed $who on $deploy_resource_name"
printf "$who" > $heat_outputs_path.result
"""
# an image without the agent: Heat's metadata is removed before anything reads it
NO_AGENT = '#!/bin/sh\nrm -f "$LOCALCLOUD_GUEST_ROOT/var/lib/heat-cfntools/cfn-init-data"\n'


def _config():
    return {'type': 'OS::Heat::SoftwareConfig', 'properties': {
        'group': 'script', 'inputs': [{'name': 'who'}], 'outputs': [{'name': 'result'}],
        'config': SCRIPT}}


def beside_heat_template(servers=2):
    """The deployment template both engines run: a network (Heat's servers need one), and per
    server a script deployment, the transports written out (Heat's defaults need its API)."""
    res = {'net': {'type': 'OS::Neutron::Net'},
           'subnet': {'type': 'OS::Neutron::Subnet', 'properties': {
               'network': {'get_resource': 'net'}, 'cidr': '10.77.0.0/24'}},
           'config': _config()}
    for i in range(1, servers + 1):
        res['server%d' % i] = {'type': SERVER, 'depends_on': 'subnet', 'properties': {
            'image': 'cirros', 'flavor': 'm1.tiny', 'networks': [{'network': {'get_resource': 'net'}}],
            'user_data_format': 'SOFTWARE_CONFIG', 'software_config_transport': 'POLL_TEMP_URL'}}
        res['deploy%d' % i] = {'type': DEPLOYMENT, 'properties': {
            'config': {'get_resource': 'config'}, 'server': {'get_resource': 'server%d' % i},
            'signal_transport': 'TEMP_URL_SIGNAL', 'input_values': {'who': 'bench'}}}
    return {'heat_template_version': '2018-08-31', 'resources': res, 'outputs': {
        'results': {'value': [{'get_attr': ['deploy%d' % i, 'result']}
                              for i in range(1, servers + 1)]}}}


def pending_template(count):
    """One agent-less server and ``count`` deployments to it (our engine only: no network)."""
    res = {'config': _config(),
           'server': {'type': SERVER, 'properties': {
               'image': 'cirros', 'flavor': 'm1.tiny', 'networks': [{'allocate_network': 'none'}],
               'user_data_format': 'SOFTWARE_CONFIG', 'user_data': NO_AGENT}}}
    for i in range(1, count + 1):
        res['deploy%d' % i] = {'type': DEPLOYMENT, 'properties': {
            'config': {'get_resource': 'config'}, 'server': {'get_resource': 'server'},
            'input_values': {'who': 'pending %d' % i}}}
    return {'heat_template_version': '2018-08-31', 'resources': res}


def after_active(events, end):
    """Seconds from the last server's CREATE_COMPLETE to ``end``, from (time, type, action,
    status) events; None when no server completed."""
    active = [t for t, kind, action, status in events
              if kind == SERVER and action == 'CREATE' and status == 'COMPLETE']
    return end - max(active) if active else None


def rates(routes, window, pending):
    """Requests per second of waiting, in total and per pending deployment, by route."""
    total = sum(n for route, n in routes.items() if '/auth/tokens' not in route)
    return {'window_s': window, 'pending': pending, 'requests': total,
            'per_s': total / window, 'per_s_per_deployment': total / window / pending,
            'by_route': dict(routes)}


# -- 1. beside Heat -------------------------------------------------------------------------------

def _ours(cloud, workdir, path):
    name, store = 'deploys-ours', os.path.join(workdir, 'deploys-ours.sqlite')
    STACKS.append((name, store))
    ph = phase(cloud, name, store, 'present', path)
    events = [(t, kind, action, status) for t, _name, kind, action, status in ph['_events']]
    figure = {'wall_s': ph['wall_s'], 'calls': ph['calls'], 'status': ph['status'],
              'after_active_s': after_active(events, ph['_t0'] + ph['wall_s'])}
    drop_private(ph)
    engine_run(cloud, name, store, 'absent')
    STACKS.remove((name, store))
    return figure


def heat_events(db, stack_id):
    """(time, type, action, status) of a Heat stack's events, from its database (seconds)."""
    conn = sqlite3.connect('file:%s?mode=ro' % db, uri=True, timeout=30)
    try:
        rows = conn.execute('SELECT resource_type, resource_action, resource_status, created_at '
                            'FROM event WHERE stack_id = ? ORDER BY id', (stack_id,)).fetchall()
    finally:
        conn.close()
    epoch = datetime.datetime(1970, 1, 1)
    return [((datetime.datetime.fromisoformat(at) - epoch).total_seconds(), kind, action, status)
            for kind, action, status, at in rows]


def _heat(cloud, workdir, path):
    from peers import heat_service
    peer = heat_service.Peer(cloud, workdir, template=path)
    try:
        made = peer.create('deploys-heat')
        figure = {'wall_s': made['wall_s'], 'status': made['detail'].split(':')[0],
                  'calls': None, 'after_active_s': None}
        if made['stack_id']:
            events = heat_events(peer.db, made['stack_id'])
            done = [t for t, kind, action, status in events
                    if kind == 'OS::Heat::Stack' and action == 'CREATE' and status == 'COMPLETE']
            if done:
                figure['after_active_s'] = after_active(events, done[-1])
        return figure
    finally:
        peer.cleanup('deploys-heat')
        figure_left = _drop_heats_documents(cloud, 'deploys-heat-')
        if figure_left:
            print('  Heat left its servers\' deployment documents in Swift after the delete: %s '
                  '(deleted by the bench)' % figure_left)


def _drop_heats_documents(cloud, prefix):
    """Heat 27 leaves each POLL_TEMP_URL server's container and document in Swift when it deletes
    the stack (seen here): deleted, so that the bench leaves the cloud as it found it; the
    names are returned."""
    conn = cloud.sdk()
    left = []
    try:
        for container in list(conn.object_store.containers()):
            if not container.name.startswith(prefix):
                continue
            for obj in list(conn.object_store.objects(container.name)):
                conn.object_store.delete_object(obj, container=container.name)
            conn.object_store.delete_container(container.name)
            left.append(container.name)
    finally:
        conn.close()
    return left


def beside_heat(cloud, workdir):
    path = os.path.join(workdir, 'deploys.yaml')
    with open(path, 'w') as f:
        json.dump(beside_heat_template(), f)     # JSON is YAML: both engines read it
    cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
    ours, heat = _ours(cloud, workdir, path), _heat(cloud, workdir, path)
    ratio = (ours['after_active_s'] / heat['after_active_s']
             if ours['after_active_s'] and heat['after_active_s'] else None)
    return {'ours': ours, 'heat': heat, 'ratio_after_active': ratio}


# -- 2. the poll cost -----------------------------------------------------------------------------

def _signal_urls(cloud, stack_name):
    """deploy_signal_id of every deployment in the documents of the stack's servers."""
    conn = cloud.sdk()
    urls = []
    try:
        for container in conn.object_store.containers():
            if not container.name.startswith(stack_name + '-'):
                continue
            for obj in conn.object_store.objects(container.name):
                if obj.name.endswith('.lock'):
                    continue
                body = conn.object_store.download_object(obj.name, container=container.name)
                try:
                    doc = json.loads(body)
                except ValueError:
                    continue
                for entry in doc.get('deployments') or () if isinstance(doc, dict) else ():
                    inputs = dict((i['name'], i.get('value')) for i in entry.get('inputs') or ())
                    if inputs.get('deploy_signal_id'):
                        urls.append(inputs['deploy_signal_id'])
    finally:
        conn.close()
    return urls


def _signal(url):
    """What heat-config-notify sends (a PUT to the TempURL on 127.0.0.1, no token)."""
    body = json.dumps({'deploy_stdout': 'signalled by the bench', 'deploy_stderr': '',
                       'deploy_status_code': 0}).encode()
    req = urllib.request.Request(url, data=body, method='PUT')
    with urllib.request.urlopen(req, timeout=60) as resp:
        resp.read()


def pending(cloud, workdir, count):
    name, store = 'pending%d' % count, os.path.join(workdir, 'pending%d.sqlite' % count)
    path = os.path.join(workdir, name + '.yaml')
    with open(path, 'w') as f:
        json.dump(pending_template(count), f)
    STACKS.append((name, store))
    done = {}

    def run():
        conn = cloud.sdk()
        try:
            done['result'] = runner.run(runner.StackRequest(
                name, template=path, store_path=store, timeout=600), conn)
        except Exception as exc:  # noqa: B902 - reported by the caller
            done['error'] = exc
        finally:
            conn.close()
    OBSERVER.start()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    try:
        wait_for(lambda: 'error' in done or sum(
            1 for e in list(OBSERVER.events)
            if e[2] == DEPLOYMENT and e[3] == 'CREATE' and e[4] == 'IN_PROGRESS') >= count,
            timeout=300, interval=0.2, what='%d deployments pending' % count)
        if 'error' in done:
            raise done['error']
        # every deployment's start is done (its entry is the last thing it writes): from here on
        # the engine only waits, so the window counts its looks, at the same age for every size
        wait_for(lambda: len(_signal_urls(cloud, name)) >= count, timeout=120, interval=0.2,
                 what='%d entries in the document' % count)
        cloud.reset_stats()
        start = time.monotonic()
        time.sleep(WINDOW_S)        # the measurement itself: the engine waiting, counted
        window = time.monotonic() - start
        figure = rates(cloud.stats().get('by_route') or {}, window, count)
        urls = _signal_urls(cloud, name)
        figure['signalled'] = len(urls)
        for url in urls:
            _signal(url)
        worker.join(300)
    finally:
        OBSERVER.stop()
    stack = (done.get('result') or {}).get('stack') or {}
    figure['status'] = stack.get('stack_status') or repr(done.get('error'))
    engine_run(cloud, name, store, 'absent')
    STACKS.remove((name, store))
    return figure


def _containers(cloud):
    """(container, object) of everything in Swift; a container itself as (name, '')."""
    res = cloud.resources()
    return (set((c['name'], '') for c in res.get('containers', ())) |
            set((o['container'], o['name']) for o in res.get('objects', ())))


def scenario_deployments(cloud, workdir, args, out):
    res = out['deployments'] = {'window_s': WINDOW_S}
    before = _containers(cloud)
    res['beside_heat'] = beside_heat(cloud, workdir)
    print_beside_heat(res['beside_heat'])
    # what a part left in Swift (container, object; '' for the container itself), named
    res['beside_heat']['left_in_swift'] = sorted(_containers(cloud) - before)
    before = _containers(cloud)
    cloud.configure(latency_ms=0, build_seconds={'server': 0, 'volume': 0})
    res['poll_cost'] = dict((str(n), pending(cloud, workdir, n)) for n in PENDING_SIZES)
    res['left_in_swift_by_pending'] = sorted(_containers(cloud) - before)
    if res['beside_heat']['left_in_swift'] or res['left_in_swift_by_pending']:
        print('  left in Swift: beside Heat %s; pending %s' % (
            res['beside_heat']['left_in_swift'], res['left_in_swift_by_pending']))
    first, last = (res['poll_cost'][str(n)] for n in (PENDING_SIZES[0], PENDING_SIZES[-1]))
    res['poll_growth_per_deployment'] = (last['per_s_per_deployment'] /
                                         first['per_s_per_deployment']
                                         if first['per_s_per_deployment'] else None)
    print_poll_cost(res)


def print_beside_heat(r):
    print('\n== Scenario 5a: deployments beside Heat (2 servers, a script deployment each, the '
          "guests' real agents; servers ACTIVE -> stack COMPLETE, one run each)")
    for key in ('ours', 'heat'):
        f = r[key]
        print('  %-5s %-16s wall %6.1fs  after ACTIVE %s' % (
            key, f['status'], f['wall_s'], '%.1fs' % f['after_active_s']
            if f['after_active_s'] is not None else '?'))
    if r['ratio_after_active'] is not None:
        print('  ratio ours / Heat after ACTIVE: %.2f' % r['ratio_after_active'])


def print_poll_cost(res):
    print('\n== Scenario 5b: poll cost of pending deployments on one server (%.0f s of waiting, '
          'the front door\'s counters)' % res['window_s'])
    for n, f in res['poll_cost'].items():
        print('  %s pending: %5.2f req/s, %5.2f req/s per deployment  (%s)' % (
            n, f['per_s'], f['per_s_per_deployment'], ', '.join(
                '%s %d' % kv for kv in sorted(f['by_route'].items()))))
    if res['poll_growth_per_deployment'] is not None:
        print('  per deployment, %d -> %d pending: x%.2f (must not grow)' % (
            PENDING_SIZES[0], PENDING_SIZES[-1], res['poll_growth_per_deployment']))
