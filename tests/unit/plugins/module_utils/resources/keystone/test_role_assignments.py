# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.keystone.role_assignments import (
    GroupRoleAssignment, UserRoleAssignment)

from .keystone_fakes import conn, ctx, refusal, sent, updated


def _world():
    c = conn()
    ids = dict(role=c.fake.add('roles', name='member'),
               admin=c.fake.add('roles', name='admin'),
               proj=c.fake.add('projects', name='p', domain_id='default'),
               u1=c.fake.add('users', name='u1', domain_id='default'),
               u2=c.fake.add('users', name='u2', domain_id='default'),
               g=c.fake.add('groups', name='g', domain_id='default'))
    return c, ids


def test_user_grants_are_made_at_check_and_revoked_at_delete():
    c, ids = _world()
    props = {'user': 'u1', 'roles': [{'role': 'member', 'project': 'p'},
                                     {'role': 'admin', 'domain': 'default'}]}
    x = ctx('OS::Keystone::UserRoleAssignment', props, conn=c)
    x.physical_id = UserRoleAssignment().create(x)
    assert x.physical_id == 's-res-abc' and sent(c, 'put') == []
    assert UserRoleAssignment().check_create_complete(x)
    assert c.fake.assignments == {('project', ids['proj'], 'user', ids['u1'], ids['role']),
                                  ('domain', 'default', 'user', ids['u1'], ids['admin'])}
    # Heat keeps no id: get_resource is the name, show is null
    assert UserRoleAssignment().reference_id(x) == 'res'
    assert UserRoleAssignment().attributes(x, UserRoleAssignment().show(x)) == {'show': None}
    assert UserRoleAssignment().drift(x, UserRoleAssignment().show(x)) == []
    c.fake.assignments.discard(('domain', 'default', 'user', ids['u1'], ids['admin']))
    assert UserRoleAssignment().drift(x, UserRoleAssignment().show(x)) == ['roles']
    # someone else's grant on the same user is left alone
    c.fake.assignments.add(('domain', 'default', 'user', ids['u1'], ids['role']))
    UserRoleAssignment().delete(x)
    assert c.fake.assignments == {('domain', 'default', 'user', ids['u1'], ids['role'])}


def test_a_changed_user_moves_the_grants():
    c, ids = _world()
    old = {'user': 'u1', 'roles': [{'role': 'member', 'project': 'p'}]}
    x = ctx('OS::Keystone::UserRoleAssignment', old, conn=c)
    x.physical_id = UserRoleAssignment().create(x)
    UserRoleAssignment().check_create_complete(x)
    y = updated(c, 'OS::Keystone::UserRoleAssignment', old,
                {'user': 'u2', 'roles': [{'role': 'member', 'project': 'p'}]}, x.physical_id,
                data=dict(x.data))
    UserRoleAssignment().update(y)
    assert c.fake.assignments == {('project', ids['proj'], 'user', ids['u2'], ids['role'])}
    assert y.data['actor_id'] == ids['u2']


def test_group_roles_update_in_place_and_a_gone_group_has_nothing_to_revoke():
    assert GroupRoleAssignment.update_allowed('group') and GroupRoleAssignment.update_allowed('roles')
    c, ids = _world()
    old = {'group': 'g', 'roles': [{'role': 'member', 'project': 'p'}]}
    x = ctx('OS::Keystone::GroupRoleAssignment', old, conn=c)
    x.physical_id = GroupRoleAssignment().create(x)
    GroupRoleAssignment().check_create_complete(x)
    y = updated(c, 'OS::Keystone::GroupRoleAssignment', old,
                {'group': 'g', 'roles': [{'role': 'admin', 'project': 'p'}]}, x.physical_id,
                data=dict(x.data))
    GroupRoleAssignment().update(y)
    assert c.fake.assignments == {('project', ids['proj'], 'group', ids['g'], ids['admin'])}
    del c.fake.objects['groups'][ids['g']]
    c.identity.reset_mock()
    GroupRoleAssignment().delete(y)
    assert sent(c, 'delete') == []
    assert GroupRoleAssignment().show(y) is None


def test_validate_is_heats():
    assert refusal(UserRoleAssignment, {'user': 'u', 'roles': [
        {'role': 'r', 'project': 'p', 'domain': 'd'}]})[1] == \
        'Cannot define the following properties at the same time: project, domain.'
    assert refusal(GroupRoleAssignment, {'group': 'g', 'roles': [{'role': 'r'}]})[1] == \
        'Either project or domain must be specified for role r'
