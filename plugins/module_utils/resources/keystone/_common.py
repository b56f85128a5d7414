# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Keystone types share: Keystone's JSON, Heat's name-or-id lookups,
and Heat's create, update and delete of one entity.

The requests go through the identity proxy's public Adapter methods
(``sdk.request_json``) with the bodies Heat's keystoneclient sends: a create
POSTs, an update PATCHes, and a value that is None is left out of either
(keystoneclient's ``filter_kwargs``), so an update never clears a value by
giving it none.  The SDK's identity Resources are not used: they drop what
keystoneclient sends as Keystone's extra attributes (a region's
``enabled``, an endpoint's ``name``), so an object would differ from Heat's.

Heat resolves a property naming another Keystone object to its id before it
writes (its ``get_<kind>_id``): the value is taken as an id first (a GET),
then as a name (a list, the first object of that exact name); a role, project,
group or user may be written ``name{domain}`` to look in that domain; a
region is only ever an id; a service name that two services share is refused.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

try:
    from urllib.parse import quote, urlencode
except ImportError:  # pragma: no cover - Python 2
    from urllib import quote, urlencode

from ...errors import CloudNotFound, ResourceFailure
from .. import sdk
from ..base import ResourcePlugin

# kind -> (collection path, JSON key of one object, Heat's name of the kind)
KINDS = {
    'domain': ('/domains', 'domain', 'KeystoneDomain'),
    'project': ('/projects', 'project', 'KeystoneProject'),
    'user': ('/users', 'user', 'KeystoneUser'),
    'group': ('/groups', 'group', 'KeystoneGroup'),
    'role': ('/roles', 'role', 'KeystoneRole'),
    'region': ('/regions', 'region', 'KeystoneRegion'),
    'service': ('/services', 'service', 'KeystoneService'),
    'endpoint': ('/endpoints', 'endpoint', 'KeystoneEndpoint'),
}
# The kinds Heat's finders read as ``name{domain}``.
_DOMAIN_SCOPED = ('role', 'project', 'group', 'user')
_WITH_DOMAIN = re.compile(r'\{(.*?)\}$')


def api(conn, method, path, body=None, retry_writes=True):
    return sdk.request_json(conn.identity, method, path, body, retry_writes=retry_writes)


def item_path(kind, ident):
    """The path of one object (an id may hold any character: a region's is the user's)."""
    return '%s/%s' % (KINDS[kind][0], quote(str(ident), safe=''))


def listed(conn, kind, **query):
    """The objects of ``kind`` Keystone lists for ``query`` (None values left out)."""
    path = KINDS[kind][0]
    query = dict((k, v) for k, v in query.items() if v is not None)
    answer = api(conn, 'GET', '%s?%s' % (path, urlencode(query)) if query else path)
    return (answer or {}).get(path.lstrip('/')) or []


def get(conn, kind, ident):
    """One object as Keystone shows it, or None when it is gone."""
    try:
        answer = api(conn, 'GET', item_path(kind, ident))
    except CloudNotFound:
        return None
    return (answer or {}).get(KINDS[kind][1])


def not_found(kind, value):
    return ResourceFailure('The %s (%s) could not be found.' % (KINDS[kind][2], value))


def lookup(conn, kind, value):
    """Heat's ``get_<kind>_id``: the id of the object ``value`` names, asked
    once per run; ResourceFailure with Heat's message when there is none.
    None stays None."""
    if value is None:
        return None
    return sdk.remembered(conn, ('keystone', kind, value), lambda: _find_id(conn, kind, value))


def _find_id(conn, kind, value):
    value = str(value)
    name, domain = value, None
    if kind in _DOMAIN_SCOPED:
        match = _WITH_DOMAIN.search(value)
        if match:
            name = value[:match.start()]
            try:
                domain = lookup(conn, 'domain', match.group(1))
            except ResourceFailure:
                raise not_found(kind, value) from None
    found = get(conn, kind, name) if name else None
    if found is not None:
        return found['id']
    if kind == 'region':
        raise not_found(kind, name)
    if kind == 'service':
        named = listed(conn, 'service', name=name)
        if len(named) > 1:
            raise ResourceFailure('Keystone has more than one service with same name %s. Please '
                                  'use service id instead of name' % name)
        if named:
            return named[0]['id']
        raise not_found(kind, name)
    for obj in listed(conn, kind, name=name, domain_id=domain):
        if obj.get('name') == name:
            return obj['id']
    raise not_found(kind, name)


def without_none(body):
    return dict((k, v) for k, v in body.items() if v is not None)


class KeystonePlugin(ResourcePlugin):
    """One Keystone entity made by one POST (Heat's handle_create), changed by
    one PATCH of the changed properties, deleted by one DELETE (gone already
    is success: Heat's ignore_not_found)."""

    kind = None
    # property -> key of the body and of the live object
    fields = {}
    # property -> the kind its value names (resolved to an id before a write)
    refs = {}
    # Heat's resources of these types have a name property: when it is not
    # given (or set back to nothing by an update) the physical name is used.
    named = True
    # The properties a stack check compares with the live object (Heat's
    # parse_live_resource_data of the type).
    drift_props = ()

    # -- bodies -------------------------------------------------------------------
    def value(self, ctx, prop):
        """The property's value as the body holds it: a reference resolved
        to an id, a name not given made the physical name."""
        value = ctx.properties.get(prop)
        if prop == 'name' and self.named and not value:
            return ctx.physical_name
        if prop in self.refs:
            return lookup(ctx.conn, self.refs[prop], value)
        return value

    def create_body(self, ctx):
        return without_none(dict((key, self.value(ctx, prop)) for prop, key in self.fields.items()))

    def update_body(self, ctx):
        return without_none(dict((key, self.value(ctx, prop)) for prop, key in self.fields.items()
                                 if prop in ctx.changed))

    # -- lifecycle ----------------------------------------------------------------
    def create(self, ctx):
        path, key, _label = KINDS[self.kind]
        answer = api(ctx.conn, 'POST', path, {key: self.create_body(ctx)}, retry_writes=False)
        ctx.live = (answer or {}).get(key) or {}
        return ctx.live.get('id')

    def update(self, ctx):
        body = self.update_body(ctx)
        if body:
            answer = api(ctx.conn, 'PATCH', item_path(self.kind, ctx.physical_id),
                         {KINDS[self.kind][1]: body})
            ctx.live = (answer or {}).get(KINDS[self.kind][1])

    def delete(self, ctx):
        if ctx.physical_id is not None:
            try:
                api(ctx.conn, 'DELETE', item_path(self.kind, ctx.physical_id))
            except CloudNotFound:
                pass

    # -- reading ------------------------------------------------------------------
    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        ctx.live = get(ctx.conn, self.kind, ctx.physical_id)
        return ctx.live

    def check(self, ctx):
        if self.show(ctx) is None:
            ctx.fail(not_found(self.kind, ctx.physical_id).message)

    def attributes(self, ctx, live, names=None):
        if live is None:
            live = ctx.live
        attrs = {'show': live}
        for name in self.heat_type().attributes:
            if name != 'show':
                attrs[name] = live.get(name) if isinstance(live, dict) else None
        return attrs

    def find_query(self, ctx):
        """What ``find`` lists by (the name the create sent), or None."""
        return {'name': self.value(ctx, 'name')}

    def find(self, ctx):
        query = self.find_query(ctx)
        if not query:
            return None
        name = query.get('name')
        found = [o for o in listed(ctx.conn, self.kind, **query)
                 if name is None or o.get('name') == name]
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        # one POST made it, and Keystone keeps its name unique (in its domain)
        return True

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        out = []
        for prop in self.drift_props:
            key = self.fields[prop]
            if ctx.properties.get(prop) is None and prop != 'name':
                continue      # nothing was sent for it
            try:
                want = self.value(ctx, prop)
            except ResourceFailure:
                want = None     # what the template names is gone: the live value is not it
            if live.get(key) != want:
                out.append(prop)
        return sorted(out)
