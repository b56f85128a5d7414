# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils import deploy_hooks as hooks

SCRIPT = '''#!/bin/sh
echo "hello $who from $deploy_action"
echo "$items" > "$heat_outputs_path.items"
printf "hi $who" > "$heat_outputs_path.greeting"
echo "$count" >&2
exit ${code:-0}
'''


def entry(group='script', config=SCRIPT, code='0', who='alice', **extra):
    inputs = [{'name': 'who', 'type': 'String', 'value': who},
              {'name': 'count', 'type': 'String', 'value': 3},
              {'name': 'items', 'type': 'Json', 'value': {'a': [1]}},
              {'name': 'code', 'type': 'String', 'value': code},
              {'name': 'deploy_action', 'type': 'String', 'value': 'CREATE'},
              {'name': 'deploy_signal_id', 'type': 'String', 'value': 'http://127.0.0.1/sig?x'},
              {'name': 'deploy_signal_verb', 'type': 'String', 'value': 'PUT'}]
    base = {'id': 'dep-1', 'name': 'config', 'group': group, 'config': config, 'inputs': inputs,
            'outputs': [{'name': 'greeting'}, {'name': 'items'}, {'name': 'missing'}], 'options': {}}
    base.update(extra)
    return base


def test_a_script_gets_its_inputs_as_environment_and_its_outputs_are_read_back(tmp_path):
    root = str(tmp_path)
    body = hooks.apply(entry(), root)
    assert body == {'greeting': 'hi alice', 'items': '{"a": [1]}\n', 'deploy_stdout': 'hello alice from CREATE\n',
                    'deploy_stderr': '3\n', 'deploy_status_code': 0}
    # everything it wrote is under the root, where the agent writes it
    assert os.path.exists(tmp_path / 'var/lib/heat-config/heat-config-script/dep-1')
    record = json.loads((tmp_path / 'var/lib/heat-config/deployed/dep-1.json').read_text())
    assert record['deploy_status_code'] == 0 and 'alice' not in json.dumps(record)
    assert hooks.signal_target(entry()) == ('http://127.0.0.1/sig?x', 'PUT')


def test_an_applied_deployment_is_skipped_unless_it_failed_its_inputs_changed_or_forced(tmp_path):
    root = str(tmp_path)
    assert hooks.apply(entry(), root) is not None
    assert hooks.apply(entry(), root) is None
    assert hooks.apply(entry(), root, force=True) is not None
    changed = hooks.apply(entry(who='bob'), root)
    assert changed['greeting'] == 'hi bob'
    failed = hooks.apply(entry(code='4'), root)
    assert failed['deploy_status_code'] == 4
    # a failure is tried again at the next pass
    assert hooks.apply(entry(code='4'), root)['deploy_status_code'] == 4


def test_heat_ungrouped_runs_as_a_script_and_no_signal_means_no_target(tmp_path):
    config = entry(group='Heat::Ungrouped')
    config['inputs'] = [i for i in config['inputs'] if not i['name'].startswith('deploy_signal')]
    assert hooks.apply(config, str(tmp_path))['deploy_status_code'] == 0
    assert hooks.signal_target(config) == (None, None)


def test_a_group_without_a_hook_or_a_missing_tool_is_refused_naming_the_deployment(tmp_path):
    with pytest.raises(hooks.DeploymentError, match='Deployment config: group chef has no hook'):
        hooks.apply(entry(group='chef'), str(tmp_path))
    with pytest.raises(hooks.DeploymentError, match='Deployment config: group puppet needs puppet'):
        hooks.apply(entry(group='puppet'), str(tmp_path), tools={'puppet': None})
    with pytest.raises(hooks.DeploymentError, match='needs ansible-playbook'):
        hooks.apply(entry(group='ansible'), str(tmp_path), tools={})
    assert not os.path.exists(tmp_path / 'var')


def test_a_component_runs_the_part_for_its_action_or_nothing(tmp_path):
    parts = {'configs': [{'actions': ['DELETE'], 'tool': 'script', 'config': '#!/bin/sh\necho gone\n'},
                         {'actions': ['CREATE', 'UPDATE'], 'tool': 'script', 'config': '#!/bin/sh\necho made\n'}]}
    body = hooks.apply(entry(group='component', config=parts), str(tmp_path))
    assert body['deploy_stdout'] == 'made\n'
    only_delete = {'configs': parts['configs'][:1]}
    assert hooks.apply(entry(group='component', config=only_delete, id='dep-2'), str(tmp_path)) is None


def test_an_ansible_config_is_a_playbook_with_the_inputs_as_variables(tmp_path):
    fake = tmp_path / 'ansible-playbook'
    # a stand-in that shows its command line and the variables file it was given
    fake.write_text('#!/bin/sh\necho "$@"\nfor a; do case $a in @*) cat "${a#@}";; esac; done\n'
                    'printf done > %s/var/run/heat-config/heat-config-ansible/dep-1.greeting\n' % tmp_path)
    fake.chmod(0o700)
    config = entry(group='ansible', config='- hosts: localhost\n  tasks: []\n', options={'tags': 'web'})
    body = hooks.apply(config, str(tmp_path), tools={'ansible-playbook': str(fake)})
    argv, variables = body['deploy_stdout'].split('\n', 1)
    assert argv.split()[:4] == ['-i', 'localhost,', '--tags', 'web']
    assert argv.endswith('--extra-vars @%s/var/lib/heat-config/heat-config-ansible/dep-1_variables.json'
                         % tmp_path)
    variables = json.loads(variables)
    assert variables['who'] == 'alice' and variables['heat_config_id'] == 'dep-1'
    assert variables['items'] == {'a': [1]} and variables['count'] == '3'
    assert body['greeting'] == 'done'
