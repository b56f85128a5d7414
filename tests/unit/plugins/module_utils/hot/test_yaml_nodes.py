# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""hot/yaml_nodes.py: composed YAML to plain data, as Heat's loader gives it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import yaml_nodes


def load(text, max_nodes=1000000):
    node = yaml_nodes.compose(text)
    return yaml_nodes.build_data(node, 'f.yaml', max_nodes, text)


def test_alias_bomb_is_refused_before_expanding():
    lines = ['a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]']
    prev = 'a'
    for name in 'bcdefg':
        lines.append('%s: &%s [%s]' % (name, name, ', '.join(['*' + prev] * 10)))
        prev = name
    with pytest.raises(TemplateError) as exc:
        load('\n'.join(lines))
    assert 'expands to more than' in str(exc.value)


def test_honest_aliases_are_fine():
    doc = load('a: &x {k: v}\nb: *x\n')
    assert doc['b'] == {'k': 'v'}


def test_recursive_alias_is_refused():
    with pytest.raises(TemplateError) as exc:
        load('0: &0 [*0]')
    assert 'recursive' in str(exc.value)


@pytest.mark.parametrize('text', ['<<: {a: 1}', '? [1, 2]\n: x'])
def test_merge_keys_and_complex_keys_are_refused(text):
    with pytest.raises(TemplateError):
        load(text)


@pytest.mark.parametrize('text, path, line', [
    ('a:\n  b: [1, !!binary "\xe9"]\n', ('a', 'b', 1), 2),
    ('a:\n  b: {c: 1, <<: {d: 2}}\n', ('a', 'b'), 2),
    ('a:\n  - x\n  - {? [1]: 2}\n', ('a', 1), 3),
])
def test_errors_name_path_and_line(text, path, line):
    with pytest.raises(TemplateError) as exc:
        load(text)
    assert (exc.value.path, exc.value.line) == (path, line)


def test_node_limit_names_the_first_node_past_it():
    with pytest.raises(TemplateError) as exc:
        load('a:\n- 1\n- [2, 3]\n- 4\n', max_nodes=4)
    assert exc.value.line == 3 and 'more than 4 nodes' in str(exc.value)
    assert load('a:\n- 1\n- [2, 3]\n- 4\n', max_nodes=7) == {'a': [1, [2, 3], 4]}


def test_keys_of_other_types_and_timestamps():
    doc = load('2: a\ntrue: b\nnull: c\n2001-01-01: d\nx: 2001-01-01 10:00:00\n')
    assert doc == {2: 'a', True: 'b', None: 'c', '2001-01-01': 'd', 'x': '2001-01-01 10:00:00'}


def test_the_yaml_constructor_keeps_no_nodes():
    load('a: [1, 2.5, yes, null]\n')
    with pytest.raises(TemplateError):
        load('a: !!binary "\xe9"\n')
    assert not yaml_nodes._scalar_constructor.constructed_objects
    assert not yaml_nodes._scalar_constructor.recursive_objects


def test_nesting_as_deep_as_libyaml_allows_loads():
    # libyaml refuses more than 1000 levels; the builder must not give up first.
    depth = 900
    assert load('a: ' + '[' * depth + ']' * depth)['a'] != []


def test_tags_resolve_as_pyyaml_resolves_them():
    text = 'a: [! 1, "2", \'3\', !!int "4", ! {b: 1}, ! [c], !!str 5, 6, ~, "", yes]\n'
    assert load(text) == {'a': [1, '2', '3', 4, {'b': 1}, ['c'], '5', 6, None, '', True]}


def test_nesting_deeper_than_pythons_stack_is_a_template_error_naming_its_line():
    """libyaml refuses nesting past 1,000 levels; an older one (PyYAML 6.0's wheels) composes it:
    the node tree is then walked into data, and running out of stack must be the same error."""
    import yaml
    mark = yaml.Mark('t.yaml', 0, 1, 0, None, None)
    deep = yaml.ScalarNode('tag:yaml.org,2002:str', 'leaf', mark, mark)
    for level in range(5000):
        here = yaml.Mark('t.yaml', 0, 2 + level // 1000, 0, None, None)
        deep = yaml.SequenceNode('tag:yaml.org,2002:seq', [deep], here, here)
    for text in ('no anchor', 'an & anchor'):      # the plain walk and the builder alike
        with pytest.raises(TemplateError) as err:
            yaml_nodes.build_data(deep, 't.yaml', 10 ** 6, text)
        assert 'Error parsing YAML: exceeded maximum nesting depth' in str(err.value)
        assert err.value.filename == 't.yaml' and err.value.line is not None
