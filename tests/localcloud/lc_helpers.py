# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers of the local cloud tests: the running cloud and its clients, each call with a timeout."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLOUD_PY = os.path.join(ROOT, '.venv-cloud', 'bin', 'python')
OSC = os.path.join(ROOT, '.venv-cloud', 'bin', 'openstack')
LAUNCHER = os.path.join(ROOT, '.venv', 'bin', 'stackers-localcloud')
START_TIMEOUT = float(os.environ.get('LOCALCLOUD_START_TIMEOUT', '420'))

sys.path.insert(0, ROOT)   # localcloud's pure-stdlib parts (front door) are unit-tested directly


class Cloud(object):
    """A running local cloud: its front door URL, clouds.yaml and helpers bound by timeouts."""

    def __init__(self, url, clouds_yaml, proc, workdir):
        self.url = url
        self.clouds_yaml = clouds_yaml
        self.proc = proc
        self.workdir = workdir
        self.port = int(url.rsplit(':', 1)[1])

    # ---- admin API ------------------------------------------------------------------------
    def admin(self, method, path, body=None, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + '/_localcloud' + path, data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.loads(resp.read() or b'null')

    def stats(self):
        return self.admin('GET', '/stats')

    def reset_stats(self):
        return self.admin('POST', '/stats/reset')

    def configure(self, **knobs):
        return self.admin('POST', '/config', knobs)

    def resources(self):
        return self.admin('GET', '/resources')

    # ---- raw HTTP through the front door ---------------------------------------------------
    def http(self, method, path, token=None, body=None, timeout=60, headers=None):
        """(status, body bytes); status None when the connection was dropped."""
        h = dict(headers or {})
        if token:
            h['X-Auth-Token'] = token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault('Content-Type', 'application/json')
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            if isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, socket.timeout):
                raise
            return None, b''

    # ---- clients ---------------------------------------------------------------------------
    def osc(self, *args, cloud='localcloud', timeout=180, check=True, as_json=False):
        cmd = [OSC, '--os-cloud', cloud] + [str(a) for a in args]
        if as_json:
            cmd += ['-f', 'json']
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=self.clouds_yaml)
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                             stdin=subprocess.DEVNULL, cwd=self.workdir)
        if check and res.returncode != 0:
            raise AssertionError('openstack %s failed (%d): %s' % (' '.join(map(str, args)),
                                                                  res.returncode, res.stderr[-2000:]))
        if as_json and res.returncode == 0:
            return json.loads(res.stdout or 'null')
        return res

    def sdk(self, cloud='localcloud'):
        import openstack
        from openstack import config as os_config
        cfg = os_config.OpenStackConfig(config_files=[self.clouds_yaml])
        region = cfg.get_one(cloud=cloud, api_timeout=120)
        return openstack.connection.Connection(config=region)


def ids(resources):
    """kind -> set of identities, to compare a cloud's resources with its baseline."""
    out = {}
    for kind, items in resources.items():
        keys = set()
        for item in items:
            if kind == 'keypairs':
                keys.add((item.get('user_id'), item.get('name')))
            elif kind in ('containers', 'objects'):
                keys.add((item.get('account'), item.get('container'), item.get('name')))
            else:
                keys.add(item.get('id'))
        out[kind] = keys
    return out


def wait_for(predicate, timeout=120, interval=0.5, what='condition'):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError('timed out after %ss waiting for %s' % (timeout, what))
