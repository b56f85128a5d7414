# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack_info's action: ``export`` runs heat_stack's abandon in check mode; every other call is the module's."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

from ansible_collections.stackers.orchestration.plugins.action.heat_stack_info import ActionModule

DATA = {'name': 'web', 'id': 'abc', 'resources': {}}


def _action(args, check_mode=False, answer=None):
    task = mock.MagicMock(args=args, check_mode=check_mode, async_val=0, action='stackers.orchestration.heat_stack_info')
    connection = mock.MagicMock()
    connection._shell.tmpdir = None
    action = ActionModule(task, connection, mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), mock.MagicMock())
    seen = []

    def execute(module_name=None, module_args=None, task_vars=None, wrap_async=False, **_kw):
        seen.append((module_name, module_args, task.check_mode))
        return dict(answer if answer is not None else {'changed': False, 'stack': {'id': 'abc'}})
    action._execute_module = execute
    action._remove_tmp_path = lambda path: None
    return action, seen


def test_export_runs_heat_stack_abandon_in_check_mode_and_changes_nothing():
    answer = {'changed': True, 'abandon_data': DATA, 'stack': {'id': 'abc'}, 'resources': [], 'events': [],
              'warnings': ['abandon_data holds the stack\'s secrets in clear']}
    action, seen = _action({'name': 'web', 'export': True, 'store_path': '/s', 'cloud': 'c'}, answer=answer)
    result = action.run(task_vars={})
    assert seen == [('stackers.orchestration.heat_stack',
                     {'name': 'web', 'store_path': '/s', 'cloud': 'c', 'state': 'abandoned'}, True)]
    assert result['abandon_data'] == DATA and result['changed'] is False and result['warnings']
    assert 'resources' not in result and 'events' not in result
    assert action._task.check_mode is False      # the task's own mode is put back


def test_without_export_the_module_runs_as_given():
    action, seen = _action({'name': 'web', 'export': False})
    result = action.run(task_vars={})
    assert seen == [(None, None, False)] and result['stack'] == {'id': 'abc'}


def test_export_of_a_stack_not_in_the_store_fails_naming_it():
    action, _seen = _action({'name': 'gone', 'export': 'yes'}, answer={'changed': False, 'stack': None})
    result = action.run(task_vars={})
    assert result['failed'] and 'gone' in result['msg'] and result['changed'] is False


def test_export_refuses_the_show_options_and_a_missing_name_before_any_call():
    for args, words in (({'name': 'web', 'export': True, 'template': True, 'nested_depth': 2},
                         'not nested_depth, template'),
                        ({'export': True, 'store_path': '/s'}, 'needs the name'),
                        ({'name': 'web', 'export': 'maybe'}, 'export:')):
        action, seen = _action(args)
        result = action.run(task_vars={})
        assert result['failed'] and words in result['msg'] and seen == [], result


def test_a_failure_of_heat_stack_is_the_answer():
    action, _seen = _action({'name': 'web', 'export': True},
                            answer={'failed': True, 'msg': 'Stack "web" cannot be abandoned: ...'})
    result = action.run(task_vars={})
    assert result['failed'] and result['msg'].startswith('Stack "web" cannot be abandoned') and not result['changed']
