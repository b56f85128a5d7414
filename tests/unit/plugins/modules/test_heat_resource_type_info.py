# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_resource_type_info through its real main(): list with filters, show, generated templates,
Heat's refusals as failures, a plugin directory's types with their own texts (the answers themselves
are compared with Heat in test_catalogue.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest
import yaml

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read import catalogue
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import plugin_loader
from ansible_collections.stackers.orchestration.plugins.modules import heat_resource_type_info as module
from ansible_collections.stackers.orchestration.plugins.modules import heat_template_validate

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *(['..'] * 4)))
SWIFT_OBJECT = os.path.join(ROOT, 'examples', 'plugins', 'swift_object')
PLUGIN_TYPE = 'Stackers::Swift::Object'


def test_list_with_filters_and_long(capsys):
    code, out = run_main(module, capsys, {'filters': {'name': 'OS::Nova::', 'support_status': 'SUPPORTED'},
                                          'long': True})
    assert code == 0 and out['changed'] is False and 'resource_type' not in out
    assert out['resource_types'] == catalogue.list_types(name='OS::Nova::', support_status='SUPPORTED',
                                                         with_description=True)
    server = [e for e in out['resource_types'] if e['resource_type'] == 'OS::Nova::Server'][0]
    # Heat's docs are its prose, not carried: Heat's own fallback text
    assert server['supported_here'] is True and server['description'] == 'No description available'


def test_list_everything_in_check_mode(capsys):
    code, out = run_main(module, capsys, {}, check=True)
    assert code == 0 and len(out['resource_types']) == len(catalogue.list_types()) > 150
    assert set(out['resource_types'][0]) == {'resource_type', 'supported_here'}


def test_show_with_a_generated_template(capsys):
    code, out = run_main(module, capsys, {'name': 'OS::Heat::RandomString', 'template_type': 'hot'})
    assert code == 0 and 'resource_types' not in out
    shown = out['resource_type']
    assert shown['resource_type'] == 'OS::Heat::RandomString' and shown['supported_here'] is True
    assert shown['properties']['length']['constraints'] == [{'range': {'min': 1, 'max': 512}}]
    assert shown['attributes']['value'] == {'type': 'string', 'description': ''}
    assert shown['properties']['length']['description'] == ''
    assert out['template']['resources'] == {'RandomString': {
        'type': 'OS::Heat::RandomString',
        'properties': dict((k, {'get_param': k}) for k in shown['properties'])}}
    code, out = run_main(module, capsys, {'name': 'OS::Heat::RandomString', 'template_type': 'cfn'})
    assert out['template']['HeatTemplateFormatVersion'] == '2012-12-12'


def test_refusals(capsys):
    code, out = run_main(module, capsys, {'name': 'OS::Nope::Thing'})
    assert code == 1
    # Heat's message, then where a plugin's type comes from (the module takes resource_plugin_dirs)
    assert out['msg'].startswith(
        'There was an error loading the definition of the global resource type OS::Nope::Thing. ')
    assert 'resource_plugin_dirs' in out['msg']
    code, out = run_main(module, capsys, {'name': 'OS::Heat::Value', 'template_type': 'hot'})
    assert code == 1 and 'its property value is of type Any' in out['msg']
    code, out = run_main(module, capsys, {'template_type': 'hot'})
    assert code == 1 and 'template_type' in out['msg'] and 'name' in out['msg']
    code, out = run_main(module, capsys, {'filters': {'support_status': 'GOOD'}})
    assert code == 1 and 'support_status' in out['msg']


@pytest.fixture
def unload():
    yield
    plugin_loader.unload()


def test_a_plugin_directorys_types_with_their_own_texts(capsys, tmp_path, unload):
    dirs = {'resource_plugin_dirs': [SWIFT_OBJECT]}
    code, out = run_main(module, capsys, {})
    assert code == 0 and PLUGIN_TYPE not in [e['resource_type'] for e in out['resource_types']]
    code, out = run_main(module, capsys, dict(dirs, filters={'name': 'Stackers::'}, long=True))
    assert code == 0, out
    assert out['resource_types'] == [{'resource_type': PLUGIN_TYPE, 'supported_here': True,
                                      'description': 'One Swift object with the content the template gives '
                                                     '(heat_resource_type_info shows this doc).'}]
    code, out = run_main(module, capsys, dict(dirs, name=PLUGIN_TYPE, template_type='hot'))
    assert code == 0, out
    shown = out['resource_type']
    assert shown['supported_here'] is True
    assert shown['properties']['container'] == {
        'type': 'string', 'required': True, 'update_allowed': False, 'immutable': False,
        'description': 'The container the object goes in (its name).'}
    assert shown['properties']['content']['description'] == 'What the object holds.'
    assert shown['attributes']['etag']['description'] and shown['attributes']['show'] == {
        'type': 'map', 'description': ''}
    template = out['template']
    assert template['resources'] == {'SwiftObject': {'type': PLUGIN_TYPE, 'properties': dict(
        (k, {'get_param': k}) for k in shown['properties'])}}
    assert template['parameters']['content']['description'] == 'What the object holds.'
    path = tmp_path / 'generated.yaml'
    path.write_text(yaml.safe_dump(template))
    plugin_loader.unload()
    args = dict(dirs, template=str(path), parameters={'container': 'box'})
    code, out = run_main(heat_template_validate, capsys, args)
    assert code == 0, out
    assert out['Description'] == 'Initial template of SwiftObject' and out['unsupported_types'] == []
    assert out['Parameters']['content']['Description'] == 'What the object holds.'
    # without the directory, the type is unknown to the validation as to Heat
    code, out = run_main(heat_template_validate, capsys, {'template': str(path), 'resource_plugin_dirs': []})
    assert code == 1 and PLUGIN_TYPE in out['msg']
