# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Start each service as its own process, wait until all answer, seed, and stop them all."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import ctypes
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time

from localcloud import admin as admin_mod
from localcloud import guests
from localcloud.services._base import LISTEN_FDS

_PR_SET_PDEATHSIG = 1


class StartupError(Exception):
    pass


def _die_with_parent():
    # a service must not outlive the supervisor, even when it is killed with SIGKILL
    try:
        ctypes.CDLL('libc.so.6', use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


def http_status(port, path, timeout=2.0):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.request('GET', path)
        return conn.getresponse().status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()


class Supervisor(admin_mod.Admin):

    def __init__(self, plan, clouds_yaml, state, builds=None, listeners=None):
        admin_mod.Admin.__init__(self, plan, state)
        self.clouds_yaml = clouds_yaml
        # service name -> its listening socket, made with the plan (plan.listen says why)
        self.listeners = dict(listeners or {})
        self.procs = {}
        self.started = {}
        self.ready_at = {}
        self.ready_seconds = None
        self.t0 = time.time()
        self.write_knobs({'build_seconds': dict(builds or {})})

    def log_path(self, name):
        return os.path.join(self.plan['state_dir'], 'logs', name + '.log')

    def service_env(self, base=None):
        """The environment every service process gets."""
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ if base is None else base)
        env['PYTHONPATH'] = root + (os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
        env.setdefault('PYTHONWARNINGS', 'ignore')
        env['OS_CLIENT_CONFIG_FILE'] = os.devnull   # a stray clouds.yaml must not steer services
        env['LOCALCLOUD_KNOBS'] = self.plan['knobs_file']
        env.pop(guests.ENV, None)
        env.pop(LISTEN_FDS, None)
        if self.plan.get('guests_dir'):
            env[guests.ENV] = self.plan['guests_dir']   # --guests: read by Nova's fake driver
        return env

    def spawn(self, name):
        os.makedirs(os.path.dirname(self.log_path(name)), exist_ok=True)
        env = self.service_env()
        log = open(self.log_path(name), 'ab')
        cmd = [sys.executable, '-m', 'localcloud.services.' + name,
               os.path.join(self.plan['state_dir'], 'plan.json')]
        fds = self.listen_fds(name)
        if fds:
            env[LISTEN_FDS] = json.dumps(fds)
        self.started[name] = time.time()
        self.procs[name] = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
            cwd=self.plan['state_dir'], preexec_fn=_die_with_parent, start_new_session=True,
            pass_fds=tuple(fds.values()))
        log.close()
        # the child holds them now; once it dies its ports refuse connections, as they did
        # when each service bound its own (a listening copy here would leave callers hanging)
        for svc in fds:
            self.listeners.pop(svc).close()

    def listen_fds(self, process):
        """{service: fd} of the listening sockets a process serves (nova's holds placement's)."""
        return {svc: sock.fileno() for svc, sock in sorted(self.listeners.items())
                if self.plan['services'][svc]['process'] == process}

    def probes(self):
        """(service, port, path) per service: any HTTP answer there means the process serves."""
        return [(n, s['port'], s['prefix'] + '/') for n, s in self.plan['services'].items()]

    def start(self, stop, timeout=300.0):
        # what a killed cloud's guests left in a kept state dir
        guests.stop_all(self.plan.get('guests_dir'))
        for name in self.plan['processes']:
            self.spawn(name)
        waiting = {n: (port, path) for n, port, path in self.probes()}
        deadline = time.time() + timeout
        while waiting:
            if stop.is_set():
                raise StartupError('interrupted')
            dead = self.dead()
            if dead:
                raise StartupError('%s exited during start-up; last lines of %s:\n%s' % (
                    dead, self.log_path(dead), self.tail(dead)))
            if time.time() > deadline:
                raise StartupError('not ready after %.0fs: %s' % (timeout, ', '.join(sorted(waiting))))
            for name, (port, path) in list(waiting.items()):
                if http_status(port, path) is not None:
                    self.ready_at[name] = time.time() - self.t0
                    del waiting[name]
            time.sleep(0.2)
        t_seed = time.time()
        from localcloud import seed
        seed.seed(self, stop)
        self.ready_at['seed'] = time.time() - t_seed
        self.write_clouds_yaml()
        self.ready_seconds = time.time() - self.t0

    def tail(self, name, lines=30):
        try:
            with open(self.log_path(name), 'rb') as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - 20000))
                return b'\n'.join(f.read().splitlines()[-lines:]).decode('utf-8', 'replace')
        except OSError:
            return ''

    def dead(self):
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                return name
        return None

    def stop(self, grace=15.0):
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except OSError:
                    pass
        deadline = time.time() + grace
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                proc.wait(5)
        # the guests are the cloud's: their processes and directories go with it
        guests.stop_all(self.plan.get('guests_dir'))

    def write_clouds_yaml(self):
        ks = self.plan['services']['keystone']['public'] + '/v3'
        clouds = {}
        for cloud, who in (('localcloud', 'demo'), ('localcloud-admin', 'admin')):
            cred = self.plan[who]
            clouds[cloud] = {
                'auth_type': 'password',
                'auth': {'auth_url': ks, 'username': cred['username'], 'password': cred['password'],
                         'project_name': cred['project'], 'user_domain_name': 'Default',
                         'project_domain_name': 'Default'},
                'region_name': 'RegionOne', 'interface': 'public', 'identity_api_version': 3,
            }
        d = os.path.dirname(self.clouds_yaml)
        if d:
            os.makedirs(d, exist_ok=True)
        tmp = self.clouds_yaml + '.tmp'
        with open(tmp, 'w') as f:
            # JSON is YAML: no YAML library needed here
            json.dump({'clouds': clouds}, f, indent=2)
            f.write('\n')
        os.replace(tmp, self.clouds_yaml)
