# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import group_attributes as ga

DATA = {
    '0': {'name': 'vol-0', 'size': 1, 'meta': {'k': ['a', 'b']}},
    '2': {'name': 'vol-2', 'size': 2, 'meta': {'k': ['c']}},
}


def ref_of(name):
    return 'uuid-' + name


def attr_of(name, path):
    return ga.select_path(DATA.get(name, {}), path)


def rg(key, *path, **kw):
    names = kw.pop('names', ['0', '2'])
    return ga.resource_group_attribute('grp', key, path, names, ref_of=ref_of, attr_of=attr_of, **kw)


def test_resource_group_refs_and_maps():
    assert rg('refs') == ['uuid-0', 'uuid-2']
    assert rg('refs', 1) == 'uuid-2'
    assert rg('refs', 5) is None
    assert rg('refs_map') == {'0': 'uuid-0', '2': 'uuid-2'}
    assert rg('removed_rsrc_list', removed=['1', '10', '3']) == ['1', '10', '3']
    assert rg('removed_rsrc_list') == []


def test_resource_group_member_attributes():
    assert rg('name') == ['vol-0', 'vol-2']
    assert rg('meta', 'k', 0) == ['a', 'c']
    assert rg('meta', 'k', 1) == ['b', None]
    assert rg('attributes', 'size') == {'0': 1, '2': 2}
    assert rg('resource.2') == 'uuid-2'
    assert rg('resource.2.name') == 'vol-2'
    assert rg('resource.0.meta', 'k') == ['a', 'b']
    assert rg('resource.0', 'meta', 'k', 1) == 'b'


def test_resource_group_errors():
    with pytest.raises(TemplateError) as err:
        rg('attributes')
    assert str(err.value) == 'The Referenced Attribute (grp attributes) is incorrect.'
    with pytest.raises(ga.MemberNotFound) as err:
        rg('resource.1')
    assert str(err.value) == "Member '1' not found in group resource 'grp'."
    with pytest.raises(ga.MemberNotFound):
        rg('resource.1.name')
    # an empty group answers None for a member attribute, as Heat does
    assert rg('resource.1.name', names=[]) is None
    with pytest.raises(ga.MemberNotFound):
        rg('resource.1', names=[])


def test_chain_attributes():
    names = ['0', '1']

    def chain(key, *path):
        return ga.chain_attribute('chain', key, path, names, ref_of=ref_of, attr_of=attr_of)

    assert chain('refs') == ['uuid-0', 'uuid-1']
    assert chain('refs', 0) == 'uuid-0'
    assert chain('name') == ['vol-0', None]
    assert chain('attributes', 'size') == {'0': 1, '1': None}
    assert chain('resource.1') == 'uuid-1'
    with pytest.raises(ga.MemberNotFound):
        chain('resource.4.name')
    with pytest.raises(TemplateError):
        chain('attributes')


MEMBERS = [
    {'name': 'newer', 'status': 'CREATE_COMPLETE', 'created_time': '2026-01-02T00:00:00'},
    {'name': 'broken', 'status': 'CREATE_FAILED', 'created_time': '2026-01-01T00:00:00'},
    {'name': 'older', 'status': 'UPDATE_COMPLETE', 'created_time': '2026-01-01T00:00:00'},
]
IPS = {'newer': '10.0.0.2', 'older': '10.0.0.1', 'broken': None}


def asg(key, *path):
    return ga.asg_attribute('asg', key, path, MEMBERS, ref_of=ref_of,
                            attr_of=lambda name, p: ga.select_path({'ip': IPS[name]}, p))


def test_asg_attributes_leave_failed_members_out_oldest_first():
    assert asg('current_size') == 2
    assert asg('refs') == ['uuid-older', 'uuid-newer']
    assert asg('refs_map') == {'older': 'uuid-older', 'newer': 'uuid-newer'}
    assert asg('outputs_list', 'ip') == ['10.0.0.1', '10.0.0.2']
    assert asg('outputs', 'ip') == {'older': '10.0.0.1', 'newer': '10.0.0.2'}
    assert asg('resource.0') == 'uuid-older'
    assert asg('resource.1.ip') == '10.0.0.2'
    assert asg('resource.-1', 'ip') == '10.0.0.2'


def test_asg_attribute_errors():
    with pytest.raises(ga.MemberNotFound) as err:
        asg('resource.2')
    assert str(err.value) == "Member '2' not found in group resource 'asg'."
    with pytest.raises(ga.MemberNotFound):
        asg('resource.x.ip')
    for key in ('outputs', 'outputs_list', 'ip'):
        with pytest.raises(TemplateError) as err:
            asg(key)
        assert str(err.value) == 'The Referenced Attribute (asg %s) is incorrect.' % key


def test_select_path():
    value = {'a': [{'b': 'xyz'}]}
    assert ga.select_path(value, ['a', 0, 'b']) == 'xyz'
    assert ga.select_path(value, ['a', 0, 'b', 1]) == 'y'
    assert ga.select_path(value, ['a', 'b']) is None
    assert ga.select_path(value, ['a', 3]) is None
    assert ga.select_path(5, ['a']) is None
    assert ga.select_path(value, [1.5]) is None
    assert ga.select_path(value, []) is value
