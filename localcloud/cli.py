# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""stackers-localcloud: start the services, the front door and the seed; stop them all on a signal."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import argparse
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

from localcloud import plan as plan_mod
from localcloud.frontdoor import FrontDoor, State
from localcloud.supervisor import Supervisor, StartupError

BUILD_KINDS = ('server', 'server_delete', 'volume', 'volume_delete', 'volume_attach',
               'loadbalancer', 'loadbalancer_delete')


def parse_args(argv):
    p = argparse.ArgumentParser(prog='stackers-localcloud', description=__doc__)
    p.add_argument('--host', default='127.0.0.1')
    p.add_argument('--port', type=int, default=0, help='front door port (0: a free one)')
    p.add_argument('--clouds-yaml', required=True, help='where to write the clouds.yaml')
    p.add_argument('--state-dir', help='keep the databases here (default: a fresh temporary directory)')
    p.add_argument('--latency-ms', type=float, default=0.0)
    p.add_argument('--build-seconds', action='append', default=[], metavar='KIND=S')
    p.add_argument('--fault-rate', type=float, default=0.0)
    p.add_argument('--seed', type=int, default=None)
    p.add_argument('--with-heat', action='store_true')
    p.add_argument('--guests', action='store_true',
                   help="run each ACTIVE server's user_data as a local process (see README: Guests)")
    p.add_argument('--startup-timeout', type=float, default=300.0)
    p.add_argument('--services', help=argparse.SUPPRESS)   # comma list: a partial cloud, for debugging
    args = p.parse_args(argv)
    builds = {}
    for item in args.build_seconds:
        kind, sep, value = item.partition('=')
        if not sep:
            p.error('--build-seconds wants KIND=SECONDS, got %r' % item)
        try:
            builds[kind.strip()] = float(value)
        except ValueError:
            p.error('--build-seconds %s: %r is not a number' % (kind, value))
    args.builds = builds
    if not 0.0 <= args.fault_rate <= 1.0:
        p.error('--fault-rate is a share between 0 and 1')
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    own_state = args.state_dir is None
    state_dir = os.path.abspath(args.state_dir or tempfile.mkdtemp(prefix='localcloud-'))
    os.makedirs(state_dir, exist_ok=True)
    sock = socket.socket(socket.AF_INET6 if ':' in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        print('localcloud: cannot listen on %s:%d: %s' % (args.host, args.port, exc.strerror),
              file=sys.stderr, flush=True)
        return 2
    port = sock.getsockname()[1]
    knobs_file = os.path.join(state_dir, 'knobs.json')
    listeners = {}
    plan = plan_mod.build(args.host, port, state_dir, knobs_file, with_heat=args.with_heat,
                          only=args.services.split(',') if args.services else None,
                          guests=args.guests, listeners=listeners)
    with open(os.path.join(state_dir, 'plan.json'), 'w') as f:
        json.dump(plan, f, indent=1)
    state = State(args.latency_ms, args.fault_rate, args.seed)
    sup = Supervisor(plan, os.path.abspath(args.clouds_yaml), state, builds=args.builds,
                     listeners=listeners)
    routes = [(s['prefix'], s['type'], s['port']) for s in plan['services'].values()]
    door = FrontDoor(sock, routes, state, admin=sup)
    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    threading.Thread(target=door.serve_forever, name='front-door', daemon=True).start()
    code = 0
    keep_state = False
    try:
        sup.start(stop, timeout=args.startup_timeout)
        print('localcloud ready on %s (clouds.yaml %s, cloud localcloud, state %s) in %.1fs' % (
            plan['public_root'], args.clouds_yaml, state_dir, sup.ready_seconds), flush=True)
        while not stop.wait(1.0):
            dead = sup.dead()
            if dead:
                print('localcloud: service %s exited (see %s); stopping' % (dead, sup.log_path(dead)),
                      file=sys.stderr, flush=True)
                code = 1
                break
    except StartupError as exc:
        interrupted = stop.is_set()
        print('localcloud: start %s: %s' % ('interrupted' if interrupted else 'failed', exc),
              file=sys.stderr, flush=True)
        code = 0 if interrupted else 1
        keep_state = not interrupted      # the services' logs say why
    finally:
        door.shutdown()
        door.server_close()
        sup.stop()
        if own_state and not keep_state and code == 0:
            shutil.rmtree(state_dir, ignore_errors=True)
        elif own_state:
            print('localcloud: logs kept in %s' % os.path.join(state_dir, 'logs'), file=sys.stderr,
                  flush=True)
    return code
