# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Octavia types share: the raw API, name-or-id lookups, Heat's waits.

Octavia's own JSON goes through the load_balancer proxy's public Adapter
methods (``sdk.request_json``): the bodies are the ones Heat's octaviaclient
sends, built from the properties as Heat's ``_prepare_args`` builds them,
with no SDK Resource in between (its field names differ between releases).

``OctaviaPlugin`` is Heat's OctaviaBase: an object is done when its
``provisioning_status`` is ACTIVE and failed at ERROR (``Went to status
ERROR due to "Unknown"``).  While its load balancer is immutable (a sibling
being made or changed: PENDING_*), Octavia answers a child's create, update
or delete with 409, and Heat tries the same call again at the next poll
until it passes; so do these handlers, keeping what is owed in ``ctx.data``.
A delete is done when Octavia no longer knows the object (or shows it
DELETED).  Heat's Octavia types have no check, suspend or resume handlers:
a stack check only reads the object, suspend and resume make no call.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

try:
    from urllib.parse import urlencode
except ImportError:  # pragma: no cover - Python 2
    from urllib import urlencode

from ...errors import CloudConflict, CloudNotFound, ResourceFailure
from .. import sdk
from ..base import ResourcePlugin, own_tags

# kind -> (collection path, JSON key of one object, JSON key of a list)
PATHS = {
    'loadbalancer': ('/lbaas/loadbalancers', 'loadbalancer', 'loadbalancers'),
    'listener': ('/lbaas/listeners', 'listener', 'listeners'),
    'pool': ('/lbaas/pools', 'pool', 'pools'),
    'healthmonitor': ('/lbaas/healthmonitors', 'healthmonitor', 'healthmonitors'),
    'l7policy': ('/lbaas/l7policies', 'l7policy', 'l7policies'),
    'member': ('/lbaas/pools/%s/members', 'member', 'members'),
    'rule': ('/lbaas/l7policies/%s/rules', 'rule', 'rules'),
    'flavor': ('/lbaas/flavors', 'flavor', 'flavors'),
    'flavorprofile': ('/lbaas/flavorprofiles', 'flavorprofile', 'flavorprofiles'),
    'quota': ('/lbaas/quotas', 'quota', 'quotas'),
}
# Heat's names of the kinds in its EntityNotFound messages.
ENTITY = {'loadbalancer': 'LoadBalancer', 'listener': 'Listener', 'pool': 'Pool',
          'l7policy': 'L7Policy', 'flavor': 'Flavor', 'flavorprofile': 'FlavorProfile'}

# ctx.data keys of a call Octavia refused with 409, made again at the next poll.
PENDING_CREATE = 'octavia_create_pending'
PENDING_UPDATE = 'octavia_update'
PENDING_DELETE = 'octavia_delete_pending'


def api(conn, method, path, body=None, retry_writes=True):
    return sdk.request_json(conn.load_balancer, method, path, body, retry_writes=retry_writes)


def is_uuid(value):
    try:
        return isinstance(value, str) and str(uuid.UUID(value)) == value.lower()
    except ValueError:
        return False


def not_found(entity, value):
    return ResourceFailure('The %s (%s) could not be found.' % (entity, value))


def listed(conn, kind, parent=None, **query):
    path, _key, plural = PATHS[kind]
    if parent is not None:
        path = path % parent
    answer = api(conn, 'GET', '%s?%s' % (path, urlencode(query)) if query else path)
    return (answer or {}).get(plural) or []


def lookup(ctx, kind, value):
    """Heat's get_<kind>: an id as given, else the one object of that name."""
    if value is None or is_uuid(value):
        return value
    key = ('octavia', kind, value)

    def find():
        found = listed(ctx.conn, kind, name=value)
        if not found:
            raise not_found(ENTITY.get(kind, kind), value)
        if len(found) > 1:
            raise ResourceFailure('Multiple physical resources were found with name (%s).' % value)
        return found[0]['id']
    return sdk.remembered(ctx.conn, key, find)


def subnet_id(ctx, value):
    """Heat's neutron find_resourceid_by_name_or_id for a subnet."""
    if value is None or is_uuid(value):
        return value

    def find():
        found = sdk.call(lambda: list(ctx.conn.network.subnets(name=value)))
        if not found:
            raise not_found('Subnet', value)
        if len(found) > 1:
            raise ResourceFailure('Multiple physical resources were found with name (%s).' % value)
        return found[0].id
    return sdk.remembered(ctx.conn, ('subnet', value), find)


def marks(ctx, user_tags=None):
    return ctx.tags(user_tags)


def public(live):
    """The object as Octavia shows it, the engine's marks hidden."""
    if not isinstance(live, dict):
        return live
    out = dict(live)
    if isinstance(out.get('tags'), list):
        out['tags'] = own_tags(out['tags'])
    return out


def plain(props, schema_names):
    """Heat's ``_prepare_args`` start: the schema's properties that have a value."""
    return dict((k, v) for k, v in props.items() if k in schema_names and v is not None)


class OctaviaPlugin(ResourcePlugin):
    """Heat's OctaviaBase: bodies, the 409 retries and the status waits."""

    kind = None
    # Heat names the object after the resource when the template does not.
    named = True
    # Whether the object carries tags (the stack's marks go there; ``find``
    # reads them).
    tagged = True
    # property -> (API field, lookup kind or None): Heat's translation rules
    # and renames in _prepare_args.
    renames = {}
    # Octavia answers every write with PENDING_*: the first look waits.
    slow_actions = ('CREATE', 'UPDATE', 'DELETE')
    poll_interval = 2.0

    # -- where ---------------------------------------------------------------
    # (property, lookup kind) of the object whose path holds this one's
    # collection (a member's pool, a rule's policy); None: a top collection.
    parent_ref = None

    def parent(self, ctx):
        """The id in the collection's path, kept in the record the first time
        (a stack delete has no template to look it up from)."""
        ref = self.parent_ref
        if not ref:
            return None
        prop, kind = ref[0], ref[1]
        key = kind + '_id'
        if not ctx.data.get(key):
            ctx.data[key] = lookup(ctx, kind, ctx.properties.get(prop))
        return ctx.data[key]

    def collection(self, ctx):
        path = PATHS[self.kind][0]
        return path % self.parent(ctx) if '%s' in path else path

    def item(self, ctx):
        return '%s/%s' % (self.collection(ctx), ctx.physical_id)

    # -- bodies ----------------------------------------------------------------
    def translate(self, ctx, props):
        out = {}
        for key, value in props.items():
            field, kind = self.renames.get(key, (key, None))
            if kind == 'subnet':
                value = subnet_id(ctx, value)
            elif kind is not None:
                value = lookup(ctx, kind, value)
            out[field] = value
        return out

    def create_body(self, ctx):
        props = plain(ctx.properties, self.heat_type().properties)
        if self.named and 'name' not in props:
            props['name'] = ctx.physical_name
        body = self.translate(ctx, props)
        if self.parent_ref is not None:
            body.pop(self.parent_ref[0], None)   # it is in the path, not the body
        if self.tagged:
            body['tags'] = marks(ctx, body.get('tags'))
        return body

    def update_body(self, ctx):
        """Heat's prop_diff: the changed properties' new values, None included."""
        diff = dict((k, ctx.properties.get(k)) for k in sorted(ctx.changed))
        body = self.translate(ctx, diff)
        if self.tagged and 'tags' in body:
            body['tags'] = marks(ctx, body['tags'])
        return body

    # -- create ----------------------------------------------------------------
    def create(self, ctx):
        ctx.data[PENDING_CREATE] = self.create_body(ctx)
        return self._post(ctx)

    def _post(self, ctx):
        key = PATHS[self.kind][1]
        try:
            obj = api(ctx.conn, 'POST', self.collection(ctx), {key: ctx.data[PENDING_CREATE]},
                      retry_writes=False)[key]
        except CloudConflict:
            return None        # its load balancer is immutable: again at the next poll
        ctx.data.pop(PENDING_CREATE, None)
        ctx.live = public(obj)
        return obj['id']

    def check_create_complete(self, ctx):
        if ctx.physical_id is None:
            ctx.physical_id = self._post(ctx)
            if ctx.physical_id is None:
                return False
        return self.status_is(ctx, 'ACTIVE')

    def status_is(self, ctx, expected):
        live = self.show(ctx)
        if live is None:
            raise CloudNotFound('%s %s not found' % (self.type_name, ctx.physical_id))
        status = live.get('provisioning_status')
        if status == 'ERROR':
            ctx.in_error('ERROR')
        return status == expected

    def find(self, ctx):
        if not self.tagged:
            return None
        found = listed(ctx.conn, self.kind, self.parent(ctx),
                       tags=','.join(marks(ctx)))
        return found[0]['id'] if found else None

    # -- update ----------------------------------------------------------------
    def update(self, ctx):
        ctx.data[PENDING_UPDATE] = self.update_body(ctx)
        self._put(ctx)

    def _put(self, ctx):
        body = ctx.data.get(PENDING_UPDATE)
        if body:
            try:
                api(ctx.conn, 'PUT', self.item(ctx), {PATHS[self.kind][1]: body})
            except CloudConflict:
                return False
        ctx.data.pop(PENDING_UPDATE, None)
        return True

    def check_update_complete(self, ctx):
        if PENDING_UPDATE in ctx.data and not self._put(ctx):
            return False
        return self.status_is(ctx, 'ACTIVE')

    # -- delete ----------------------------------------------------------------
    def delete(self, ctx):
        for key in (PENDING_CREATE, PENDING_UPDATE, PENDING_DELETE):
            ctx.data.pop(key, None)
        if ctx.physical_id is not None:
            ctx.data[PENDING_DELETE] = True
            self._delete_call(ctx)

    def _delete_call(self, ctx):
        """Heat's delete call: gone already is done; a 409 leaves it owed."""
        try:
            api(ctx.conn, 'DELETE', self.item(ctx))
        except CloudNotFound:
            ctx.data.pop(PENDING_DELETE, None)
            return True
        except CloudConflict:
            return False
        ctx.data.pop(PENDING_DELETE, None)
        return False

    def check_delete_complete(self, ctx):
        if ctx.physical_id is None:
            return True
        if ctx.data.get(PENDING_DELETE) and self._delete_call(ctx):
            return True
        # Refused or made: Heat reads the status either way (ERROR fails).
        try:
            return self.status_is(ctx, 'DELETED')
        except CloudNotFound:
            return True

    # -- reading ---------------------------------------------------------------
    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        try:
            obj = api(ctx.conn, 'GET', self.item(ctx))
        except CloudNotFound:
            return None
        live = public((obj or {}).get(PATHS[self.kind][1]))
        ctx.live = live
        return live

    def attributes(self, ctx, live, names=None):
        """Heat's _resolve_attribute: the field of that name in the object."""
        if not isinstance(live, dict):
            return dict((n, None) for n in self.heat_type().attributes)
        attrs = dict((n, live.get(n)) for n in self.heat_type().attributes if n != 'show')
        attrs['show'] = live
        return attrs

    # property -> the API field drift compares (when the template gives a value)
    drift_fields = ()

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        out = []
        for prop in self.drift_fields:
            wanted = ctx.properties.get(prop)
            field = self.renames.get(prop, (prop, None))[0]
            if wanted is not None and field in live and live[field] != wanted:
                out.append(prop)
        if self.named and 'name' in live and live['name'] != (
                ctx.properties.get('name') or ctx.physical_name):
            out.append('name')
        return sorted(out)
