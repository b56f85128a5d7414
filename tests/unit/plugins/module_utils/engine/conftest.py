# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Helpers shared by the stack engine tests: a store in tmp_path, templates
written to files, runs of the engine with conn=None (the Heat-type plugins
need no cloud) and a builder of a StackRun as the runner makes one."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import phases, runner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.run_state import StackRun
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.secrets import Vault, fernet_key
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.sqlite import Store
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

HEADER = 'heat_template_version: 2018-08-31\n'

# A failing resource with users below it and an independent branch beside it
# (the runner's and the rollback's tests).
FAILING = '''
resources:
  bad: {type: OS::Heat::TestResource, properties: {value: x, fail: true}}
  child: {type: OS::Heat::Value, properties: {value: {get_attr: [bad, output]}}}
  grandchild: {type: OS::Heat::Value, properties: {value: {get_resource: child}}}
  other: {type: OS::Heat::TestResource, properties: {value: fine, wait_secs: 0.05}}
'''


# A stack whose run state and seam tests read: a secret (RandomString), its
# readers, and a hidden parameter inside a property.
SEAM_TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true, default: hunter2-secret}
resources:
  r: {type: OS::Heat::RandomString, properties: {length: 8}}
  v: {type: OS::Heat::Value, properties: {value: {get_attr: [r, value]}}}
  w: {type: OS::Heat::Value, properties: {value: {get_resource: v}}}
  s: {type: OS::Heat::Value, properties: {value: {str_replace: {template: "x $y", params: {$y: {get_param: pw}}}}}}
'''


def row_of(run, name, type_name='OS::Heat::RandomString', **kw):
    """A settled record row of ``name`` in ``run``'s stack."""
    row = dict(uuid='u-' + name, stack_id=run.stack['id'], name=name, role='current',
               type=type_name, action='CREATE', status='COMPLETE', physical_id='p-' + name,
               physical_name='st-%s-x' % name, properties={})
    row.update(kw)
    return ResourceRow(**row)


def index(events, name, action, status):
    """Where the event of ``name`` ``action``_``status`` is in ``events``."""
    for i, e in enumerate(events):
        if (e['resource_name'], e['resource_action'], e['resource_status']) == (name, action, status):
            return i
    raise AssertionError('no %s %s_%s in %r' % (name, action, status, events))


def resource_events(events):
    return [e for e in events if e['resource_type'] != 'OS::Heat::Stack']


@pytest.fixture(autouse=True)
def fast_polls(monkeypatch):
    """Polls every 10 ms instead of every second (plugins inherit it)."""
    monkeypatch.setattr(ResourcePlugin, 'poll_interval', 0.01)


class Stacks(object):
    """Runs of the engine against one store file in a tmp dir."""

    def __init__(self, tmp_path):
        self.dir = tmp_path
        self.store_path = str(tmp_path / 'stacks.sqlite')

    def template(self, text, name=None):
        # One file per content: the record keeps the template's path, and a
        # rerun from another path is a change of the record.
        digest = hashlib.sha1(text.encode('utf-8')).hexdigest()[:12]
        path = self.dir / (name or 't-%s.yaml' % digest)
        path.write_text(text if text.startswith('heat_template_version') else HEADER + text)
        return str(path)

    def request(self, text=None, name='st', **kw):
        template = self.template(text) if text is not None else None
        kw.setdefault('store_path', self.store_path)
        return runner.StackRequest(name, template=template, **kw)

    def run(self, text=None, name='st', **kw):
        return runner.run(self.request(text, name=name, **kw), None)

    def store(self):
        return Store(self.store_path)

    def rows(self, name='st'):
        store = self.store()
        try:
            stack = store.get_stack(name)
            return {} if stack is None else dict(
                (r.name, r) for r in store.resources(stack['id']) if r.role == 'current')
        finally:
            store.close()

    def children(self, parent='st'):
        """parent resource name -> stack row of each nested stack of ``parent``."""
        store = self.store()
        try:
            return dict((s['parent_resource'], s)
                        for s in store.children(store.get_stack(parent)['id']))
        finally:
            store.close()

    def stored_events(self, name='st'):
        store = self.store()
        try:
            stack = store.get_stack(name)
            return [] if stack is None else store.events(stack['id'])
        finally:
            store.close()


@pytest.fixture
def stacks(tmp_path):
    return Stacks(tmp_path)


def brief(events):
    """(name, action, status) of each event."""
    return [(e['resource_name'], e['resource_action'], e['resource_status']) for e in events]


Stacks.brief = staticmethod(brief)


@pytest.fixture
def make_run(tmp_path):
    """make_run(text, parameters=None, ...) -> (StackRun, graph); see _make_run."""
    return lambda text, **kw: _make_run(tmp_path, text, **kw)


def _make_run(tmp_path, text, parameters=None, name='st', key='k', check_mode=False, store=None):
    """A StackRun of ``text`` as phases.converge builds one, on a fresh
    (or given) store with a locked stack row; returns (run, graph)."""
    path = tmp_path / ('%s.yaml' % name)
    path.write_text(text if text.startswith('heat_template_version') else HEADER + text)
    inputs = defs.read_inputs(str(path), (), parameters)
    store = store or Store(str(tmp_path / 'stacks.sqlite'))
    vault = Vault(fernet_key(key), user_key=True)
    stack = store.get_stack(name)
    if stack is None:
        stack = store.lock(name, 'me', 60, create={'action': 'CREATE', 'status': 'IN_PROGRESS',
                                                   'salt': 'salt'})
    request = runner.StackRequest(name)
    sd, graph = phases.load(request, inputs, stack['id'])
    hidden = defs.hidden_values(sd)
    run = StackRun(store, vault, None, stack, sd, secret_values=hidden.values(),
                   check_mode=check_mode)
    run.seam.prepare(graph, run.rows.values())
    return run, graph
