# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Local cloud benchmark: start-up time (whole cloud, each service), front door throughput at
zero latency (alone, and in front of a service versus that service directly), memory per process.

Usage: .venv/bin/python bench/localcloud_bench.py [--seconds S] [--clients N] [--with-heat]
Starts its own cloud on a free port with a fresh state directory and stops it at the end.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLOUD_PY = os.path.join(ROOT, '.venv-cloud', 'bin', 'python')


def rss_mb(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float('nan')


def hammer(port, path, seconds, clients, headers=None):
    """Requests/second over keep-alive connections (a new one whenever the server closes)."""
    counts = [0] * clients
    errors = [0] * clients
    stop = time.time() + seconds

    def worker(i):
        conn = None
        while time.time() < stop:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
                conn.request('GET', path, headers=headers or {})
                resp = conn.getresponse()
                resp.read()
                if resp.status >= 500:
                    errors[i] += 1
                else:
                    counts[i] += 1
                if resp.getheader('Connection', '').lower() == 'close' or resp.version == 10:
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                errors[i] += 1
                conn = None
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    elapsed = time.time() - t0
    return sum(counts) / elapsed, sum(errors)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument('--seconds', type=float, default=4.0)
    p.add_argument('--clients', type=int, default=4)
    p.add_argument('--with-heat', action='store_true')
    args = p.parse_args()
    if not os.path.exists(CLOUD_PY):
        print('localcloud bench: skipped (no .venv-cloud; run `make cloud-venv`)')
        return 0
    work = tempfile.mkdtemp(prefix='localcloud-bench-')
    clouds = os.path.join(work, 'clouds.yaml')
    cmd = [CLOUD_PY, '-m', 'localcloud', '--port', '0', '--clouds-yaml', clouds]
    if args.with_heat:
        cmd.append('--with-heat')
    env = dict(os.environ, PYTHONPATH=ROOT)
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=open(os.path.join(work, 'log'), 'w'),
                            text=True, env=env, cwd=work)
    url = None
    deadline = t0 + 600
    for line in proc.stdout:
        m = re.search(r'ready on (http://\S+)', line)
        if m:
            url = m.group(1)
            break
        if time.time() > deadline:
            break
    startup = time.time() - t0
    if url is None:
        proc.kill()
        print('localcloud bench: the cloud did not start; see %s/log' % work)
        return 1
    try:
        info = json.load(urllib.request.urlopen(url + '/_localcloud/', timeout=60))
        port = int(url.rsplit(':', 1)[1])
        print('Local cloud start-up (fresh state, 2 cores shared): %.1f s to the ready line' % startup)
        print()
        print('%-10s %12s %10s' % ('service', 'ready at s', 'RSS MB'))
        for name in sorted(info['services'], key=lambda n: info['ready_at'].get(n, 0)):
            pid = info['pids'].get(name)
            print('%-10s %12.1f %10s' % (name, info['ready_at'].get(name, float('nan')),
                                           '%.0f' % rss_mb(pid) if pid else '(in nova)'))
        print('%-10s %12.1f %10s' % ('seed', info['ready_at'].get('seed', float('nan')), '(took)'))
        print('%-10s %12s %10.0f' % ('supervisor', '', rss_mb(info['pids']['supervisor'])))
        total = sum(rss_mb(pid) for pid in info['pids'].values())
        print('%-10s %12s %10.0f' % ('total', '', total))
        print()
        ks = info['services']['keystone']
        internal_port = int(ks['internal'].split(':')[2].split('/')[0])
        rows = [
            ('front door alone (admin stats)', port, '/_localcloud/stats'),
            ('front door -> keystone GET /v3', port, '/identity/v3'),
            ('keystone GET /v3 directly', internal_port, '/identity/v3'),
            ('front door -> nova GET /', port, '/compute/'),
        ]
        print('Throughput at zero latency, %d clients, %.0f s each' % (args.clients, args.seconds))
        print('%-34s %10s %8s' % ('route', 'req/s', 'errors'))
        for label, p_, path in rows:
            rps, errs = hammer(p_, path, args.seconds, args.clients)
            print('%-34s %10.0f %8d' % (label, rps, errs))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(90)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    return 0


if __name__ == '__main__':
    sys.exit(main())
