# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small in-memory Keystone v3 API behind the identity proxy's public
Adapter methods (get/post/put/patch/delete), for the keystone plugin tests.

It keeps what the plugins rely on: names unique in their domain (409), an
enabled domain refused a delete (403), role assignments and group
memberships by path, and lists filtered by the query."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from unittest import mock
from urllib.parse import parse_qs, unquote

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.type_checks import RuleInput
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (
    ResourceContext, effective_properties)

COLLECTIONS = {'domains': 'domain', 'projects': 'project', 'users': 'user', 'groups': 'group',
               'roles': 'role', 'regions': 'region', 'services': 'service',
               'endpoints': 'endpoint'}
# names unique per domain (domains: globally)
UNIQUE = ('domains', 'projects', 'users', 'groups', 'roles')


class Answer(object):
    """What keystoneauth hands back with raise_exc=False."""

    def __init__(self, status, data=None):
        self.status_code, self.data = status, data
        self.content = b'' if data is None else json.dumps(data).encode()
        self.headers = {'content-type': 'application/json'}
        self.text = self.content.decode()
        self.reason = 'reason'
        self.url = 'http://127.0.0.1/identity/v3'
        self.request = None

    def json(self):
        if self.data is None:
            raise ValueError('no body')
        return self.data


def _error(status, message):
    return Answer(status, {'error': {'code': status, 'message': message}})


class FakeKeystone(object):
    def __init__(self):
        self.objects = dict((c, {}) for c in COLLECTIONS)
        self.objects['domains']['default'] = {'id': 'default', 'name': 'Default', 'enabled': True}
        self.assignments = set()    # (scope, scope id, actor, actor id, role id)
        self.members = set()        # (group id, user id)
        self.count = 0

    def add(self, collection, **obj):
        self.count += 1
        obj.setdefault('id', '%s%04d' % (COLLECTIONS[collection], self.count))
        self.objects[collection][obj['id']] = obj
        return obj['id']

    @staticmethod
    def _split(path):
        base, _sep, query = path.partition('?')
        return [unquote(p) for p in base.strip('/').split('/')], parse_qs(query)

    def post(self, path, json=None, raise_exc=True):
        (collection,), _q = self._split(path)
        obj = dict(json[COLLECTIONS[collection]])
        obj.pop('password', None)
        if collection in UNIQUE:
            for other in self.objects[collection].values():
                if other.get('name') == obj.get('name') and \
                        other.get('domain_id') == obj.get('domain_id'):
                    return _error(409, 'Conflict occurred attempting to store %s'
                                  % COLLECTIONS[collection])
        if collection in ('projects', 'users', 'groups') and 'domain_id' not in obj:
            obj['domain_id'] = 'default'
        if collection == 'projects':
            obj.setdefault('parent_id', obj['domain_id'])
            obj['is_domain'] = False
        if collection == 'users':
            obj['password_expires_at'] = None
        if collection == 'regions' and obj.get('id') in self.objects['regions']:
            return _error(409, 'Duplicate ID')
        obj = self.objects[collection][self.add(collection, **obj)]
        return Answer(201, {COLLECTIONS[collection]: obj})

    def get(self, path, raise_exc=True):
        parts, query = self._split(path)
        if parts == ['role_assignments']:
            out = []
            for scope, scope_id, actor, actor_id, role in sorted(self.assignments):
                if query.get('%s.id' % actor, [None])[0] == actor_id:
                    out.append({'role': {'id': role}, 'scope': {scope: {'id': scope_id}},
                                actor: {'id': actor_id}})
            return Answer(200, {'role_assignments': out})
        if len(parts) == 3 and parts[0] == 'users' and parts[2] == 'groups':
            return Answer(200, {'groups': [self.objects['groups'][g]
                                           for g, u in sorted(self.members) if u == parts[1]]})
        if len(parts) == 2:
            obj = self.objects[parts[0]].get(parts[1])
            if obj is None:
                return _error(404, 'Could not find %s: %s' % (COLLECTIONS[parts[0]], parts[1]))
            return Answer(200, {COLLECTIONS[parts[0]]: obj})
        items = [o for o in self.objects[parts[0]].values()
                 if all(o.get(k) == v[0] for k, v in query.items())]
        return Answer(200, {parts[0]: items})

    def patch(self, path, json=None, raise_exc=True):
        parts, _q = self._split(path)
        obj = self.objects[parts[0]].get(parts[1])
        if obj is None:
            return _error(404, 'not found')
        body = dict(json[COLLECTIONS[parts[0]]])
        body.pop('password', None)
        obj.update(body)
        return Answer(200, {COLLECTIONS[parts[0]]: obj})

    def put(self, path, json=None, raise_exc=True):
        parts, _q = self._split(path)
        if parts[0] == 'groups':          # /groups/{g}/users/{u}
            if parts[1] not in self.objects['groups'] or parts[3] not in self.objects['users']:
                return _error(404, 'not found')
            self.members.add((parts[1], parts[3]))
            return Answer(204)
        scopes, scope_id, actors, actor_id, _roles, role = parts
        if scope_id not in self.objects[scopes] or role not in self.objects['roles'] or \
                actor_id not in self.objects[actors]:
            return _error(404, 'not found')
        self.assignments.add((scopes[:-1], scope_id, actors[:-1], actor_id, role))
        return Answer(204)

    def delete(self, path, raise_exc=True):
        parts, _q = self._split(path)
        if parts[0] == 'groups' and len(parts) == 4:
            if (parts[1], parts[3]) not in self.members:
                return _error(404, 'not found')
            self.members.discard((parts[1], parts[3]))
            return Answer(204)
        if len(parts) == 6:
            key = (parts[0][:-1], parts[1], parts[2][:-1], parts[3], parts[5])
            if key not in self.assignments:
                return _error(404, 'not found')
            self.assignments.discard(key)
            return Answer(204)
        obj = self.objects[parts[0]].get(parts[1])
        if obj is None:
            return _error(404, 'not found')
        if parts[0] == 'domains' and obj.get('enabled', True):
            return _error(403, 'Cannot delete a domain that is enabled, please disable it first.')
        del self.objects[parts[0]][parts[1]]
        if parts[0] in ('users', 'groups', 'roles', 'projects', 'domains'):
            self.assignments = set(a for a in self.assignments if parts[1] not in (a[1], a[3], a[4]))
        return Answer(204)


# The mock connections conn() made during the current test: conftest.py
# holds their network calls against the installed openstacksdk.
CONNS = []


def conn(fake=None):
    c = mock.MagicMock(name='conn')
    c.fake = fake or FakeKeystone()
    c.identity = mock.MagicMock(wraps=c.fake)
    c.has_service.return_value = True
    c.network.security_groups.return_value = []
    CONNS.append(c)
    return c


def ctx(type_name, props, **kw):
    kw.setdefault('conn', conn())
    kw.setdefault('stack_id', 'sid')
    kw.setdefault('stack_name', 's')
    kw.setdefault('name', 'res')
    kw.setdefault('physical_name', 's-%s-abc' % kw['name'])
    kw.setdefault('action', 'CREATE')
    return ResourceContext(type_name=type_name, properties=effective_properties(type_name, props),
                           **kw)


def updated(c, type_name, old, new, physical_id, data=None):
    """The context of an update from ``old`` to ``new`` properties."""
    old_props = effective_properties(type_name, old)
    new_props = effective_properties(type_name, new)
    changed = [k for k in set(old_props) | set(new_props) if old_props.get(k) != new_props.get(k)]
    return ctx(type_name, new, conn=c, physical_id=physical_id, old_properties=old_props,
               changed=changed, action='UPDATE', data=data)


def refusal(cls, data, waiting=()):
    """(keys beneath the properties, message) of the plugin's validate rule
    for the values ``data`` (as strict validation hands them), or None."""
    path = ('resources', 'res', 'properties')
    try:
        cls.validate(RuleInput(cls.type_name, data, path, waiting))
    except TemplateError as exc:
        return exc.path[len(path):], exc.message
    return None


def sent(c, method):
    """The (path, body) of every ``method`` call the fake proxy got."""
    return [(call.args[0], (call.kwargs.get('json') or None))
            for call in getattr(c.identity, method.lower()).call_args_list]
