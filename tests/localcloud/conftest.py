# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One local cloud for the whole session (started by the real `stackers-localcloud` command).

Every call into the cloud carries a timeout; the cloud is stopped with SIGTERM at the end and the
test session checks that its front door is gone.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

# pytest runs in importlib mode here (it adds no test directory to sys.path)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lc_helpers import CLOUD_PY, LAUNCHER, ROOT, START_TIMEOUT, Cloud  # noqa: E402


def _front_door_closed(port):
    try:
        socket.create_connection(('127.0.0.1', port), timeout=2).close()
        return False
    except OSError:
        return True


@pytest.fixture(scope='session')
def cloud(tmp_path_factory):
    if not os.path.exists(CLOUD_PY):
        pytest.skip('the local cloud needs .venv-cloud: run `make cloud-venv`')
    workdir = str(tmp_path_factory.mktemp('localcloud'))
    clouds_yaml = os.path.join(workdir, 'clouds.yaml')
    cmd = ([LAUNCHER] if os.path.exists(LAUNCHER) else [CLOUD_PY, '-m', 'localcloud'])
    cmd += ['--host', '127.0.0.1', '--port', '0', '--clouds-yaml', clouds_yaml, '--with-heat']
    env = dict(os.environ, PYTHONPATH=ROOT)
    log = open(os.path.join(workdir, 'localcloud.log'), 'w')
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env,
                            cwd=workdir, stdin=subprocess.DEVNULL)
    found = {}

    def read():
        for line in proc.stdout:
            if 'ready' in line and 'url' not in found:
                m = re.search(r'(http://\S+)', line)
                if m:
                    found['url'] = m.group(1)
        found['eof'] = True
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.time() + START_TIMEOUT
    while 'url' not in found and 'eof' not in found and time.time() < deadline:
        time.sleep(0.2)
    if 'url' not in found:
        _stop(proc)
        log.close()
        with open(os.path.join(workdir, 'localcloud.log')) as f:
            pytest.fail('local cloud did not start:\n' + f.read()[-5000:])
    c = Cloud(found['url'], clouds_yaml, proc, workdir)
    try:
        # what a fresh cloud holds, before any test made anything
        c.baseline = c.resources()
        c.info = c.admin('GET', '/')
        yield c
    finally:
        _stop(proc)
        log.close()
        assert proc.returncode == 0, 'stackers-localcloud exited with %s' % proc.returncode
        # nothing it started is left: neither the front door nor any service process
        assert _front_door_closed(c.port)
        info = getattr(c, 'info', {'services': {}, 'pids': {}})
        for name, svc in info['services'].items():
            assert _front_door_closed(int(svc['internal'].split(':')[2].split('/')[0])), name
        for name, pid in info['pids'].items():
            assert not os.path.exists('/proc/%d' % pid) or _zombie(pid), name


def _zombie(pid):
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().split(')')[-1].split()[0] == 'Z'
    except OSError:
        return True


def _stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
