# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's KeystoneRoleAssignmentMixin: the ``roles`` property of a user, a
group and the two role assignment types, ``[{role, project | domain}]``.

Each entry grants its role to the user or group on a project or on a
domain (one PUT each, which Keystone takes again without complaint); an
update grants what the new list adds, then revokes what it drops, and a
revoke is only sent for an assignment Keystone lists.  Entries are compared
resolved to ids: Heat compares the strings the template gives, so an entry
rewritten from a name to its id is granted (already there) and then revoked,
and the assignment is lost (docs/differences.md).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Mapping

from ...errors import CloudNotFound
from ...hot.type_checks import conflict
from ._common import api, lookup

SCOPES = ('project', 'domain')


def validate_roles(given):
    """Heat's validate_assignment_properties: each entry names a project or a
    domain, not both."""
    for entry in given.props.get('roles') or ():
        if not isinstance(entry, Mapping):
            continue
        project, domain = entry.get('project'), entry.get('domain')
        if project is not None and domain is not None:
            given.fail(conflict('project', 'domain'))
        if project is None and domain is None:
            given.fail('Either project or domain must be specified for role %s'
                       % entry.get('role'))


def resolved(conn, roles):
    """The entries of a ``roles`` value as (role id, scope, scope id), in
    their order, each once (Heat's _normalize_to_id; an entry naming neither
    a project nor a domain grants nothing)."""
    out = []
    for entry in roles or ():
        if not isinstance(entry, Mapping):
            continue
        role = lookup(conn, 'role', entry.get('role'))
        if entry.get('project'):
            item = (role, 'project', lookup(conn, 'project', entry['project']))
        elif entry.get('domain'):
            item = (role, 'domain', lookup(conn, 'domain', entry['domain']))
        else:
            continue
        if item not in out:
            out.append(item)
    return out


def _path(actor, actor_id, assignment):
    role, scope, scope_id = assignment
    return '/%ss/%s/%ss/%s/roles/%s' % (scope, scope_id, actor, actor_id, role)


def current(conn, actor, actor_id):
    """The assignments Keystone lists for the user or group (``actor``:
    'user' or 'group'), as ``resolved`` gives them."""
    answer = api(conn, 'GET', '/role_assignments?%s.id=%s' % (actor, actor_id)) or {}
    out = set()
    for item in answer.get('role_assignments') or ():
        role = (item.get('role') or {}).get('id')
        scope = item.get('scope') or {}
        for kind in SCOPES:
            if role and (scope.get(kind) or {}).get('id'):
                out.add((role, kind, scope[kind]['id']))
    return out


def grant(conn, actor, actor_id, assignments):
    for assignment in assignments:
        api(conn, 'PUT', _path(actor, actor_id, assignment))


def revoke(conn, actor, actor_id, assignments):
    """Revoke those of ``assignments`` Keystone lists (gone already is success)."""
    if not assignments:
        return
    now = current(conn, actor, actor_id)
    for assignment in assignments:
        if assignment in now:
            try:
                api(conn, 'DELETE', _path(actor, actor_id, assignment))
            except CloudNotFound:
                pass


def change(conn, actor, actor_id, new, old):
    """An update of the list: grant what ``new`` adds, then revoke what it drops."""
    grant(conn, actor, actor_id, [a for a in new if a not in old])
    revoke(conn, actor, actor_id, [a for a in old if a not in new])


def missing(conn, actor, actor_id, wanted):
    """True when Keystone lacks one of the ``wanted`` assignments (drift)."""
    return bool(set(wanted) - current(conn, actor, actor_id))
