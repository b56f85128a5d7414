# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small in-memory Octavia API behind the load_balancer proxy's public
Adapter methods (get/post/put/delete), for the octavia plugin tests."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from unittest import mock

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.type_checks import RuleInput
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (
    ResourceContext, effective_properties)

LB_ID = '11111111-1111-4111-8111-111111111111'
POOL_ID = '22222222-2222-4222-8222-222222222222'
SUBNET_ID = '33333333-3333-4333-8333-333333333333'


class Answer(object):
    """What keystoneauth hands back with raise_exc=False."""

    def __init__(self, status, data=None, url='http://127.0.0.1/load-balancer/v2.0'):
        self.status_code, self.data = status, data
        self.content = b'' if data is None else json.dumps(data).encode()
        self.headers = {'content-type': 'application/json'}
        self.text = self.content.decode()
        self.reason = 'reason'
        self.url = url
        self.request = None

    def json(self):
        if self.data is None:
            raise ValueError('no body')
        return self.data


class FakeOctavia(object):
    """Objects by path; ``refuse[(METHOD, path prefix)] = n`` answers the next
    n such calls 409 (the load balancer is immutable)."""

    def __init__(self):
        self.objects = {}       # path -> object
        self.refuse = {}
        self.status_after = {}  # path -> provisioning_status the next GET shows
        self.count = 0

    def _refused(self, method, path):
        for (m, prefix), n in list(self.refuse.items()):
            if m == method and path.startswith(prefix) and n > 0:
                self.refuse[(m, prefix)] = n - 1
                return Answer(409, {'faultstring': 'Load Balancer %s is immutable' % LB_ID})
        return None

    def post(self, path, json=None, raise_exc=True):
        refused = self._refused('POST', path)
        if refused:
            return refused
        key = list(json)[0]
        self.count += 1
        obj = dict(json[key], id='%08d-0000-4000-8000-000000000000' % self.count)
        if key not in ('flavor', 'flavorprofile'):
            obj['provisioning_status'] = 'PENDING_CREATE'
        self.objects['%s/%s' % (path, obj['id'])] = obj
        return Answer(201, {key: obj})

    def get(self, path, raise_exc=True):
        base = path.split('?')[0]
        if base in self.objects:
            obj = self.objects[base]
            if base in self.status_after:
                obj['provisioning_status'] = self.status_after.pop(base)
            elif obj.get('provisioning_status', '').startswith('PENDING_') and \
                    not obj.pop('_seen', False):
                obj['_seen'] = True        # shown once in transition, then settled
            elif obj.get('provisioning_status', '').startswith('PENDING_'):
                obj['provisioning_status'] = (
                    'DELETED' if obj['provisioning_status'] == 'PENDING_DELETE' else 'ACTIVE')
            if obj.get('provisioning_status') == 'DELETED':
                del self.objects[base]
            return Answer(200, {_key(base): dict((k, v) for k, v in obj.items() if k != '_seen')})
        if base.rsplit('/', 1)[1] not in PLURALS:
            return Answer(404, {'faultstring': 'not found'})
        items = [o for p, o in self.objects.items() if p.rsplit('/', 1)[0] == base]
        if '?' in path:
            from urllib.parse import parse_qs
            query = parse_qs(path.split('?', 1)[1])
            if 'name' in query:
                items = [o for o in items if o.get('name') == query['name'][0]]
            if 'tags' in query:
                wanted = set(query['tags'][0].split(','))
                items = [o for o in items if wanted <= set(o.get('tags') or ())]
        return Answer(200, {base.rsplit('/', 1)[1]: items})

    def put(self, path, json=None, raise_exc=True):
        refused = self._refused('PUT', path)
        if refused:
            return refused
        key = list(json)[0]
        obj = self.objects.setdefault(path, {'id': path.rsplit('/', 1)[1]})
        obj.update(json[key])
        if 'provisioning_status' in obj:
            obj['provisioning_status'] = 'PENDING_UPDATE'
        return Answer(200 if key != 'quota' else 202, {key: obj})

    def delete(self, path, raise_exc=True):
        refused = self._refused('DELETE', path)
        if refused:
            return refused
        if path not in self.objects:
            return Answer(404, {'faultstring': 'not found'})
        obj = self.objects[path]
        if 'provisioning_status' in obj:
            obj['provisioning_status'] = 'PENDING_DELETE'
        else:
            del self.objects[path]
        return Answer(204)


PLURALS = {'loadbalancers': 'loadbalancer', 'listeners': 'listener', 'pools': 'pool',
           'members': 'member', 'healthmonitors': 'healthmonitor', 'l7policies': 'l7policy',
           'rules': 'rule', 'flavors': 'flavor', 'flavorprofiles': 'flavorprofile',
           'quotas': 'quota'}


def _key(path):
    return PLURALS[path.rsplit('/', 2)[-2]]


# The mock connections ctx() made during the current test: conftest.py holds
# their calls against the installed openstacksdk (tests/unit/sdk_calls.py).
CONNS = []


def conn(fake=None):
    c = mock.MagicMock(name='conn')
    c.fake = fake or FakeOctavia()
    c.load_balancer = mock.MagicMock(wraps=c.fake)
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
            for call in getattr(c.load_balancer, method.lower()).call_args_list]
