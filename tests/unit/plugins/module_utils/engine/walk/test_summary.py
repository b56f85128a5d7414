# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stack's status and reason from its steps' outcomes, as Heat words them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.converge import StepKey
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.hooks import HookPending
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.scheduler import DONE, FAILED, SKIPPED, TIMED_OUT, Outcome
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.summary import summarise
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError


def test_summarise_words_the_end_as_heat_does():
    ok = {StepKey('res', 'a'): Outcome(DONE)}
    assert summarise(ok, 'CREATE') == ('COMPLETE', 'Stack CREATE completed successfully')
    failed = {StepKey('res', 'a'): Outcome(DONE), StepKey('res', 'b'): Outcome(FAILED, error=StackersError('no')),
              StepKey('res', 'c'): Outcome(SKIPPED)}
    assert summarise(failed, 'UPDATE') == (
        'FAILED', 'Resource UPDATE failed: StackersError: resources.b: no')
    late = {StepKey('res', 'a'): Outcome(TIMED_OUT)}
    assert summarise(late, 'CREATE') == ('FAILED', 'Timed out')
    hooked = {StepKey('res', 'a'): Outcome(FAILED, error=HookPending('held', resource='a'))}
    assert summarise(hooked, 'CREATE') == ('IN_PROGRESS', 'Paused at hooks of: a')
    skipped = {StepKey('res', 'a'): Outcome(SKIPPED)}
    assert summarise(skipped, 'DELETE') == ('FAILED', 'Resource DELETE failed')


def test_a_failed_delete_is_named_by_its_resource_not_its_row():
    class Run(object):
        rows = {'6c1e-uuid': type('Row', (), {'name': 'port'})()}
    failed = {StepKey('del', '6c1e-uuid'): Outcome(FAILED, error=StackersError('in use'))}
    assert summarise(failed, 'DELETE', run=Run()) == (
        'FAILED', 'Resource DELETE failed: StackersError: resources.port: in use')
    cleanup = {StepKey('cleanup', 'port'): Outcome(FAILED, error=StackersError('in use'))}
    assert summarise(cleanup, 'UPDATE', run=Run()) == (
        'FAILED', 'Resource UPDATE failed: StackersError: resources.port: in use')
