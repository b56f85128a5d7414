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
import socket
import sys

import pytest

# pytest runs in importlib mode here (it adds no test directory to sys.path)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lc_helpers import CLOUD_PY, process_gone, start_cloud, stop_cloud  # noqa: E402


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
    log_path = os.path.join(workdir, 'localcloud.log')
    c, proc = start_cloud(workdir, ['--with-heat'], log_path)
    if c is None:
        with open(log_path) as f:
            pytest.fail('local cloud did not start:\n' + f.read()[-5000:])
    try:
        # what a fresh cloud holds, before any test made anything
        c.baseline = c.resources()
        c.info = c.admin('GET', '/')
        yield c
    finally:
        c.close_osc()
        stop_cloud(proc)
        assert proc.returncode == 0, 'stackers-localcloud exited with %s' % proc.returncode
        # nothing it started is left: neither the front door nor any service process
        assert _front_door_closed(c.port)
        info = getattr(c, 'info', {'services': {}, 'pids': {}})
        for name, svc in info['services'].items():
            assert _front_door_closed(int(svc['internal'].split(':')[2].split('/')[0])), name
        for name, pid in info['pids'].items():
            assert process_gone(pid), name
