# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import versions

DATES = ['2013-05-23', '2014-10-16', '2015-04-30', '2015-10-15', '2016-04-08', '2016-10-14',
         '2017-02-24', '2017-09-01', '2018-03-02', '2018-08-31', '2021-04-16']

# The availability matrix of heat-reference.md §1.2, written out independently of
# versions.py: function -> (first version, version from which it is "removed").
MATRIX = {
    'get_param': ('2013-05-23', None), 'get_resource': ('2013-05-23', None),
    'get_attr': ('2013-05-23', None), 'get_file': ('2013-05-23', None),
    'list_join': ('2013-05-23', None), 'str_replace': ('2013-05-23', None),
    'resource_facade': ('2013-05-23', None),
    'repeat': ('2015-04-30', None), 'digest': ('2015-04-30', None),
    'str_split': ('2015-10-15', None), 'map_merge': ('2016-04-08', None),
    'yaql': ('2016-10-14', None), 'map_replace': ('2016-10-14', None), 'if': ('2016-10-14', None),
    'filter': ('2017-02-24', None), 'str_replace_strict': ('2017-02-24', None),
    'make_url': ('2017-09-01', None), 'list_concat': ('2017-09-01', None),
    'list_concat_unique': ('2017-09-01', None), 'contains': ('2017-09-01', None),
    'str_replace_vstrict': ('2017-09-01', None),
    'Fn::GetAZs': ('2013-05-23', '2014-10-16'), 'Ref': ('2013-05-23', '2014-10-16'),
    'Fn::Join': ('2013-05-23', '2014-10-16'), 'Fn::Split': ('2013-05-23', '2014-10-16'),
    'Fn::Replace': ('2013-05-23', '2014-10-16'), 'Fn::Base64': ('2013-05-23', '2014-10-16'),
    'Fn::MemberListToMap': ('2013-05-23', '2014-10-16'),
    'Fn::ResourceFacade': ('2013-05-23', '2014-10-16'),
    'Fn::Select': ('2013-05-23', '2015-10-15'),
}

# Which implementation each version uses for the functions whose semantics changed.
VARIANTS = [
    ('get_attr', '2013-05-23', 'get_attr_then_select'),
    ('get_attr', '2014-10-16', 'get_attr'), ('get_attr', '2015-04-30', 'get_attr'),
    ('get_attr', '2015-10-15', 'get_attr_all'), ('get_attr', '2021-04-16', 'get_attr_all'),
    ('list_join', '2015-04-30', 'list_join'), ('list_join', '2015-10-15', 'list_join_multiple'),
    ('str_replace', '2015-04-30', 'str_replace'), ('str_replace', '2015-10-15', 'str_replace_json'),
    ('repeat', '2015-04-30', 'repeat'), ('repeat', '2016-04-08', 'repeat'),
    ('repeat', '2016-10-14', 'repeat_with_map'), ('repeat', '2017-02-24', 'repeat_with_map'),
    ('repeat', '2017-09-01', 'repeat_nested'), ('repeat', '2021-04-16', 'repeat_nested'),
    ('if', '2018-08-31', 'if'), ('if', '2021-04-16', 'if_nullable'),
]


def expected(fn, version):
    since, removed = MATRIX[fn]
    if removed and version >= removed:
        return 'removed'
    return 'present' if version >= since else 'absent'


def actual(fn, version):
    impl = versions.VERSIONS[version].functions.get(fn)
    if impl is None:
        return 'absent'
    return 'removed' if impl == 'removed' else 'present'


@pytest.mark.parametrize('version', DATES)
@pytest.mark.parametrize('fn', sorted(MATRIX))
def test_function_availability_matrix(fn, version):
    assert actual(fn, version) == expected(fn, version)


@pytest.mark.parametrize('version', DATES)
def test_no_function_beyond_the_matrix(version):
    assert set(versions.VERSIONS[version].functions) <= set(MATRIX)


@pytest.mark.parametrize('fn, version, impl', VARIANTS)
def test_function_variants(fn, version, impl):
    assert versions.VERSIONS[version].functions[fn] == impl


@pytest.mark.parametrize('version, own', [
    ('2016-10-14', {'get_param', 'equals', 'not', 'and', 'or'}),
    ('2017-02-24', {'get_param', 'equals', 'not', 'and', 'or'}),
    ('2017-09-01', {'get_param', 'equals', 'not', 'and', 'or', 'yaql', 'contains'}),
    ('2018-03-02', {'get_param', 'equals', 'not', 'and', 'or', 'yaql', 'contains'}),
    ('2018-08-31', {'get_param', 'equals', 'not', 'and', 'or', 'yaql', 'contains'}),
    ('2021-04-16', {'get_param', 'equals', 'not', 'and', 'or', 'yaql', 'contains'}),
])
def test_condition_functions(version, own):
    table = versions.VERSIONS[version].condition_functions
    usable = set(n for n, impl in table.items() if impl not in ('invalid', 'removed'))
    assert usable == own
    # Every other function of the version is refused in a condition; the
    # removed ones keep saying "removed".
    for name, impl in versions.VERSIONS[version].functions.items():
        if name not in own:
            assert table[name] == ('removed' if impl == 'removed' else 'invalid'), name


@pytest.mark.parametrize('version', DATES[:5])
def test_no_condition_functions_before_2016_10_14(version):
    assert set(versions.VERSIONS[version].condition_functions.values()) == {'invalid'}


@pytest.mark.parametrize('version', DATES)
def test_sections_and_keys(version):
    info = versions.VERSIONS[version]
    newer = version >= '2016-10-14'
    assert info.sections == frozenset(
        ['heat_template_version', 'description', 'parameter_groups', 'parameters', 'resources',
         'outputs'] + (['conditions'] if newer else []))
    assert set(info.resource_keys) == set(
        ['type', 'properties', 'metadata', 'depends_on', 'deletion_policy', 'update_policy',
         'description'] + (['external_id', 'condition'] if newer else []))
    assert set(info.output_keys) == set(['description', 'value'] + (['condition'] if newer else []))
    assert info.has_conditions is newer
    policies = {'Delete', 'Retain', 'Snapshot'} | ({'delete', 'retain', 'snapshot'} if newer else set())
    assert set(info.deletion_policies) == policies
    assert set(info.deletion_policies.values()) == {'Delete', 'Retain', 'Snapshot'}


@pytest.mark.parametrize('value, date', [(d, d) for d in DATES] + [
    ('newton', '2016-10-14'), ('ocata', '2017-02-24'), ('pike', '2017-09-01'),
    ('queens', '2018-03-02'), ('rocky', '2018-08-31'), ('wallaby', '2021-04-16'),
])
def test_canonical_version(value, date):
    assert versions.canonical_version(value) == date
    assert versions.get(value).date == date


@pytest.mark.parametrize('value', ['2012-12-12', '2016-10-15', 'Newton', 'xena', '', '2013-5-23'])
def test_unknown_version_lists_the_known_ones(value):
    with pytest.raises(TemplateError) as err:
        versions.canonical_version(value, filename='t.yaml', line=1)
    text = str(err.value)
    assert text.startswith('t.yaml:1: heat_template_version: ')
    assert '2013-05-23' in text and 'wallaby' in text and repr(value)[1:-1] in text


@pytest.mark.parametrize('value', [20130523, None, ['2013-05-23'], 2013.5])
def test_version_must_be_a_string(value):
    with pytest.raises(TemplateError) as err:
        versions.canonical_version(value)
    assert 'must be a string' in str(err.value)


def test_known_names():
    names = versions.known_names()
    assert names[:len(DATES)] == DATES
    assert set(names[len(DATES):]) == {'newton', 'ocata', 'pike', 'queens', 'rocky', 'wallaby'}


def test_rocky_is_queens_plus_nothing():
    assert versions.VERSIONS['2018-08-31'].functions == versions.VERSIONS['2018-03-02'].functions
