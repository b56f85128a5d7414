# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every command of Heat's quick reference as a playbook of playbooks/ (issue 15, item 2), each run
here from the repository root with -e variables, its output checked against the stack: a 3-level
nested stack (heat_peer/top.yaml with env.yaml) is created by stack.yml while events.yml -e
follow=true, started before it, prints the events live; then list, show, output, resources
(--nested-depth 2), resource, events (--nested-depth 2), template, check, an update, suspend, resume
and delete."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sqlite3
import re
import shutil
import subprocess
import threading
import time

from localcloud.harness import ROOT

PLAYBOOKS = os.path.join(ROOT, 'playbooks')
TEMPLATES = os.path.join(ROOT, 'tests', 'localcloud', 'stack_templates', 'heat_peer')
NAME = 'quickref'


class Books(object):
    def __init__(self, cloud, tmp_path):
        self.cloud = cloud
        self.store = str(tmp_path / 'stacks.sqlite')

    def env(self):
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=self.cloud.clouds_yaml, ANSIBLE_NOCOLOR='1',
                   ANSIBLE_CALLBACK_RESULT_FORMAT='json', PYTHONUNBUFFERED='1')
        env.pop('OS_CLOUD', None)
        return env

    def command(self, book, extra=None, check=False):
        variables = {'heat_cloud': 'localcloud', 'heat_store_path': self.store, 'heat_stack_name': NAME}
        variables.update(extra or {})
        cmd = [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), os.path.join(PLAYBOOKS, book),
               '-e', json.dumps(variables)]
        return cmd + (['--check'] if check else [])

    def run(self, book, extra=None, check=False, expect_ok=True):
        proc = subprocess.run(self.command(book, extra, check), cwd=ROOT, env=self.env(),
                              capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        if expect_ok:
            assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
        return proc


def shown(stdout, task):
    """What the debug task named ``task`` printed (its ``msg`` or its var), parsed from the JSON result
    the default callback prints with ANSIBLE_CALLBACK_RESULT_FORMAT=json."""
    part = stdout.split('TASK [%s]' % task, 1)[1]
    body = part.split('ok: [localhost] => ', 1)[1]
    value, _end = json.JSONDecoder().raw_decode(body)
    value.pop('changed', None)
    return value['msg'] if 'msg' in value else list(value.values())[0]


def test_every_quick_reference_command_as_a_playbook(cloud, tmp_path):
    books = Books(cloud, tmp_path)
    # the 3 levels, and a resource whose create lasts 8 s: time for the follower to look a few times
    for name in ('mid.yaml', 'leaf.yaml', 'env.yaml'):
        shutil.copy(os.path.join(TEMPLATES, name), str(tmp_path))
    with open(os.path.join(TEMPLATES, 'top.yaml')) as f:
        top = f.read()
    (tmp_path / 'top.yaml').write_text(top.replace('resources:\n', 'resources:\n  slow:\n    type: '
                                                   'OS::Heat::TestResource\n    properties: '
                                                   '{action_wait_secs: {create: 8}}\n', 1))
    stack_vars = {'heat_template': str(tmp_path / 'top.yaml'),
                  'heat_environment': [str(tmp_path / 'env.yaml')],
                  'heat_parameters': {'text': 'one'}}
    # event list --follow, started before the create: each line is timed as it arrives
    follow = subprocess.Popen(books.command('events.yml', {'follow': True, 'heat_nested_depth': 2}),
                              cwd=ROOT, env=books.env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []

    def read():
        for line in follow.stdout:
            lines.append((time.monotonic(), line))
    reader = threading.Thread(target=read)
    reader.start()
    try:
        time.sleep(3)   # the follower is already looking for a stack that does not exist yet
        created = books.run('stack.yml', stack_vars)
        create_done = time.monotonic()
        follow.wait(timeout=120)
    finally:
        if follow.poll() is None:
            follow.kill()
        reader.join(10)
    assert follow.returncode == 0, ''.join(l for _t, l in lines)[-4000:]
    assert 'CREATE_COMPLETE' in created.stdout
    printed = [(t, l) for t, l in lines if re.search(r'"msg": ".*(IN_PROGRESS|COMPLETE)', l)]
    assert printed, ''.join(l for _t, l in lines)[-3000:]
    # live: the first event was printed while the create was still running
    assert printed[0][0] < create_done, (printed[0], create_done)
    # every event once, the leaf's included (nested depth 2), the stack's completion last
    assert any(' leaf ' in l for _t, l in printed) and 'Stack CREATE completed successfully' in printed[-1][1]

    # stack list
    listed = shown(books.run('list.yml').stdout, 'Show them, one line each')
    assert len(listed) == 1 and listed[0].startswith(NAME + '  CREATE_COMPLETE')
    # stack show
    stack = shown(books.run('show.yml').stdout, 'Show it')
    assert stack['stack_name'] == NAME and stack['stack_status'] == 'CREATE_COMPLETE'
    outputs = dict((o['output_key'], o['output_value']) for o in stack['outputs'])
    assert outputs['top_text'].endswith('one')
    # output show
    assert shown(books.run('output.yml', {'heat_output': 'top_text'}).stdout, 'Show it')['output_value'] \
        == outputs['top_text']
    # resource list --nested-depth 2: the three levels
    resources = shown(books.run('resources.yml', {'heat_nested_depth': 2}).stdout,
                      'Show them, one line each (name, physical id, type, status, stack)')
    names = [line.split('  ')[0] for line in resources]
    assert {'mid', 'leaf', 'slow'} <= set(names) and all('CREATE_COMPLETE' in line for line in resources)
    # resource show
    mid = shown(books.run('resource.yml', {'heat_resource': 'mid'}).stdout, 'Show it')
    assert mid['resource_name'] == 'mid' and mid['physical_resource_id']
    # event list --nested-depth 2
    events = shown(books.run('events.yml', {'heat_nested_depth': 2}).stdout, 'Show them, one line each')
    assert len(events) == len(printed) and events[-1].endswith('Stack CREATE completed successfully')
    # template show
    template = shown(books.run('template.yml').stdout, 'Show it')
    assert 'mid.yaml' in template and 'top_text' in template
    # stack export --output-file: the abandon data in a file only its owner reads, the stack kept
    exported = tmp_path / 'export.json'
    books.run('export.yml', {'heat_abandon_file': str(exported)})
    data = json.loads(exported.read_text())
    assert data['name'] == NAME and 'mid' in data['resources'] and exported.stat().st_mode & 0o077 == 0
    assert shown(books.run('show.yml').stdout, 'Show it')['stack_status'] == 'CREATE_COMPLETE'
    # stack check: nothing drifted, nothing to do
    checked = shown(books.run('check.yml').stdout, 'Show the outcome')
    assert checked['status'] == 'CHECK_COMPLETE' and all(p['action'] == 'keep' for p in checked['plan'])
    # stack snapshot create, before the update
    taken = shown(books.run('snapshot_create.yml', {'heat_snapshot_name': 'before'}).stdout, 'Show the snapshot')
    assert (taken['name'], taken['status']) == ('before', 'COMPLETE')
    # stack update
    updated = books.run('stack.yml', dict(stack_vars, heat_parameters={'text': 'two'}))
    assert shown(updated.stdout, "Show the stack's status and outputs")['outputs']['top_text'].endswith('two')
    # stack snapshot list and show, stack restore (back to 'one'), stack snapshot delete
    listed = books.run('snapshot_list.yml').stdout
    assert '"msg": "%s before COMPLETE' % taken['id'] in listed, listed[-3000:]
    one = shown(books.run('snapshot_show.yml', {'heat_snapshot_id': taken['id']}).stdout, 'Show it')
    assert one['name'] == 'before' and one['data']['environment']['parameters']['text'] == 'one'
    books.run('restore.yml', {'heat_snapshot_name': 'before'})
    stack = shown(books.run('show.yml').stdout, 'Show it')
    assert stack['stack_status'] == 'RESTORE_COMPLETE'
    assert dict((o['output_key'], o['output_value']) for o in stack['outputs'])['top_text'].endswith('one')
    books.run('snapshot_delete.yml', {'heat_snapshot_name': 'before'})
    assert ' before COMPLETE' not in books.run('snapshot_list.yml').stdout
    # suspend, resume, delete
    books.run('suspend.yml')
    assert shown(books.run('show.yml').stdout, 'Show it')['stack_status'] == 'SUSPEND_COMPLETE'
    books.run('resume.yml')
    # resume.yml is heat_stack's PATCH update of the suspended stack: it resumes, and with nothing else to
    # change ends there, RESUME_COMPLETE as `openstack stack resume` leaves it
    assert shown(books.run('show.yml').stdout, 'Show it')['stack_status'] == 'RESUME_COMPLETE'
    resumed = shown(books.run('events.yml').stdout, 'Show them, one line each')
    assert any(line.endswith('Stack RESUME completed successfully') for line in resumed), resumed[-6:]
    books.run('delete.yml')
    assert shown(books.run('list.yml').stdout, 'Show them, one line each') == []


VALUE_TEMPLATE = """heat_template_version: 2021-04-16
resources:
  value: {type: OS::Heat::Value, properties: {value: kept}}
"""


def test_delete_without_a_name_refuses_and_deletes_nothing(cloud, tmp_path):
    """The playbooks once defaulted heat_stack_name to demo: a forgotten -e deleted the stack called so."""
    books = Books(cloud, tmp_path)
    (tmp_path / 'value.yaml').write_text(VALUE_TEMPLATE)
    books.run('stack.yml', {'heat_stack_name': 'demo', 'heat_template': str(tmp_path / 'value.yaml')})
    variables = {'heat_cloud': 'localcloud', 'heat_store_path': books.store}
    for book in ('delete.yml', 'suspend.yml', 'stack.yml'):
        refused = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'),
                                  os.path.join(PLAYBOOKS, book), '-e', json.dumps(variables)],
                                 cwd=ROOT, env=books.env(), capture_output=True, text=True, timeout=600,
                                 stdin=subprocess.DEVNULL)
        assert refused.returncode == 2, refused.stdout[-3000:] + refused.stderr[-3000:]
        failed = [line for line in refused.stdout.splitlines() if 'FAILED!' in line]
        assert len(failed) == 1 and 'Missing -e heat_stack_name=NAME' in failed[0], refused.stdout[-3000:]
        assert 'ok=0' in refused.stdout and 'changed=0' in refused.stdout
    listed = shown(books.run('list.yml').stdout, 'Show them, one line each')
    assert len(listed) == 1 and listed[0].startswith('demo  CREATE_COMPLETE'), listed


HOOKED_TEMPLATE = """heat_template_version: 2021-04-16
resources:
  a: {type: OS::Heat::TestResource, properties: {value: held}}
  handle: {type: OS::Heat::WaitConditionHandle}
"""
HOOKED_ENV = """resource_registry:
  resources:
    a: {hooks: pre-create}
"""


def test_hook_signal_mark_event_environment_and_failures_playbooks(cloud, tmp_path):
    """stack hook poll / hook clear, resource signal, resource mark unhealthy [--reset], event show,
    environment show and failures list, each as its playbook."""
    books = Books(cloud, tmp_path)
    (tmp_path / 'hooked.yaml').write_text(HOOKED_TEMPLATE)
    (tmp_path / 'hooks.yaml').write_text(HOOKED_ENV)
    stack_vars = {'heat_template': str(tmp_path / 'hooked.yaml'), 'heat_environment': [str(tmp_path / 'hooks.yaml')]}
    paused = shown(books.run('stack.yml', stack_vars).stdout, "Show the stack's status and outputs")
    assert 'CREATE_IN_PROGRESS' in json.dumps(paused), paused
    held = shown(books.run('hook_poll.yml').stdout, 'Show them, one line each')
    assert len(held) == 1 and '  a  CREATE paused until Hook pre-create is cleared' in held[0], held
    books.run('hook_clear.yml', {'heat_resource': 'a', 'heat_hook': 'pre-create'})
    assert shown(books.run('hook_poll.yml').stdout, 'Show them, one line each') == []
    done = shown(books.run('stack.yml', stack_vars).stdout, "Show the stack's status and outputs")
    assert 'CREATE_COMPLETE' in json.dumps(done), done
    # a hook poll of a stack no longer in progress fails as heatclient's does
    refused = books.run('hook_poll.yml', expect_ok=False)
    assert refused.returncode == 2 and 'Stack status CREATE_COMPLETE not IN_PROGRESS' in refused.stdout

    # resource signal: the handle records it
    signalled = books.run('signal.yml', {'heat_resource': 'handle',
                                         'heat_signal_data': {'status': 'SUCCESS', 'reason': 'ready', 'data': 'x',
                                                              'id': '1'}})
    assert shown(signalled.stdout, "Show the stack's status") == 'CREATE_COMPLETE'
    # resource mark unhealthy, then --reset
    books.run('mark_unhealthy.yml', {'heat_resource': 'a', 'heat_reason': 'disk failed'})
    marked = shown(books.run('resource.yml', {'heat_resource': 'a'}).stdout, 'Show it')
    assert (marked['resource_status'], marked['resource_status_reason']) == ('CHECK_FAILED', 'disk failed')
    books.run('mark_unhealthy.yml', {'heat_resource': 'a', 'heat_reset': True})
    assert shown(books.run('resource.yml', {'heat_resource': 'a'}).stdout, 'Show it')['resource_status'] == \
        'CHECK_COMPLETE'
    # event show: the hook's event of a, by its id
    db = sqlite3.connect(books.store)
    try:
        event_id = db.execute("SELECT id FROM events WHERE resource_name='a' AND resource_status_reason=?",
                              ('CREATE paused until Hook pre-create is cleared',)).fetchone()[0]
    finally:
        db.close()
    event = shown(books.run('event.yml', {'heat_resource': 'a', 'heat_event': event_id}).stdout, 'Show it')
    assert event['id'] == event_id and event['resource_status_reason'].startswith('CREATE paused until')
    missing = books.run('event.yml', {'heat_resource': 'a', 'heat_event': 'nope'}, expect_ok=False)
    assert missing.returncode == 2 and 'The Event (nope) could not be found.' in missing.stdout
    # environment show: the hook as the user's environment gave it
    environment = shown(books.run('environment.yml').stdout, 'Show it')
    assert environment['resource_registry']['resources'] == {'a': {'hooks': 'pre-create'}}
    # failures list: none on a good stack
    assert shown(books.run('failures.yml').stdout, 'Show them') == {}
    books.run('delete.yml')
