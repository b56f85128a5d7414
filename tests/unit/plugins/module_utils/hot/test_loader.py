# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    EnvironmentError_, TemplateError)
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import loader

TEMPLATE = """heat_template_version: 2013-05-23
description: >
  folded
resources:
  srv:
    type: OS::Heat::None
    properties:
      items: [1, 2.5, yes, null, 2020-01-01, '07']
"""


def test_yaml_values_load_as_heat_loads_them():
    doc = loader.load_text(TEMPLATE, 't.yaml')
    assert doc.data['heat_template_version'] == '2013-05-23'
    assert doc.data['description'] == 'folded\n'
    assert doc.data['resources']['srv']['properties']['items'] == [1, 2.5, True, None, '2020-01-01', '07']


@pytest.mark.parametrize('path, line', [
    ((), 1),
    (('heat_template_version',), 1),
    (('resources',), 4),
    (('resources', 'srv'), 5),
    (('resources', 'srv', 'type'), 6),
    (('resources', 'srv', 'properties', 'items', 3), 8),
    # Unknown paths fall back to their nearest known ancestor.
    (('resources', 'srv', 'properties', 'nope', 'deeper'), 7),
])
def test_positions_name_the_line_of_each_path(path, line):
    doc = loader.load_text(TEMPLATE, 't.yaml')
    assert doc.line_of(path) == line


def test_document_error_carries_file_line_and_path():
    doc = loader.load_text(TEMPLATE, 't.yaml')
    err = doc.error(TemplateError, 'bad', ('resources', 'srv', 'type'))
    assert str(err) == 't.yaml:6: resources.srv.type: bad'


def test_json_is_parsed_as_json_and_keeps_positions():
    doc = loader.load_text('{\n "heat_template_version": "2015-04-30",\n "resources": {}\n}', 't.json')
    assert doc.data == {'heat_template_version': '2015-04-30', 'resources': {}}
    assert doc.line_of(('resources',)) == 3


def test_bad_json_names_the_line():
    with pytest.raises(TemplateError) as exc:
        loader.load_text('{\n "a": 1,\n "b": \n}', 'bad.json')
    assert exc.value.line == 4
    assert 'JSON' in str(exc.value)


def test_bad_yaml_names_the_line():
    with pytest.raises(TemplateError) as exc:
        loader.load_text('a: [1,\nb: 2', 'bad.yaml')
    assert str(exc.value).startswith('bad.yaml:3: ')


def test_empty_document_is_an_empty_mapping():
    assert loader.load_text('', 'e.yaml').data == {}
    assert loader.load_text('# only a comment\n', 'e.yaml').data == {}


def test_oversized_document_is_refused_with_heats_limit():
    text = 'description: "%s"\n' % ('x' * loader.MAX_TEMPLATE_SIZE)
    with pytest.raises(TemplateError) as exc:
        loader.load_text(text, 'big.yaml')
    assert 'exceeds maximum allowed size (524288 bytes)' in str(exc.value)


def test_error_class_is_the_callers():
    with pytest.raises(EnvironmentError_):
        loader.load_text('a: [', 'env.yaml', error_cls=EnvironmentError_)


def test_invalid_utf8_is_refused():
    with pytest.raises(TemplateError):
        loader.load_text(b'a: \xff', 'x.yaml')


def test_load_file_reads_and_names_the_file(tmp_path):
    path = tmp_path / 't.yaml'
    path.write_text('heat_template_version: 2016-10-14\n')
    assert loader.load_file(str(path)).filename == str(path)
    with pytest.raises(TemplateError) as exc:
        loader.load_file(str(tmp_path / 'missing.yaml'))
    assert 'missing.yaml' in str(exc.value)


def test_lines_are_found_again_after_loading():
    # The node tree is not kept: the first line asked for composes the text again.
    doc = loader.load_text(TEMPLATE, 't.yaml')
    assert doc.positions.root is None
    assert doc.line_of(('resources', 'srv', 'properties')) == 7
    assert doc.line_of(('resources', 'srv', 'properties', 'items', 1)) == 8


def test_json_that_yaml_cannot_read_has_no_lines():
    # libyaml refuses escaped surrogate pairs.
    doc = loader.load_text('{"a": "\\ud83d\\ude00",\n "b": 1}', 't.json')
    assert doc.data == {'a': '\U0001f600', 'b': 1}
    assert doc.line_of(('b',)) is None


def test_a_control_character_is_refused_naming_its_line():
    with pytest.raises(TemplateError) as err:
        loader.load_text('a: 1\nb: "x\x01"\n', filename='f.yaml')
    assert str(err.value) == 'f.yaml:2: Error parsing YAML: unacceptable character #x0001: control ' \
                             'characters are not allowed'
