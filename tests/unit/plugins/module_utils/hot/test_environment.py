# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import csv
import json
import os
import subprocess

import pytest

from ansible_collections.stackers.orchestration.tests.unit.heat_here import CORPUS, HEAT_PYTHON, NO_CORPUS, NO_HEAT
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    EnvironmentError_, UnknownResourceType)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.environment import (
    Environment, merge_environments)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.loader import load_text

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *([os.pardir] * 5)))

# id, text, expected sections | (error text, line), whether Heat's own parser
# already refuses it (the other refusals are ours: Heat fails later on them)
PARSE = [
    ('empty', '', {}, True),
    ('comment_only', '# nothing\n', {}, True),
    ('all_sections', 'parameters: {a: 1}\nparameter_defaults: {b: x}\nresource_registry: {"My::T": "OS::Heat::None"}\n'
     'event_sinks: [{type: zaqar-queue, target: q}]\nencrypted_param_names: [a]\n'
     'parameter_merge_strategies: {default: merge}\n',
     {'parameters': {'a': 1}, 'parameter_defaults': {'b': 'x'}, 'resource_registry': {'My::T': 'OS::Heat::None'},
      'event_sinks': [{'type': 'zaqar-queue', 'target': 'q'}], 'encrypted_param_names': ['a'],
      'parameter_merge_strategies': {'default': 'merge'}}, True),
    ('json', '{"parameters": {"a": [1, 2]}}', {'parameters': {'a': [1, 2]}}, True),
    ('dates_stay_strings', 'parameters:\n  when: 2016-10-14\n', {'parameters': {'when': '2016-10-14'}}, True),
    ('unknown_section', 'parameters: {}\nparamters:\n  a: 1\n', ('environment has wrong section "paramters"', 2), True),
    ('flat_is_not_an_env_file', 'key_name: mykey\n', ('environment has wrong section "key_name"', 1), True),
    ('empty_section', 'parameters:\nresource_registry: {}\n', ('environment has empty section "parameters"', 1), True),
    ('not_a_mapping', '- a\n- b\n', ('not a valid YAML mapping', 1), True),
    ('scalar', 'just text\n', ('not a valid YAML mapping', 1), True),
    ('yaml_error', 'parameters:\n  a: [1, 2\n', ('Error parsing YAML', 3), True),
    ('parameters_not_mapping', 'parameters: [a, b]\n', ('"parameters" section must be a mapping', 1), False),
    ('registry_not_mapping', 'resource_registry: OS::Heat::None\n', ('must be a mapping', 1), False),
    ('sinks_not_list', 'event_sinks: {type: zaqar-queue}\n', ('must be a list', 1), False),
    ('sink_unknown_type', 'event_sinks:\n  - type: kafka\n    target: t\n', ('Unknown event sink type "kafka"', 2), False),
    ('sink_without_target', 'event_sinks:\n  - type: zaqar-queue\n', ('needs "target"', 2), False),
    ('sink_unknown_key', 'event_sinks:\n  - {type: zaqar-queue, target: t, colour: red}\n', ('takes no "colour"', 2), False),
    ('encrypted_not_list', 'encrypted_param_names: a\n', ('list of parameter names', 1), False),
    ('strategy_not_string', 'parameter_merge_strategies:\n  a: [merge]\n', ('must be a string', 2), False),
    ('registry_value_not_string', 'resource_registry:\n  "My::T": 5\n', ('must map to a type name', 2), False),
    ('resources_not_mapping', 'resource_registry:\n  resources: x\n', ('resources must be a mapping', 2), False),
    ('bad_hook_line', 'resource_registry:\n  resources:\n    srv:\n      hooks: pre-nothing\n',
     ('Invalid hook type "pre-nothing"', 4), True),
]


def _sections(env):
    return env.sections


@pytest.mark.parametrize('text, expected', [(c[1], c[2]) for c in PARSE], ids=[c[0] for c in PARSE])
def test_parse(text, expected):
    if isinstance(expected, dict):
        assert _sections(Environment.load(text, filename='env.yaml')) == expected
    else:
        with pytest.raises(EnvironmentError_) as err:
            Environment.load(text, filename='env.yaml')
        assert expected[0] in str(err.value)
        assert err.value.filename == 'env.yaml'
        assert err.value.line == expected[1]


@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_parse_table_is_what_heat_does():
    requests = [{'kind': 'parse', 'text': c[1]} for c in PARSE]
    # The registry validation happens when Heat builds the Environment.
    requests += [{'kind': 'registry', 'env': json.loads(json.dumps(load_text(c[1]).data))}
                 for c in PARSE if c[0] == 'bad_hook_line']
    answers = _heat(requests)
    for case, answer in zip(PARSE, answers):
        if case[0] == 'bad_hook_line':
            assert 'error' in answers[-1]
        elif isinstance(case[2], dict):
            assert answer == {'result': case[2]}, case[0]
        elif case[3]:
            assert 'error' in answer, case[0]
        else:
            assert 'error' not in answer, case[0]


def _heat(requests):
    proc = subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'heat_env_oracle.py')],
                          input=json.dumps(requests), capture_output=True, text=True, timeout=300, check=True)
    return json.loads(proc.stdout)


def test_sources_path_text_dict_document_and_environment(tmp_path):
    path = tmp_path / 'e.yaml'
    path.write_text('parameters:\n  a: 1\n')
    from_path = Environment.load(str(path))
    assert from_path.parameters == {'a': 1} and from_path.filename == str(path)
    assert Environment.load(b'parameters: {a: 1}\n').parameters == {'a': 1}
    assert Environment.load({'parameters': {'a': 1}}).parameters == {'a': 1}
    doc = load_text('parameter_defaults: {b: 2}\n', 'd.yaml')
    assert Environment.load(doc).parameter_defaults == {'b': 2}
    assert Environment.load(from_path) is from_path
    assert Environment.load(None).parameters == {}
    with pytest.raises(EnvironmentError_) as err:
        Environment.load(str(tmp_path / 'missing.yaml'))
    assert 'missing.yaml' in str(err.value)
    with pytest.raises(EnvironmentError_):
        Environment.load(42)


def test_legacy_flat_environment():
    env = Environment.load({'key_name': 'k', 'count': 2, 'resource_registry': {'My::T': 'OS::Heat::None'},
                            'parameter_defaults': {'d': 1}}, legacy=True)
    assert env.parameters == {'key_name': 'k', 'count': 2}
    assert env.parameter_defaults == {'d': 1}
    assert env.registry.resolve('My::T').plugin == 'OS::Heat::None'
    # With a parameters section the other keys are not parameters.
    assert Environment.load({'parameters': {'a': 1}}, legacy=True).parameters == {'a': 1}


def test_keys_become_strings_as_the_client_sends_json():
    env = Environment.load('resource_registry:\n  resources:\n    0:\n      hooks: pre-create\n'
                           'parameters:\n  1: x\n')
    assert env.parameters == {'1': 'x'}
    assert env.registry.hooks('0') == {'pre-create'}


def test_where_points_at_lines():
    env = Environment.load('parameters:\n  a: 1\n\n  b: 2\nparameter_defaults:\n  c: 3\n', filename='w.yaml')
    assert env.where('parameters', 'b') == ('w.yaml', 4)
    assert env.where('parameter_defaults', 'c') == ('w.yaml', 6)
    assert env.where('parameter_defaults') == ('w.yaml', 5)


class TestTemplatePaths(object):

    def _write(self, tmp_path, text, name='env.yaml'):
        (tmp_path / 'sub').mkdir(exist_ok=True)
        for tmpl in ('t.yaml', 'sub/u.yaml', 'sub/v.template'):
            (tmp_path / tmpl).write_text('heat_template_version: 2018-08-31\n')
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    def test_relative_paths_resolve_against_the_env_file(self, tmp_path):
        path = self._write(tmp_path, 'resource_registry:\n  "My::T": t.yaml\n  "My::U": ./sub/u.yaml\n'
                                     '  "My::N": OS::Heat::None\n'
                                     '  resources:\n    r:\n      "My::V": sub/v.template\n      hooks: pre-create\n')
        reg = Environment.load(path).registry
        assert reg.resolve('My::T').template == str(tmp_path / 't.yaml')
        assert reg.resolve('My::U').template == str(tmp_path / 'sub' / 'u.yaml')
        assert reg.resolve('My::V', 'r').template == str(tmp_path / 'sub' / 'v.template')
        assert reg.resolve('My::N').plugin == 'OS::Heat::None'

    def test_parent_directory_and_absolute_and_file_urls(self, tmp_path):
        sub = tmp_path / 'sub'
        path = self._write(tmp_path, 'resource_registry:\n  "My::A": ../t.yaml\n  "My::B": %s\n  "My::C": file://%s\n'
                           % (tmp_path / 't.yaml', tmp_path / 'sub' / 'u.yaml'), name='sub/env.yaml')
        reg = Environment.load(path).registry
        assert reg.resolve('My::A').template == str(tmp_path / 't.yaml')
        assert reg.resolve('My::B').template == str(tmp_path / 't.yaml')
        assert reg.resolve('My::C').template == str(sub / 'u.yaml')

    def test_missing_template_is_an_error_with_its_line(self, tmp_path):
        path = self._write(tmp_path, 'resource_registry:\n  "My::T": t.yaml\n  "My::X": nope.yaml\n')
        with pytest.raises(EnvironmentError_) as err:
            Environment.load(path)
        assert err.value.line == 3 and err.value.filename == path
        assert 'Could not fetch contents for file://%s' % (tmp_path / 'nope.yaml') in str(err.value)

    def test_files_map_wins(self, tmp_path):
        path = self._write(tmp_path, 'resource_registry:\n  "My::X": nope.yaml\n  "My::Y": other.yaml\n')
        files = {'nope.yaml': 'heat_template_version: 2018-08-31\n',
                 str(tmp_path / 'other.yaml'): 'heat_template_version: 2018-08-31\n'}
        reg = Environment.load(path, files=files).registry
        assert reg.resolve('My::X').template == 'nope.yaml'
        assert reg.resolve('My::Y').template == str(tmp_path / 'other.yaml')

    def test_base_url(self, tmp_path):
        path = self._write(tmp_path, 'resource_registry:\n  base_url: %s\n  "My::U": u.yaml\n'
                                     '  "My::H": http://example.com/h.yaml\n'
                                     '  resources:\n    r:\n      base_url: http://example.com/x\n'
                                     '      "My::R": r.yaml\n' % (tmp_path / 'sub'))
        reg = Environment.load(path).registry
        assert reg.resolve('My::U').template == str(tmp_path / 'sub' / 'u.yaml')
        assert reg.resolve('My::H').template == 'http://example.com/h.yaml'
        assert reg.resolve('My::R', 'r').template == 'http://example.com/x/r.yaml'
        with pytest.raises(UnknownResourceType):
            reg.resolve('base_url')

    def test_deeper_levels_are_sent_as_written(self, tmp_path):
        # python-heatclient resolves only the top and resources/<name>.
        path = self._write(tmp_path, 'resource_registry:\n  resources:\n    nested:\n      inner:\n'
                                     '        "My::T": t.yaml\n')
        env = Environment.load(path)
        assert env.registry.resolve('My::T', 'inner', nested_path=('nested',)).template == 't.yaml'

    def test_dict_without_filename_keeps_names(self):
        env = Environment.load({'resource_registry': {'My::T': 'somewhere/t.yaml'}})
        assert env.registry.resolve('My::T').template == 'somewhere/t.yaml'

    def test_merge_of_files(self, tmp_path):
        one = self._write(tmp_path, 'resource_registry:\n  "My::T": t.yaml\nparameters:\n  p: one\n', 'one.yaml')
        two = self._write(tmp_path, 'resource_registry:\n  "My::U": u.yaml\nparameters:\n  p: two\n', 'sub/two.yaml')
        merged = merge_environments([one, two], param_types={'p': 'string'})
        assert merged.registry.resolve('My::T').template == str(tmp_path / 't.yaml')
        assert merged.registry.resolve('My::U').template == str(tmp_path / 'sub' / 'u.yaml')
        assert merged.parameters == {'p': 'two'}
        assert merged.where('parameters', 'p') == (two, 4)


class TestChild(object):

    def test_flat_params_replace_parent_params(self):
        parent = Environment.load({'parameters': {'gone': 1}, 'parameter_defaults': {'d': 1},
                                   'event_sinks': [{'type': 'zaqar-queue', 'target': 'q'}]})
        child = parent.child('res', {'foo': 'bar'})
        assert child.parameters == {'foo': 'bar'}
        assert child.parameter_defaults == {'d': 1}
        assert child.event_sinks == parent.event_sinks
        assert child.as_dict()['parameters'] == {'foo': 'bar'}

    def test_environment_shaped_params(self):
        parent = Environment.load({'parameters': {'gone': 1}, 'parameter_defaults': {'d': 1},
                                   'resource_registry': {'OS::Food': 'carrots.yaml'}})
        child = parent.child(None, {'parameters': {'a': 1}, 'parameter_defaults': {'e': 2},
                                    'resource_registry': {'OS::Food': 'apples.yaml'}})
        assert child.parameters == {'a': 1}
        assert child.parameter_defaults == {'d': 1, 'e': 2}
        assert child.registry.resolve('OS::Food').template == 'apples.yaml'
        assert parent.registry.resolve('OS::Food').template == 'carrots.yaml'

    def test_none_and_empty_params(self):
        parent = Environment.load({'parameters': {'gone': 1}})
        assert parent.child('r', None).parameters == {}
        assert parent.child('r', {}).parameters == {}

    def test_child_does_not_touch_parent(self):
        parent = Environment.load({'parameter_defaults': {'d': {'x': 1}},
                                   'resource_registry': {'OS::Food': 'f.yaml', 'resources': {'r': {'hooks': 'pre-create'}}}})
        info = parent.registry.resolve('OS::Food', 'r')
        child = parent.child('r', {}, item_to_remove=info)
        child.parameter_defaults['d']['x'] = 2
        assert parent.parameter_defaults == {'d': {'x': 1}}
        assert parent.registry.resolve('OS::Food', 'r').template == 'f.yaml'
        assert parent.registry.hooks('r') == {'pre-create'}


def _corpus_environments():
    with open(os.path.join(CORPUS, 'MANIFEST.tsv')) as handle:
        rows = [r for r in csv.reader(handle, delimiter='\t') if r and not r[0].startswith('#')]
    return [r[0] for r in rows[1:] if r[1] == 'environment']


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason=NO_CORPUS)
def test_every_corpus_environment_loads():
    names = _corpus_environments()
    assert len(names) >= 10
    for name in names:
        path = os.path.join(CORPUS, name)
        env = Environment.load(path)
        for entry in env.registry.template_entries():
            assert os.path.isabs(entry.value) and os.path.isfile(entry.value), (name, entry)
        for type_name in env.registry.as_dict():
            if type_name != 'resources':
                env.registry.resolve(type_name, 'r')
    merged = merge_environments([os.path.join(CORPUS, n) for n in names
                                 if 'boot-config' in n or 'example-templates' in n])
    # The last file wins for the one type they all map.
    assert merged.registry.resolve('Heat::InstallConfigAgent').template.endswith('install_container_agent.yaml')


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason=NO_CORPUS)
@pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
def test_corpus_environments_parse_as_heat_parses_them():
    names = _corpus_environments()
    texts = []
    for name in names:
        with open(os.path.join(CORPUS, name)) as handle:
            texts.append(handle.read())
    answers = _heat([{'kind': 'parse', 'text': t} for t in texts])
    for name, text, answer in zip(names, texts, answers):
        ours = Environment.load(os.path.join(CORPUS, name)).sections
        heat = answer['result']
        assert sorted(ours) == sorted(heat), name
        for section in heat:
            if section != 'resource_registry':
                assert ours[section] == heat[section], (name, section)
            else:
                assert sorted(ours[section]) == sorted(heat[section]), name
