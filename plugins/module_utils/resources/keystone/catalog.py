# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Keystone::Region, Service and Endpoint (admin; Heat's region.py,
service.py and endpoint.py): the service catalog.

A region's id is the user's (URL-quoted, as Heat sends it) or Keystone's
own; it cannot change (a new id is a new region).  Every other property of
the three is updated in place.  Services and endpoints have no unique name,
so ``find`` takes one only when a single object carries the name the create
sent, and only one named with the physical name (which no one else holds)
is taken as a lost create's whole answer.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

try:
    from urllib.parse import quote
except ImportError:  # pragma: no cover - Python 2
    from urllib import quote

from ._common import KeystonePlugin, get, listed


class Region(KeystonePlugin):
    type_name = 'OS::Keystone::Region'
    kind = 'region'
    named = False
    fields = {'id': 'id', 'parent_region': 'parent_region_id', 'description': 'description',
              'enabled': 'enabled'}
    refs = {'parent_region': 'region'}
    drift_props = ('description', 'enabled', 'parent_region')

    def value(self, ctx, prop):
        value = super(Region, self).value(ctx, prop)
        if prop == 'id' and value:
            return quote(value)
        return value

    def find(self, ctx):
        wanted = self.value(ctx, 'id')
        if not wanted:
            return None     # Keystone chose the id: nothing to know it by
        found = get(ctx.conn, 'region', wanted)
        return found['id'] if found is not None else None

    def found_is_whole(self, ctx):
        return bool(ctx.properties.get('id'))


class Service(KeystonePlugin):
    type_name = 'OS::Keystone::Service'
    kind = 'service'
    fields = {'name': 'name', 'description': 'description', 'type': 'type', 'enabled': 'enabled'}
    drift_props = ('name', 'description', 'type', 'enabled')

    def find_query(self, ctx):
        return {'name': self.value(ctx, 'name'), 'type': ctx.properties.get('type')}

    def found_is_whole(self, ctx):
        return not ctx.properties.get('name')


class Endpoint(KeystonePlugin):
    type_name = 'OS::Keystone::Endpoint'
    kind = 'endpoint'
    fields = {'name': 'name', 'region': 'region_id', 'service': 'service_id',
              'interface': 'interface', 'url': 'url', 'enabled': 'enabled'}
    refs = {'region': 'region', 'service': 'service'}
    drift_props = ('name', 'region', 'service', 'interface', 'url', 'enabled')

    def find(self, ctx):
        # Keystone filters endpoints by these three only
        name = self.value(ctx, 'name')
        found = [e for e in listed(ctx.conn, 'endpoint', service_id=self.value(ctx, 'service'),
                                   interface=ctx.properties.get('interface'),
                                   region_id=self.value(ctx, 'region'))
                 if e.get('name') == name]
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return not ctx.properties.get('name')
