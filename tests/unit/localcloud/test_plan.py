# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The local cloud's ports: made once, held, handed to the process that serves them.

A CI run once failed with glance's 'Address already in use': the plan picked a free port, let it
go, and glance bound it half a minute later, after something else had taken it.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import errno
import http.client
import json
import os
import socket
import subprocess
import sys

import pytest

from localcloud import plan as plan_mod
from localcloud.harness import ROOT
from localcloud.frontdoor import State
from localcloud.services import _base
from localcloud.supervisor import Supervisor


def _plan(tmp_path, listeners):
    return plan_mod.build('127.0.0.1', 1, str(tmp_path), str(tmp_path / 'knobs.json'),
                          with_heat=True, listeners=listeners)


def test_every_services_port_is_held_from_the_plan_on(tmp_path):
    listeners = {}
    plan = _plan(tmp_path, listeners)
    try:
        assert sorted(listeners) == sorted(plan['services'])
        for name, svc in plan['services'].items():
            assert listeners[name].getsockname()[1] == svc['port']
            other = socket.socket()
            with pytest.raises(OSError) as exc:
                other.bind(('127.0.0.1', svc['port']))
            other.close()
            assert exc.value.errno == errno.EADDRINUSE
        assert len({s['port'] for s in plan['services'].values()}) == len(plan['services'])
    finally:
        for sock in listeners.values():
            sock.close()


def test_a_process_is_handed_the_sockets_of_the_services_it_serves(tmp_path):
    listeners = {}
    plan = _plan(tmp_path, listeners)
    sup = Supervisor(plan, str(tmp_path / 'clouds.yaml'), State(), listeners=listeners)
    try:
        nova = sup.listen_fds('nova')
        assert sorted(nova) == ['nova', 'placement']
        assert nova['placement'] == listeners['placement'].fileno()
        assert sorted(sup.listen_fds('keystone')) == ['keystone']
        assert sup.listen_fds('placement') == {}
    finally:
        for sock in listeners.values():
            sock.close()


CHILD = r'''
import sys
sys.path.insert(0, sys.argv[1])
from localcloud.services import _base

def app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/plain')])
    return [environ['PATH_INFO'].encode()]

_base.serve(app, 1, '/svc', 'svc')
'''


def test_a_service_serves_on_the_socket_it_was_handed_and_binds_nothing(tmp_path):
    """The child is given port 1 (which it could never bind): it answers on the handed socket."""
    held = plan_mod.listen()
    port = held.getsockname()[1]
    env = dict(os.environ, **{_base.LISTEN_FDS: json.dumps({'svc': held.fileno()})})
    child = subprocess.Popen([sys.executable, '-c', CHILD, ROOT], env=env, pass_fds=(held.fileno(),),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    held.close()
    try:
        line = child.stdout.readline().decode()
        assert 'svc listening on %d' % port in line, line
        conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
        conn.request('GET', '/svc/hello')
        resp = conn.getresponse()
        assert (resp.status, resp.read()) == (200, b'/hello')
        conn.close()
    finally:
        child.kill()
        child.wait(10)


def test_without_a_handed_socket_a_service_binds_its_plans_port():
    assert _base.inherited('svc', {}) is None
    assert _base.inherited('other', {_base.LISTEN_FDS: json.dumps({'svc': 99})}) is None
