# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions import base

from .conftest import ALL_VERSIONS, FakeStack, failure, since, value


class Boom(base.Function):
    __slots__ = ()

    def result(self):
        return {}['missing']


class Nothing(base.Function):
    __slots__ = ()

    def result(self):
        return Ellipsis


def test_resolve_plain_data_is_unchanged():
    data = {'a': [1, {'b': None}], 'c': (True, 'x')}
    assert base.resolve(data) == {'a': [1, {'b': None}], 'c': [True, 'x']}


def test_resolve_drops_ellipsis_items():
    nothing = Nothing(None, 'n', None)
    assert base.resolve({'a': nothing, 'b': 1}) == {'b': 1}
    assert base.resolve([1, nothing, 2]) == [1, 2]
    assert base.resolve(nothing) is None
    assert base.resolve(nothing, nullable=True) is Ellipsis


def test_stray_python_errors_become_template_errors():
    boom = Boom(None, 'boom', None, ('resources', 'r', 'boom'))
    with pytest.raises(TemplateError) as err:
        base.resolve({'k': boom})
    assert err.value.path == ('resources', 'r', 'boom')


def test_function_needs_a_stack_to_evaluate():
    fn = base.Function(None, 'get_param', 'p', ('x', 'get_param'))
    with pytest.raises(TemplateError) as err:
        fn.need_stack()
    assert 'within a stack' in err.value.message


def test_dependencies_and_recorded_dependencies_agree():
    stack = FakeStack(resources=('a', 'b', 'c'))
    record = []
    parsed = stack.template.parse(
        {'x': [{'get_resource': 'a'}, {'get_attr': ['b', 'v']}],
         'y': {'list_join': [',', [{'get_resource': 'c'}, {'get_param': 'p'}]]}},
        stack=stack, record=record)
    assert sorted(base.dependencies(parsed)) == ['a', 'b', 'c']
    assert sorted(base.recorded_dependencies(record)) == ['a', 'b', 'c']


def test_check_functions_runs_only_own_checks():
    stack = FakeStack('2014-10-16', resources=('a',))
    record = []
    stack.template.parse({'Ref': 'a'}, stack=stack, record=record)
    with pytest.raises(TemplateError) as err:
        base.check_functions(record)
    assert 'removed' in err.value.message


@pytest.mark.parametrize('fn, args, removed_from', [
    ('Fn::GetAZs', '', '2014-10-16'), ('Ref', 'p', '2014-10-16'),
    ('Fn::Join', [',', ['a']], '2014-10-16'), ('Fn::Split', [',', 'a'], '2014-10-16'),
    ('Fn::Replace', [{'a': 'b'}, 'a'], '2014-10-16'), ('Fn::Base64', 'x', '2014-10-16'),
    ('Fn::MemberListToMap', ['N', 'V', []], '2014-10-16'),
    ('Fn::ResourceFacade', 'Metadata', '2014-10-16'), ('Fn::Select', [0, ['a']], '2015-10-15'),
])
@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_removed_cfn_functions(fn, args, removed_from, version):
    if version < removed_from:
        return
    phase, err = failure({fn: args}, version, params={'p': 'v'})
    assert phase == 'validate'
    assert 'removed' in err.message and fn in err.message and version in err.message
    assert err.path == ('x', fn)


@pytest.mark.parametrize('version', since('2014-10-16'))
def test_removed_function_resolves_to_its_raw_form(version):
    stack = FakeStack(version)
    parsed = stack.template.parse({'Fn::Base64': 'x'}, stack=stack)
    assert base.resolve(parsed) == {'Fn::Base64': 'x'}


@pytest.mark.parametrize('version', ALL_VERSIONS)
def test_unknown_function_names_are_plain_data(version):
    snippet = {'Fn::FindInMap': ['a', 'b'], 'nested': {'get_parameter': 'x'}}
    assert value(snippet, version) == snippet
    assert value({'get_parameter': 'x'}, version) == {'get_parameter': 'x'}


def test_a_function_key_beside_other_keys_is_data():
    assert value({'get_param': 'p', 'other': 1}) == {'get_param': 'p', 'other': 1}


def test_sequence_helpers():
    assert base.is_sequence([1]) and base.is_sequence((1,))
    assert not base.is_sequence('ab') and not base.is_sequence({'a': 1})
    assert base.is_mapping({}) and not base.is_mapping([])
