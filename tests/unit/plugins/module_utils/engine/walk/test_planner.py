# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from types import SimpleNamespace

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import planner
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.planner import (
    CREATE, KEEP, REPLACE, UPDATE, decide)
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import effective_properties
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.none_resource import NoneResource
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.random_string import RandomString
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.testresource import TestResource
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.value import Value

TR = 'OS::Heat::TestResource'


def defn(type_name=TR, name='r'):
    return SimpleNamespace(name=name, type=type_name)


def props(type_name=TR, **values):
    return effective_properties(type_name, values)


def row(type_name=TR, action='CREATE', status='COMPLETE', physical_id='pid', metadata=None,
        **values):
    return ResourceRow(uuid='u', name='r', type=type_name, action=action, status=status,
                       physical_id=physical_id, properties=props(type_name, **values),
                       metadata=metadata, data={})


def test_schema_flags_the_tests_rely_on():
    assert TestResource.update_allowed('value')
    assert not TestResource.update_allowed('update_replace_value')
    assert not RandomString.update_allowed('length')
    assert not TestResource.update_allowed('no_such_property')


def test_create_when_no_row_or_never_made():
    assert decide(defn(), None, TestResource(), props(value='a')).action == CREATE
    never = row(action='INIT', status='COMPLETE', physical_id=None, value='a')
    assert decide(defn(), never, TestResource(), props(value='a')).action == CREATE
    deleted = row(action='DELETE', status='COMPLETE', value='a')
    assert decide(defn(), deleted, TestResource(), props(value='a')).action == CREATE


def test_interrupted_create_resumes():
    half = row(action='CREATE', status='IN_PROGRESS', physical_id=None, value='a')
    decision = decide(defn(), half, TestResource(), props(value='a'))
    assert decision.action == CREATE and decision.reason == 'resume'


def test_keep_when_nothing_changed():
    d = decide(defn(), row(value='a'), TestResource(), props(value='a'))
    assert d.action == KEEP and not d.changed


def test_update_for_an_update_allowed_change():
    d = decide(defn(), row(value='a'), TestResource(), props(value='b'))
    assert d.action == UPDATE and d.changed == frozenset(['value'])


def test_replace_for_a_change_not_update_allowed():
    d = decide(defn(), row(value='a', update_replace_value='x'), TestResource(),
               props(value='a', update_replace_value='y'))
    assert d.action == REPLACE and 'update_replace_value' in d.reason
    rs = 'OS::Heat::RandomString'
    d = decide(defn(rs), row(rs, length=8), RandomString(), props(rs, length=9))
    assert d.action == REPLACE and d.changed == frozenset(['length'])


def test_plugin_needs_replace():
    d = decide(defn(), row(value='a', update_replace=True), TestResource(),
               props(value='b', update_replace=True))
    assert d.action == REPLACE and d.reason == 'the type replaces on this change'
    # but not in a plan with unknown values (the plugin cannot judge them)
    d = decide(defn(), row(value='a', update_replace=True), TestResource(),
               props(value='a', update_replace=True), unknown=('value',))
    assert d.action == UPDATE and 'value' in d.changed


def test_type_change_replaces():
    d = decide(defn('OS::Heat::Value'), row(value='a'), Value(),
               props('OS::Heat::Value', value='a'))
    assert d.action == REPLACE and TR in d.reason


def test_failed_resource_replaced_unless_plugin_says_usable():
    failed = row(action='UPDATE', status='FAILED', value='a')
    d = decide(defn(), failed, TestResource(), props(value='a'))
    assert d.action == REPLACE and d.reason == 'UPDATE_FAILED'

    class Reusable(TestResource):
        def needs_replace_failed(self, ctx):
            assert ctx.physical_id == 'pid' and ctx.name == 'r'
            return False
    assert decide(defn(), failed, Reusable(), props(value='b')).action == UPDATE
    # unchanged, it is still updated (settled: COMPLETE with its reference id), never kept FAILED,
    # and that is not the user's update (restricted_actions do not refuse it)
    kept = decide(defn(), failed, Reusable(), props(value='a'), restricted=('update',))
    assert (kept.action, kept.reason) == (UPDATE, 'UPDATE_FAILED')


def test_a_create_that_failed_before_recording_an_id_is_resumed():
    """Its object, if the create made one (an answer lost, the cloud gone), is found and taken."""
    failed = row(action='CREATE', status='FAILED', value='a')
    failed = failed.replace(physical_id=None)
    d = decide(defn(), failed, TestResource(), props(value='a'))
    assert (d.action, d.reason) == (CREATE, 'resume')


def test_check_failed_always_replaced():
    class Reusable(TestResource):
        def needs_replace_failed(self, ctx):
            return False
    d = decide(defn(), row(action='CHECK', status='FAILED', value='a'), Reusable(),
               props(value='a'))
    assert d.action == REPLACE and d.reason == 'CHECK_FAILED'


def test_restricted_actions():
    with pytest.raises(ResourceFailure, match='restricts the action "update"') as err:
        decide(defn(), row(value='a'), TestResource(), props(value='b'), restricted={'update'})
    assert err.value.resource == 'r'
    with pytest.raises(ResourceFailure, match='"replace"'):
        decide(defn(), row(value='a', update_replace_value='x'), TestResource(),
               props(value='a', update_replace_value='y'), restricted={'replace'})
    # a restriction on replace does not forbid an update, nor a keep
    assert decide(defn(), row(value='a'), TestResource(), props(value='b'),
                  restricted={'replace'}).action == UPDATE
    assert decide(defn(), row(value='a'), TestResource(), props(value='a'),
                  restricted={'update', 'replace'}).action == KEEP


def test_external_id():
    adopt = decide(defn(), None, TestResource(), props(), external_id='ext')
    assert adopt.action == CREATE and adopt.reason == 'adopt'
    kept = row(physical_id='ext')
    assert decide(defn(), kept, TestResource(), props(value='zz'), external_id='ext').action == KEEP
    with pytest.raises(ResourceFailure, match='external_id cannot change'):
        decide(defn(), kept, TestResource(), props(), external_id='other')


def test_unknown_keys_count_as_changed():
    d = decide(defn(), row(value='a'), TestResource(), props(value='a'), unknown=('value',))
    assert d.action == UPDATE and d.changed == frozenset(['value'])
    d = decide(defn(), row(value='a', update_replace_value='x'), TestResource(),
               props(value='a', update_replace_value='x'), unknown=('update_replace_value',))
    assert d.action == REPLACE


def test_metadata_only_change_updates():
    d = decide(defn(), row(value='a', metadata={'k': 1}), TestResource(), props(value='a'),
               metadata={'k': 2})
    assert d.action == UPDATE and d.reason == 'metadata' and not d.changed
    assert decide(defn(), row(value='a', metadata={'k': 1}), TestResource(), props(value='a'),
                  metadata={'k': 1}).action == KEEP


def test_none_resource_never_updated():
    none = 'OS::Heat::None'
    old = row(none).replace(properties={'anything': 1})
    d = decide(defn(none), old, NoneResource(), {'anything': 2})
    assert d.action == KEEP


def test_changed_keys_normalise_json():
    assert planner.changed_keys({'a': (1, 2), 'b': {'x': 1}}, {'a': [1, 2], 'b': {'x': 1}}) == set()
    assert planner.changed_keys({'a': 1}, {'a': 1, 'gone': 2}) == {'gone'}
    assert planner.changed_keys({'a': 1}, None) == {'a'}
    assert planner.changed_keys({}, {}, unknown=('u',)) == {'u'}


def test_created():
    assert not planner.created(None)
    assert not planner.created(ResourceRow(uuid='u', name='r'))
    assert planner.created(ResourceRow(uuid='u', name='r', action='CREATE', status='FAILED'))
    assert planner.created(ResourceRow(uuid='u', name='r', action='INIT', physical_id='x'))
    assert not planner.created(ResourceRow(uuid='u', name='r', action='DELETE', status='COMPLETE',
                                           physical_id='x'))


def test_a_complete_row_whose_create_is_unfinished_is_updated():
    owed = row(value='a').replace(data={planner.UNFINISHED: True})
    decision = decide(defn(), owed, TestResource(), props(value='a'))
    assert decision.action == UPDATE and decision.changed == frozenset()
    assert decision.reason == 'its create is unfinished'
    # a real change still names what changed; the update finishes the create too
    assert decide(defn(), owed, TestResource(), props(value='b')).changed == {'value'}
    # finishing our own create is not the user's update: restricted_actions allow it
    assert decide(defn(), owed, TestResource(), props(value='a'),
                  restricted=(UPDATE,)).action == UPDATE
    assert decide(defn(), row(value='a'), TestResource(), props(value='a')).action == KEEP


def test_the_update_wait_condition_handle_is_replaced_by_every_stack_update():
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.signal_handles import (
        AwsWaitConditionHandle, UpdateWaitConditionHandle)
    uwch = 'OS::Heat::UpdateWaitConditionHandle'
    kept = row(type_name=uwch)
    # a rerun of the same inputs keeps it ...
    assert decide(defn(uwch), kept, UpdateWaitConditionHandle(), props(uwch)).action == KEEP
    # ... an update of its stack replaces it, though none of its properties changed
    d = decide(defn(uwch), kept, UpdateWaitConditionHandle(), props(uwch), stack_updated=True)
    assert d.action == REPLACE and 'every update' in d.reason
    # the AWS handle it derives from is kept
    aws = 'AWS::CloudFormation::WaitConditionHandle'
    assert decide(defn(aws), row(type_name=aws), AwsWaitConditionHandle(), props(aws),
                  stack_updated=True).action == KEEP
    with pytest.raises(ResourceFailure):
        decide(defn(uwch), kept, UpdateWaitConditionHandle(), props(uwch), stack_updated=True,
               restricted=frozenset([REPLACE]))


# -- converge: drift the stack check found counts as changed ----------------------------

def test_drifted_keys_update_in_place_when_update_allowed():
    d = decide(defn(), row(value='a'), TestResource(), props(value='a'), drifted=('value',))
    assert d.action == UPDATE and d.changed == d.drifted == frozenset(['value'])


def test_drifted_keys_not_update_allowed_replace():
    d = decide(defn(), row(value='a', update_replace_value='x'), TestResource(),
               props(value='a', update_replace_value='x'), drifted=('update_replace_value',))
    assert d.action == REPLACE and d.drifted == frozenset(['update_replace_value'])
    assert d.reason == 'update_replace_value cannot change in place'


def test_a_drifted_key_the_template_changes_too_is_a_change():
    d = decide(defn(), row(value='a'), TestResource(), props(value='b'), drifted=('value', 'wait_secs'))
    assert d.action == UPDATE and d.changed == frozenset(['value', 'wait_secs'])
    assert d.drifted == frozenset(['wait_secs'])


def test_no_drift_keeps_and_restricted_actions_refuse_putting_drift_back():
    assert decide(defn(), row(value='a'), TestResource(), props(value='a'), drifted=()).action == KEEP
    with pytest.raises(ResourceFailure, match='restricts the action "update" .properties drifted: value'):
        decide(defn(), row(value='a'), TestResource(), props(value='a'), drifted=('value',),
               restricted={'update'})
    with pytest.raises(ResourceFailure, match='restricts the action "replace"'):
        decide(defn(), row(value='a', update_replace_value='x'), TestResource(),
               props(value='a', update_replace_value='x'), drifted=('update_replace_value',),
               restricted={'replace'})


def test_decide_desired_reads_the_drift_of_that_row_only():
    run = SimpleNamespace(sd=SimpleNamespace(resources={'r': defn()}), plugin=lambda t, n: TestResource(),
                          masker=SimpleNamespace(mask=lambda v: v), conn=None,
                          drifted={'u': frozenset(['value'])})
    want = planner.Desired(name='r', props=props(value='a'), masked=props(value='a'))
    assert planner.decide_desired(run, row(value='a'), want).action == UPDATE
    # another row of the same name (a replacement made since): not its drift
    assert planner.decide_desired(run, row(value='a').replace(uuid='v'), want).action == KEEP
    run.drifted = {}
    assert planner.decide_desired(run, row(value='a'), want).action == KEEP


def test_an_update_killed_with_no_change_recorded_is_settled():
    # a converge killed while putting drift back leaves the row UPDATE_IN_PROGRESS
    # with the template's properties: the next run settles it (not the user's
    # update: never restricted), and puts no drift back unless it converges
    left = row(action='UPDATE', status='IN_PROGRESS', value='a')
    d = decide(defn(), left, TestResource(), props(value='a'), restricted={'update'})
    assert d.action == UPDATE and not d.changed and d.reason == 'its update was interrupted'
    d = decide(defn(), left, TestResource(), props(value='a'), drifted=('value',))
    assert d.action == UPDATE and d.drifted == frozenset(['value'])
