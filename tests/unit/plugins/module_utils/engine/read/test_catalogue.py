# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The type catalogue against Heat 27's own engine service, offline
(tests/conformance/heat_catalogue.py in .heat-venv): the list, every type's
show (with and without descriptions), the generated templates, the versions
and their functions, key by key; each generated HOT template of a type the
collection supports validates here and in Heat.  catalogue_data.py is checked
to be what tools/gen_type_docs.py makes of that Heat."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess

import pytest
import yaml

from ansible_collections.stackers.orchestration.tests.unit.heat_here import HEAT_PYTHON, NO_HEAT, ROOT
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import catalogue
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    NotSupported, TemplateError, UnknownResourceType)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry

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
    long = dict((e['resource_type'], e['description']) for e in heat['list_long'])
    assert dict((e['resource_type'], e['description'])
                for e in catalogue.list_types(with_description=True)) == long


@needs_heat
def test_every_show_is_heats_key_by_key(heat):
    for name in heat['list']:
        for long, key in ((False, 'show'), (True, 'show_long')):
            mine = _json(catalogue.show_type(name, with_description=long))
            assert mine.pop('supported_here') is catalogue.supported_here(name)
            assert sorted(mine) == sorted(heat[key][name]), name
            for part in heat[key][name]:
                assert mine[part] == heat[key][name][part], (name, part)


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
            assert mine == heat[kind][name], (name, kind)


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
                functions, key=lambda f: f['functions']), (version, conditions)


@needs_heat
def test_catalogue_data_is_current(tmp_path):
    out = tmp_path / 'data.py'
    subprocess.run([HEAT_PYTHON, os.path.join(ROOT, 'tools', 'gen_type_docs.py'), str(out)],
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


def test_a_plugin_type_is_listed_and_shown_from_the_catalogues_it_joins(monkeypatch):
    """What the plugin loader does: a type in hot/resource_types and a class in the registry."""
    class Greeting(object):
        """Says hello.

        A test type."""
        type_name = 'Example::Hello::Greeting'

    monkeypatch.setattr(resource_types, '_CACHE', {})
    monkeypatch.setitem(resource_types.TYPES, Greeting.type_name,
                        ['SUPPORTED', '1.0', '', {'text': ['s', 'ru']}, {'said': 's'}])
    monkeypatch.setitem(registry.PLUGINS, Greeting.type_name, Greeting)
    listed = catalogue.list_types(name='Example::', with_description=True)
    assert listed == [{'resource_type': 'Example::Hello::Greeting', 'supported_here': True,
                       'description': 'Says hello.\n\nA test type.'}]
    shown = catalogue.show_type(Greeting.type_name)
    assert shown['properties'] == {'text': {'type': 'string', 'required': True, 'update_allowed': True,
                                            'immutable': False}}
    assert shown['attributes'] == {'said': {'type': 'string'}, 'show': {'type': 'map'}}
    assert shown['support_status'] == {'status': 'SUPPORTED', 'version': '1.0', 'message': None,
                                       'previous_status': None}
    hot = catalogue.generate_template(Greeting.type_name, 'hot')
    assert hot['resources'] == {'Greeting': {'type': Greeting.type_name, 'properties': {'text': {'get_param': 'text'}}}}
    validation.validate_template(yaml.safe_dump(hot))


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
