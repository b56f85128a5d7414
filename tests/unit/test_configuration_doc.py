# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""docs/configuration.md stays true: every heat.conf option it names (written `[section] option`)
exists in Heat 27's configuration (the oslo.config.opts entry points of openstack-heat in
.heat-venv), every option of the second column of its heat.conf tables is in some module's
argument spec, and every $STACKERS_ variable it names is read by the collection."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import importlib
import json
import os
import re
import subprocess

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT, ROOT
from ansible_collections.stackers.orchestration.plugins.module_utils import base

PAGE = os.path.join(ROOT, 'docs', 'configuration.md')
HEAT_OPTION = re.compile(r'`\[(\w+)\] ([\w-]+)`')
VARIABLE = re.compile(r'\$(STACKERS_[A-Z_]+)')
CODE = re.compile(r'`([^`]+)`')

HEAT_OPTIONS = '''
import json
from importlib import metadata
found = []
for ep in metadata.entry_points(group='oslo.config.opts'):
    if ep.name.startswith('heat.'):
        for group, opts in ep.load()():
            name = getattr(group, 'name', group) or 'DEFAULT'
            found.extend([name, opt.name] for opt in opts)
print(json.dumps(found))
'''


def _page():
    with open(PAGE) as handle:
        return handle.read()


def heat_conf_options(text):
    """{(section, option)} the page names."""
    return set(HEAT_OPTION.findall(text))


def option_column(text):
    """{name} written in the second column of the heat.conf tables (rows whose first cell is a
    heat.conf option)."""
    names = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) == 4 and HEAT_OPTION.fullmatch(cells[0]):
            names.update(CODE.findall(cells[1]))
    return names


def argument_spec_names():
    """Every option (and alias) of every module of plugins/modules."""
    names = set(base.openstack_argument_spec())
    for path in glob.glob(os.path.join(ROOT, 'plugins', 'modules', '*.py')):
        module = importlib.import_module('ansible_collections.stackers.orchestration.plugins.modules.'
                                         + os.path.basename(path)[:-3])
        for value in vars(module).values():
            spec = getattr(value, 'argument_spec', None)
            if isinstance(value, type) and isinstance(spec, dict):
                for name, option in spec.items():
                    names.add(name)
                    names.update(option.get('aliases') or ())
    return names


def read_variables():
    """The STACKERS_ variables the collection's code names."""
    found = set()
    for path in glob.glob(os.path.join(ROOT, 'plugins', '**', '*.py'), recursive=True):
        with open(path) as handle:
            found.update(re.findall(r'STACKERS_[A-Z_]+', handle.read()))
    return found


@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_every_heat_conf_option_named_exists_in_heat():
    run = subprocess.run([HEAT_PYTHON, '-c', HEAT_OPTIONS], capture_output=True, text=True, timeout=300,
                         check=True)
    heat = set(tuple(pair) for pair in json.loads(run.stdout.strip().splitlines()[-1]))
    named = heat_conf_options(_page())
    assert len(named) > 50
    assert sorted(named - heat) == []


def test_the_page_names_what_an_operator_sets():
    named = heat_conf_options(_page())
    for option in ('max_resources_per_stack', 'max_nested_stack_depth', 'max_template_size', 'max_json_body_size',
                   'max_events_per_stack', 'action_retry_limit', 'stack_action_timeout', 'plugin_dirs',
                   'environment_dir', 'template_dir', 'default_software_config_transport',
                   'default_deployment_signal_transport', 'reauthentication_auth_method', 'num_engine_workers',
                   'convergence_engine'):
        assert ('DEFAULT', option) in named, option
    assert {('yaql', 'limit_iterators'), ('yaql', 'memory_quota'), ('clients', 'endpoint_type')} <= named


def test_every_option_of_the_second_column_is_a_modules_option():
    column = option_column(_page())
    assert {'max_resources', 'global_environment_dir', 'timeout', 'store_path'} <= column
    specs = argument_spec_names()
    assert sorted(column - specs) == []


def test_every_variable_named_is_read():
    named = set(VARIABLE.findall(_page()))
    assert 'STACKERS_GLOBAL_ENVIRONMENT_DIR' in named
    code = read_variables()
    assert sorted(named - code) == []


def test_the_checkers_catch_a_wrong_page():
    text = '| `[DEFAULT] no_such_option` | `no_such_module_option` | | |\n'
    assert heat_conf_options(text) == {('DEFAULT', 'no_such_option')}
    assert option_column(text) == {'no_such_module_option'}
    assert 'no_such_module_option' not in argument_spec_names()
