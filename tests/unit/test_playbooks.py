# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The quick-reference playbooks have no dangerous defaults: a playbook that acts on one stack takes its
name only from -e, and without it refuses in one line before any module runs (a forgotten -e must never
delete or change a stack called by a default name)."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import os
import subprocess

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAYBOOKS = os.path.join(ROOT, 'playbooks')
# playbooks whose `openstack` command needs no stack name
NO_STACK = {'list.yml', 'validate.yml', 'rotate_store_key.yml', 'stack_job.yml', 'resource_type_list.yml',
            'resource_type_show.yml', 'template_version_list.yml', 'template_function_list.yml'}


def _books():
    for path in sorted(glob.glob(os.path.join(PLAYBOOKS, '*.yml'))):
        with open(path) as f:
            yield os.path.basename(path), yaml.safe_load(f)


def test_every_playbook_of_one_stack_is_listed():
    named = set(name for name, plays in _books()
                if any('heat_stack_name' in str(play) for play in plays))
    assert named and not named & NO_STACK
    assert set(name for name, _plays in _books()) - named == NO_STACK


def test_no_playbook_defaults_the_stack_name():
    for name, plays in _books():
        for play in plays:
            assert 'heat_stack_name' not in (play.get('vars') or {}), name
            assert "default('demo')" not in str(play), name


def test_every_playbook_of_one_stack_refuses_first_without_the_name():
    for name, plays in _books():
        if name in NO_STACK:
            continue
        first = plays[0]['tasks'][0]
        assert list(first) == ['name', 'ansible.builtin.fail', 'when'], name
        assert first['when'] == "not heat_stack_name | default('')", name
        assert first['ansible.builtin.fail']['msg'].startswith('Missing -e heat_stack_name=NAME: '), name


def _delete_without_a_name(store):
    env = dict(os.environ, ANSIBLE_NOCOLOR='1')
    for var in ('OS_CLOUD', 'STACKERS_STORE', 'PYTHONWARNINGS'):
        env.pop(var, None)
    return subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'),
                           os.path.join(PLAYBOOKS, 'delete.yml'), '-e', 'heat_store_path=%s' % store],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL, check=False)


def test_delete_without_a_name_fails_in_one_line_before_any_module(tmp_path):
    store = tmp_path / 'stacks.sqlite'
    run = _delete_without_a_name(store)
    assert run.returncode == 2, run.stdout + run.stderr
    failed = [line for line in run.stdout.splitlines() if 'FAILED!' in line]
    assert len(failed) == 1 and 'Missing -e heat_stack_name=NAME: the stack to delete' in failed[0], run.stdout
    assert 'TASK [Delete the stack]' not in run.stdout
    assert not store.exists()


def test_a_playbook_run_from_the_venv_prints_no_deprecation_warning(tmp_path):
    """ansible-core 2.19 with cryptography 51 printed a CryptographyDeprecationWarning on every run
    (requirements-dev.txt bounds cryptography; `make venv` installs within it)."""
    run = _delete_without_a_name(tmp_path / 'stacks.sqlite')
    assert 'DeprecationWarning' not in run.stderr, run.stderr
