# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Observing and running the engine in the bench's process: the times of its events and of every
HTTP request (the engine's code is untouched: the bench wraps two functions in its own process),
one measured phase, the stacks to delete on the way out."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import datetime
import gc
import re
import threading
import time

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import (
    events as engine_events)
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner

from .calibration import engine_cpu_s, process_cpu_s
from .costs import TOKEN, _UUID

STACKS = []     # (name, store) of stacks that may exist in the cloud: deleted on the way out


class Observer(object):
    """Monotonic times of the engine's events and of every HTTP request the SDK makes."""

    def __init__(self):
        self.events = []
        self.requests = []
        self.lock = threading.Lock()
        self.on = False
        # CPU time in the cyclic collector and collections per generation: what a phase's
        # CPU growing faster than its resources is usually made of (engine/run/collector.py)
        self.gc_s = 0.0
        self.gc_runs = [0, 0, 0]
        self._gc_started = None
        gc.callbacks.append(self._collecting)

    def _collecting(self, phase, info):
        if not self.on:
            return
        if phase == 'start':
            self._gc_started = time.process_time()
        elif self._gc_started is not None:
            self.gc_s += time.process_time() - self._gc_started
            self.gc_runs[info['generation']] += 1
            self._gc_started = None

    def install(self):
        # requests' Session.send sees every HTTP request the engine makes (keystoneauth's
        # session ends each one there)
        import requests
        record = engine_events.EventLog._record
        send = requests.Session.send
        obs = self

        def _record(run, event, *args, **kwargs):
            # the wrapped method's other arguments passed on whatever they are (``resource=``
            # came in with the events a nested stack's resource reports as its own)
            if obs.on:
                with obs.lock:
                    obs.events.append((time.monotonic(), event['resource_name'],
                                       event['resource_type'], event['resource_action'],
                                       event['resource_status']))
            return record(run, event, *args, **kwargs)

        def _send(sess, request, **kwargs):
            start = time.monotonic()
            try:
                return send(sess, request, **kwargs)
            finally:
                if obs.on:
                    with obs.lock:
                        obs.requests.append((start, time.monotonic(), request.method, request.url))

        engine_events.EventLog._record = _record
        requests.Session.send = _send

    def start(self):
        with self.lock:
            self.events, self.requests, self.on = [], [], True
            self.gc_s, self.gc_runs = 0.0, [0, 0, 0]

    def stop(self):
        self.on = False


OBSERVER = Observer()


def route_of(method, url):
    """A client URL as the cloud's stats name its route (ids as {id})."""
    path = re.sub(r'^https?://[^/]+', '', url).split('?')[0]
    parts = [p for p in path.split('/') if p != '']
    service = parts[0] if parts else ''
    rest = ['{id}' if (_UUID.match(p) or re.match(r'^[0-9a-f]{32}$', p)) else p for p in parts[1:]]
    if len(rest) > 2 and rest[-2] == 'os-keypairs':
        rest[-1] = '{name}'
    return '%s %s /%s%s' % (method.upper(), SERVICES.get(service, service), '/'.join(rest),
                            '/' if path.endswith('/') and rest else '')


# the front door's path prefix -> the service name its stats use
SERVICES = {'volume': 'block-storage', 'networking': 'network'}


# -- running the engine ----------------------------------------------------------------------------

def engine_run(cloud, name, store, state, template=None, parameters=None, *, adopt_data=None):
    conn = cloud.sdk()
    try:
        result = runner.run(runner.StackRequest(
            name, state=state, template=template, parameters=parameters, store_path=store,
            adopt_data=adopt_data,
            # the 10,000-resource stack is past Heat's default max_resources_per_stack (1000),
            # as an operator running such stacks raises it: no limit here
            timeout=1800, max_resources=-1), conn)
    finally:
        conn.close()
    stack = result.get('stack') or {}
    if stack and not str(stack.get('stack_status', '')).endswith('_COMPLETE'):
        raise RuntimeError('%s of %s: %s: %s' % (state, name, stack.get('stack_status'),
                                                 stack.get('stack_status_reason')))
    return result


def phase(cloud, name, store, state, template=None, parameters=None, *, adopt_data=None):
    """One run of the engine, measured: wall, CPU of this process (without the calibration's
    thread: calibration.engine_cpu_s), calls per route."""
    cloud.reset_stats()
    pids = service_pids(cloud)
    served0 = services_cpu(pids)
    OBSERVER.start()
    clock0 = time.time()
    wall0, cpu0 = time.monotonic(), engine_cpu_s()
    try:
        result = engine_run(cloud, name, store, state, template, parameters,
                            adopt_data=adopt_data)
    finally:
        wall, cpu = time.monotonic() - wall0, engine_cpu_s() - cpu0
        OBSERVER.stop()
    served = services_cpu(pids)
    stats = cloud.stats()
    routes = dict(stats.get('by_route') or {})
    writes = sum(n for r, n in routes.items()
                 if r.split(' ', 1)[0] in ('POST', 'PUT', 'PATCH', 'DELETE') and r != TOKEN)
    requests = list(OBSERVER.requests)
    return dict(cloud_split(requests, wall0, wall), **{
        'wall_s': wall, 'cpu_s': cpu, 'calls': stats.get('requests', sum(routes.values())),
        'by_route': routes, 'write_calls': writes, 'changed': result.get('changed'),
        'gc_s': OBSERVER.gc_s, 'gc_collections': list(OBSERVER.gc_runs),
        'status': (result.get('stack') or {}).get('stack_status'),
        'cloud_cpu_s': dict((n, served[n] - served0[n]) for n in served if n in served0),
        '_events': list(OBSERVER.events), '_requests': requests, '_t0': wall0,
        '_clock0': clock0})


def service_pids(cloud):
    """The local cloud's service processes (its admin API names them), by service."""
    info = cloud.admin('GET', '') or {}
    return dict((n, p) for n, p in (info.get('pids') or {}).items() if n != 'supervisor')


def services_cpu(pids):
    """CPU seconds each service process has used so far (user + system, from /proc): the
    cloud's own cost of a phase, which the machine's load barely changes, unlike answer times."""
    out = {}
    for name, pid in pids.items():
        used = process_cpu_s(pid)
        if used is not None:
            out[name] = used
    return out


def cloud_split(requests, t0, wall):
    """A phase's wall time split by who held it: ``cloud_busy_s`` while at least one request was
    at the cloud, ``engine_alone_s`` the rest (nothing at the cloud: the engine's own work on the
    path), and each route's mean client-side answer time (``answer_ms``).  When the cloud is the
    bottleneck (one Neutron process creating every port in turn) the wall time is its time, and
    its growth is the cloud's: the engine's is its CPU and its time alone."""
    busy, until = 0.0, t0
    for start, end, _method, _url in sorted(requests):
        start, end = max(start, until), min(end, t0 + wall)
        if end > start:
            busy += end - start
            until = end
    times = collections.defaultdict(list)
    for start, end, method, url in requests:
        times[route_of(method, url)].append(end - start)
    return {'cloud_busy_s': busy, 'engine_alone_s': max(0.0, wall - busy),
            'answer_ms': dict((r, 1000 * sum(v) / len(v)) for r, v in times.items())}


def drop_private(ph):
    """A phase's figures without what only its profile reads (kept out of the JSON)."""
    for k in ('_events', '_requests', '_t0', '_clock0'):
        ph.pop(k, None)


def servers_ready(cloud, stack, phase_name, ph):
    """Resource name -> seconds into the phase at which Nova itself had the server built
    (``launched_at``) or gone (``terminated_at``), by Nova's clock (this machine's).  Here a
    server takes well over the configured build time from its POST to ACTIVE: the conductor,
    the scheduler and Neutron's port binding come before the fake driver's timed spawn."""
    admin = cloud.sdk('localcloud-admin')
    try:
        query = {'all_projects': True}
        if phase_name == 'delete':
            query['deleted_only'] = True
        servers = list(admin.compute.servers(details=True, **query))
    finally:
        admin.close()
    out = {}
    for server in servers:
        stamp = server.launched_at if phase_name == 'create' else server.terminated_at
        _at_latest(out, stack, server.name, stamp, ph)
    return out


def volumes_in_use(cloud, stack, ph):
    """Resource name -> seconds into the create at which Cinder marked the volume 'in-use': its
    ``updated_at``, last written when Nova completed the attachment (Cinder's ``os-complete``).
    The attachment's own ``attached_at`` is taken earlier, when it turned 'attaching'.  Nova
    completes it after the compute service's attach, asynchronously to the POST, which answers
    before it: that time is the cloud's, as a server's build is."""
    admin = cloud.sdk('localcloud-admin')
    try:
        volumes = list(admin.block_storage.volumes(details=True, all_projects=True))
    finally:
        admin.close()
    out = {}
    for volume in volumes:
        if volume.status == 'in-use':
            _at_latest(out, stack, volume.name, volume.updated_at, ph)
    return out


def _at_latest(out, stack, name, stamp, ph):
    """``out[resource] = stamp`` in seconds into the phase (the latest of the same resource's),
    for an object the engine named after the stack's resource (its physical resource name);
    stamps are the service's UTC, by this machine's clock."""
    match = re.match(r'^%s-(.+)-[a-z0-9]{12}$' % re.escape(stack), name or '')
    if not match or not stamp:
        return
    when = datetime.datetime.fromisoformat(str(stamp).replace('Z', ''))
    at = when.replace(tzinfo=datetime.timezone.utc).timestamp() - ph['_clock0']
    out[match.group(1)] = max(at, out.get(match.group(1), at))
