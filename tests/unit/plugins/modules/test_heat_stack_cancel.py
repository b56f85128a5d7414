# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_cancel through its real main(): a run in a thread cancelled, Heat's refusals."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import time

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils import connection
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack_cancel as module

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

TEMPLATE = '''heat_template_version: 2021-04-16
parameters:
  v: {type: string, default: one}
  secs: {type: number, default: 0}
resources:
  a: {type: OS::Heat::TestResource, properties: {value: {get_param: v}, action_wait_secs: {update: {get_param: secs}}}}
  b: {type: OS::Heat::TestResource, depends_on: a, properties: {value: {get_param: v}}}
'''


def _request(tmp_path, store, **kw):
    path = tmp_path / 't.yaml'
    path.write_text(TEMPLATE)
    return runner.StackRequest('web', template=str(path), store_path=store, **kw)


def _status(store):
    s = Store(store)
    try:
        return s.get_stack('web')['status']
    finally:
        s.close()


def test_a_running_update_is_cancelled_and_rolled_back(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv('STACKERS_LOCK_TTL', '0.3')
    store = str(tmp_path / 's.sqlite')
    runner.run(_request(tmp_path, store), None)
    code, out = run_main(module, capsys, {'name': 'web', 'store_path': store})
    assert code == 1 and out['msg'] == 'Cancelling update when stack is CREATE_COMPLETE is not supported.'
    done = []
    thread = threading.Thread(target=lambda: done.append(runner.run(_request(
        tmp_path, store, parameters={'v': 'two', 'secs': 0.5}), None)))
    thread.start()
    deadline = time.monotonic() + 10
    while _status(store) != 'IN_PROGRESS' and time.monotonic() < deadline:
        time.sleep(0.02)
    code, out = run_main(module, capsys, {'name': 'web', 'store_path': store}, check=True)
    assert code == 0 and out['stack']['stack_status'] == 'UPDATE_IN_PROGRESS'
    code, out = run_main(module, capsys, {'name': 'web', 'store_path': store})
    thread.join(20)
    assert code == 0 and out['changed'] is True
    assert out['cancelled']['action'] == 'UPDATE' and out['cancelled']['rollback'] is True
    assert out['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    assert done[0]['failed_reason'] == 'Stack UPDATE cancelled'


def test_a_swift_store_is_read_through_the_cloud(capsys, tmp_path, monkeypatch):
    conn, _swift, _proxy = swift_fake.cloud()
    monkeypatch.setattr(connection, 'openstack_connection', lambda params: conn)
    code, out = run_main(module, capsys, {'cloud': 'prod', 'name': 'web', 'store_url': 'swift://state/p'})
    assert code == 1 and out['msg'] == 'The Stack (web) could not be found.'
