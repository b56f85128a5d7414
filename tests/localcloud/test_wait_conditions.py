# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Wait conditions and Swift signals in real ansible-playbook runs against the local cloud's real Swift.

heat_stack runs in the background while the test signals, as a guest would (the local cloud's guests are
not used here): once through heat_resource_signal, once with `curl -i -X PUT` of the handle's TempURL.
The stack completes with `data` in Heat's shape; a rerun writes nothing; delete leaves nothing of the
stack's container.  A FAILURE signal fails the wait with its reason; no signal times out with Heat's
message and, with rollback, leaves nothing behind.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import shlex
import sqlite3
import subprocess
import sys
import time
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.playbook import StackRunner, outputs, plan  # noqa: E402

WAITS = """heat_template_version: 2021-04-16
parameters:
  count: {type: number, default: 2}
  timeout: {type: number, default: 300}
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  wait:
    type: OS::Heat::WaitCondition
    properties: {handle: {get_resource: handle}, count: {get_param: count}, timeout: {get_param: timeout}}
  swift_handle: {type: OS::Heat::SwiftSignalHandle}
  swift_wait:
    type: OS::Heat::SwiftSignal
    properties: {handle: {get_resource: swift_handle}, timeout: {get_param: timeout}}
outputs:
  data: {value: {get_attr: [wait, data]}}
  swift_data: {value: {get_attr: [swift_wait, data]}}
  curl_cli: {value: {get_attr: [handle, curl_cli]}}
  endpoint: {value: {get_attr: [swift_handle, endpoint]}}
"""

WAIT_ONLY = """heat_template_version: 2021-04-16
parameters:
  timeout: {type: number, default: 300}
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  wait:
    type: OS::Heat::WaitCondition
    properties: {handle: {get_resource: handle}, timeout: {get_param: timeout}}
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _urls(store_path, stack_name, names, timeout=180):
    """The TempURLs the background run's handles keep in the store, once they are there."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = {}
        if os.path.exists(store_path):
            db = sqlite3.connect(store_path, timeout=30)
            try:
                rows = db.execute("SELECT r.name, r.data FROM resources r JOIN stacks s ON r.stack_id = s.id "
                                  "WHERE s.name = ?", (stack_name,)).fetchall()
            except sqlite3.OperationalError:
                rows = []
            finally:
                db.close()
            for name, data in rows:
                url = json.loads(data or '{}').get('url') if data else None
                if name in names and url:
                    found[name] = url
        if set(found) == set(names):
            return found
        time.sleep(0.5)
    raise AssertionError('the handles of %s never got their URLs' % stack_name)


def _curl(url, body):
    """`curl -i -X PUT '<url>'` (what curl_cli gives) with a signal body, to 127.0.0.1 only."""
    assert urlparse(url).hostname == '127.0.0.1', url
    cmd = shlex.split("curl -i -X PUT '%s'" % url) + ['-sS', '--data-binary', json.dumps(body)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('HTTP/1.1 201'), done.stdout[:300]


def _finish(proc, result_file, timeout=600):
    out, _err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, out[-4000:]
    with open(result_file) as f:
        return json.load(f)


def _left(cloud, stack_id):
    res = cloud.resources()
    return ([c['name'] for c in res.get('containers', ()) if c['name'] == stack_id] +
            [o['name'] for o in res.get('objects', ()) if o.get('container') == stack_id])


def test_wait_condition_and_swift_signal_through_playbooks(cloud, tmp_path):
    store = str(tmp_path / 'stacks.sqlite')
    runner = StackRunner(cloud, tmp_path, store)
    signaller = StackRunner(cloud, tmp_path, store, module='heat_resource_signal')
    template = _write(tmp_path, 'waits.yaml', WAITS)

    proc, result_file = runner.start(name='waits', template=template)
    try:
        urls = _urls(store, 'waits', ('handle', 'swift_handle'))
        # while nothing changes, the two handles waiting together cost one listing of the stack's
        # container a tick (not a request each), however many other objects the container holds
        container = urlparse(urls['handle']).path.split('/')[-2]
        conn = cloud.sdk()
        for i in range(20):
            conn.object_store.upload_object(container=container, name='unrelated-%d' % i, data=b'x')
        time.sleep(1)
        cloud.reset_stats()
        time.sleep(4)
        routes = cloud.stats()['by_route']
        assert set(routes) == {'GET object-store /v1/{account}/{container}'}, routes
        for i in range(20):
            conn.object_store.delete_object('unrelated-%d' % i, container=container)
        # heat_resource_signal while the heat_stack run holds the stack's lock and waits
        sent = signaller.run(stack='waits', resource='handle',
                             data={'status': 'SUCCESS', 'id': 'module', 'data': 'from the module'})
        assert sent.get('failed') is not True, sent.get('msg')
        assert sent['signal'] == {'resource': 'handle', 'handle': 'OS::Heat::WaitConditionHandle'}
        assert sent['stack']['stack_name'] == 'waits'
        assert sent['stack']['stack_status'] == 'CREATE_IN_PROGRESS'
        _curl(urls['handle'], {'id': 'curl', 'data': 'from curl'})
        _curl(urls['swift_handle'], {'data': {'ready': True}})
        created = _finish(proc, result_file)
    finally:
        if proc.poll() is None:
            proc.kill()
    stack = created['stack']
    assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
    out = outputs(created)
    # Heat's shape: a JSON text of {id: data}, in the order the ids arrived
    assert out['data'] == '{"module": "from the module", "curl": "from curl"}'
    assert json.loads(out['swift_data']) == {'1': {'ready': True}}
    assert out['curl_cli'] == "curl -i -X PUT '%s'" % urls['handle']
    assert out['endpoint'] == urls['swift_handle']
    assert '/%s/' % stack['id'] in urls['handle']
    # one container, the stack's, holding each handle's versions
    assert _left(cloud, stack['id'])

    # a rerun makes no write call, and check mode plans to keep everything
    # (then delete: every version of both objects, and the emptied container; the three runs in
    # one ansible-playbook)
    (again, again_writes), (checked, _c), (gone, _g) = runner.run_steps(
        [dict(name='waits', template=template), dict(name='waits', template=template, _check=True),
         dict(name='waits', state='absent')])
    assert again['changed'] is False
    assert again_writes == {}
    assert set(plan(checked).values()) == {'keep'}
    assert gone.get('failed') is not True, gone.get('msg')
    assert _left(cloud, stack['id']) == []


def test_a_failure_signal_fails_the_wait_with_its_reason(cloud, tmp_path):
    store = str(tmp_path / 'stacks.sqlite')
    runner = StackRunner(cloud, tmp_path, store)
    template = _write(tmp_path, 'wait.yaml', WAIT_ONLY)
    proc, result_file = runner.start(name='waitfail', template=template)
    try:
        url = _urls(store, 'waitfail', ('handle',))['handle']
        _curl(url, {'status': 'FAILURE', 'reason': 'the guest could not start'})
        failed = _finish(proc, result_file)
    finally:
        if proc.poll() is None:
            proc.kill()
    stack = failed['stack']
    assert stack['stack_status'] == 'CREATE_FAILED'
    assert stack['stack_status_reason'] == ('Resource CREATE failed: WaitConditionFailure: '
                                            'resources.wait: the guest could not start')
    runner.run(name='waitfail', state='absent')
    assert _left(cloud, stack['id']) == []


def test_no_signal_times_out_with_heats_message_and_rolls_back_to_nothing(cloud, tmp_path):
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _write(tmp_path, 'wait.yaml', WAIT_ONLY)
    rolled = runner.run(name='waittime', template=template, parameters={'timeout': 2}, rollback=True)
    stack = rolled['stack']
    assert stack['stack_status'] == 'ROLLBACK_COMPLETE', stack['stack_status_reason']
    failed = [e for e in rolled['events']
              if e['resource_name'] == 'wait' and e['resource_status'].endswith('_FAILED')]
    assert failed[0]['resource_status_reason'] == 'WaitConditionTimeout: resources.wait: 0 of 1 received'
    assert _left(cloud, stack['id']) == []
