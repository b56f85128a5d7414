# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The admin API's answers: knobs, and every live resource as the services themselves show it.

Resources are read from the services (all projects, as admin) through their internal endpoints,
so the admin API is neither counted, delayed nor faulted by the front door.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor

# kind -> (service, path, key in the answer); 'all projects' spelled the way each API wants it
NEUTRON = [
    ('networks', '/v2.0/networks', 'networks'),
    ('subnets', '/v2.0/subnets', 'subnets'),
    ('ports', '/v2.0/ports', 'ports'),
    ('routers', '/v2.0/routers', 'routers'),
    ('floating_ips', '/v2.0/floatingips', 'floatingips'),
    ('security_groups', '/v2.0/security-groups', 'security_groups'),
    ('trunks', '/v2.0/trunks', 'trunks'),
    ('qos_policies', '/v2.0/qos/policies', 'policies'),
]
OCTAVIA = [
    ('load_balancers', '/v2/lbaas/loadbalancers', 'loadbalancers'),
    ('listeners', '/v2/lbaas/listeners', 'listeners'),
    ('pools', '/v2/lbaas/pools', 'pools'),
    ('health_monitors', '/v2/lbaas/healthmonitors', 'healthmonitors'),
    ('l7_policies', '/v2/lbaas/l7policies', 'l7policies'),
]


class Admin(object):

    def __init__(self, plan, state):
        self.plan = plan
        self.state = state
        self._session = None
        self._lock = threading.Lock()
        self.knobs = {'build_seconds': {}, 'fail_builds': {}}
        self.clones = {}   # kind -> ids of the copies made by /clones

    # ---- knobs -----------------------------------------------------------------------------
    def write_knobs(self, knobs):
        self.knobs = knobs
        tmp = self.plan['knobs_file'] + '.tmp'
        with open(tmp, 'w') as f:
            json.dump(knobs, f)
        os.replace(tmp, self.plan['knobs_file'])

    def config(self):
        return {'latency_ms': self.state.latency_ms, 'fault_rate': self.state.fault_rate,
                'seed': self.state.seed, 'build_seconds': dict(self.knobs.get('build_seconds', {})),
                'fault_kinds': list(self.state.fault_kinds), 'slow_ms': self.state.slow_ms,
                'fail_builds': dict(self.knobs.get('fail_builds') or {})}

    def configure(self, payload):
        if not isinstance(payload, dict):
            raise ValueError('config wants a JSON object')
        unknown = set(payload) - {'latency_ms', 'fault_rate', 'build_seconds', 'seed', 'fault_kinds',
                                  'slow_ms', 'fail_builds'}
        if unknown:
            raise ValueError('unknown config keys: %s' % ', '.join(sorted(unknown)))
        with self.state.lock:
            if 'latency_ms' in payload:
                self.state.latency_ms = max(0.0, float(payload['latency_ms']))
            if 'fault_rate' in payload:
                rate = float(payload['fault_rate'])
                if not 0.0 <= rate <= 1.0:
                    raise ValueError('fault_rate is a share between 0 and 1')
                self.state.fault_rate = rate
            if 'fault_kinds' in payload:
                from localcloud.frontdoor import _fault_kind
                self.state.fault_kinds = [_fault_kind(k) for k in payload['fault_kinds']]
            if 'slow_ms' in payload:
                self.state.slow_ms = max(0.0, float(payload['slow_ms']))
            if 'seed' in payload:
                import random
                self.state.seed = payload['seed']
                self.state.rng = random.Random(payload['seed'])
        if 'build_seconds' in payload:
            builds = dict(self.knobs.get('build_seconds', {}))
            for kind, value in dict(payload['build_seconds']).items():
                builds[str(kind)] = max(0.0, float(value))
            self.write_knobs(dict(self.knobs, build_seconds=builds))
        if 'fail_builds' in payload:
            fails = dict(payload['fail_builds'] or {})
            for kind, rule in fails.items():
                pattern = rule.get('pattern') if isinstance(rule, dict) else rule
                if isinstance(rule, dict) and not isinstance(rule.get('times', 0), int):
                    raise ValueError('fail_builds times is a count')
                if pattern:
                    re.compile(pattern)   # a bad pattern is the caller's 400, not a driver's error
            # a new serial starts the drivers' counts of a rule's ``times`` again
            self.write_knobs(dict(self.knobs, fail_builds=dict((str(k), v) for k, v in fails.items() if v),
                                  fail_builds_serial=int(self.knobs.get('fail_builds_serial') or 0) + 1))

    # ---- /_localcloud/clones -----------------------------------------------------------------
    def make_clones(self, payload):
        from localcloud import clone
        if not isinstance(payload, dict) or not {'kind', 'id', 'count'} <= set(payload):
            raise ValueError('clones wants {"kind": "server"|"volume", "id": ..., "count": N}')
        ids = clone.clone(self.plan['state_dir'], payload['kind'], str(payload['id']),
                          payload['count'])
        with self._lock:
            self.clones.setdefault(payload['kind'], []).extend(ids)
        return {'ids': ids}

    def remove_clones(self):
        from localcloud import clone
        with self._lock:
            made, self.clones = self.clones, {}
        return {'removed': dict((kind, clone.remove(self.plan['state_dir'], kind, ids))
                                for kind, ids in made.items())}

    def list_clones(self):
        with self._lock:
            return dict((kind, list(ids)) for kind, ids in self.clones.items())

    def info(self):
        return {'public_root': self.plan['public_root'],
                'services': {n: {'public': s['public'], 'internal': s['internal'], 'type': s['type']}
                             for n, s in self.plan['services'].items()},
                'ready_at': getattr(self, 'ready_at', {}),
                'guests_dir': self.plan.get('guests_dir'),
                # each volume's bytes (drivers/cinder_fake.py): <volumes_dir>/<volume id>
                'volumes_dir': os.path.join(self.plan['state_dir'], 'cinder', 'volumes'),
                'pids': dict({n: p.pid for n, p in getattr(self, 'procs', {}).items()},
                             supervisor=os.getpid())}

    # ---- talking to the services as admin ----------------------------------------------------
    @property
    def session(self):
        with self._lock:
            if self._session is None:
                from keystoneauth1 import session as ks_session
                from keystoneauth1.identity import v3
                a = self.plan['admin']
                auth = v3.Password(auth_url=self.plan['services']['keystone']['internal'] + '/v3',
                                   username=a['username'], password=a['password'],
                                   project_name=a['project'], user_domain_id='default',
                                   project_domain_id='default')
                self._session = ks_session.Session(auth=auth, timeout=60)
            return self._session

    def url(self, service, path):
        return self.plan['services'][service]['internal'] + path

    def call(self, method, service, path, json_body=None, headers=None, ok=(200, 201, 202, 204),
             **kw):
        resp = self.session.request(self.url(service, path), method, json=json_body,
                                    headers=headers or {}, raise_exc=False, **kw)
        if resp.status_code not in ok:
            raise RuntimeError('%s %s %s -> %s %s' % (method, service, path, resp.status_code,
                                                      resp.text[:500]))
        return resp

    def get(self, service, path, key=None, **kw):
        body = self.call('GET', service, path, **kw).json()
        return body[key] if key else body

    def project_id(self, name):
        projects = self.get('keystone', '/v3/projects?name=%s' % name, 'projects')
        return projects[0]['id'] if projects else None

    # ---- /_localcloud/resources -------------------------------------------------------------
    def resources(self):
        jobs = {}
        with ThreadPoolExecutor(max_workers=6) as pool:
            for kind, path, key in NEUTRON:
                jobs[kind] = pool.submit(self.get, 'neutron', path, key)
            jobs['servers'] = pool.submit(self.get, 'nova', '/v2.1/servers/detail?all_tenants=1',
                                          'servers', headers={'OpenStack-API-Version': 'compute 2.96'})
            jobs['keypairs'] = pool.submit(self._keypairs)
            jobs['flavors'] = pool.submit(self.get, 'nova', '/v2.1/flavors/detail?is_public=None',
                                          'flavors')
            jobs['volumes'] = pool.submit(self._volumes, 'volumes')
            jobs['snapshots'] = pool.submit(self._volumes, 'snapshots')
            jobs['images'] = pool.submit(self._images)
            for kind, path, key in OCTAVIA:
                jobs[kind] = pool.submit(self.get, 'octavia', path, key)
            jobs['members'] = pool.submit(self._members)
            jobs['containers'] = pool.submit(self._swift)
            if 'heat' in self.plan['services']:
                jobs['stacks'] = pool.submit(self._stacks)
            out = {}
            for kind, job in jobs.items():
                result = job.result()
                if isinstance(result, dict):     # containers + objects come together
                    out.update(result)
                else:
                    out[kind] = result
        return out

    def _keypairs(self):
        # keypairs belong to users: ask for each user's (microversion 2.10 lets an admin do that)
        out = []
        h = {'OpenStack-API-Version': 'compute 2.10'}
        for user in self.get('keystone', '/v3/users', 'users'):
            for kp in self.get('nova', '/v2.1/os-keypairs?user_id=%s' % user['id'], 'keypairs',
                               headers=h):
                item = dict(kp['keypair'], user_id=user['id'])
                out.append(item)
        return out

    def _volumes(self, kind):
        pid = self.session.get_project_id()
        return self.get('cinder', '/v3/%s/%s/detail?all_tenants=1' % (pid, kind), kind)

    def _images(self):
        images, path = [], '/v2/images?limit=1000'
        while path:
            body = self.get('glance', path)
            images.extend(body['images'])
            path = body.get('next')
        return images

    def _members(self):
        out = []
        for pool in self.get('octavia', '/v2/lbaas/pools', 'pools'):
            out.extend(self.get('octavia', '/v2/lbaas/pools/%s/members' % pool['id'], 'members'))
        return out

    def _swift(self):
        containers, objects = [], []
        for project in self.get('keystone', '/v3/projects', 'projects'):
            account = '/v1/AUTH_%s' % project['id']
            resp = self.call('GET', 'swift', account + '?format=json', ok=(200, 204, 404))
            if resp.status_code != 200:
                continue
            for c in resp.json():
                containers.append(dict(c, account='AUTH_' + project['id']))
                cpath = '%s/%s?format=json' % (account, c['name'])
                for o in self.call('GET', 'swift', cpath, ok=(200, 204)).json() or []:
                    objects.append(dict(o, container=c['name'], account='AUTH_' + project['id']))
        return {'containers': containers, 'objects': objects}

    def _stacks(self):
        pid = self.session.get_project_id()
        return self.get('heat', '/v1/%s/stacks?global_tenant=true' % pid, 'stacks')
