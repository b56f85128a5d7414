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


def test_alias_bomb_is_refused_before_expanding():
    lines = ['a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]']
    prev = 'a'
    for name in 'bcdefg':
        lines.append('%s: &%s [%s]' % (name, name, ', '.join(['*' + prev] * 10)))
        prev = name
    with pytest.raises(TemplateError) as exc:
        loader.load_text('\n'.join(lines), 'bomb.yaml')
    assert 'expands to more than' in str(exc.value)


def test_honest_aliases_are_fine():
    doc = loader.load_text('a: &x {k: v}\nb: *x\n', 'ok.yaml')
    assert doc.data['b'] == {'k': 'v'}


def test_recursive_alias_is_refused():
    with pytest.raises(TemplateError) as exc:
        loader.load_text('0: &0 [*0]', 'rec.yaml')
    assert 'recursive' in str(exc.value)


@pytest.mark.parametrize('text', ['<<: {a: 1}', '? [1, 2]\n: x'])
def test_merge_keys_and_complex_keys_are_refused(text):
    with pytest.raises(TemplateError):
        loader.load_text(text, 'k.yaml')


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


@pytest.mark.parametrize('text, path, line', [
    ('a:\n  b: [1, !!binary "\xe9"]\n', ('a', 'b', 1), 2),
    ('a:\n  b: {c: 1, <<: {d: 2}}\n', ('a', 'b'), 2),
    ('a:\n  - x\n  - {? [1]: 2}\n', ('a', 1), 3),
])
def test_errors_name_path_and_line(text, path, line):
    with pytest.raises(TemplateError) as exc:
        loader.load_text(text, 'e.yaml')
    assert (exc.value.path, exc.value.line) == (path, line)


def test_node_limit_names_the_first_node_past_it():
    with pytest.raises(TemplateError) as exc:
        loader.load_text('a:\n- 1\n- [2, 3]\n- 4\n', 'n.yaml', max_nodes=4)
    assert exc.value.line == 3 and 'more than 4 nodes' in str(exc.value)
    assert loader.load_text('a:\n- 1\n- [2, 3]\n- 4\n', 'n.yaml', max_nodes=7).data == {'a': [1, [2, 3], 4]}


def test_keys_of_other_types_and_timestamps():
    doc = loader.load_text('2: a\ntrue: b\nnull: c\n2001-01-01: d\nx: 2001-01-01 10:00:00\n')
    assert doc.data == {2: 'a', True: 'b', None: 'c', '2001-01-01': 'd', 'x': '2001-01-01 10:00:00'}


def test_the_yaml_constructor_keeps_no_nodes():
    loader.load_text('a: [1, 2.5, yes, null]\n')
    with pytest.raises(TemplateError):
        loader.load_text('a: !!binary "\xe9"\n')
    assert not loader._scalar_constructor.constructed_objects
    assert not loader._scalar_constructor.recursive_objects


def test_nesting_as_deep_as_libyaml_allows_loads():
    # libyaml refuses more than 1000 levels; the builder must not give up first.
    depth = 900
    assert loader.load_text('a: ' + '[' * depth + ']' * depth).data['a'] != []


def test_tags_resolve_as_pyyaml_resolves_them():
    text = 'a: [! 1, "2", \'3\', !!int "4", ! {b: 1}, ! [c], !!str 5, 6, ~, "", yes]\n'
    assert loader.load_text(text).data == {'a': [1, '2', '3', 4, {'b': 1}, ['c'], '5', 6, None, '', True]}
