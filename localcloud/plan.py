# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan every process reads: which services, on which ports, under which path prefixes.

Public URLs point at the front door (what clients and Heat use); internal URLs point at the
service's own process (what the services use between themselves, as in a real deployment's
internal endpoints), so service-to-service calls are neither delayed, faulted nor counted.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import socket

# name: (path prefix, catalog type, catalog name, URL path under the prefix)
SERVICES = {
    'keystone': ('/identity', 'identity', 'keystone', ''),
    'nova': ('/compute', 'compute', 'nova', '/v2.1'),
    'placement': ('/placement', 'placement', 'placement', ''),
    'neutron': ('/networking', 'network', 'neutron', ''),
    'cinder': ('/volume', 'block-storage', 'cinder', '/v3/%(project_id)s'),
    'glance': ('/image', 'image', 'glance', ''),
    'octavia': ('/load-balancer', 'load-balancer', 'octavia', ''),
    'swift': ('/object-store', 'object-store', 'swift', '/v1/AUTH_%(project_id)s'),
    'heat': ('/heat-api', 'orchestration', 'heat', '/v1/%(project_id)s'),
}

# the order processes are started in (placement lives in nova's process)
START_ORDER = ['keystone', 'nova', 'neutron', 'octavia', 'cinder', 'glance', 'swift', 'heat']
PROCESS_OF = {'placement': 'nova'}


def listen(host='127.0.0.1', backlog=128):
    """A socket bound to a free port and listening, kept open until the service that serves it
    has it.  Picking a free port, closing it and binding again later (in the service process,
    tens of seconds on) races: any outgoing connection of the machine may take that ephemeral
    port in between, and two clouds started at once may pick the same one.  The socket is made
    here and handed down (``Supervisor.spawn`` passes it; ``_base.inherited`` takes it)."""
    s = socket.socket()
    s.bind((host, 0))
    s.listen(backlog)
    return s


def build(host, front_port, state_dir, knobs_file, with_heat=False, only=None, guests=False,
          listeners=None):
    """The plan; ``listeners`` (a dict) receives each service's listening socket by name."""
    listeners = {} if listeners is None else listeners
    public_root = 'http://%s:%d' % (host, front_port)
    names = [n for n in SERVICES if with_heat or n != 'heat']
    if only:
        # a partial cloud (debugging, per-service benchmarks); keystone is always needed
        names = [n for n in names if n in only or n == 'keystone' or PROCESS_OF.get(n) in only]
    services = {}
    catalog = []
    for name in names:
        prefix, stype, cname, tail = SERVICES[name]
        listeners[name] = listen()
        port = listeners[name].getsockname()[1]
        internal_root = 'http://127.0.0.1:%d' % port
        services[name] = {
            'name': name, 'port': port, 'prefix': prefix, 'type': stype,
            'public': public_root + prefix, 'internal': internal_root + prefix,
            'process': PROCESS_OF.get(name, name),
        }
        if name != 'keystone':
            catalog.append({'type': stype, 'name': cname,
                            'public': public_root + prefix + tail,
                            'internal': internal_root + prefix + tail})
    return {
        'host': host, 'front_port': front_port, 'public_root': public_root,
        'state_dir': state_dir, 'knobs_file': knobs_file,
        # --guests: where servers' user data runs (Nova's fake driver; see localcloud/guests.py)
        'guests_dir': os.path.join(state_dir, 'guests') if guests else None,
        'services': services, 'catalog': catalog,
        'processes': [n for n in START_ORDER if n in services],
        'admin': {'username': 'admin', 'password': 'localcloud-admin', 'project': 'admin'},
        'demo': {'username': 'demo', 'password': 'localcloud-demo', 'project': 'demo'},
        'service_user': {'username': 'localcloud-service', 'password': 'localcloud-service'},
        # Heat's stack user domain and its admin (devstack's names)
        'heat_domain': {'name': 'heat', 'admin': 'heat_domain_admin',
                        'password': 'localcloud-heat-domain'},
    }
