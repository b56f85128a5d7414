# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A local cloud driven from outside, as its tests (tests/localcloud) and the benchmarks (bench/) drive
it: started with `stackers-localcloud` and stopped, its admin API and clients, each call with a
timeout; a front door over a stub service for its unit tests.  Standard library only: it runs in the
collection's venv, not in the cloud's."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import contextlib
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLOUD_PY = os.path.join(ROOT, '.venv-cloud', 'bin', 'python')
LAUNCHER = os.path.join(ROOT, '.venv', 'bin', 'stackers-localcloud')
START_TIMEOUT = float(os.environ.get('LOCALCLOUD_START_TIMEOUT', '420'))


def start_cloud(workdir, extra_args, log_path):
    """Start `stackers-localcloud` on a free port, writing clouds.yaml in ``workdir``; wait for its
    ready line.  Returns (Cloud or None, proc); None when it did not get ready (the caller fails
    with the log)."""
    clouds_yaml = os.path.join(workdir, 'clouds.yaml')
    cmd = ([LAUNCHER] if os.path.exists(LAUNCHER) else [CLOUD_PY, '-m', 'localcloud'])
    cmd += ['--host', '127.0.0.1', '--port', '0', '--clouds-yaml', clouds_yaml] + list(extra_args)
    with open(log_path, 'w') as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True,
                                env=dict(os.environ, PYTHONPATH=ROOT), cwd=workdir,
                                stdin=subprocess.DEVNULL)
    found = {}

    def read():
        for line in proc.stdout:
            if 'ready' in line and 'url' not in found:
                m = re.search(r'(http://\S+)', line)
                if m:
                    found['url'] = m.group(1)
        found['eof'] = True
    threading.Thread(target=read, daemon=True).start()
    deadline = time.time() + START_TIMEOUT
    while 'url' not in found and 'eof' not in found and time.time() < deadline:
        time.sleep(0.2)
    if 'url' not in found:
        stop_cloud(proc)
        return None, proc
    return Cloud(found['url'], clouds_yaml, proc, workdir), proc


def stop_cloud(proc):
    """SIGTERM, then a kill if it does not stop within a minute; its exit code."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    return proc.returncode


def process_gone(pid):
    """True when the process no longer runs (gone, or a zombie awaiting its parent)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().split(')')[-1].split()[0] == 'Z'
    except OSError:
        return True


class OscRunner(object):
    """One osc_runner.py process: the real client's commands, without a process start each."""

    def __init__(self, clouds_yaml, workdir):
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=clouds_yaml)
        self.proc = subprocess.Popen([CLOUD_PY, os.path.join(HERE, 'osc_runner.py')],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env, cwd=workdir)

    def run(self, argv, timeout):
        """A CompletedProcess of ``openstack ARGV``; TimeoutExpired after ``timeout`` seconds."""
        self.proc.stdin.write(json.dumps({'argv': argv}) + '\n')
        self.proc.stdin.flush()
        got = []
        reader = threading.Thread(target=lambda: got.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if reader.is_alive():
            raise subprocess.TimeoutExpired(['openstack'] + argv, timeout)
        if not got or not got[0]:
            raise AssertionError('the openstack runner exited (%s) during: openstack %s'
                                 % (self.proc.poll(), ' '.join(argv)))
        answer = json.loads(got[0])
        return subprocess.CompletedProcess(['openstack'] + argv, answer['rc'], answer['stdout'],
                                           answer['stderr'])

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


class Cloud(object):
    """A running local cloud: its front door URL, clouds.yaml and helpers bound by timeouts."""

    def __init__(self, url, clouds_yaml, proc, workdir):
        self.url = url
        self.clouds_yaml = clouds_yaml
        self.proc = proc
        self.workdir = workdir
        self.port = int(url.rsplit(':', 1)[1])
        self._osc = {}
        self._osc_lock = threading.Lock()

    def close_osc(self):
        with self._osc_lock:
            for runner in self._osc.values():
                runner.close()
            self._osc = {}

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
        try:
            return door_call(self.url + path, method, body=body, token=token, timeout=timeout,
                             headers=headers)
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            if isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, socket.timeout):
                raise
            return None, b''

    # ---- clients ---------------------------------------------------------------------------
    def osc(self, *args, cloud='localcloud', timeout=180, check=True, as_json=False):
        """The `openstack` command's result (returncode, stdout, stderr), run by one long-lived
        process of the real client (osc_runner.py)."""
        argv = ['--os-cloud', cloud] + [str(a) for a in args]
        if as_json:
            argv += ['-f', 'json']
        with self._osc_lock:
            # one process per cloud entry: the client keeps state between commands of one
            # process (a second entry's command ran as the first's user)
            runner = self._osc.get(cloud)
            if runner is None:
                runner = self._osc[cloud] = OscRunner(self.clouds_yaml, self.workdir)
            try:
                res = runner.run(argv, timeout)
            except subprocess.TimeoutExpired:
                self._osc.pop(cloud).close()
                raise
        if check and res.returncode != 0:
            raise AssertionError('openstack %s failed (%d): %s' % (' '.join(map(str, args)),
                                                                  res.returncode, res.stderr[-2000:]))
        if as_json and res.returncode == 0:
            return json.loads(res.stdout or 'null')
        return res

    def wait_no_stacks(self, timeout=60):
        """Wait until Heat lists no stack: `stack delete --wait` returns at DELETE_COMPLETE and
        convergence purges the stack's row just after."""
        wait_for(lambda: self.osc('stack', 'list', as_json=True) == [], timeout=timeout,
                 what='the deleted stacks to leave the list')

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


class _PutSink(http.server.BaseHTTPRequestHandler):
    """Records every PUT's path and body (a guest's `curl -X PUT`)."""

    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
        self.server.got.setdefault(self.path, []).append(body)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def put_sink():
    """A local HTTP server on 127.0.0.1 that records PUTs: `.url`, and `.got` (path -> bodies)."""
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _PutSink)
    server.got = {}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = 'http://127.0.0.1:%d' % server.server_address[1]
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def door_over_stub(handler, state):
    """A real front door (``state`` its counts and knobs) over a stub service whose requests
    ``handler`` answers, both on threads of this process: the front door alone, no cloud.
    Yields (the door's base URL, the stub's server); Neutron's prefix goes to the stub."""
    from localcloud.frontdoor import FrontDoor
    stub = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    door = FrontDoor(sock, [('/networking', 'network', stub.server_address[1])], state)
    threading.Thread(target=door.serve_forever, daemon=True).start()
    try:
        yield 'http://127.0.0.1:%d' % sock.getsockname()[1], stub
    finally:
        door.shutdown()
        door.server_close()
        stub.shutdown()
        stub.server_close()


def door_call(url, method, body=None, token=None, timeout=20, headers=None):
    """One request (a JSON body, an optional token): (status, the answer's body); a dropped
    connection raises (Cloud.http makes it a status None)."""
    h = dict(headers or {})
    if token:
        h['X-Auth-Token'] = token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h.setdefault('Content-Type', 'application/json')
    req = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
