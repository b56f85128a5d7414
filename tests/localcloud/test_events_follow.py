# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 34's first hour, through real ansible-playbook runs of playbooks/ on the local cloud:
events.yml -e follow=true started on a COMPLETE stack follows the update run next to its end, then one
started before the delete follows it to DELETE_COMPLETE, each printing every event once; a rerun
that changes nothing leaves the store's record as it was; heat_stack's events are in Heat's API
shape."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import re
import sqlite3
import subprocess
import threading

from localcloud.harness import ROOT

NAME = 'follow'
TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  text: {type: string, default: one}
resources:
  net:
    type: OS::Neutron::Net
    properties: {name: {list_join: ['-', [follow, {get_param: text}]]}}
  slow:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: text}
      action_wait_secs: {update: 2, delete: 2}
outputs:
  net: {value: {get_resource: net}}
"""
EVENT_LINE = re.compile(r'\(item=([0-9a-f-]{36})\) => .*"msg": "([^"]*)"')


class Books(object):
    def __init__(self, cloud, tmp_path, template=TEMPLATE, files=None):
        self.cloud = cloud
        self.store = str(tmp_path / 'stacks.sqlite')
        self.template = str(tmp_path / 'follow.yaml')
        for name, text in dict(files or {}, **{'follow.yaml': template}).items():
            with open(str(tmp_path / name), 'w') as f:
                f.write(text)

    def env(self):
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=self.cloud.clouds_yaml, ANSIBLE_NOCOLOR='1',
                   ANSIBLE_CALLBACK_RESULT_FORMAT='json', ANSIBLE_CALLBACK_FORMAT_PRETTY='false',
                   PYTHONUNBUFFERED='1')
        env.pop('OS_CLOUD', None)
        return env

    def command(self, book, extra=None, verbose=False):
        variables = {'heat_cloud': 'localcloud', 'heat_store_path': self.store, 'heat_stack_name': NAME}
        variables.update(extra or {})
        return [os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'), os.path.join(ROOT, 'playbooks', book),
                '-e', json.dumps(variables)] + (['-v'] if verbose else [])

    def run(self, book, task, extra=None):
        """The result of the heat_stack task named ``task``, printed at -v."""
        proc = subprocess.run(self.command(book, extra, verbose=True), cwd=ROOT, env=self.env(),
                              capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
        part = proc.stdout.split('TASK [%s]' % task, 1)[1]
        return json.JSONDecoder().raw_decode(part[part.index('=> ') + 3:])[0]

    def stack(self, parameters=None):
        return self.run('stack.yml', 'Converge the stack to the template', {'heat_template': self.template, 'heat_parameters': parameters or {}})

    def record(self):
        """The store's rows of the stack: stacks, resources, events, as stored."""
        db = sqlite3.connect(self.store)
        try:
            return dict((table, db.execute('SELECT * FROM %s ORDER BY 1' % table).fetchall())
                        for table in ('stacks', 'resources', 'events'))
        finally:
            db.close()


class Follower(object):
    """events.yml -e follow=true in its own process; ``printed``: (event id, line) as they come."""

    def __init__(self, books, extra=None):
        self.proc = subprocess.Popen(books.command('events.yml', dict({'follow': True}, **(extra or {}))),
                                     cwd=ROOT, env=books.env(),
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines, self.printed = [], []
        self._seen = threading.Condition()
        self._reader = threading.Thread(target=self._read)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self._seen:
                self.lines.append(line)
                found = EVENT_LINE.search(line)
                if found:
                    self.printed.append(found.groups())
                self._seen.notify_all()

    def wait_for_line(self, text):
        """Until an event line holding ``text`` was printed."""
        with self._seen:
            assert self._seen.wait_for(lambda: any(text in line for _i, line in self.printed)
                                       or self.proc.poll() is not None, timeout=300), self.output()
        assert self.proc.poll() is None, 'the follower ended before the action: ' + self.output()

    def wait_for(self, count):
        """Until ``count`` events were printed (the history, before the action starts)."""
        with self._seen:
            assert self._seen.wait_for(lambda: len(self.printed) >= count or self.proc.poll() is not None,
                                       timeout=300), self.output()
        assert len(self.printed) >= count, self.output()
        assert self.proc.poll() is None, 'the follower ended before the action: ' + self.output()

    def end(self):
        try:
            self.proc.wait(timeout=300)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self._reader.join(10)
        assert self.proc.returncode == 0, self.output()

    def output(self):
        return ''.join(self.lines)[-5000:]


def test_follow_an_update_then_a_delete_each_to_its_end(cloud, tmp_path):
    books = Books(cloud, tmp_path)
    created = books.stack()
    assert created['stack']['stack_status'] == 'CREATE_COMPLETE'
    # heat_stack's events: Heat's API shape, the one heat_stack_info lists
    for event in created['events']:
        assert set(event) == {'id', 'resource_name', 'logical_resource_id', 'physical_resource_id',
                              'resource_status', 'resource_status_reason', 'event_time'}, event
    assert [e['resource_status'] for e in created['events'] if e['resource_name'] == 'net'] == [
        'CREATE_IN_PROGRESS', 'CREATE_COMPLETE']
    history = [e['id'] for e in created['events']]

    # a rerun that changes nothing leaves the stack's record, its events, status and times as they were
    before = books.record()
    again = books.stack()
    assert again['changed'] is False and again['events'] == []
    assert again['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert books.record() == before

    # started on the COMPLETE stack: the history, then the update to its end
    follower = Follower(books)
    follower.wait_for(len(history))
    updated = books.stack({'text': 'two'})
    follower.end()
    assert updated['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert [i for i, _line in follower.printed] == history + [e['id'] for e in updated['events']]
    assert 'UPDATE_COMPLETE  Stack UPDATE completed successfully' in follower.printed[-1][1]
    history += [e['id'] for e in updated['events']]

    # started before the delete: the stack leaves the store, and its last events are printed all the same
    follower = Follower(books)
    follower.wait_for(len(history))
    deleted = books.run('delete.yml', 'Delete the stack')
    follower.end()
    assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert [i for i, _line in follower.printed] == history + [e['id'] for e in deleted['events']]
    assert 'DELETE_COMPLETE  Stack DELETE completed successfully' in follower.printed[-1][1]
    assert [e['resource_status'] for e in deleted['events'] if e['resource_name'] == 'net'] == [
        'DELETE_IN_PROGRESS', 'DELETE_COMPLETE']


NESTED = """heat_template_version: 2021-04-16
resources:
  inner: {type: inner.yaml}
"""
INNER = """heat_template_version: 2021-04-16
resources:
  slow:
    type: OS::Heat::TestResource
    properties: {value: x, action_wait_secs: {delete: 2}}
"""


def test_follow_a_delete_with_a_nested_depth_prints_the_nested_stacks_events(cloud, tmp_path):
    """The nested stack is deleted (its rows with it) before the top stack's delete ends: the
    follower still prints its DELETE events, from the trace it left, each once."""
    books = Books(cloud, tmp_path, NESTED, {'inner.yaml': INNER})
    assert books.stack()['stack']['stack_status'] == 'CREATE_COMPLETE'
    follower = Follower(books, {'heat_nested_depth': 1})
    follower.wait_for_line('%s  %s  CREATE_COMPLETE' % (NAME, NAME))
    deleted = books.run('delete.yml', 'Delete the stack')
    follower.end()
    assert deleted['stack']['stack_status'] == 'DELETE_COMPLETE'
    ids = [i for i, _line in follower.printed]
    assert len(ids) == len(set(ids)), follower.output()
    lines = [line for _i, line in follower.printed]
    slow = [line.split('  ')[3] for line in lines if '  slow  ' in line]
    assert slow[-2:] == ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE'], follower.output()
    inner = [line.split('  ')[3] for line in lines if '  inner  ' in line and '  slow  ' not in line]
    assert inner[-2:] == ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE'], follower.output()
    assert 'DELETE_COMPLETE  Stack DELETE completed successfully' in lines[-1]
