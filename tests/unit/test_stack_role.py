# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The role `stack` documents what it reads, and the AWX example asks only what the role takes."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import re

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROLE = os.path.join(ROOT, 'roles', 'stack')


def _spec():
    with open(os.path.join(ROLE, 'meta', 'argument_specs.yml')) as f:
        return yaml.safe_load(f)['argument_specs']


def _tasks_text():
    out = {}
    for path in glob.glob(os.path.join(ROLE, 'tasks', '*.yml')):
        with open(path) as f:
            out[os.path.basename(path)] = f.read()
    return out


def test_every_default_is_documented_and_every_documented_variable_has_a_default_or_is_required():
    with open(os.path.join(ROLE, 'defaults', 'main.yml')) as f:
        defaults = yaml.safe_load(f)
    options = _spec()['main']['options']
    assert sorted(defaults) == sorted(n for n, o in options.items() if not o.get('required'))
    for name, option in options.items():
        if name in defaults:
            assert option['default'] == defaults[name], name


def test_every_variable_the_tasks_read_is_documented_or_made_by_the_role():
    options = set(_spec()['main']['options'])
    made = set()
    texts = _tasks_text()
    for text in texts.values():
        made.update(re.findall(r'register: (stack_\w+)', text))
        for block in re.findall(r'set_fact:\n((?:      .*\n|    .*\n)+)', text):
            made.update(re.findall(r'^    (stack_\w+):', block, re.M))
        made.update(re.findall(r'^    (stack_\w+):', text, re.M))     # task vars
    read = set()
    for text in texts.values():
        # a name after a dot is an attribute (stack_result.stack.stack_status), one before a colon a key
        read.update(re.findall(r'(?<![.\w])(stack_[a-z_]+)\b(?!:)', text))
    assert read - options - made == set()
    assert {'stack_result', 'stack_finished', 'stack_background', 'stack_deploy_pending'} <= made


def test_the_tasks_files_the_role_includes_exist():
    texts = _tasks_text()
    for text in texts.values():
        for name in re.findall(r'include_tasks: (\S+)', text):
            assert name in texts, name


def test_the_awx_survey_asks_role_variables_or_what_the_job_template_maps_into_them():
    with open(os.path.join(ROOT, 'examples', 'awx', 'survey.json')) as f:
        survey = json.load(f)
    with open(os.path.join(ROOT, 'examples', 'awx', 'job_template.yml')) as f:
        job_template = f.read()
    options = _spec()['main']['options']
    assert survey['name'] and isinstance(survey['spec'], list)
    for question in survey['spec']:
        assert question['type'] in ('text', 'textarea', 'password', 'integer', 'float', 'multiplechoice',
                                    'multiselect')
        assert question['question_name'] and 'required' in question
        if question['variable'] not in options:
            assert '{{ %s }}' % question['variable'] in job_template, question['variable']
        if question['type'] == 'multiplechoice':
            assert question['default'] in question['choices'].split('\n')
    state = [q for q in survey['spec'] if q['variable'] == 'stack_state'][0]
    assert state['choices'].split('\n') == options['stack_state']['choices']


def test_the_job_playbook_runs_the_role_and_its_finish():
    with open(os.path.join(ROOT, 'playbooks', 'stack_job.yml')) as f:
        plays = yaml.safe_load(f)
    assert plays[0]['roles'][0]['role'] == 'stackers.orchestration.stack'
    assert 'software_deployment' in plays[1]['tasks'][0]['ansible.builtin.include_role']['name']
    last = plays[2]['tasks'][0]['ansible.builtin.include_role']
    assert last['tasks_from'] == 'finish' and 'finish' in _spec()
