# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.keystone.identity import (
    Domain, Group, Project, Role)

from .keystone_fakes import conn, ctx, refusal, sent, updated


def test_project_create_sends_heats_body_and_gives_heats_attributes():
    c = conn()
    dom = c.fake.add('domains', name='corp', enabled=True)
    parent = c.fake.add('projects', name='top', domain_id=dom)
    x = ctx('OS::Keystone::Project', {'domain': 'corp', 'parent': 'top', 'tags': ['a']}, conn=c)
    ident = Project().create(x)
    # the physical name when no name is given; keystoneclient's body (Nones left out)
    assert sent(c, 'post') == [('/projects', {'project': {
        'name': 's-res-abc', 'domain_id': dom, 'description': '', 'enabled': True,
        'parent_id': parent, 'tags': ['a']}})]
    attrs = Project().attributes(x, x.live)
    assert attrs['name'] == 's-res-abc' and attrs['domain_id'] == dom
    assert attrs['parent_id'] == parent and attrs['is_domain'] is False and attrs['enabled'] is True
    assert attrs['show']['id'] == ident
    # found again by its name in its domain (a create whose answer was lost)
    x.physical_id = None
    assert Project().find(x) == ident and Project().found_is_whole(x)


def test_project_update_in_place_and_replace_rules():
    assert all(Project.update_allowed(p) for p in ('name', 'domain', 'description', 'enabled', 'tags'))
    assert not Project.update_allowed('parent')        # a new parent is a new project
    c = conn()
    ident = c.fake.add('projects', name='p', domain_id='default', description='', enabled=True,
                       tags=['a'])
    x = updated(c, 'OS::Keystone::Project', {'name': 'p', 'tags': ['a']},
                {'description': 'new', 'tags': [], 'enabled': False}, ident)
    Project().update(x)
    # a name set back to nothing is the physical name again; cleared tags are sent
    assert sent(c, 'patch') == [('/projects/' + ident, {'project': {
        'name': 's-res-abc', 'description': 'new', 'enabled': False, 'tags': []}})]


def test_project_drift_compares_heats_live_properties():
    c = conn()
    x = ctx('OS::Keystone::Project', {'name': 'p', 'description': 'd'}, conn=c)
    x.physical_id = Project().create(x)
    assert Project().drift(x, Project().show(x)) == []
    c.fake.objects['projects'][x.physical_id].update(description='changed', enabled=False)
    assert Project().drift(x, Project().show(x)) == ['description', 'enabled']


def test_project_delete_removes_neutrons_default_group_then_the_project():
    c = conn()
    ident = c.fake.add('projects', name='p', domain_id='default')
    c.network.security_groups.return_value = [mock.Mock(id='sg1')]
    x = ctx('OS::Keystone::Project', {'name': 'p'}, conn=c, physical_id=ident, action='DELETE')
    Project().delete(x)
    c.network.security_groups.assert_called_once_with(project_id=ident, name='default')
    c.network.delete_security_group.assert_called_once_with('sg1')
    assert ident not in c.fake.objects['projects']
    Project().delete(x)        # gone already is success
    assert Project().show(x) is None


def test_domain_is_disabled_before_its_delete():
    c = conn()
    ident = c.fake.add('domains', name='d', enabled=True)
    x = ctx('OS::Keystone::Domain', {'name': 'd'}, conn=c, physical_id=ident, action='DELETE')
    Domain().delete(x)
    assert sent(c, 'patch') == [('/domains/' + ident, {'domain': {'enabled': False}})]
    assert ident not in c.fake.objects['domains']
    Domain().delete(x)


def test_domain_create_leaves_out_a_description_not_given():
    c = conn()
    x = ctx('OS::Keystone::Domain', {'name': 'corp'}, conn=c)
    Domain().create(x)
    assert sent(c, 'post') == [('/domains', {'domain': {'name': 'corp', 'enabled': True}})]
    # the name is taken: Keystone's 409, and find sees that object (the engine keeps the conflict)
    with pytest.raises(CloudConflict):
        Domain().create(ctx('OS::Keystone::Domain', {'name': 'corp'}, conn=c))


def test_role_name_in_place_domain_replaces():
    assert Role.update_allowed('name') and not Role.update_allowed('domain')
    c = conn()
    x = ctx('OS::Keystone::Role', {'domain': 'default'}, conn=c)
    ident = Role().create(x)
    assert sent(c, 'post') == [('/roles', {'role': {'name': 's-res-abc', 'domain_id': 'default'}})]
    x = updated(c, 'OS::Keystone::Role', {'domain': 'default'}, {'name': 'r2', 'domain': 'default'},
                ident)
    Role().update(x)
    assert sent(c, 'patch') == [('/roles/' + ident, {'role': {'name': 'r2'}})]
    assert Role().attributes(x, Role().show(x)) == {'show': c.fake.objects['roles'][ident]}


def test_group_with_roles_grants_after_its_post_and_moves_them_on_update():
    c = conn()
    role = c.fake.add('roles', name='reader')
    proj = c.fake.add('projects', name='p', domain_id='default')
    x = ctx('OS::Keystone::Group', {'name': 'g', 'roles': [{'role': 'reader', 'project': 'p'}]},
            conn=c)
    x.physical_id = Group().create(x)
    assert sent(c, 'post') == [('/groups', {'group': {'name': 'g', 'domain_id': 'default',
                                                      'description': ''}})]
    assert Group().check_create_complete(x)
    assert c.fake.assignments == {('project', proj, 'group', x.physical_id, role)}
    assert Group().drift(x, Group().show(x)) == []
    # an update to the domain: granted there, revoked from the project
    y = updated(c, 'OS::Keystone::Group', {'name': 'g', 'roles': [{'role': 'reader', 'project': 'p'}]},
                {'name': 'g', 'roles': [{'role': 'reader', 'domain': 'default'}]}, x.physical_id)
    Group().update(y)
    assert c.fake.assignments == {('domain', 'default', 'group', x.physical_id, role)}
    assert sent(c, 'patch') == []           # nothing of the group itself changed
    c.fake.assignments.clear()
    assert Group().drift(y, Group().show(y)) == ['roles']


def test_a_role_rewritten_from_its_name_to_its_id_stays_granted():
    c = conn()
    role = c.fake.add('roles', name='reader')
    gid = c.fake.add('groups', name='g', domain_id='default')
    c.fake.assignments.add(('domain', 'default', 'group', gid, role))
    y = updated(c, 'OS::Keystone::Group', {'name': 'g', 'roles': [{'role': 'reader', 'domain': 'default'}]},
                {'name': 'g', 'roles': [{'role': role, 'domain': 'default'}]}, gid)
    Group().update(y)
    assert c.fake.assignments == {('domain', 'default', 'group', gid, role)}
    assert sent(c, 'delete') == []


@pytest.mark.parametrize('roles, refused', [
    ([{'role': 'r', 'project': 'p', 'domain': 'd'}],
     'Cannot define the following properties at the same time: project, domain.'),
    ([{'role': 'r'}], 'Either project or domain must be specified for role r'),
    ([{'role': 'r', 'project': None}], None),      # null reads as '' (given), as in Heat
    ([{'role': 'r', 'domain': 'd'}], None),
])
def test_group_validate_is_heats(roles, refused):
    found = refusal(Group, {'roles': roles})
    assert (found[1] if found else None) == refused
