# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The cloud's side of guests (`stackers-localcloud --guests`): start one, stop one, stop all.

A guest of server UUID lives in <guests dir>/UUID (root/ is its root directory, user-data, its
log and steps).  The supervisor hands the guests dir to the service processes as the environment
variable LOCALCLOUD_GUESTS (set only with --guests); Nova's fake driver starts a guest when a
server has spawned and stops it when the server is destroyed; the supervisor stops whatever is
left when the cloud stops (and at start, what a killed cloud left in a kept state dir).

A guest is a detached process in a session (process group) of its own: the driver never waits on
it.  To stop it, every process of that group, or marked as the guest's in its environment
(LOCALCLOUD_GUEST_DIR: a script may start its own session), gets SIGTERM, then SIGKILL.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time

from localcloud import guest_data

ENV = 'LOCALCLOUD_GUESTS'
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PROCS = {}   # guest dir -> Popen, so that a guest which ended is reaped (no zombie left)
_PR_SET_PDEATHSIG = 1


def _die_with_nova():
    # the guest's first process (later os-collect-config) gets SIGTERM when Nova's process dies,
    # even by SIGKILL, which leaves the supervisor nothing to clean up with
    try:
        ctypes.CDLL('libc.so.6', use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


def guests_dir():
    """The guests' directory when guests are on (--guests), else None."""
    return os.environ.get(ENV) or None


def guest_dir(base, server_id):
    return os.path.join(base, os.path.basename(str(server_id)))


def start(base, server_id, user_data, python=None):
    """Start the guest of ``server_id`` with Nova's ``user_data`` (base64 text or None).

    Returns the guest's pid, or None when there is no user data to run (no process, no dir)."""
    data = guest_data.decode(user_data)
    if not data.strip():
        return None
    d = guest_dir(base, server_id)
    stop(base, server_id)            # a rebuild spawns again: the old guest goes first
    os.makedirs(os.path.join(d, 'root'), exist_ok=True)
    with open(os.path.join(d, 'user-data'), 'wb') as f:
        f.write(data)
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'PYTHONPATH': REPO,
           'LANG': os.environ.get('LANG', 'C.UTF-8'), 'LOCALCLOUD_GUEST_DIR': d}
    for key in ('LOCALCLOUD_HEAT_AGENTS', 'LOCALCLOUD_GUEST_TOOLS'):
        if os.environ.get(key):
            env[key] = os.environ[key]
    with open(os.path.join(d, 'guest.log'), 'ab') as log:
        proc = subprocess.Popen(
            [python or sys.executable, '-m', 'localcloud.guest_main', d], cwd=os.path.join(d, 'root'),
            env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            close_fds=True, start_new_session=True, preexec_fn=_die_with_nova)
    _PROCS[d] = proc
    with open(os.path.join(d, 'pid'), 'w') as f:
        f.write('%d\n' % proc.pid)
    return proc.pid


def _stat(pid):
    """(pgid, state) of a process, None when it is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return int(fields[2]), fields[0]
    except (OSError, IndexError, ValueError):
        return None


def _marked(pid, marker):
    try:
        with open('/proc/%d/environ' % pid, 'rb') as f:
            return marker in f.read().split(b'\0')
    except OSError:
        return False


def members(d, pgid=None):
    """The live pids of the guest in ``d``: its process group and the processes marked as its."""
    marker = ('LOCALCLOUD_GUEST_DIR=' + d).encode()
    found = []
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        pid = int(name)
        st = _stat(pid)
        if st is None or st[1] == 'Z' or pid == os.getpid():
            continue
        if (pgid is not None and st[0] == pgid) or _marked(pid, marker):
            found.append(pid)
    return found


def _read_pid(d):
    try:
        with open(os.path.join(d, 'pid')) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def _signal_all(pids, signum):
    for pid in pids:
        try:
            os.kill(pid, signum)
        except OSError:
            pass


def stop(base, server_id, grace=3.0):
    """Stop the guest of ``server_id`` (every process of it) and remove its directory."""
    d = guest_dir(base, server_id)
    if not os.path.isdir(d):
        return False
    pgid = _read_pid(d)     # the session leader's pid is the group's id
    pids = members(d, pgid)
    _signal_all(pids, signal.SIGTERM)
    deadline = time.time() + grace
    while pids and time.time() < deadline:
        time.sleep(0.1)
        pids = members(d, pgid)
    _signal_all(pids, signal.SIGKILL)
    proc = _PROCS.pop(d, None)
    if proc is not None:
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
    shutil.rmtree(d, ignore_errors=True)
    return True


def stop_all(base):
    """Stop every guest under ``base`` and remove it (the cloud stops, or starts on a kept dir)."""
    if not base or not os.path.isdir(base):
        return 0
    names = [n for n in os.listdir(base) if os.path.isdir(os.path.join(base, n))]
    for name in names:
        stop(base, name)
    shutil.rmtree(base, ignore_errors=True)
    return len(names)


def reap():
    """Collect the exit status of guests that ended by themselves (called now and then)."""
    for d, proc in list(_PROCS.items()):
        if proc.poll() is not None:
            _PROCS.pop(d, None)
