# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::ExtraRoute (Heat's extraroute.py): one route of a router;
the physical id is ``router:destination:nexthop``, as in Heat.

Heat reads the router's routes and writes them back with the route added
(or removed); two of its ExtraRoutes on one router made at once can lose
one of the two writes.  Where Neutron has ``extraroute-atomic`` the route
is added and removed alone (the router ends the same, without the race).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound, ResourceFailure
from .common import NeutronPlugin, extensions, lookup_id


class ExtraRoute(NeutronPlugin):
    type_name = 'OS::Neutron::ExtraRoute'
    taggable = False

    def _router(self, ctx):
        return lookup_id(ctx, 'router', ctx.properties.get('router_id'))

    def _route(self, ctx):
        return {'destination': ctx.properties.get('destination'), 'nexthop': ctx.properties.get('nexthop')}

    def _routes(self, ctx, router):
        answer = sdk.request_json(ctx.conn.network, 'GET', '/routers/%s' % router)['router']
        return list(answer.get('routes') or ())

    def _change(self, ctx, router, routes, verb):
        """Add (or remove) the route: atomically where Neutron can, else the
        router's whole route list written back, as Heat writes it."""
        route = self._route(ctx)
        if 'extraroute-atomic' in extensions(ctx.conn):
            sdk.request_json(ctx.conn.network, 'PUT', '/routers/%s/%s_extraroutes' % (router, verb),
                             {'router': {'routes': [route]}})
            return
        routes = routes + [route] if verb == 'add' else [r for r in routes if r != route]
        sdk.request_json(ctx.conn.network, 'PUT', '/routers/%s' % router, {'router': {'routes': routes}})

    def create(self, ctx):
        router = self._router(ctx)
        routes = self._routes(ctx, router)
        if self._route(ctx) in routes:
            ctx.fail('Route duplicates an existing route.', kind='Error')
        self._change(ctx, router, routes, 'add')
        return '%s:%s:%s' % (router, ctx.properties.get('destination'), ctx.properties.get('nexthop'))

    def create_later(self, ctx):
        return None

    def delete(self, ctx):
        if not ctx.physical_id:
            return
        router = ctx.physical_id.split(':', 1)[0]
        try:
            routes = self._routes(ctx, router)
            if self._route(ctx) in routes:
                self._change(ctx, router, routes, 'remove')
        except CloudNotFound:
            pass

    def show(self, ctx):
        """The route while the router still has it."""
        if not ctx.physical_id:
            return None
        try:
            routes = self._routes(ctx, ctx.physical_id.split(':', 1)[0])
        except CloudNotFound:
            return None
        return self._route(ctx) if self._route(ctx) in routes else None

    def attributes(self, ctx, live, names=None):
        return {'show': None}   # Heat's show reads an entity the type has none of

    def drift(self, ctx, live):
        return [] if live is not None else ['destination']

    def find(self, ctx):
        try:
            router = self._router(ctx)
            routes = self._routes(ctx, router)
        except (CloudNotFound, ResourceFailure):
            return None
        if self._route(ctx) not in routes:
            return None
        return '%s:%s:%s' % (router, ctx.properties.get('destination'), ctx.properties.get('nexthop'))

    def found_is_whole(self, ctx):
        return True
