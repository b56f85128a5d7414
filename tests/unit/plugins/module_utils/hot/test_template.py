# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import functions as fns
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import loader
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions import (
    base, cfn, params, resources, strings)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.template import Template


def load_error(text, **kw):
    with pytest.raises(TemplateError) as err:
        Template.load(text, filename='t.yaml', **kw)
    return err.value


# -- loading and version ----------------------------------------------------------

def test_load_from_text_dict_document_and_path(tmp_path):
    text = 'heat_template_version: rocky\nresources: {}\n'
    path = tmp_path / 'a.yaml'
    path.write_text(text)
    for source in (text, {'heat_template_version': 'rocky'}, loader.load_text(text, 'x'),
                   str(path)):
        tmpl = Template.load(source)
        assert tmpl.version == '2018-08-31'
    assert Template.load(str(path)).filename == str(path)
    assert Template.load(str(path)).base_dir == str(tmp_path)
    tmpl = Template.load(text)
    assert Template.load(tmpl) is tmpl


@pytest.mark.parametrize('text, message, line', [
    ('resources: {}\n', 'Template format version not found', 1),
    ('- a\n- b\n', 'not a JSON object or a YAML mapping', 1),
    ('heat_template_version: 20130523\n', 'version was not provided', 1),
    ('description: x\nheat_template_version: [2016-10-14]\n', 'version was not provided', 2),
    ('heat_template_version: 2016-10-14\nAWSTemplateFormatVersion: 2010-09-09\n',
     'Ambiguous template versions', 2),
    ('AWSTemplateFormatVersion: 2010-09-09\nResources: {}\n', 'CloudFormation-format', 1),
    ('HeatTemplateFormatVersion: 2012-12-12\n', 'CloudFormation-format', 1),
    ('description: d\nheat_template_version: 2016-10-15\n', 'Unknown template version', 2),
    ('heat_template_version: xena\n', 'must be one of: 2013-05-23', 1),
])
def test_version_errors(text, message, line):
    err = load_error(text)
    assert message in err.message
    assert err.line == line
    assert err.filename == 't.yaml'


def test_json_template():
    tmpl = Template.load('{"heat_template_version": "2015-10-15", "resources": {}}')
    assert tmpl.version == '2015-10-15'


@pytest.mark.parametrize('version, section, ok', [
    ('2016-04-08', 'conditions', False),
    ('2016-10-14', 'conditions', True),
    ('newton', 'conditions', True),
    ('2021-04-16', 'Resources', False),
    ('2021-04-16', 'mappings', False),
    ('2021-04-16', 'parameter_groups', True),
    ('2013-05-23', 'description', True),
])
def test_top_level_sections(version, section, ok):
    text = 'heat_template_version: %s\n%s: {}\n' % (version, section)
    if ok:
        Template.load(text)
    else:
        err = load_error(text)
        assert str(err).startswith('t.yaml:2: %s: ' % section)
        assert 'not a valid top-level section' in err.message


# -- the shape of resources and outputs --------------------------------------------

RES = 'heat_template_version: %s\nresources:\n  r:\n%s'


@pytest.mark.parametrize('version, body, message, line', [
    ('2016-10-14', '    type: OS::Heat::None\n    propertys: {}\n', '"propertys" is not a valid keyword', 5),
    ('2016-04-08', '    type: OS::Heat::None\n    condition: true\n', '"condition" is not a valid keyword', 5),
    ('2016-04-08', '    type: OS::Heat::None\n    external_id: x\n', '"external_id" is not a valid keyword', 5),
    ('2016-10-14', '    properties: {}\n', 'must contain a non-empty "type"', 3),
    ('2016-10-14', '    type: ""\n', 'must contain a non-empty "type"', 3),
    ('2016-10-14', '    type:\n', 'must contain a non-empty "type"', 3),
    ('2016-10-14', '    Type: OS::Heat::None\n', '"Type" is not a valid keyword', 4),
])
def test_resource_shape_errors(version, body, message, line):
    err = load_error(RES % (version, body))
    assert message in err.message
    assert err.line == line


@pytest.mark.parametrize('text, message', [
    ('heat_template_version: 2016-10-14\nresources:\n  r:\n', 'must contain a "type" key'),
    ('heat_template_version: 2016-10-14\nresources:\n  r: OS::Heat::None\n', 'resource maps'),
    ('heat_template_version: 2016-10-14\nresources: [a]\n', '"resources" must be a map'),
    ('heat_template_version: 2016-10-14\noutputs: [a]\n', '"outputs" must be a map'),
    ('heat_template_version: 2016-10-14\noutputs:\n  o: x\n', 'Output definitions must be maps'),
    ('heat_template_version: 2016-10-14\noutputs:\n  o:\n    description: d\n',
     'must contain a "value" key'),
])
def test_shape_errors(text, message):
    assert message in load_error(text).message


OUT = 'heat_template_version: %s\noutputs:\n  o:\n    value: 1\n    %s\n'


# Heat ignores output keys it does not know in a stack's template (checked
# with the oracle), but refuses them in a provider template.
@pytest.mark.parametrize('version, extra, strict_error', [
    ('2013-05-23', 'foo: 2', '"foo" is not a valid keyword inside an output'),
    ('2016-10-14', 'foo: 2', '"foo" is not a valid keyword inside an output'),
    ('2016-04-08', 'condition: c', '"condition" is not a valid keyword inside an output'),
    ('2015-04-30', 'condition: false', '"condition" is not a valid keyword inside an output'),
    ('2016-10-14', 'condition: c', None),
    ('2013-05-23', 'description: d', None),
])
def test_unknown_output_keys_ignored_unless_strict(version, extra, strict_error):
    tmpl = Template.load(OUT % (version, extra), filename='t.yaml')
    assert tmpl.outputs['o']['value'] == 1
    if strict_error is None:
        tmpl.check_output_keys()
        return
    with pytest.raises(TemplateError) as err:
        tmpl.check_output_keys()
    assert strict_error in err.value.message
    assert err.value.line == 5 and err.value.path[:2] == ('outputs', 'o')


@pytest.mark.parametrize('version', ['2016-10-14', '2021-04-16'])
def test_new_keys_accepted(version):
    Template.load(RES % (version, '    type: OS::Heat::None\n    condition: c\n    external_id: x\n')
                  + 'outputs:\n  o:\n    value: 1\n    condition: c\n    description: d\n')


def test_empty_sections_are_fine():
    tmpl = Template.load('heat_template_version: 2016-10-14\nparameters:\nresources:\noutputs:\n')
    assert tmpl.resources == {} and tmpl.outputs == {} and tmpl.parameters == {}
    assert tmpl.description == 'No description'


# -- parsing ---------------------------------------------------------------------

def parse(snippet, version='2021-04-16', **kw):
    return Template.load({'heat_template_version': version}).parse(snippet, ('x',), **kw)


def test_parse_replaces_known_functions_only():
    parsed = parse({'a': {'get_param': 'p'}, 'b': [{'get_file': 'f'}, 1],
                    'c': {'get_param': 'p', 'other': 1}, 'd': {'Fn::GetAtt': ['r', 'a']}})
    assert isinstance(parsed['a'], params.GetParam)
    assert parsed['a'].path == ('x', 'a', 'get_param')
    assert isinstance(parsed['b'][0], params.GetFile)
    assert parsed['b'][0].path == ('x', 'b', 0, 'get_file')
    assert parsed['c'] == {'get_param': 'p', 'other': 1}
    assert parsed['d'] == {'Fn::GetAtt': ['r', 'a']}


def test_parse_nested_and_record():
    record = []
    parsed = parse({'str_replace': {'template': {'get_param': 't'},
                                    'params': {'$x': {'get_resource': 'r'}}}}, record=record)
    assert isinstance(parsed, strings.ReplaceJson)
    assert [type(f) for f in record] == [params.GetParam, resources.GetResource, strings.ReplaceJson]
    assert record[1].path == ('x', 'str_replace', 'params', '$x', 'get_resource')


@pytest.mark.parametrize('version, cls', [
    ('2013-05-23', cfn.Join), ('2014-10-16', base.Removed), ('2021-04-16', base.Removed),
])
def test_parse_cfn_join_per_version(version, cls):
    assert isinstance(parse({'Fn::Join': [',', ['a']]}, version), cls)


@pytest.mark.parametrize('version', ['2013-05-23', '2021-04-16'])
def test_never_functions_are_data(version):
    for snippet in ({'Fn::Sub': 'x'}, {'Fn::GetAtt': ['r', 'a']}, {'get_input': 'x'}):
        assert parse(snippet, version) == snippet


def test_parse_tuples_as_lists_and_keeps_scalars():
    assert parse((1, 'a', None, {'k': (2,)})) == [1, 'a', None, {'k': [2]}]
    assert parse('get_param') == 'get_param'


def test_parse_condition_refuses_other_functions():
    tmpl = Template.load({'heat_template_version': '2016-10-14'})
    with pytest.raises(TemplateError) as err:
        tmpl.parse_condition({'not': {'get_resource': 'r'}}, ('conditions', 'c'))
    assert err.value.path == ('conditions', 'c', 'not', 'get_resource')
    assert 'cannot be used in a condition' in err.value.message
    removed = tmpl.parse_condition({'Fn::Join': ['', []]}, ('c',))
    assert isinstance(removed, fns.Removed)


def test_parse_error_carries_path_and_line():
    tmpl = Template.load('heat_template_version: 2016-10-14\nresources:\n  r:\n    type: T\n'
                         '    properties:\n      a:\n        list_join: x\n', filename='f.yaml')
    with pytest.raises(TemplateError) as err:
        tmpl.parse(tmpl.resources['r']['properties'], ('resources', 'r', 'properties'))
    tmpl.locate(err.value)
    assert str(err.value).startswith('f.yaml:7: resources.r.properties.a.list_join: ')


# -- files -----------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path):
    (tmp_path / 'tpl').mkdir()
    (tmp_path / 'tpl' / 'scripts').mkdir()
    (tmp_path / 'tpl' / 'scripts' / 'boot.sh').write_text('#!/bin/sh\necho hi\n')
    (tmp_path / 'tpl' / 'blob.bin').write_bytes(b'\xff\x00\xfe')
    (tmp_path / 'common.sh').write_text('common\n')
    (tmp_path / 'tpl' / 'main.yaml').write_text('heat_template_version: 2016-10-14\n')
    return tmp_path


def test_get_file_from_files_map_first(tree):
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'), files={'scripts/boot.sh': 'mapped'})
    assert tmpl.get_file('scripts/boot.sh') == 'mapped'


def test_get_file_relative_to_template(tree):
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'))
    assert tmpl.get_file('scripts/boot.sh') == '#!/bin/sh\necho hi\n'
    assert tmpl.get_file('file://%s' % (tree / 'tpl' / 'scripts' / 'boot.sh')).startswith('#!')
    assert tmpl.get_file('blob.bin') == '/wD+'


@pytest.mark.parametrize('name', ['../common.sh', '/etc/hostname', 'file:///etc/hostname',
                                  'scripts/../../common.sh'])
def test_get_file_outside_the_tree_is_refused(tree, name):
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'))
    with pytest.raises(TemplateError) as err:
        tmpl.get_file(name, ('x',))
    assert 'outside the directory tree' in err.value.message


def test_get_file_root_widens_the_tree(tree):
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'), root=str(tree))
    assert tmpl.get_file('../common.sh') == 'common\n'


def test_get_file_symlink_out_of_tree_is_refused(tree):
    os.symlink(str(tree / 'common.sh'), str(tree / 'tpl' / 'link.sh'))
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'))
    with pytest.raises(TemplateError):
        tmpl.get_file('link.sh')


@pytest.mark.parametrize('name, message', [
    ('missing.sh', 'was not found'),
    ('http://example.com/x.sh', 'cannot fetch'),
])
def test_get_file_errors(tree, name, message):
    tmpl = Template.load(str(tree / 'tpl' / 'main.yaml'))
    with pytest.raises(TemplateError) as err:
        tmpl.get_file(name, ('resources', 'r'))
    assert message in err.value.message
    assert err.value.path == ('resources', 'r')


def test_get_file_without_a_directory():
    tmpl = Template.load('heat_template_version: 2016-10-14\n')
    with pytest.raises(TemplateError) as err:
        tmpl.get_file('x.sh')
    assert 'no directory' in err.value.message
