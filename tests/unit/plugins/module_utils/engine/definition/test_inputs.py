# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import inputs as defs
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ParameterError, StackersError

TEMPLATE = '''heat_template_version: 2018-08-31
parameters:
  pw: {type: string, hidden: true}
  size: {type: number, default: 1}
  secret_default: {type: string, hidden: true, default: dflt}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: size}}}
'''


@pytest.fixture
def files(tmp_path):
    tpl = tmp_path / 't.yaml'
    tpl.write_text(TEMPLATE)
    env = tmp_path / 'e.yaml'
    env.write_text('parameters:\n  pw: from-env\n  size: 3\nparameter_defaults:\n  pw: dflt-env\n')
    return str(tpl), str(env)


def test_read_inputs_and_stored_form(files):
    tpl, env = files
    inputs = defs.read_inputs(tpl, [env], {'size': 2}, {'f.txt': 'x'})
    assert inputs['template'] == TEMPLATE and inputs['template_file'] == tpl
    assert inputs['environment'] == [{'data': {'parameters': {'pw': 'from-env', 'size': 3},
                                               'parameter_defaults': {'pw': 'dflt-env'}},
                                      'filename': env}]
    assert inputs['parameters'] == {'size': 2} and inputs['files'] == {'f.txt': 'x'}
    stored = defs.stored(inputs)
    assert not any(k.startswith('_') for k in stored)
    json.dumps(stored)                       # plain data the store can keep


def test_read_inputs_missing_template(tmp_path):
    with pytest.raises(StackersError, match='cannot be read'):
        defs.read_inputs(str(tmp_path / 'nope.yaml'))


def test_build_from_stored_inputs_only(files):
    tpl, env = files
    inputs = defs.stored(defs.read_inputs(tpl, [env], {'pw': 'given'}))
    sd = defs.build(inputs, 'st', stack_id='sid')
    assert sd.parameters['size'] == 3           # env parameters over the request's
    assert sd.parameters['OS::stack_id'] == 'sid'
    assert defs.hidden_values(sd) == {'pw': 'from-env', 'secret_default': 'dflt'}


def test_merge_existing_patch_semantics(files):
    tpl, env = files
    stored = defs.stored(defs.read_inputs(tpl, [env], {'size': 2, 'a': 1}, {'f': 'old'}))
    merged = defs.merge_existing(stored, {'parameters': {'size': 5}, 'files': {'g': 'new'}},
                                 clear_parameters=['a'])
    assert merged['template'] == stored['template']
    assert merged['environment'] == stored['environment']
    assert merged['parameters'] == {'size': 5}
    assert merged['files'] == {'f': 'old', 'g': 'new'}
    assert stored['parameters'] == {'size': 2, 'a': 1}          # not modified in place
    given = defs.read_inputs(tpl, [], {})
    replaced = defs.merge_existing(stored, dict(given, template='heat_template_version: 2018-08-31\n'))
    assert replaced['template'].startswith('heat_template_version') and \
        replaced['template'] != stored['template']
    assert replaced['environment'] == stored['environment']      # no new env: kept


def test_without_hidden_everywhere(files):
    tpl, env = files
    inputs = defs.read_inputs(tpl, [env], {'pw': 'p1', 'size': 2})
    clean = defs.without_hidden(inputs, {'pw': 'p1'})
    assert clean['parameters'] == {'size': 2}
    data = clean['environment'][0]['data']
    assert data['parameters'] == {'size': 3} and data['parameter_defaults'] == {}
    assert 'from-env' not in json.dumps(defs.stored(clean))
    assert inputs['parameters']['pw'] == 'p1'                     # original untouched
    assert inputs['environment'][0]['data']['parameters']['pw'] == 'from-env'


def test_missing_hidden_error():
    err = defs.missing_hidden(['pw', 'other'], {'pw': None, 'x': None})
    assert isinstance(err, ParameterError)
    assert 'pw' in str(err) and 'other' not in str(err) and 'store_key' in str(err)


def test_same_compares_a_kept_definition_as_json_keeps_it():
    kept = {'template': 't', 'environment': [['e', 'x']], 'parameters': {'n': 1}, 'files': {}}
    assert defs.same(kept, {'template': 't', 'environment': [('e', 'x')], 'parameters': {'n': 1},
                            'files': {}}) is True
    assert defs.same(kept, dict(kept, parameters={'n': 2})) is False


def test_a_definition_read_from_another_checkout_is_the_same():
    one = {'template': 't', 'template_file': '/a/t.yaml',
           'environment': [{'data': {'parameters': {}}, 'filename': '/a/e.yaml'}]}
    two = dict(one, template_file='/b/t.yaml',
               environment=[{'data': {'parameters': {}}, 'filename': '/b/e.yaml'}])
    assert defs.same(one, two) and not defs.same(one, dict(two, template='u'))
    assert defs.same(None, None) and not defs.same(one, None)


def test_the_clients_file_urls_name_the_users_files():
    """openstack stack create writes file:///<dir>/nested.yaml where the
    user's template says nested.yaml (heatclient's template_utils)."""
    same = defs.same_template_name
    assert same('file:///home/me/t/nested.yaml', 'nested.yaml')
    assert same('file:///home/me/t/lib/nested.yaml', 'lib/nested.yaml')
    assert same('file:///home/me/lib/nested.yaml', '../lib/nested.yaml')
    assert same('file:///home/me/t/a%20b.yaml', './a b.yaml')
    assert not same('file:///home/me/t/other.yaml', 'nested.yaml')
    assert not same('file:///home/me/t/nested.yaml', 'https://example.com/t/nested.yaml')
    assert not same('https://example.com/t/nested.yaml', 'nested.yaml')
    kept = {'template': '{"resources": {"n": {"type": "file:///x/n.yaml"}}}',
            'environment': [{'data': {'resource_registry': {'My::N': 'file:///x/n.yaml'}}}],
            'files': {'file:///x/n.yaml': 'n'}}
    mine = {'template': 'resources:\n  n: {type: n.yaml}\n',
            'environment': [{'data': {'resource_registry': {'My::N': 'n.yaml'}}, 'filename': '/y/e'}],
            'files': {}}
    assert defs.same(kept, mine)
    assert not defs.same(kept, dict(mine, template='resources:\n  n: {type: m.yaml}\n'))


# -- the global environment (heat.conf's environment_dir) --------------------------------------------

def _global_dir(tmp_path):
    gdir = tmp_path / 'environment.d'
    gdir.mkdir()
    (gdir / 'b.yaml').write_text('parameter_defaults: {size: 2}\n')
    (gdir / 'a.yaml').write_text('resource_registry: {"My::Thing": thing.yaml}\n')
    (gdir / 'notes.txt').write_text('not an environment\n')
    (gdir / 'c.yml').write_text('parameter_defaults: {size: 3}\n')
    return gdir


def test_global_environment_files_are_the_yaml_files_sorted(tmp_path, monkeypatch):
    monkeypatch.delenv(defs.GLOBAL_ENVIRONMENT_DIR_VAR, raising=False)
    gdir = _global_dir(tmp_path)
    assert defs.global_environment_files(str(gdir)) == [str(gdir / 'a.yaml'), str(gdir / 'b.yaml')]
    assert defs.with_global_environment(['own.yaml'], str(gdir)) == [
        str(gdir / 'a.yaml'), str(gdir / 'b.yaml'), 'own.yaml']
    assert defs.global_environment_files() == []
    assert defs.with_global_environment(('own.yaml',)) == ['own.yaml']


def test_global_environment_dir_from_the_variable_and_a_missing_one(tmp_path, monkeypatch):
    gdir = _global_dir(tmp_path)
    monkeypatch.setenv(defs.GLOBAL_ENVIRONMENT_DIR_VAR, str(gdir))
    assert defs.global_environment_files() == [str(gdir / 'a.yaml'), str(gdir / 'b.yaml')]
    # the option wins over the variable
    other = tmp_path / 'other'
    other.mkdir()
    assert defs.global_environment_files(str(other)) == []
    with pytest.raises(StackersError) as err:
        defs.global_environment_files(str(tmp_path / 'gone'))
    assert str(err.value) == ('The global environment directory %s does not exist (global_environment_dir, or '
                              '$STACKERS_GLOBAL_ENVIRONMENT_DIR)' % (tmp_path / 'gone'))
