# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/services/_base.sqlite_locking in a green (eventlet) process, as Nova and Heat are.

Two green threads write one SQLite file: the first holds the write lock across a green sleep.
The second must wait for it without stopping the process (SQLite's own busy wait sleeps in C and
would freeze the holder too, until the wait times out). Run in .venv-cloud, which has eventlet.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess

import pytest

from localcloud.harness import CLOUD_PY, ROOT

SCRIPT = r'''
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
import warnings; warnings.simplefilter('ignore')
import eventlet; eventlet.monkey_patch()
from localcloud.services import _base
_base.LOCK_WAIT = float(sys.argv[3])
if sys.argv[4] == 'blocking':
    _base._green = lambda: False        # what every service did before
_base.sqlite_locking()
import sqlalchemy as sa
engine = sa.create_engine('sqlite:///' + sys.argv[2])
with engine.begin() as c:
    c.exec_driver_sql('CREATE TABLE t (x INT)')
log = []
def holder():
    with engine.begin() as c:
        c.exec_driver_sql('INSERT INTO t VALUES (1)')
        time.sleep(0.5)
    log.append('holder committed')
def writer():
    time.sleep(0.1)
    start = time.monotonic()
    try:
        with engine.begin() as c:
            c.exec_driver_sql('INSERT INTO t VALUES (2)')
        log.append('writer committed')
    except Exception as exc:
        log.append('writer failed: ' + type(exc).__name__)
    log.append(round(time.monotonic() - start, 2))
a, b = eventlet.spawn(holder), eventlet.spawn(writer)
a.wait(); b.wait()
print(json.dumps(log))
'''


def _run(tmp_path, lock_wait, mode):
    out = subprocess.run([CLOUD_PY, '-c', SCRIPT, ROOT, str(tmp_path / 'db.sqlite'), str(lock_wait), mode],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(autouse=True)
def _cloud_venv():
    if not os.path.exists(CLOUD_PY):
        pytest.skip('needs .venv-cloud (eventlet): run `make cloud-venv`')


def test_a_green_writer_waits_for_the_holder_without_freezing_it(tmp_path):
    log = _run(tmp_path, 30, 'green')
    assert log[:2] == ['holder committed', 'writer committed']
    # about the holder's 0.4 s left; the bound is half the 30 s a frozen process waits, which
    # no load on the machine brings 0.4 s to
    assert log[2] < 15


def test_sqlites_own_busy_wait_freezes_the_holder_until_it_times_out(tmp_path):
    """What the cooperative wait fixes: the writer fails after the whole bound, then the holder
    commits (it could not run meanwhile)."""
    log = _run(tmp_path, 2, 'blocking')
    assert log[0] == 'writer failed: OperationalError' and log[2] == 'holder committed'
    assert log[1] >= 1.9
