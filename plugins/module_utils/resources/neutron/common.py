# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every Neutron plugin shares: Heat's NeutronResource through
openstacksdk's ``conn.network``.

- Bodies are built as Heat's ``prepare_properties`` builds them: None values
  dropped, ``name`` defaulting to the physical name, ``value_specs`` merged
  in (and on update only the value_specs entries that changed, as
  ``merge_value_specs`` does — keys removed from value_specs stay set).
- Stack marks: Neutron (up to 2026.2 at least) refuses ``tags`` in a POST
  body except on ports, and even there only with the
  ``tag-ports-during-bulk-creation`` extension (without it the tags are
  silently dropped), so the marks are set by one ``PUT .../tags`` after the
  POST.  No dependent needs them, so that PUT is ``create_later``: it runs
  once the resource is COMPLETE and its dependents have started, when no
  other create is in flight (engine/walk/scheduler.py): not on the critical path.  When the template gives ``tags``, they are the resource's
  own (its ``show`` lists them): they go in a PUT right after the POST,
  before the resource is COMPLETE, as Heat sets them, with the marks.
- ``show`` is the object as Neutron answers it (server-side key names such as
  ``admin_state_up`` and ``router:external``), with the engine's marks hidden.
- Neutron deletes synchronously: a 204 means gone, no poll GET is spent.
- The hot calls (create, the marks' PUT, show, delete) go as raw JSON
  through the network proxy's public ``post``/``get``/``put``/``delete``
  (``sdk.request_json``): Neutron's JSON is what the plugins read and what
  ``show`` answers, and building an SDK Resource for the request and another
  from the answer costs more CPU than the request itself.  The body goes as
  Heat's neutronclient sends it: every key.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import re

from .. import sdk
from ..base import ResourcePlugin, own_tags
from .raw import RAW, raw_create, raw_delete, raw_get, raw_set_tags  # noqa: F401  (the plugins' imports)

_UUID = re.compile(r'^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?'
                   r'[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$')

# Heat's names of what a lookup did not find (EntityNotFound's entity).
_LABELS = {
    'network': 'Network', 'subnet': 'Subnet', 'port': 'Port', 'router': 'Router',
    'security_group': 'SecurityGroup', 'qos_policy': 'QoSPolicy', 'subnet_pool': 'SubnetPool',
    'segment': 'Segment', 'address_scope': 'AddressScope', 'metering_label': 'MeteringLabel',
}


# SDK resource classes by entity, for calls that take a resource object
# (set_tags); imported when used, as openstacksdk is a runtime requirement.
_CLASSES = {
    'network': ('network', 'Network'), 'subnet': ('subnet', 'Subnet'), 'port': ('port', 'Port'),
    'router': ('router', 'Router'), 'ip': ('floating_ip', 'FloatingIP'),
    'security_group': ('security_group', 'SecurityGroup'), 'trunk': ('trunk', 'Trunk'),
    'qos_policy': ('qos_policy', 'QoSPolicy'),
}


def stub(entity, ident):
    """An SDK resource object standing for ``ident`` (no request)."""
    module, cls = _CLASSES[entity]
    return getattr(importlib.import_module('openstack.network.v2.' + module), cls)(id=ident)


def is_uuid(value):
    return isinstance(value, str) and bool(_UUID.match(value))


def as_dict(obj):
    """An SDK resource as Neutron's JSON (server-side names), or None."""
    if obj is None:
        return None
    if hasattr(obj, 'to_dict'):   # SDK resources are dicts too, keyed by SDK names
        return obj.to_dict(body=True, headers=False, computed=False, original_names=True)
    return dict(obj)


def listed(fn, **query):
    """A list call consumed inside the error translation (SDK lists are
    generators that raise while being iterated)."""
    return sdk.call(lambda: list(fn(**query)))


def extensions(conn):
    """The set of Neutron extension aliases (one GET per run: ports created
    together wait for the first one's answer instead of each asking).  Read
    as raw JSON: only the aliases are used, and a hundred-odd SDK Extension
    objects cost more CPU than the request."""
    return sdk.remembered(conn, ('neutron', 'extensions'), lambda: frozenset(
        e['alias'] for e in sdk.request_json(conn.network, 'GET', '/extensions')['extensions']))


def lookup_id(ctx, kind, value, **query):
    """The id of a Neutron object named by name or id: a UUID is used as it
    is (no request); a name is listed once and must match exactly one, as
    Heat's find_resourceid_by_name_or_id does."""
    if value is None or value == '' or is_uuid(value):
        return value
    plural = 'security_groups' if kind == 'security_group' else (
        'qos_policies' if kind == 'qos_policy' else kind + 's')

    def find():
        found = listed(getattr(ctx.conn.network, plural), name=value, **query)
        if not found:
            ctx.fail('The %s (%s) could not be found.' % (_LABELS.get(kind, kind), value))
        if len(found) > 1:
            ctx.fail('Multiple physical resources were found with name (%s).' % value)
        return found[0].id
    # once per run and name: the public network of a router and of every
    # floating IP is one lookup (a failure is not kept)
    return sdk.remembered(ctx.conn, ('neutron', kind, value, tuple(sorted(query.items()))), find)


def secgroup_ids(ctx, groups):
    """Heat's get_secgroup_uuids: ids as given, names looked up in the
    current project (every project has its own ``default``)."""
    out = []
    for group in groups or ():
        if is_uuid(group):
            out.append(group)
            continue
        project = getattr(ctx.conn, 'current_project_id', None)
        query = {'project_id': project} if project else {}
        found = listed(ctx.conn.network.security_groups, name=group, **query)
        if not found:
            ctx.fail('The SecurityGroup (%s) could not be found.' % group)
        if len(found) > 1:
            ctx.fail('Multiple security groups with name (%s).' % group)
        out.append(found[0].id)
    return out


def prepare_body(props, name=None):
    """Heat's prepare_properties: None dropped, ``name`` defaulted, value_specs
    merged into the body."""
    body = dict((k, v) for k, v in props.items() if v is not None)
    if 'name' in props:
        body.setdefault('name', name)
    specs = body.pop('value_specs', None)
    if specs:
        body.update(specs)
    return body


def changed_specs(ctx, specs):
    """The value_specs entries an update sends: those the template changed;
    all of them when the template changed none (a converge putting the
    cloud's drift back: the record's values are not what the cloud holds)."""
    before = (ctx.old_properties or {}).get('value_specs') or {}
    if specs == before:
        return dict(specs)
    return dict((k, v) for k, v in specs.items() if v != before.get(k))


def prepare_update(ctx, diff, name_default=True):
    """Heat's prepare_update_properties on a prop diff: changed value_specs
    entries merged in, a name going back to None means the physical name."""
    if 'value_specs' in diff:
        specs = dict(diff.pop('value_specs') or {})
        diff.update(changed_specs(ctx, specs))
    if name_default and 'name' in diff and diff['name'] is None:
        diff['name'] = ctx.physical_name
    return diff


# What Heat's NeutronResource.validate bans from value_specs beside the
# type's own properties.
BANNED_SPECS = ('shared', 'tenant_id')


def value_specs_rule(given):
    """Heat's NeutronResource.validate_properties: value_specs may not set a
    property of the type (it would override it in the request), nor shared
    or tenant_id.  Heat lists the keys found in a set's order, which varies
    from run to run; here they are in value_specs' order."""
    props = given.props
    specs = props.get('value_specs')
    if 'value_specs' not in props or not isinstance(specs, dict):
        return
    banned = set(BANNED_SPECS).union(props)
    found = [key for key in specs if key in banned]
    if found:
        given.fail('%s not allowed in value_specs' % ', '.join(found), 'value_specs')


def status_built(ctx, live):
    """Heat's NeutronResource.is_built on a live dict."""
    status = (live or {}).get('status')
    if status == 'BUILD':
        return False
    if status in ('ACTIVE', 'DOWN'):
        return True
    if status in ('ERROR', 'DEGRADED'):
        ctx.in_error(status)
    ctx.unknown_status('Resource is not built', status)


class NeutronPlugin(ResourcePlugin):
    """CRUD of one Neutron collection, named by ``entity`` (``network`` →
    ``conn.network.create_network`` ...) and ``collection`` (the list call)."""

    entity = None
    collection = None
    # Heat polls is_built after create/update for types with a status.
    has_status = False
    # The object can carry Neutron tags (marks and the user's ``tags``).
    taggable = True
    # Hidden legacy property -> the property Heat's translation moves it to.
    aliases = {}
    # Properties compared by drift: property -> key of the live object.
    drift_keys = {}
    # Attributes Heat computes with a request of their own: name -> method.
    costly = {}

    @property
    def costly_attributes(self):
        return tuple(self.costly)

    # -- validate ----------------------------------------------------------
    @classmethod
    def validate(cls, given):
        """Heat's NeutronResource.validate.  Heat's Subnet, Port, Router,
        ProviderNet and FloatingIP override it, call it and drop its answer,
        so Heat 27 accepts their value_specs whatever they hold: their
        plugins override this without calling it."""
        value_specs_rule(given)

    # -- helpers -----------------------------------------------------------
    def fn(self, ctx, verb):
        return getattr(ctx.conn.network, '%s_%s' % (verb, self.entity))

    def props(self, ctx, source=None):
        """Properties with Heat's REPLACE translations applied (a hidden
        legacy name's value moves to the current name)."""
        props = dict(ctx.properties if source is None else source)
        for old, new in self.aliases.items():
            value = props.pop(old, None)
            if props.get(new) is None and value is not None:
                props[new] = value
        return props

    def prop_diff(self, ctx):
        """Heat's prop_diff: the changed properties with their new values."""
        props = self.props(ctx)
        changed = set(ctx.changed)
        for old, new in self.aliases.items():
            if old in changed:
                changed.discard(old)
                changed.add(new)
        return dict((k, props.get(k)) for k in changed)

    def user_tags(self, ctx):
        return ctx.properties.get('tags') if 'tags' in self.heat_type().properties else None

    def mark(self, ctx, obj, user_tags=None):
        """Set the stack marks (and the user's tags) on a fresh object
        (Neutron's JSON of it, which comes back with its tags)."""
        if not self.taggable:
            return obj
        tags = ctx.tags(user_tags)
        if self.entity in RAW:
            raw_set_tags(ctx.conn, self.entity, obj['id'], tags)
            return dict(obj, tags=tags)
        return as_dict(sdk.call(ctx.conn.network.set_tags, stub(self.entity, obj['id']), tags)) or obj

    def set_user_tags(self, ctx, tags):
        """Heat's set_tags on update: the user's tags, our marks kept."""
        if self.entity in RAW:
            raw_set_tags(ctx.conn, self.entity, ctx.physical_id, ctx.tags(tags))
            return
        sdk.call(ctx.conn.network.set_tags, stub(self.entity, ctx.physical_id), ctx.tags(tags))

    # -- lifecycle -------------------------------------------------------------
    def create_body(self, ctx):
        return prepare_body(self.props(ctx), ctx.physical_name)

    def create(self, ctx):
        body = self.create_body(ctx)
        body.pop('tags', None)
        obj = self.post(ctx, body)
        ctx.physical_id = obj['id']
        user_tags = self.user_tags(ctx)
        if user_tags:
            obj = self.mark(ctx, obj, user_tags)
        ctx.live = obj
        return obj['id']

    def post(self, ctx, body):
        """The create call: Neutron's JSON of the new object."""
        if self.entity in RAW:
            return raw_create(ctx.conn, self.entity, body)
        return as_dict(sdk.call(self.fn(ctx, 'create'), retry_writes=False, **body))

    def create_later(self, ctx):
        """The stack marks alone (the user's tags went with the create)."""
        if not self.taggable or self.user_tags(ctx):
            return None
        return lambda: self.set_user_tags(ctx, None)

    def check_create_complete(self, ctx):
        if not self.has_status:
            return True
        return self._built(ctx)

    def _built(self, ctx):
        live = ctx.live
        # the create's own answer is Heat's first GET when already settled
        if not live or live.get('status') not in ('ACTIVE', 'DOWN'):
            live = self.show(ctx)
            if live is None:
                ctx.fail('%s %s not found' % (self.type_name, ctx.physical_id))
        return status_built(ctx, live)

    def check_update_complete(self, ctx):
        if not self.has_status:
            return True
        ctx.live = None
        return self._built(ctx)

    def delete(self, ctx):
        if not ctx.physical_id:
            return
        if self.entity in RAW:
            raw_delete(ctx.conn, self.entity, ctx.physical_id)
        else:
            sdk.delete_quietly(self.fn(ctx, 'delete'), ctx.physical_id)

    # -- reading ---------------------------------------------------------------
    def show(self, ctx):
        if not ctx.physical_id:
            return None
        if self.entity in RAW:
            live = raw_get(ctx.conn, self.entity, ctx.physical_id)
        else:
            live = as_dict(sdk.get_or_none(self.fn(ctx, 'get'), ctx.physical_id))
        if live is not None:
            ctx.live = live
        return live

    def check(self, ctx):
        live = self.show(ctx)
        if live is None:
            ctx.fail('%s %s not found' % (self.type_name, ctx.physical_id))
        if live.get('status') in ('ERROR', 'DEGRADED'):
            ctx.in_error(live['status'])

    def needs_replace_failed(self, ctx):
        if not ctx.physical_id:
            return True
        live = self.show(ctx)
        if live is None:
            return True
        return live.get('status') == 'ERROR'

    def public(self, live):
        """The live dict with the engine's marks hidden."""
        if not isinstance(live, dict):
            return live
        out = dict(live)
        if 'tags' in out:
            out['tags'] = own_tags(out['tags'])
        return out

    def attributes(self, ctx, live, names=None):
        """Heat's attributes; those that cost a request (``costly``) are only
        computed when ``names`` is None (all) or names them."""
        live = self.public(live)
        if not isinstance(live, dict):
            return {}
        attrs = {}
        for name in self.heat_type().attributes:
            if name == 'show' or (names is not None and name not in names):
                continue
            method = self.costly.get(name)
            attrs[name] = getattr(self, method)(ctx, live) if method else live.get(name)
        attrs['show'] = live
        return attrs

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        props = self.props(ctx)
        out = []
        for prop, key in sorted(self.drift_keys.items()):
            want = props.get(prop)
            if want is None:
                continue
            if prop == 'name':
                want = want or ctx.physical_name
            if live.get(key) != want:
                out.append(prop)
        if 'tags' in self.heat_type().properties and self.taggable:
            want = sorted(props.get('tags') or [])
            if sorted(own_tags(live.get('tags'))) != want:
                out.append('tags')
        specs = props.get('value_specs') or {}
        if any(k in live and live[k] != v for k, v in specs.items()):
            out.append('value_specs')
        return out

    # -- crash recovery --------------------------------------------------------
    def expected_name(self, ctx):
        if 'name' not in self.heat_type().properties:
            return None
        return ctx.properties.get('name') or ctx.physical_name

    def find(self, ctx):
        """By the stack marks (the newest match when an earlier object of the
        same resource still exists, as during a replace), else by the generated
        physical name when the create died before the marks were set."""
        if not self.collection:
            return None
        lister = getattr(ctx.conn.network, self.collection)
        name = self.expected_name(ctx)
        query = {'name': name} if name else {}
        found = listed(lister, tags=ctx.tags(), **query) if self.taggable else []
        if not found and name and not ctx.properties.get('name'):
            # the generated name is unique (random suffix): no mark needed
            found = listed(lister, name=name)
        if not found:
            return None
        found.sort(key=lambda o: getattr(o, 'created_at', None) or '', reverse=True)
        return found[0].id

    def found_is_whole(self, ctx):
        """The create is one POST (the user's tags, when given, are a second
        request: then not whole).  find matches the generated name or the
        marks; an object without either is never found."""
        return not self.user_tags(ctx)
