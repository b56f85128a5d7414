# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_software_deployment through its real main(): one document entry in, the signal body out."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.modules import heat_software_deployment as module

ENTRY = {'id': 'd1', 'name': 'cfg', 'group': 'script', 'options': {}, 'outputs': [{'name': 'out'}],
         'config': '#!/bin/sh\nprintf "$who" > "$heat_outputs_path.out"\necho ran\n',
         'inputs': [{'name': 'who', 'type': 'String', 'value': 'alice'},
                    {'name': 'deploy_signal_id', 'type': 'String', 'value': 'http://127.0.0.1/s'},
                    {'name': 'deploy_signal_verb', 'type': 'String', 'value': 'PUT'}]}


def run_module(capsys, args):
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    return exc.value.code, json.loads(capsys.readouterr().out)


def test_applies_once_and_hands_back_the_signal(capsys, tmp_path):
    args = {'deployment': ENTRY, 'root': str(tmp_path)}
    code, out = run_module(capsys, dict(args, _ansible_check_mode=True))
    assert code == 0 and out['changed'] is True and 'signal' not in out
    assert not (tmp_path / 'var').exists()
    code, out = run_module(capsys, args)
    assert code == 0 and out['changed'] is True
    assert out['signal'] == {'out': 'alice', 'deploy_stdout': 'ran\n', 'deploy_stderr': '',
                             'deploy_status_code': 0}
    assert (out['signal_id'], out['signal_verb']) == ('http://127.0.0.1/s', 'PUT')
    code, out = run_module(capsys, args)
    assert code == 0 and out['changed'] is False and 'signal' not in out


def test_a_group_it_cannot_apply_fails_naming_the_deployment(capsys, tmp_path):
    code, out = run_module(capsys, {'deployment': dict(ENTRY, group='salt'), 'root': str(tmp_path)})
    assert code == 1 and out['failed'] is True
    assert out['msg'].startswith('Deployment cfg: group salt has no hook')
