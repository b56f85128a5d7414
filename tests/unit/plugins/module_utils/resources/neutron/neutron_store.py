# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small Neutron that keeps what it is told: the raw JSON calls of the
network proxy (post/get/put/delete) answered from a dict of objects by path,
with Neutron's filters on lists, 404s for what is gone and 409s for what
Neutron refuses twice.  For the plugins that speak Neutron's JSON alone."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import itertools
from urllib.parse import parse_qsl, urlsplit

from openstack import exceptions as sdk_exc

from .neutron_fakes import Response

# collections whose objects a PUT makes (a project's quota)
PUT_MAKES = ('/quotas',)


class NeutronStore(object):

    def __init__(self, network, extensions=('extraroute-atomic',)):
        self.objects = {}        # path -> (key, dict)
        self.calls = []          # (method, path, body)
        self.extensions = list(extensions)
        self._ids = itertools.count(1)
        for verb in ('post', 'get', 'put', 'delete'):
            getattr(network, verb).side_effect = getattr(self, verb)

    def add(self, collection, key, **obj):
        obj.setdefault('id', 'id-%d' % next(self._ids))
        self.objects['%s/%s' % (collection, obj['id'])] = (key, obj)
        return obj

    def writes(self):
        return [c for c in self.calls if c[0] != 'GET']

    def post(self, path, json=None, **_kw):
        self.calls.append(('POST', path, json))
        (key, body), = json.items()
        return Response(201, {key: self.add(path, key, **body)})

    def get(self, path, **_kw):
        self.calls.append(('GET', path, None))
        parts = urlsplit(path)
        if parts.path == '/extensions':
            return Response(200, {'extensions': [{'alias': a} for a in self.extensions]})
        if parts.path in self.objects:
            key, obj = self.objects[parts.path]
            return Response(200, {key: dict(obj)})
        last = parts.path.rsplit('/', 1)[1]
        if any(c.isdigit() for c in last):     # an object's id: it is gone
            raise sdk_exc.NotFoundException('404: %s' % path)
        query = dict(parse_qsl(parts.query))
        found = [dict(obj) for p, (_key, obj) in sorted(self.objects.items())
                 if p.rsplit('/', 1)[0] == parts.path
                 and all(str(obj.get(k)) == v for k, v in query.items())]
        return Response(200, {last.replace('-', '_'): found})

    def put(self, path, json=None, **_kw):
        self.calls.append(('PUT', path, json))
        head, last = path.rsplit('/', 1)
        if last == 'tags':
            self.objects[head][1]['tags'] = list(json['tags'])
            return Response(200, json)
        if last in ('add_extraroutes', 'remove_extraroutes'):
            router = self.objects[head][1]
            routes = json['router']['routes']
            if last == 'add_extraroutes':
                router['routes'] = router.get('routes', []) + [r for r in routes if r not in router.get('routes', [])]
            else:
                router['routes'] = [r for r in router.get('routes', []) if r not in routes]
            return Response(200, {'router': dict(router)})
        (key, body), = json.items()
        if path not in self.objects:
            if head not in PUT_MAKES:
                raise sdk_exc.NotFoundException('404: %s' % path)
            self.objects[path] = (key, {})      # a quota: set by its first PUT
        self.objects[path][1].update(body)
        return Response(200, {key: dict(self.objects[path][1])})

    def delete(self, path, **_kw):
        self.calls.append(('DELETE', path, None))
        if self.objects.pop(path, None) is None:
            raise sdk_exc.NotFoundException('404: %s' % path)
        return Response(204)
