# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The type catalogue against Heat 27's own engine service, offline
(tests/conformance/heat_catalogue.py in .heat-venv): the list, every type's
show (with and without descriptions), the generated templates, the versions
and their functions, key by key, but for Heat's prose: each description and
support status message Heat has is there, empty (tests/unit/heat_prose.py);
each generated HOT template of a type the collection supports validates here
and in Heat.  catalogue_data.py is checked to be what
tools/gen_catalogue_facts.py makes of that Heat."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess

import pytest
import yaml

from ansible_collections.stackers.orchestration.tests.unit import heat_prose
from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT, ROOT
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import catalogue
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    NotSupported, TemplateError, UnknownResourceType)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader, registry

HEAT_CATALOGUE = os.path.join(ROOT, 'tests', 'conformance', 'heat_catalogue.py')
needs_heat = pytest.mark.skipif(not os.path.exists(HEAT_PYTHON), reason=NO_HEAT)
# Heat 27 generates no template for a type with an Any property (a KeyError, HTTP 500)
NO_TEMPLATE = {'OS::Heat::Value'}
# Heat 27 refuses its own template of a type whose translation rules read a
# parameter the template gives no default (RBACPolicy's object_id lookup reads
# object_type): it cannot be validated without the parameter's value
HEAT_REFUSES = {'OS::Neutron::RBACPolicy': 'ValueError: The Parameter (object_type) was not provided.'}


def _heat(*args, stdin=None):
    run = subprocess.run([HEAT_PYTHON, HEAT_CATALOGUE] + list(args), input=stdin, capture_output=True,
                         text=True, timeout=300, check=True)
    return json.loads(run.stdout)


@pytest.fixture(scope='module')
def heat():
    return _heat()


def _json(value):
    return json.loads(json.dumps(value))


def _heats_constraints(template):
    """Our HOT template as Heat writes it: a custom constraint as an empty entry."""
    for param in template['parameters'].values():
        param['constraints'] = [{} if 'custom_constraint' in c else c for c in param.get('constraints', [])]
        if not param['constraints']:
            del param['constraints']
    return template


@needs_heat
def test_the_list_is_heats(heat):
    assert [e['resource_type'] for e in catalogue.list_types()] == sorted(heat['list'])
    long = dict((e['resource_type'], e['description']) for e in heat_prose.listed(heat['list_long']))
    assert set(long.values()) == {heat_prose.NO_DESCRIPTION}
    assert dict((e['resource_type'], e['description'])
                for e in catalogue.list_types(with_description=True)) == long


@needs_heat
def test_every_show_is_heats_key_by_key(heat):
    for name in heat['list']:
        for long, key in ((False, 'show'), (True, 'show_long')):
            mine = _json(catalogue.show_type(name, with_description=long))
            assert mine.pop('supported_here') is catalogue.supported_here(name)
            theirs = heat_prose.show(heat[key][name])
            assert sorted(mine) == sorted(theirs), name
            for part in theirs:
                assert mine[part] == theirs[part], (name, part)


@needs_heat
def test_every_generated_template_is_heats(heat):
    for name in heat['list']:
        for kind in ('hot', 'cfn'):
            if name in NO_TEMPLATE:
                assert heat[kind][name]['error'] == 'KeyError'
                with pytest.raises(TemplateError, match='its property value is of type Any'):
                    catalogue.generate_template(name, kind)
                continue
            mine = _json(catalogue.generate_template(name, kind))
            if kind == 'hot':
                mine = _heats_constraints(mine)
            assert mine == heat_prose.template(heat[kind][name]), (name, kind)


@needs_heat
def test_supported_types_generate_hot_templates_valid_here_and_in_heat():
    templates = dict((e['resource_type'], catalogue.generate_template(e['resource_type'], 'hot'))
                     for e in catalogue.list_types() if e['supported_here'] and e['resource_type'] not in NO_TEMPLATE)
    assert len(templates) > 50
    for name, template in templates.items():
        validation.validate_template(yaml.safe_dump(template))
    refused = _heat('--validate', stdin=json.dumps(templates))
    assert sorted(refused) == sorted(templates)
    assert dict((k, v) for k, v in refused.items() if v) == HEAT_REFUSES


@needs_heat
def test_versions_and_functions_are_heats(heat):
    mine = catalogue.list_versions()
    assert [dict((k, v) for k, v in e.items() if k != 'supported_here') for e in mine] == sorted(
        heat['versions'], key=lambda v: v['version'])
    assert [e['version'] for e in mine if not e['supported_here']] == [
        'AWSTemplateFormatVersion.2010-09-09', 'HeatTemplateFormatVersion.2012-12-12']
    for key, conditions in (('functions', False), ('functions_conditions', True)):
        for version, functions in heat[key].items():
            assert catalogue.list_functions(version, with_conditions=conditions) == sorted(
                heat_prose.functions(functions), key=lambda f: f['functions']), (version, conditions)


@needs_heat
def test_catalogue_data_is_current(tmp_path):
    out = tmp_path / 'data.py'
    subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'gen_catalogue_facts.py'), str(out)],
                   check=True, timeout=300, capture_output=True)
    with open(os.path.join(ROOT, 'plugins', 'module_utils', 'engine', 'read', 'catalogue_data.py')) as handle:
        assert out.read_text() == handle.read()


# -- without Heat: the filters, the marks, the refusals ----------------------------------------------

def _names(**kw):
    return [e['resource_type'] for e in catalogue.list_types(**kw)]


def test_name_filter_is_a_regular_expression_matched_from_the_start():
    neutron = _names(name='OS::Neutron::')
    assert neutron and all(n.startswith('OS::Neutron::') for n in neutron)
    assert _names(name='Neutron') == []
    assert _names(name='.*::Nova::Server$') == ['OS::Nova::Server']
    assert _names(name='OS::Nova::(') == []


def test_version_and_support_status_filters():
    deprecated = _names(support_status='DEPRECATED')
    assert deprecated and all(resource_types.heat_type(n).status == 'DEPRECATED' for n in deprecated)
    assert _names(support_status='HIDDEN') == []
    v2014 = _names(version='2014.1')
    assert 'AWS::AutoScaling::AutoScalingGroup' in v2014
    assert all(resource_types.heat_type(n).version == '2014.1' for n in v2014)
    with pytest.raises(TemplateError, match='Invalid support status'):
        catalogue.list_types(support_status='GOOD')


def test_supported_here_marks_plugins_and_nested_types():
    marks = dict((e['resource_type'], e['supported_here']) for e in catalogue.list_types())
    assert marks['OS::Nova::Server'] and marks['OS::Heat::ResourceGroup'] and marks['OS::Heat::Stack']
    assert not marks['OS::Trove::Instance']
    assert set(n for n, ok in marks.items() if ok) == set(
        n for n in marks if n in registry.PLUGINS or n in validation.NESTED_TYPES)


GREETING = '''
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

CONTRACT_VERSION = 1


class Greeting(ResourcePlugin):
    """Says hello.

    A test type."""
    properties_schema = {
        'text': {'type': 'string', 'required': True, 'update_allowed': True, 'description': 'What it says.',
                 'constraints': [{'length': {'min': 1}, 'description': 'Something.'}]},
        'times': {'type': 'integer', 'default': 1},
        'to': {'type': 'list', 'description': 'Whom.', 'schema': {'*': {'type': 'string', 'description': 'One.'}}},
    }
    attributes_schema = {'said': {'type': 'string', 'description': 'What it said.'}, 'when': {}}

    def create(self, ctx):
        return 'greeting-1'


def resource_mapping():
    return {'Example::Hello::Greeting': Greeting}
'''


@pytest.fixture
def greeting(tmp_path):
    directory = tmp_path / 'plugins'
    directory.mkdir()
    os.chmod(str(directory), 0o755)
    (directory / 'greeting.py').write_text(GREETING)
    os.chmod(str(directory / 'greeting.py'), 0o644)
    plugin_loader.load([str(directory)])
    yield 'Example::Hello::Greeting'
    plugin_loader.unload()


def test_a_plugin_type_is_listed_and_shown_with_its_own_texts(greeting):
    listed = catalogue.list_types(name='Example::', with_description=True)
    assert listed == [{'resource_type': greeting, 'supported_here': True,
                       'description': 'Says hello.\n\nA test type.'}]
    shown = catalogue.show_type(greeting, with_description=True)
    assert shown['description'] == 'Says hello.\n\nA test type.'
    assert shown['properties'] == {
        'text': {'type': 'string', 'required': True, 'update_allowed': True, 'immutable': False,
                 'description': 'What it says.', 'constraints': [{'length': {'min': 1}, 'description': 'Something.'}]},
        'times': {'type': 'integer', 'required': False, 'update_allowed': False, 'immutable': False, 'default': 1},
        'to': {'type': 'list', 'required': False, 'update_allowed': False, 'immutable': False,
               'description': 'Whom.', 'schema': {'*': {'type': 'string', 'required': False, 'update_allowed': False,
                                                        'immutable': False, 'description': 'One.'}}}}
    # Heat's base attribute show is Heat's: its description is there, empty, as for Heat's types
    assert shown['attributes'] == {'said': {'type': 'string', 'description': 'What it said.'}, 'when': {},
                                   'show': {'type': 'map', 'description': ''}}
    assert shown['support_status'] == {'status': 'SUPPORTED', 'version': None, 'message': None,
                                       'previous_status': None}
    hot = catalogue.generate_template(greeting, 'hot')
    assert hot['resources'] == {'Greeting': {'type': greeting, 'properties': {
        'text': {'get_param': 'text'}, 'times': {'get_param': 'times'}, 'to': {'get_param': 'to'}}}}
    assert hot['parameters']['text']['description'] == 'What it says.'
    assert 'description' not in hot['parameters']['times']
    assert hot['outputs']['said'] == {'value': {'get_attr': ['Greeting', 'said']}, 'description': 'What it said.'}
    assert hot['outputs']['when'] == {'value': {'get_attr': ['Greeting', 'when']}, 'description': None}
    validation.validate_template(yaml.safe_dump(hot))


def test_heats_types_carry_no_prose():
    """Heat's descriptions and messages are Heat's text: the keys are there, empty."""
    server = catalogue.show_type('OS::Nova::Server', with_description=True)
    assert server['description'] == catalogue.NO_DESCRIPTION
    assert server['properties']['flavor']['description'] == ''
    assert 'description' not in server['properties']['networks']['schema']['*']
    assert server['attributes']['accessIPv4']['description'] == ''
    extra = catalogue.show_type('OS::Neutron::ExtraRoute')['support_status']
    assert extra == {'status': 'UNSUPPORTED', 'version': None, 'message': '', 'previous_status': None}
    functions = catalogue.list_functions('AWSTemplateFormatVersion.2010-09-09', with_conditions=True)
    assert {'functions': 'Fn::Equals', 'description': ''} in functions
    assert set(f['description'] for f in catalogue.list_functions('heat_template_version.rocky')) == {''}


def test_show_refuses_unknown_and_hidden_types_with_heats_messages():
    with pytest.raises(UnknownResourceType) as err:
        catalogue.show_type('OS::Nope::Thing')
    assert str(err.value) == 'There was an error loading the definition of the global resource type OS::Nope::Thing.'
    hidden = resource_types.type_names(statuses=('HIDDEN',))[0]
    with pytest.raises(NotSupported) as err:
        catalogue.generate_template(hidden, 'hot')
    assert str(err.value) == '%s is not supported.' % hidden
    with pytest.raises(TemplateError, match='Invalid template type "yaml"'):
        catalogue.generate_template('OS::Nova::Server', 'yaml')


def test_functions_of_an_alias_and_of_an_unknown_version():
    rocky = catalogue.list_functions('heat_template_version.rocky', with_conditions=True)
    assert rocky == catalogue.list_functions('heat_template_version.2018-08-31', with_conditions=True)
    assert {'equals', 'not', 'and', 'or', 'get_attr'} <= set(f['functions'] for f in rocky)
    assert 'equals' not in [f['functions'] for f in catalogue.list_functions('heat_template_version.rocky')]
    with pytest.raises(TemplateError) as err:
        catalogue.list_functions('heat_template_version.2099-01-01')
    assert str(err.value) == 'Template with version heat_template_version.2099-01-01 not found'
