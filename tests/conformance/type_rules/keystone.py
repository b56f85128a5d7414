# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Keystone's types: the rule of Heat 27's KeystoneRoleAssignmentMixin
(validate_assignment_properties), which User, Group, UserRoleAssignment and
GroupRoleAssignment run: each ``roles`` entry names a project or a domain,
not both.  Project, Role, Domain, Region, Service and Endpoint have no
validate() of their own.

A ``project`` or ``domain`` given as null reads as '' in Heat, which counts
as given; only one not given at all (or dropped by HOT 2021-04-16's
two-argument ``if``) is None."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from type_rules import HEADER, rule

USER = 'OS::Keystone::User'
GROUP = 'OS::Keystone::Group'
USER_ROLES = 'OS::Keystone::UserRoleAssignment'
GROUP_ROLES = 'OS::Keystone::GroupRoleAssignment'
NEVER = '{equals: [1, 2]}'
BOTH = 'Cannot define the following properties at the same time: project, domain.'


def neither(role):
    return 'Either project or domain must be specified for role %s' % role


def hot_2021(cases):
    return [case._replace(template=case.template.replace(
        HEADER, 'heat_template_version: 2021-04-16\n')) for case in cases]


def _res(type_name, extra, entry):
    return '''
        res:
          type: %s
          properties:
            %s
            roles:
              - %s
        ''' % (type_name, extra, entry)


def _user(entry):
    return _res(USER, 'name: u', entry)


def _group(entry):
    return _res(GROUP, 'name: g', entry)


def _user_roles(entry):
    return _res(USER_ROLES, 'user: u', entry)


def _group_roles(entry):
    return _res(GROUP_ROLES, 'group: g', entry)


PROJECT = '''
        proj:
          type: OS::Keystone::Project'''

CASES = (
    rule(USER, 'project-and-domain', _user('{role: member, project: p, domain: d}'),
         _user('{role: member, project: p}'), BOTH)
    + rule(USER, 'neither-project-nor-domain', _user('{role: member}'),
           _user('{role: member, domain: d}'), neither('member'))
    + rule(GROUP, 'project-and-domain', _group('{role: r, project: p, domain: d}'),
           _group('{role: r, domain: d}'), BOTH)
    + rule(GROUP, 'neither-project-nor-domain', _group('{role: reader}'),
           PROJECT + _group('{role: reader, project: {get_resource: proj}}'), neither('reader'))
    + rule(USER_ROLES, 'project-and-domain', _user_roles('{role: r, project: p, domain: d}'),
           _user_roles('{role: r, project: p}'), BOTH)
    + rule(USER_ROLES, 'a-null-project-is-given',
           _user_roles('{role: r, project: null, domain: d}'),
           _user_roles('{role: r, project: null}'), BOTH)
    + hot_2021(rule(USER_ROLES, 'a-project-dropped-by-if-is-not-given',
                    _user_roles('{role: r, project: {if: [%s, p]}}' % NEVER),
                    _user_roles('{role: r, project: {if: [%s, p]}, domain: d}' % NEVER),
                    neither('r')))
    + rule(GROUP_ROLES, 'project-and-domain', _group_roles('{role: r, project: p, domain: d}'),
           _group_roles('{role: r, domain: d}'), BOTH)
    + rule(GROUP_ROLES, 'neither-project-nor-domain', _group_roles('{role: admin}'),
           PROJECT + _group_roles('{role: admin, project: {get_attr: [proj, name]}}'),
           neither('admin'))
)
