# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The chaos campaign's judge and its hands: the local cloud's ledger against the cloud and the
store, and one engine action run in a child process (so that it can be killed).

The judge compares three things after a window of work (ledger entries after a sequence number):
- what the window created (the front door's ledger: every POST that made something, answered
  to the client or not) and the cloud still holds (the admin API's /resources, read from the
  services themselves);
- what the store records (every resource row's physical id, of every stack of the store);
- what the store records that the cloud no longer holds.
A live thing the store does not know is a *duplicate* when the store records another thing of
the same stack and resource (the same ``<stack>-<resource>-`` name), else an *orphan*.  A
recorded thing of a kind the cloud lists that the cloud does not hold is *lost*.  The campaign's
figures (``losses``, each of which must be 0, and the printed ``table``) are read here too.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# ledger kind -> the admin API's /resources kind (those the services list, every project)
KINDS = {'networks': 'networks', 'subnets': 'subnets', 'ports': 'ports', 'routers': 'routers',
         'floatingips': 'floating_ips', 'security-groups': 'security_groups', 'servers': 'servers',
         'volumes': 'volumes', 'os-keypairs': 'keypairs'}
_SUFFIX = re.compile(r'-[a-z0-9]{12}$')


def logical(name):
    """``<stack>-<resource>`` of an engine-made physical name, or None."""
    if not name or not _SUFFIX.search(name):
        return None
    return _SUFFIX.sub('', name)


def cloud_ids(resources):
    """kind -> set of ids (key pairs: names) the cloud holds."""
    out = {}
    for kind in set(KINDS.values()):
        items = resources.get(kind) or []
        out[kind] = set((i.get('name') if kind == 'keypairs' else i.get('id')) for i in items)
    return out


def recorded(store_paths):
    """(physical id -> physical name) of every resource row of every stack of these stores."""
    out = {}
    for path in store_paths:
        if not os.path.exists(path):
            continue
        db = sqlite3.connect('file:%s?mode=ro' % path, uri=True, timeout=30)
        try:
            for pid, pname in db.execute('SELECT physical_id, physical_name FROM resources '
                                         'WHERE physical_id IS NOT NULL'):
                out[pid] = pname
        finally:
            db.close()
    return out


def judge(ledger, resources, store_paths, after=0):
    """``{'orphans': [...], 'duplicates': [...], 'lost': [...]}`` for the ledger's entries after
    sequence number ``after`` (each item a short description)."""
    live = cloud_ids(resources)
    rows = recorded(store_paths)
    known = set(logical(n) for n in rows.values()) - {None}
    orphans, duplicates, lost = [], [], []
    deleted = set((e['kind'], e['id']) for e in ledger['entries'] if e['op'] == 'delete')
    for entry in ledger['entries']:
        if entry['op'] != 'create' or entry['seq'] <= after or entry['kind'] not in KINDS:
            continue
        kind = KINDS[entry['kind']]
        if entry['id'] not in live[kind] or entry['id'] in rows:
            continue
        what = '%s %s (%s)' % (kind, entry['id'], entry.get('name'))
        if (entry['kind'], entry['id']) in deleted:
            continue
        if logical(entry.get('name')) in known:
            duplicates.append(what)
        else:
            orphans.append(what)
    made_here = dict((e['id'], KINDS[e['kind']]) for e in ledger['entries']
                     if e['op'] == 'create' and e['kind'] in KINDS)
    for pid, pname in rows.items():
        kind = made_here.get(pid)
        if kind is not None and pid not in live[kind]:
            lost.append('%s %s (%s) recorded, not in the cloud' % (kind, pid, pname))
    return {'orphans': orphans, 'duplicates': duplicates, 'lost': lost}


# -- the figures ---------------------------------------------------------------------------------

def losses(figures):
    """The loss figures (each must be 0)."""
    out = {'orphans': len(figures['orphans']), 'duplicates': len(figures['duplicates']),
           'lost_or_inconsistent': len(figures['lost']) + len(figures['unconverged']),
           'concurrent_incomplete': figures['concurrent'] - figures['concurrent_completed']}
    outage = figures.get('outage')
    if outage is not None:
        out['outage_unclear'] = 0 if outage['clear_failure'] and outage['rerun_converged'] else 1
    return out


def table(figures, scale, seed):
    rows = [('runs (lifecycles)', figures['runs']),
            ('completed with no help', '%d (%.0f%%)' % (figures['completed_unaided'],
                                                        100.0 * figures['completed_unaided'] / max(1, figures['runs']))),
            ('faults injected', figures['faults_injected']),
            ('kills (SIGKILL)', '%d (not counted: %d after the action had ended, %d before its '
                                 'first request)' % (figures['kills'], figures.get('kills_missed', 0),
                                                     figures.get('kills_before_any_request', 0))),
            ('failures with no clear reason', len(figures['unclear_failures'])),
            ('stacks at once (processes)', '%d/%d complete' % (figures['concurrent_completed'],
                                                               figures['concurrent'])),
            ('orphaned cloud resources', len(figures['orphans'])),
            ('duplicates', len(figures['duplicates'])),
            ('lost or inconsistent records', len(figures['lost']) + len(figures['unconverged'])),
            ('worst recovery time', '%.1f s' % figures['worst_recovery_s'])]
    if figures.get('outage'):
        rows.append(('cloud stopped mid-run: failed after', '%.0f s, rerun %s' % (
            figures['outage']['failed_within_s'],
            'converged' if figures['outage']['rerun_converged'] else 'did NOT converge')))
    width = max(len(r[0]) for r in rows)
    lines = ['chaos campaign: scale %s, seed %s' % (scale, seed)]
    lines += ['| %s | %s |' % (k.ljust(width), v) for k, v in rows]
    return '\n'.join(lines)


# -- one engine action in a child process ------------------------------------------------------

def child_command(cloud, action):
    """The argv of a child running ``action`` (a dict: name, state, template, parameters, store,
    rollback, check_mode, timeout) against ``cloud`` (its clouds.yaml)."""
    payload = dict(action, clouds_yaml=cloud.clouds_yaml)
    return [sys.executable, os.path.abspath(__file__), json.dumps(payload)]


def start_child(cloud, action, log_path):
    """A Popen of the child; its answer (one JSON line) on stdout, its errors in ``log_path``."""
    log = open(log_path, 'a')
    try:
        return subprocess.Popen(child_command(cloud, action), stdout=subprocess.PIPE, stderr=log,
                                stdin=subprocess.DEVNULL, text=True, cwd=ROOT,
                                env=dict(os.environ, PYTHONPATH=ROOT))
    finally:
        log.close()


def child_answer(proc, timeout):
    """The child's answer: ``{'status': ..., 'reason': ...}`` or ``{'error': ...}``."""
    out, _err = proc.communicate(timeout=timeout)
    lines = [line for line in (out or '').splitlines() if line.startswith('{')]
    if not lines:
        return {'error': 'the child exited %s with no answer' % proc.returncode}
    return json.loads(lines[-1])


def engine_action(conn, action):
    """Run one action in this process: ``{'status', 'reason', 'changed'}`` or ``{'error'}``."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError
    request = runner.StackRequest(
        action['name'], state=action.get('state', 'present'), template=action.get('template'),
        parameters=action.get('parameters'), store_path=action['store'],
        rollback=bool(action.get('rollback')), check_mode=bool(action.get('check_mode')),
        timeout=action.get('timeout', 600), lock_timeout=action.get('lock_timeout', 0))
    try:
        result = runner.run(request, conn)
    except StackersError as exc:
        return {'error': '%s: %s' % (type(exc).__name__, exc)}
    except Exception as exc:  # noqa: B902 - the campaign counts what the engine let escape
        return {'error': '%s: %s' % (type(exc).__name__, exc), 'unexpected': True}
    stack = result.get('stack') or {}
    return {'status': stack.get('stack_status'), 'reason': stack.get('stack_status_reason'),
            'changed': result.get('changed')}


def connect(clouds_yaml):
    import openstack
    from openstack import config as os_config
    region = os_config.OpenStackConfig(config_files=[clouds_yaml]).get_one(cloud='localcloud',
                                                                              api_timeout=120)
    return openstack.connection.Connection(config=region)


def _child_main(payload):
    sys.path.insert(0, ROOT)
    import conftest  # noqa: F401  (makes ansible_collections.stackers.orchestration importable)
    action = json.loads(payload)
    conn = connect(action['clouds_yaml'])
    try:
        answer = engine_action(conn, action)
    finally:
        conn.close()
    sys.stdout.write(json.dumps(answer) + '\n')
    sys.stdout.flush()


if __name__ == '__main__':
    _child_main(sys.argv[1])
