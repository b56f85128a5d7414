# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stack snapshot and restore (engine/run/snapshot.py) with a fake plugin
that snapshots on the plugin contract: Heat's shapes and events, the
record's ids kept apart from the rows, restore as an update recorded as
RESTORE, idempotent reruns, deletes (and the stack's delete) removing the
images, hidden values encrypted in the snapshot record."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import snapshots as reading
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import snapshot as snap
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import NotSupported, StackNotFound
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource

from ..conftest import resource_events

TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true}
  v: {type: string, default: one}
resources:
  r: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  s: {type: OS::Heat::TestResource, properties: {value: {get_param: pw}}}
  n: {type: OS::Heat::None}
'''


class Snapping(TestResource):
    """A TestResource whose snapshot is an "image" named after the value."""
    made, deleted, states = [], [], []
    heat_snapshot_keys = {'image_id': 'snapshot_image_id'}

    def snapshot(self, ctx, state):
        image = 'img-%s-%d' % (ctx.name, len(self.made))
        self.made.append(image)
        self.states.append(state)
        ctx.data['image_id'] = image
        return {'image_id': image}

    def check_snapshot_complete(self, ctx):
        return True

    def restore_properties(self, properties, resource_data):
        return dict(properties, value=resource_data['snapshot_image_id'])

    def delete_snapshot(self, ctx, resource_data):
        self.deleted.append(resource_data['snapshot_image_id'])


@pytest.fixture
def made(stacks, monkeypatch):
    monkeypatch.setitem(registry.PLUGINS, 'OS::Heat::TestResource', Snapping)
    for kept in (Snapping.made, Snapping.deleted, Snapping.states):
        del kept[:]
    stacks.text = TEMPLATE
    result = stacks.run(TEMPLATE, parameters={'pw': 'hunter2-pw'}, store_key='k')
    assert result['stack']['stack_status'] == 'CREATE_COMPLETE'
    return stacks


def act(stacks, state='present', name='before', **kw):
    kw.setdefault('store_key', 'k')
    request = snap.SnapshotRequest('st', name=name, state=state, store_path=stacks.store_path, **kw)
    return snap.snapshot(request, None)


def test_a_snapshot_has_heats_shape_events_and_status(made):
    result = act(made)
    view = result['snapshot']
    assert result['changed'] is True
    assert list(view) == ['id', 'name', 'action', 'status', 'status_reason', 'data', 'creation_time']
    assert (view['name'], view['action'], view['status'], view['status_reason']) == (
        'before', 'CREATE', 'COMPLETE', 'Stack SNAPSHOT completed successfully')
    data = view['data']
    assert set(data) == {'name', 'id', 'action', 'status', 'environment', 'files', 'template', 'resources',
                         'project_id', 'stack_user_project_id', 'tags'}
    assert (data['action'], data['status']) == ('SNAPSHOT', 'COMPLETE')
    assert data['template']['resources']['r']['properties'] == {'value': {'get_param': 'v'}}
    assert data['environment']['parameters']['pw'] == '******'
    assert set(data['resources']) == {'r', 's', 'n'}
    entry = data['resources']['r']
    assert entry['resource_data'] == {'snapshot_image_id': 'img-r-0'} or \
        entry['resource_data'] == {'snapshot_image_id': 'img-r-1'}
    assert (entry['action'], entry['status'], entry['type']) == ('SNAPSHOT', 'COMPLETE', 'OS::Heat::TestResource')
    assert data['resources']['n']['resource_data'] == {}
    assert set(Snapping.states) == {('SNAPSHOT', 'IN_PROGRESS')}
    assert result['stack']['stack_status'] == 'SNAPSHOT_COMPLETE'
    seen = [(e['resource_name'], e['resource_action'], e['resource_status']) for e in result['events']]
    assert seen[0] == ('st', 'SNAPSHOT', 'IN_PROGRESS') and seen[-1] == ('st', 'SNAPSHOT', 'COMPLETE')
    for name in ('r', 's', 'n'):
        assert seen.index((name, 'SNAPSHOT', 'IN_PROGRESS')) < seen.index((name, 'SNAPSHOT', 'COMPLETE'))
    rows = made.rows()
    # the image is the snapshot record's, never the row's (a delete with
    # deletion_policy Snapshot would take it for its own)
    assert 'image_id' not in (rows['r'].data or {})
    assert (rows['r'].action, rows['r'].status) == ('SNAPSHOT', 'COMPLETE')


def test_a_second_snapshot_of_the_name_changes_nothing_and_check_mode_writes_nothing(made):
    planned = act(made, check_mode=True)
    assert planned['changed'] is True and planned['snapshot'] is None
    assert sorted(p['resource_name'] for p in planned['plan']) == ['r', 's']
    assert Snapping.made == [] and made.store().snapshots(made.store().get_stack('st')['id']) == []
    first = act(made)
    again = act(made)
    assert again['changed'] is False and again['snapshot']['id'] == first['snapshot']['id']
    assert len(Snapping.made) == 2


def test_hidden_values_stay_encrypted_in_the_snapshot_record(made):
    act(made)
    with open(made.store_path, 'rb') as f:
        assert b'hunter2-pw' not in f.read()
    store = made.store()
    record = store.snapshots(store.get_stack('st')['id'])[0]
    assert record['secrets'] and record['inputs']['template']


def test_restore_puts_the_snapshot_back_as_restore_and_a_rerun_changes_nothing(made):
    taken = act(made)['snapshot']
    image = taken['data']['resources']['r']['resource_data']['snapshot_image_id']
    changed = made.run(TEMPLATE.replace('default: one', 'default: two'), store_key='k', existing=True,
                       parameters={})
    assert changed['stack']['stack_status'] == 'UPDATE_COMPLETE'
    assert made.rows()['r'].properties['value'] == 'two'
    planned = act(made, state='restored', check_mode=True)
    assert planned['changed'] is True
    assert [p['action'] for p in planned['plan'] if p['resource_name'] == 'r'] == ['update']
    assert made.rows()['r'].properties['value'] == 'two'
    result = act(made, state='restored')
    assert result['changed'] is True
    assert result['stack']['stack_status'] == 'RESTORE_COMPLETE'
    assert result['stack']['stack_status_reason'] == 'Stack RESTORE completed successfully'
    seen = [(e['resource_name'], e['resource_action'], e['resource_status']) for e in result['events']]
    assert seen[0] == ('st', 'RESTORE', 'IN_PROGRESS') and seen[-1] == ('st', 'RESTORE', 'COMPLETE')
    assert ('r', 'UPDATE', 'COMPLETE') in seen
    rows = made.rows()
    assert rows['r'].properties['value'] == image       # handle_restore's rewrite
    assert rows['s'].properties['value'] != 'hunter2-pw'    # still a digest: the hidden value came back
    again = act(made, state='restored')
    assert again['changed'] is False and resource_events(again['events']) == []


def test_deleting_a_snapshot_deletes_its_images_and_a_second_delete_changes_nothing(made):
    taken = act(made)['snapshot']
    images = sorted(e['resource_data']['snapshot_image_id'] for e in taken['data']['resources'].values()
                    if e['resource_data'])
    checked = act(made, state='absent', check_mode=True)
    assert checked['changed'] is True and Snapping.deleted == []
    gone = act(made, state='absent')
    assert gone['changed'] is True and sorted(Snapping.deleted) == images
    assert act(made, state='absent')['changed'] is False
    listed = reading.info(reading.SnapshotInfoRequest('st', store_path=made.store_path))
    assert listed['snapshots'] == []


def test_deleting_the_stack_deletes_its_snapshots_and_their_images(made):
    act(made, name='a')
    act(made, name='b')
    result = made.run(None, state='absent', store_key='k')
    assert result['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert sorted(Snapping.deleted) == sorted(Snapping.made)
    store = made.store()
    assert store._tx(lambda db: db.execute('SELECT COUNT(*) FROM snapshots').fetchone())[0] == 0


def test_list_show_and_refusals(made):
    first = act(made, name='a')['snapshot']
    act(made, name='b')
    listed = reading.info(reading.SnapshotInfoRequest('st', store_path=made.store_path))['snapshots']
    assert [s['name'] for s in listed] == ['a', 'b']
    shown = reading.info(reading.SnapshotInfoRequest('st', snapshot_id=first['id'], store_path=made.store_path))
    assert shown['snapshot'] == first
    with pytest.raises(StackNotFound, match=r'The Snapshot \(nope\) for Stack \(st\) could not be found'):
        reading.info(reading.SnapshotInfoRequest('st', name='nope', store_path=made.store_path))
    with pytest.raises(StackNotFound):
        act(made, state='restored', name='nope')
    store = made.store()
    record = store.snapshots(store.get_stack('st')['id'])[0]
    store.save_snapshot(dict(record, status='FAILED'))
    with pytest.raises(NotSupported, match='Restoring incomplete snapshot is not supported.'):
        act(made, state='restored', name='a')


def test_a_stack_with_a_nested_stack_snapshots_and_deletes_its_snapshot(stacks, monkeypatch):
    """A template resource keeps no snapshot data (Heat snapshots none of a nested stack's resources): the
    snapshot's delete and the stack's pass it by (they once looked for a plugin of type "inner.yaml")."""
    monkeypatch.setitem(registry.PLUGINS, 'OS::Heat::TestResource', Snapping)
    del Snapping.made[:], Snapping.deleted[:]
    stacks.template('resources:\n  x: {type: OS::Heat::TestResource, properties: {value: in}}\n',
                    name='inner.yaml')
    text = ('resources:\n  inner: {type: inner.yaml}\n'
            '  top: {type: OS::Heat::TestResource, properties: {value: top}}\n')
    assert stacks.run(text)['stack']['stack_status'] == 'CREATE_COMPLETE'
    request = snap.SnapshotRequest('st', name='one', store_path=stacks.store_path)
    taken = snap.snapshot(request, None)['snapshot']
    assert taken['status'] == 'COMPLETE' and taken['data']['resources']['inner']['resource_data'] == {}
    gone = snap.snapshot(snap.SnapshotRequest('st', name='one', state='absent', store_path=stacks.store_path), None)
    assert gone['changed'] is True and Snapping.deleted == Snapping.made == ['img-top-0']
    snap.snapshot(request, None)
    assert stacks.run(None, state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'
