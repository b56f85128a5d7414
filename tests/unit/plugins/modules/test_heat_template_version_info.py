# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_template_version_info through its real main() (the answers are compared with Heat in
tests/unit/plugins/module_utils/engine/read/test_catalogue.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.modules import heat_template_version_info as module


def test_versions(capsys):
    code, out = run_main(module, capsys, {})
    assert code == 0 and out['changed'] is False
    rocky = [v for v in out['template_versions'] if v['version'] == 'heat_template_version.2018-08-31'][0]
    assert rocky == {'version': 'heat_template_version.2018-08-31', 'type': 'hot',
                     'aliases': ['heat_template_version.rocky'], 'supported_here': True}
    assert [v['type'] for v in out['template_versions'] if not v['supported_here']] == ['cfn', 'cfn']


def test_functions_with_and_without_conditions(capsys):
    code, out = run_main(module, capsys, {'version': 'heat_template_version.2016-10-14'})
    names = [f['functions'] for f in out['template_functions']]
    assert code == 0 and 'yaql' in names and 'equals' not in names
    code, out = run_main(module, capsys, {'version': 'heat_template_version.newton', 'with_conditions': True})
    functions = dict((f['functions'], f['description']) for f in out['template_functions'])
    # Heat's descriptions are its prose, not carried: the key is there, empty
    assert functions['equals'] == ''
    assert set(names) < set(functions)


def test_an_unknown_version_fails_with_heats_message(capsys):
    code, out = run_main(module, capsys, {'version': 'heat_template_version.2012-01-01'})
    assert code == 1 and out['msg'] == 'Template with version heat_template_version.2012-01-01 not found'
