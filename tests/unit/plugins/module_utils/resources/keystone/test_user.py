# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.keystone.user import User

from .keystone_fakes import conn, ctx, refusal, sent, updated


def _world():
    c = conn()
    ids = dict(role=c.fake.add('roles', name='member'),
               proj=c.fake.add('projects', name='p', domain_id='default'),
               g1=c.fake.add('groups', name='g1', domain_id='default'),
               g2=c.fake.add('groups', name='g2', domain_id='default'))
    return c, ids


def test_user_create_then_groups_and_roles():
    c, ids = _world()
    props = {'name': 'alice', 'password': 'pw', 'email': 'a@x', 'default_project': 'p',
             'groups': ['g1'], 'roles': [{'role': 'member', 'project': 'p'}]}
    x = ctx('OS::Keystone::User', props, conn=c)
    x.physical_id = User().create(x)
    assert sent(c, 'post') == [('/users', {'user': {
        'name': 'alice', 'domain_id': 'default', 'description': '', 'enabled': True,
        'email': 'a@x', 'password': 'pw', 'default_project_id': ids['proj']}})]
    assert 'password' not in x.live
    assert User().check_create_complete(x)
    assert c.fake.members == {(ids['g1'], x.physical_id)}
    assert c.fake.assignments == {('project', ids['proj'], 'user', x.physical_id, ids['role'])}
    attrs = User().attributes(x, User().show(x))
    assert attrs['name'] == 'alice' and attrs['default_project_id'] == ids['proj']
    assert attrs['domain_id'] == 'default' and attrs['enabled'] is True
    assert attrs['password_expires_at'] is None
    assert User().drift(x, User().show(x)) == []
    # a second check after a run that died: the same grants, nothing more
    assert User().check_create_complete(x)
    assert len(c.fake.assignments) == 1


def test_user_update_in_place_moves_groups_and_changes_only_what_changed():
    assert all(User.update_allowed(p) for p in ('name', 'domain', 'description', 'enabled', 'email',
                                                'password', 'default_project', 'groups', 'roles'))
    c, ids = _world()
    x = ctx('OS::Keystone::User', {'name': 'bob', 'groups': ['g1']}, conn=c)
    x.physical_id = User().create(x)
    User().check_create_complete(x)
    y = updated(c, 'OS::Keystone::User', {'name': 'bob', 'groups': ['g1']},
                {'name': 'bob', 'groups': ['g2'], 'password': 'new', 'enabled': False},
                x.physical_id)
    User().update(y)
    assert sent(c, 'patch') == [('/users/' + x.physical_id,
                                 {'user': {'enabled': False, 'password': 'new'}})]
    assert c.fake.members == {(ids['g2'], x.physical_id)}
    c.fake.members.clear()
    assert User().drift(y, User().show(y)) == ['groups']
    c.fake.objects['users'][x.physical_id]['email'] = 'someone@else'
    assert 'email' not in User().drift(y, User().show(y))     # no email was given


def test_user_find_by_name_in_its_domain():
    c, _ids = _world()
    x = ctx('OS::Keystone::User', {}, conn=c)
    ident = User().create(x)
    assert User().find(ctx('OS::Keystone::User', {}, conn=c)) == ident
    assert User().find(ctx('OS::Keystone::User', {'name': 'other'}, conn=c)) is None


def test_user_delete_is_one_delete():
    c, ids = _world()
    x = ctx('OS::Keystone::User', {'groups': ['g1']}, conn=c)
    x.physical_id = User().create(x)
    User().check_create_complete(x)
    c.identity.reset_mock()
    User().delete(x)
    assert sent(c, 'delete') == [('/users/' + x.physical_id, None)]
    User().delete(x)


def test_user_validate_is_heats():
    assert refusal(User, {'roles': [{'role': 'r'}]})[1] == \
        'Either project or domain must be specified for role r'
    assert refusal(User, {'roles': [{'role': 'r', 'domain': 'd'}]}) is None
