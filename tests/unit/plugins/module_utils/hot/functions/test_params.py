# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import functions as fns

from .conftest import ALL_VERSIONS, FakeStack, failure, value

PARAMS = {
    's': 'text', 'n': 3, 'l': ['x', 'y', 'z'], 'b': True,
    'j': {'k': {'i': [1, 2]}, 'm': 'v', '0': 'zero'},
    'OS::stack_id': 'sid', 'OS::project_id': 'pid',
}


@pytest.mark.parametrize('args, expected', [
    ('s', 'text'), (['s'], 'text'), ('n', 3), ('l', ['x', 'y', 'z']), ('b', True),
    (['j', 'k', 'i', 1], 2), (['j', 'm'], 'v'), (['l', 1], 'y'), (['l', '2'], 'z'),
    (['j', '0'], 'zero'), (['s', 0], 't'),
    # a path that does not fit gives ''
    (['j', 'nope'], ''), (['l', 7], ''), (['l', 'x'], ''), (['n', 0], ''),
    (['j', 'k', 'i', 1, 0], ''), (['j', ['k']], ''), (['j', None], ''),
    ('OS::stack_name', 'fake'), ('OS::stack_id', 'sid'), ('OS::project_id', 'pid'),
    ({'get_param': 's'}, None),  # the name itself comes from a function
])
@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_get_param(args, expected, version):
    params = dict(PARAMS, text='indirect')
    if isinstance(args, dict):
        expected = 'indirect'
    assert value({'get_param': args}, version, params=params) == expected


@pytest.mark.parametrize('args, message', [
    ('nosuch', 'Parameter "nosuch" is not defined'),
    ([], 'needs a parameter name'),
    ('', 'needs a parameter name'),
    ({'a': 1}, 'must be a parameter name or a list'),
    ([1, 2], 'must be a string'),
    (5, 'must be a parameter name or a list'),
])
def test_get_param_errors_when_resolved(args, message):
    phase, err = failure({'get_param': args}, params=PARAMS)
    assert phase == 'resolve'
    assert message in err.message
    assert err.path == ('x', 'get_param')


@pytest.mark.parametrize('where', [('resources', 'r', 'properties', 'p'), ('outputs', 'o', 'value'),
                                   ('resources', 'r', 'metadata', 'm')])
def test_undeclared_parameter_fails_only_when_resolved(where):
    # Heat's template validate accepts it anywhere; resolving refuses it.
    stack = FakeStack(params=PARAMS)
    parsed = stack.template.parse({'get_param': 'nosuch'}, where, stack=stack)
    parsed.validate()
    fns.check_functions([parsed])
    with pytest.raises(TemplateError) as err:
        fns.resolve(parsed)
    assert 'not defined' in err.value.message


@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_get_file_from_files(version):
    assert value({'get_file': 'a.txt'}, version, files={'a.txt': 'hello'}) == 'hello'
    assert value({'get_file': {'get_param': 's'}}, version, params={'s': 'a.txt'},
                 files={'a.txt': 'hi'}) == 'hi'


def test_get_file_missing_literal_fails_validation():
    phase, err = failure({'get_file': 'nosuch.txt'})
    assert phase == 'validate'
    assert 'nosuch.txt' in err.message


@pytest.mark.parametrize('args', [['a.txt'], 5, {'a': 'b'}])
def test_get_file_argument_must_be_a_string(args):
    phase, err = failure({'get_file': args}, files={'a.txt': 'x'})
    assert phase == 'resolve'
    assert 'must be a string' in err.message


def test_get_file_reads_next_to_the_template(tmp_path):
    (tmp_path / 'main.yaml').write_text('heat_template_version: 2016-10-14\n')
    (tmp_path / 'boot.sh').write_text('echo\n')
    stack = FakeStack('2016-10-14')
    stack.template = type(stack.template).load(str(tmp_path / 'main.yaml'))
    assert value({'get_file': 'boot.sh'}, stack=stack) == 'echo\n'
