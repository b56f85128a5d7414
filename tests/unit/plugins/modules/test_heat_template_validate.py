# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_template_validate, run through its real main(): arguments in, the
JSON Ansible would read out (so no_log masking is part of what is tested).

The wiring is tested with the engine's entry point replaced by a recorder;
the last part runs the real engine (a module that cannot import it fails
there, as it would fail for a user)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os

import pytest

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.module_utils import base, cloud_checker, connection
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    ParameterError,
    StackersError,
    TemplateError,
)
from ansible_collections.stackers.orchestration.plugins.modules import heat_template_validate as module
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.limits import Limits

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
EXAMPLE = os.path.join(REPO, 'playbooks', 'templates', 'server.yaml')

HIDDEN_TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  password:
    type: string
    hidden: true
  flavor:
    type: string
"""


def run_module(capsys, args):
    """(exit code, result dict) of one module run."""
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            module.main()
    out = capsys.readouterr().out
    return exc.value.code, json.loads(out)


class Recorder(object):
    """Stands in for validate_template: records its call, answers or raises."""

    def __init__(self, answer=None, error=None):
        self.answer = answer if answer is not None else {
            'Description': 'A template',
            'Parameters': {'flavor': {'Type': 'String', 'NoEcho': 'false', 'Value': 'm1.tiny'}},
            'ParameterGroups': [{'label': 'g', 'parameters': ['flavor']}],
            'UnsupportedTypes': ['OS::Zun::Container'],
            'NotChecked': [{'parameter': 'flavor', 'constraint': 'nova.flavor'}],
        }
        self.error = error
        self.calls = []

    def __call__(self, template, **kwargs):
        self.calls.append((template, kwargs))
        if self.error is not None:
            raise self.error
        return self.answer


@pytest.fixture
def template(tmp_path):
    path = tmp_path / 'tpl' / 'main.yaml'
    path.parent.mkdir()
    path.write_text(HIDDEN_TEMPLATE)
    return str(path)


@pytest.fixture
def recorder(monkeypatch):
    rec = Recorder()
    monkeypatch.setattr(module, 'validate_template', rec)
    return rec


def test_passes_every_input_to_the_engine(capsys, recorder, template, tmp_path):
    env = str(tmp_path / 'env.yaml')
    rc, result = run_module(capsys, {
        'template': template,
        'environment': [env],
        'parameters': {'flavor': 'm1.small', 'count': 2},
        'files': {'boot.sh': '#!/bin/sh\n'},
    })
    assert rc == 0, result
    (called_template, kwargs), = recorder.calls
    assert called_template == template
    assert callable(kwargs.pop('opener'))      # url_opener.py: Ansible's open_url
    assert kwargs == {
        'environment': [env],
        'parameters': {'flavor': 'm1.small', 'count': 2},
        'files': {'boot.sh': '#!/bin/sh\n'},
        'root': os.path.dirname(template),
        'checker': None,
        'strict': False,
        'limits': Limits(),
        'urls': [],
        'global_environment_dir': None,
    }


@pytest.mark.parametrize('allow_root, expected', [
    (None, 'template dir'),
    ('/srv/templates', '/srv/templates'),
])
def test_allow_root_defaults_to_the_template_directory(capsys, recorder, template, allow_root, expected):
    rc, result = run_module(capsys, {'template': template, 'allow_root': allow_root})
    assert rc == 0, result
    want = os.path.dirname(template) if expected == 'template dir' else expected
    assert recorder.calls[0][1]['root'] == want


def test_limits_and_allowed_paths_reach_the_engine(capsys, recorder, template):
    rc, result = run_module(capsys, {'template': template, 'files_allowed_paths': ['/srv/shared'],
                                     'max_resources_per_stack': 3, 'yaql_memory_quota': 99})
    assert rc == 0, result
    kwargs = recorder.calls[0][1]
    assert kwargs['root'] == [os.path.dirname(template), '/srv/shared']
    assert kwargs['limits'] == Limits(max_resources_per_stack=3, yaql_memory_quota=99)


@pytest.mark.parametrize('check_mode', [False, True])
def test_returns_the_validate_answer_unchanged(capsys, recorder, template, check_mode):
    rc, result = run_module(capsys, {'template': template, '_ansible_check_mode': check_mode})
    assert rc == 0, result
    assert result['changed'] is False
    assert result['Description'] == 'A template'
    assert result['Parameters'] == recorder.answer['Parameters']
    assert result['ParameterGroups'] == recorder.answer['ParameterGroups']
    assert result['unsupported_types'] == ['OS::Zun::Container']
    assert result['not_checked'] == [{'parameter': 'flavor', 'constraint': 'nova.flavor'}]


@pytest.mark.parametrize('error, expected_msg, expected_error', [
    (TemplateError('Unknown section "resource"', path=('resource',), filename='main.yaml', line=7),
     'main.yaml:7: resource: Unknown section "resource"',
     {'type': 'TemplateError', 'file': 'main.yaml', 'line': 7, 'path': 'resource'}),
    (ParameterError('value is not a number', path=('parameters', 'count')),
     'parameters.count: value is not a number',
     {'type': 'ParameterError', 'file': None, 'line': None, 'path': 'parameters.count'}),
    (StackersError('something else'), 'something else', {'type': 'StackersError'}),
])
def test_engine_errors_fail_with_their_message(capsys, monkeypatch, template, error, expected_msg, expected_error):
    monkeypatch.setattr(module, 'validate_template', Recorder(error=error))
    rc, result = run_module(capsys, {'template': template})
    assert rc == 1
    assert result['failed'] is True
    assert result['msg'] == expected_msg
    assert result['error'] == expected_error


def test_hidden_values_never_come_back_even_in_an_error(capsys, monkeypatch, template):
    error = ParameterError('"hunter2-secret" is too short', path=('parameters', 'password'))
    monkeypatch.setattr(module, 'validate_template', Recorder(error=error))
    rc, result = run_module(capsys, {'template': template,
                                     'parameters': {'password': 'hunter2-secret', 'flavor': 'm1.tiny'}})
    assert rc == 1
    assert 'hunter2-secret' not in json.dumps(result)
    assert result['invocation']['module_args']['parameters']['flavor'] == 'm1.tiny'


def test_values_reported_noecho_are_masked_too(capsys, monkeypatch, template):
    # A CFN-style or nested declaration the pre-scan cannot see: the engine's
    # NoEcho answer still hides the value the user passed.
    answer = {'Description': 'd', 'ParameterGroups': [],
              'Parameters': {'flavor': {'Type': 'String', 'NoEcho': 'true', 'Value': '******'}}}
    monkeypatch.setattr(module, 'validate_template', Recorder(answer=answer))
    rc, result = run_module(capsys, {'template': template, 'parameters': {'flavor': 'top-secret-flavor'}})
    assert rc == 0, result
    assert 'top-secret-flavor' not in json.dumps(result)


def test_a_missing_template_fails_before_the_engine(capsys, recorder, tmp_path):
    rc, result = run_module(capsys, {'template': str(tmp_path / 'nope.yaml')})
    assert rc == 1
    assert 'nope.yaml: no such template file' in result['msg']
    assert recorder.calls == []


def test_a_missing_engine_is_reported(capsys, monkeypatch, template):
    monkeypatch.setattr(module, 'validate_template', None)
    rc, result = run_module(capsys, {'template': template})
    assert rc == 1
    assert 'could not be imported' in result['msg']


@pytest.mark.parametrize('args, connects', [
    ({}, False),
    ({'cloud': 'mycloud'}, True),
    ({'auth': {'auth_url': 'http://127.0.0.1:5000/v3', 'username': 'demo', 'password': 'pw'}}, True),
    ({'region_name': 'RegionOne'}, False),
])
def test_connects_only_when_a_cloud_is_given(capsys, monkeypatch, recorder, template, args, connects):
    opened = []
    monkeypatch.setattr(connection, 'openstack_connection', lambda params: opened.append(params) or 'conn')
    rc, result = run_module(capsys, dict(args, template=template))
    assert rc == 0, result
    checker = recorder.calls[0][1]['checker']
    assert bool(opened) is connects
    if connects:
        assert isinstance(checker, cloud_checker.CloudChecker) and checker.conn == 'conn'
    else:
        assert checker is None


@pytest.mark.parametrize('text, expected', [
    (HIDDEN_TEMPLATE, {'password': None}),
    ('heat_template_version: 2021-04-16\nparameters:\n  pw: {type: string, hidden: true, default: d3fault}\n',
     {'pw': 'd3fault'}),
    ('{"AWSTemplateFormatVersion": "2010-09-09", "Parameters": '
     '{"Pw": {"Type": "String", "NoEcho": "true", "Default": "x"}, "Name": {"Type": "String"}}}', {'Pw': 'x'}),
    ('heat_template_version: 2021-04-16\nparameters: [broken\n', {}),
    ('- just\n- a list\n', {}),
])
def test_hidden_parameters(tmp_path, text, expected):
    path = tmp_path / 't.yaml'
    path.write_text(text)
    assert module.hidden_parameters(str(path)) == expected


def test_a_hidden_default_is_masked_even_if_the_engine_shows_it(capsys, monkeypatch, tmp_path):
    path = tmp_path / 't.yaml'
    path.write_text('heat_template_version: 2021-04-16\n'
                    'parameters:\n  pw: {type: string, hidden: true, default: def4ult-pw}\n')
    answer = {'Description': 'd', 'ParameterGroups': [], 'Parameters': {'pw': {'Value': 'def4ult-pw'}}}
    monkeypatch.setattr(module, 'validate_template', Recorder(answer=answer))
    rc, result = run_module(capsys, {'template': str(path)})
    assert rc == 0, result
    assert 'def4ult-pw' not in json.dumps(result)


@pytest.mark.parametrize('value, expected', [
    ('s3cret', {'s3cret'}),
    (1234, {'1234'}),
    (True, set()),
    ('', set()),
    (['a1', 'b2'], {'a1', 'b2', 'a1,b2'}),
    ({'k': 'v1', 'n': ['v2']}, {'v1', 'v2'}),
])
def test_secret_strings(value, expected):
    assert base.secret_strings(value) == expected


# --- with the real engine -------------------------------------------------

def test_the_module_imports_the_engine():
    # The module keeps an engine it cannot import as a task failure for the user; here that
    # is a broken collection, reported with the import's own traceback.
    assert module.validate_template is not None, module.ENGINE_IMPORT_ERROR
    assert module.ENGINE_IMPORT_ERROR is None


def test_example_template_validates(capsys):
    rc, result = run_module(capsys, {'template': EXAMPLE, 'parameters': {'admin_password': 'not-shown-ever'}})
    assert rc == 0, result
    assert result['Description'].startswith('One server on its own private network')
    assert sorted(result['Parameters']) == sorted(
        ['image', 'flavor', 'key_name', 'cidr', 'public_network', 'admin_password'])
    assert result['Parameters']['flavor']['AllowedValues'] == ['m1.tiny', 'm1.small', 'm1.medium', 'm1.large']
    assert result['Parameters']['admin_password']['NoEcho'] == 'true'
    assert [group['label'] for group in result['ParameterGroups']] == ['Server', 'Network']
    assert 'not-shown-ever' not in json.dumps(result)
    assert 'change-me-please' not in json.dumps(result['Parameters'])


def test_invalid_template_names_file_and_line(capsys, tmp_path):
    path = tmp_path / 'bad.yaml'
    path.write_text('heat_template_version: 2021-04-16\n'
                    'resources:\n'
                    '  server:\n'
                    '    type: OS::Nova::Server\n'
                    '    properties:\n'
                    '      flavor: {get_resource: missing}\n')
    rc, result = run_module(capsys, {'template': str(path)})
    assert rc == 1
    assert result['msg'].startswith(str(path) + ':6: ') or result['msg'].startswith('bad.yaml:6: '), result['msg']
    assert 'missing' in result['msg']


STRICT_TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  flavor:
    type: string
    constraints:
      - custom_constraint: nova.flavor
  size:
    type: number
    constraints:
      - range: {min: 1, max: 10}
resources:
  volume:
    type: OS::Heat::Value
    properties:
      value: {get_param: size}
"""


@pytest.mark.parametrize('args, ok, words', [
    # Heat's template validate checks neither values nor a missing one...
    ({'parameters': {'size': 99}}, True, None),
    ({}, True, None),
    # ...stack create (strict) checks both.
    ({'parameters': {'size': 99, 'flavor': 'm1.tiny'}, 'strict': True}, False, 'size'),
    ({'parameters': {'size': 5}, 'strict': True}, False, 'flavor'),
    ({'parameters': {'size': 5, 'flavor': 'm1.tiny'}, 'strict': True}, True, None),
])
def test_strict_checks_values_as_stack_create_does(capsys, tmp_path, args, ok, words):
    path = tmp_path / 'strict.yaml'
    path.write_text(STRICT_TEMPLATE)
    rc, result = run_module(capsys, dict(args, template=str(path)))
    assert (rc == 0) is ok, result
    if not ok:
        assert words in result['msg']


def test_strict_without_a_cloud_lists_service_constraints_not_checked(capsys, tmp_path):
    path = tmp_path / 'strict.yaml'
    path.write_text(STRICT_TEMPLATE)
    rc, result = run_module(capsys, {'template': str(path), 'strict': True,
                                     'parameters': {'size': 5, 'flavor': 'm1.tiny'}})
    assert rc == 0, result
    assert [item['constraint'] for item in result['not_checked']] == ['nova.flavor']


def test_an_unknown_type_without_plugin_directories_says_where_plugins_come_from(capsys, tmp_path, monkeypatch):
    """A stack made with a plugin's type, run again without its directory: Heat's message, then the way out."""
    monkeypatch.delenv('STACKERS_PLUGIN_DIRS', raising=False)
    path = tmp_path / 'custom.yaml'
    path.write_text('heat_template_version: 2021-04-16\nresources:\n  thing: {type: My::Thing}\n')
    rc, result = run_module(capsys, {'template': str(path)})
    assert rc == 1 and result['msg'].startswith('%s:3: resources.thing.type: The Resource Type (My::Thing) could '
                                                'not be found. No resource plugin directory was given' % path)
    assert 'resource_plugin_dirs' in result['msg']
    plugins = tmp_path / 'plugins'
    plugins.mkdir(mode=0o755)
    rc, result = run_module(capsys, {'template': str(path), 'resource_plugin_dirs': [str(plugins)]})
    assert rc == 1 and result['msg'].endswith('The Resource Type (My::Thing) could not be found.'), result['msg']
