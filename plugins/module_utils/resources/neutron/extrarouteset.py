# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::ExtraRouteSet (Heat's extrarouteset.py): routes added to and
removed from a router atomically (the ``extraroute-atomic`` API); the
physical id is the router's id, as in Heat."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound, ResourceFailure
from .common import NeutronPlugin, as_dict, lookup_id


def routes_set(routes):
    return set(frozenset((k, v) for k, v in r.items() if k in ('destination', 'nexthop'))
               for r in routes or ())


def set_routes(routes):
    """Back to a list, in a stable order (requests are reproducible)."""
    return sorted((dict(r) for r in routes), key=lambda r: (r['destination'], r['nexthop']))


class ExtraRouteSet(NeutronPlugin):
    type_name = 'OS::Neutron::ExtraRouteSet'
    taggable = False

    def _router(self, ctx, props=None):
        return lookup_id(ctx, 'router', (props or ctx.properties).get('router'))

    def _raise_if_duplicate(self, ctx, router, adding):
        """Heat's _raise_if_duplicate: a route the router already has is
        someone else's; taking it over would remove it on delete."""
        live = as_dict(sdk.call(ctx.conn.network.get_router, router))
        existing = routes_set(live.get('routes'))
        for route in set_routes(routes_set(adding)):
            if frozenset(route.items()) in existing:
                ctx.fail('The physical resource for (%s,%s=%s) exists.'
                         % (router, route['destination'], route['nexthop']))

    def create(self, ctx):
        router = self._router(ctx)
        routes = set_routes(routes_set(ctx.properties.get('routes')))
        self._raise_if_duplicate(ctx, router, routes)
        obj = sdk.call(ctx.conn.network.add_extra_routes_to_router, router,
                       {'router': {'routes': routes}})
        ctx.live = as_dict(obj)
        return router

    def update(self, ctx):
        old = routes_set((ctx.old_properties or {}).get('routes'))
        new = routes_set(ctx.properties.get('routes'))
        add, remove = set_routes(new - old), set_routes(old - new)
        router = ctx.physical_id
        self._raise_if_duplicate(ctx, router, add)
        # remove first: never a routing table nobody asked for
        if remove:
            sdk.call(ctx.conn.network.remove_extra_routes_from_router, router,
                     {'router': {'routes': remove}})
        if add:
            sdk.call(ctx.conn.network.add_extra_routes_to_router, router,
                     {'router': {'routes': add}})

    def delete(self, ctx):
        if not ctx.physical_id:
            return
        routes = set_routes(routes_set(ctx.properties.get('routes')))
        sdk.get_or_none(ctx.conn.network.remove_extra_routes_from_router, ctx.physical_id,
                        {'router': {'routes': routes}})

    def show(self, ctx):
        """The router while it still has every route of the set."""
        if not ctx.physical_id:
            return None
        live = as_dict(sdk.get_or_none(ctx.conn.network.get_router, ctx.physical_id))
        if live is None or not routes_set(ctx.properties.get('routes')) <= routes_set(live.get('routes')):
            return None
        return live

    def find(self, ctx):
        try:
            router = self._router(ctx)
        except (CloudNotFound, ResourceFailure):
            return None
        live = as_dict(sdk.get_or_none(ctx.conn.network.get_router, router))
        want = routes_set(ctx.properties.get('routes'))
        if live is None or not want <= routes_set(live.get('routes')):
            return None
        return router

    def attributes(self, ctx, live, names=None):
        return {'show': None}   # Heat has no entity to show

    def drift(self, ctx, live):
        return [] if self.show(ctx) is not None else ['routes']
