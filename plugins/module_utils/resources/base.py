# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a resource plugin is, and what it is given.

A plugin is a stateless class per Heat type: its handlers get a
``ResourceContext`` and talk to the cloud through ``resources/sdk.py``.
The engine owns everything else (ordering, the record, events, polling):

- ``create(ctx)`` starts the create and returns the physical id as soon as
  the cloud gives one (the engine commits it at once); ``check_create_complete
  (ctx)`` is polled until True.  The same pairs exist for update, delete,
  suspend and resume.  A ``check_*`` handler never sleeps: the engine polls
  it on its own timer, so no thread waits on a building server.
- ``create_later(ctx)`` is what a create owes that no dependent waits for
  (a Neutron object's stack marks): the engine runs it off the critical path.
- Failures raise ``ResourceFailure`` with the cloud's real reason, or let the
  typed Cloud* errors of sdk.py propagate; the engine reports them as Heat
  does (``resource_status_reason``).
- ``find(ctx)`` answers, after a run died between the create call and
  the commit of the physical id, which cloud object this resource already
  is (by the physical name committed before the call, or the stack tags).
- ``show(ctx)`` is the live object as a dict (the ``show`` attribute, stack
  check, drift); ``attributes(ctx, live, names=None)`` Heat's attributes
  from it (``names``: at least those; None: all).  ``ctx.live`` may already
  hold the object a create/check call returned, so attributes cost no extra
  request; those that cost requests of their own are ``costly_attributes``,
  computed only when a template reads them.

Property values reach handlers the way Heat's Properties give them: every
schema property present, converted to its type, defaults applied
(``effective_properties``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import string

from ..errors import ResourceFailure
from ..hot import resource_types as rt

# The version of the plugin contract this file defines: the handlers,
# ResourceContext's fields and the class attributes below.  A user's plugin
# module declares the version it was written for (``CONTRACT_VERSION = 1``);
# resources/plugin_loader.py refuses any other.  It changes only when a
# change here would break a plugin written for the previous one.
CONTRACT_VERSION = 1

# Tag/metadata keys that mark what the engine made (stack check finds drift
# and orphans by them; a lost record can be rebuilt from them).
TAG_STACK = 'stackers-stack-id'
TAG_RESOURCE = 'stackers-resource'

_ID_CHARS = string.ascii_lowercase + string.digits


def short_id(length=12):
    """Heat-style random suffix of a physical name: base-36 digits of one
    read of the system's randomness (not a read per character: one system
    call a name; 128 bits leave no bias worth the name at 12 digits)."""
    number = int.from_bytes(os.urandom(16 + length // 20 * 8), 'big')
    out = []
    for _i in range(length):
        number, digit = divmod(number, len(_ID_CHARS))
        out.append(_ID_CHARS[digit])
    return ''.join(out)


def physical_name(stack_name, resource_name, limit=None, suffix=None):
    """Heat's ``<stack>-<resource>-<random>``; when a type limits names,
    the stack part is cut from the front and the resource part kept, as
    Heat's physical_resource_name does."""
    suffix = suffix or short_id()
    name = '%s-%s-%s' % (stack_name, resource_name, suffix)
    if limit is None or len(name) <= limit:
        return name
    # Keep the suffix and as much of both names as fits (Heat trims the
    # middle of the stack name; the suffix is what keeps names unique).
    room = limit - len(suffix) - 2
    if room <= 0:
        return suffix[:limit]
    head = max(1, room // 2)
    tail = room - head
    combined = ('%s-%s' % (stack_name, resource_name))
    trimmed = combined[:head] + combined[len(combined) - tail:] if tail else combined[:head]
    return '%s-%s' % (trimmed[:room], suffix)


class ResourceContext(object):
    """Everything a handler may read (and ``data``/``live``, which it may set).

    ``data`` is the plugin's own persisted state (a dict the engine stores
    after every handler call, e.g. a generated value or an attachment id);
    secrets in it are stored as the store stores secrets.  ``old_properties``
    are the properties last applied (an update), else None; ``changed`` is the
    set of property names whose value differs.  A ``check_*_complete``
    that answers False may set ``look_soon``: the engine then looks again
    after its shortest wait, not one grown with the time already waited
    (poll_batch.look: another object made with this one has just moved)."""

    __slots__ = ('conn', 'stack_id', 'stack_name', 'name', 'type_name', 'physical_name',
                 'physical_id', 'properties', 'old_properties', 'changed', 'metadata', 'data',
                 'live', 'action', 'deadline', 'lookup', 'look_soon')

    def __init__(self, conn=None, stack_id=None, stack_name=None, name=None, type_name=None, *,
                 physical_name=None, physical_id=None, properties=None, old_properties=None,
                 changed=(), metadata=None, data=None, action=None, deadline=None,
                 lookup=None):
        self.conn = conn
        self.stack_id = stack_id
        self.stack_name = stack_name
        self.name = name
        self.type_name = type_name
        self.physical_name = physical_name
        self.physical_id = physical_id
        self.properties = properties if properties is not None else {}
        self.old_properties = old_properties
        self.changed = frozenset(changed)
        self.metadata = metadata
        self.data = data if data is not None else {}
        self.live = None
        self.action = action
        self.deadline = deadline
        # lookup(physical_id) -> Peer or None: another resource of the record
        # by its physical id (a deployment reads its config and its server).
        self.lookup = lookup if lookup is not None else _no_peer
        self.look_soon = False

    # -- what marks the engine's own objects ------------------------------
    def tags(self, user_tags=None):
        """Neutron-style string tags: the user's, then the stack's."""
        tags = [str(t) for t in (user_tags or ())]
        for tag in ('%s=%s' % (TAG_STACK, self.stack_id), '%s=%s' % (TAG_RESOURCE, self.name)):
            if tag not in tags:
                tags.append(tag)
        return tags

    def metadata_tags(self, user_metadata=None):
        """Nova/Cinder-style metadata: the user's keys, then the stack's."""
        meta = dict(user_metadata or {})
        meta.setdefault(TAG_STACK, str(self.stack_id))
        meta.setdefault(TAG_RESOURCE, str(self.name))
        return meta

    def fail(self, message, kind=None):
        """Raise this resource's failure with ``message`` as the reason;
        ``kind`` is the name Heat gives it in the reason (``ValueError: ...``),
        ResourceInError when not given."""
        details = {'kind': kind} if kind else {}
        raise ResourceFailure(message, resource=self.name, action=self.action, **details)

    def in_error(self, status, reason='Unknown'):
        """The object went to an error status: Heat's ResourceInError, the
        one failure a create is retried through (the engine's
        action_retry_limit: deleted, then made again)."""
        raise ResourceFailure('Went to status %s due to "%s"' % (status, reason), resource=self.name,
                              action=self.action, kind='ResourceInError', in_error=True)

    def unknown_status(self, result, status, reason='Unknown'):
        """The object is in a status its type does not expect: Heat's
        ResourceUnknownStatus (not retried)."""
        raise ResourceFailure('%s - Unknown status %s due to "%s"' % (result, status, reason),
                              resource=self.name, action=self.action, kind='ResourceUnknownStatus')


class Peer(object):
    """What a plugin may read of another resource of the record: its
    name, type, physical id and name, and its data (secrets decrypted)."""

    __slots__ = ('name', 'type_name', 'physical_id', 'physical_name', 'data')

    def __init__(self, name, type_name, physical_id, physical_name, data):
        self.name = name
        self.type_name = type_name
        self.physical_id = physical_id
        self.physical_name = physical_name
        self.data = data


def _no_peer(physical_id):
    return None


def own_tags(tags):
    """``tags`` without the engine's marks (what the user asked for)."""
    return [t for t in (tags or ()) if not (isinstance(t, str) and (
        t.startswith(TAG_STACK + '=') or t.startswith(TAG_RESOURCE + '=')))]


def own_metadata(meta):
    return dict((k, v) for k, v in (meta or {}).items() if k not in (TAG_STACK, TAG_RESOURCE))


class ResourcePlugin(object):
    """Base of every plugin; the defaults suit a resource that exists only in
    the stack record (OS::Heat::None)."""

    type_name = None
    # The longest wait between two looks at a resource still in transition
    # (the engine starts shorter and backs off: resource_tasks.poll_delay).
    poll_interval = 1.0
    # Actions never complete at the call's answer (a server's build): the
    # engine waits before the first check_*_complete instead of spending a
    # call on it.
    slow_actions = ()
    # Heat's prepare_for_replace: the old one must go before the new one can
    # exist (a unique name the new one reuses, e.g. a key pair).
    replace_deletes_first = False
    physical_name_limit = 255
    # Keys of ctx.data that are secrets: stored encrypted, never cached in
    # attributes (e.g. a generated password, a private key).
    secret_data = ()
    # Attributes never kept in the record's cache: read live when a template
    # asks (a server's console URLs cost a request each and expire).
    uncached_attributes = ()
    # Attributes whose value costs requests beyond the live object (a port's
    # subnets, a server's addresses): left out when a resource settles and
    # computed the first time a template reads them.
    costly_attributes = ()
    # The attributes come from the row's data alone (a deployment's outputs,
    # from its last signal), never from a live object: the row keeps them
    # when any action ends, a failed one included.
    attributes_from_record = False
    # The type exists only in the stack record: its handlers make no request
    # (the engine runs its steps beside the cloud's, engine/walk/scheduler.py).
    record_only = False

    # Heat's validate() of the type, beyond its property schema: a
    # classmethod taking a hot/type_checks.py RuleInput that calls its
    # ``fail`` for a template Heat refuses at stack create; None: no rule.
    validate = None

    # -- schema ------------------------------------------------------------
    @classmethod
    def heat_type(cls):
        return rt.heat_type(cls.type_name)

    @classmethod
    def update_allowed(cls, prop):
        schema = cls.heat_type().properties.get(prop)
        return schema is not None and schema.update_allowed

    # Where create looks something up by name (an image, a flavor, an
    # external network): paths into the properties, asked when the run
    # starts (engine/run/prefetch.py) for the values the template gives without
    # a resource reference.  None: nothing to ask; (): ask with no value.
    prefetch_properties = None

    # Whether the type has checks that ask the cloud before any write
    # (``preflight``): only those types cost the run a request up front.
    has_preflight = False

    def preflight(self, conn, properties):
        """Heat's resource validation that needs to ask a service (made
        before any write; Heat makes it at stack validation).  Returns
        ``(property name or None, message)`` when the resource must be
        refused, else None."""
        return None

    # -- lifecycle -------------------------------------------------------------
    def prefetch(self, ctx):
        """Ask now what create will look up, keeping the answers for the run
        (sdk.remembered); ``ctx.properties`` holds the known values of
        ``prefetch_properties`` only.  A failure is not kept: create asks
        again and reports it."""
        return None

    def create(self, ctx):
        return None

    def create_later(self, ctx):
        """What the create still owes once the object is usable, as a
        zero-argument callable (None: nothing).  The engine calls it after
        the resource is COMPLETE and its dependents have started, when no
        other create is in flight, and again
        on a later run when it did not finish: it must be idempotent."""
        return None

    def check_create_complete(self, ctx):
        return True

    def update(self, ctx):
        """Apply ``ctx.changed`` in place (only called when every changed
        property is update_allowed and ``needs_replace`` said no)."""
        return None

    def check_update_complete(self, ctx):
        return True

    def delete(self, ctx):
        return None

    def check_delete_complete(self, ctx):
        return True

    def suspend(self, ctx):
        return None

    def check_suspend_complete(self, ctx):
        return True

    def resume(self, ctx):
        return None

    def check_resume_complete(self, ctx):
        return True

    # Heat's deletion_policy Snapshot (handle_snapshot_delete): types that
    # can snapshot define ``snapshot(ctx, state)`` and
    # ``check_snapshot_complete(ctx)``; the engine calls them before
    # ``delete``.  ``state`` is the (action, status) the row had before the
    # delete began (Heat's rules skip the snapshot of some FAILED states; a
    # ('DELETE', 'IN_PROGRESS') row is a delete a killed run left).
    # ``snapshot`` answers None when it makes no snapshot, else what the
    # snapshot keeps as ``{key: id}`` (``{'image_id': ...}``), which the
    # run's result names once ``check_snapshot_complete`` is True.  It keeps
    # that id in ``ctx.data`` (saved before the first check), and a delete
    # resumed from the row's data waits for that snapshot instead of making
    # a second one.
    #
    # Heat's stack snapshot (handle_snapshot, engine/run/snapshot.py) calls
    # the same pair with ``state`` ('SNAPSHOT', 'IN_PROGRESS'), on a copy of
    # the row's data: what it makes belongs to the snapshot record, never to
    # the row (a later delete with deletion_policy Snapshot makes its own).
    # The record keeps what ``snapshot`` answered as Heat's resource_data,
    # each key renamed by ``heat_snapshot_keys`` (Heat's server keeps
    # ``snapshot_image_id``); the other two hooks read that resource_data:
    # - ``restore_properties(properties, resource_data)``: Heat's
    #   handle_restore, the resource's properties as the template writes them
    #   (a dict, functions unresolved) made into the restored stack's (a
    #   server's image becomes the snapshot's image); a new dict;
    # - ``delete_snapshot(ctx, resource_data)`` and
    #   ``check_delete_snapshot_complete(ctx)``: Heat's handle_delete_snapshot,
    #   the snapshot's image or backup deleted (one gone already is no
    #   error), polled as the other pairs; ``ctx.data`` is a copy of the
    #   resource_data and ``ctx.physical_id`` the resource's id when the
    #   snapshot was taken.
    snapshot = None
    heat_snapshot_keys = {}
    restore_properties = None
    delete_snapshot = None

    def check_delete_snapshot_complete(self, ctx):
        return True

    # -- moving stacks to and from a Heat service (abandon, adopt) ----------
    def heat_resource_data(self, ctx):
        """The row's data as Heat's ``resource_data`` holds it for this
        type (what ``openstack stack abandon`` prints, and Heat's adopt
        reads back): Heat's keys and values, from ``ctx.data`` (its
        ``secret_data`` keys decrypted; Heat keeps them in clear).  By
        default none: Heat keeps no data for the type."""
        return {}

    def from_heat_resource_data(self, ctx, resource_data):
        """Heat's ``resource_data`` of an adopted resource (a Heat
        service's abandon data) made into ``ctx.data`` as this plugin keeps
        it.  By default nothing is kept."""

    # -- decisions ---------------------------------------------------------
    def needs_replace(self, ctx):
        """Type-specific replace rules on an update (Server's
        image_update_policy: REPLACE ...); the update_allowed flags are
        applied by the planner before this."""
        return False

    def needs_replace_failed(self, ctx):
        """Heat's rule for a resource left FAILED: replace it on the next
        update (types that can tell a usable object override this)."""
        return True

    # -- reading ---------------------------------------------------------------
    def find(self, ctx):
        """The physical id of what an interrupted create already made, or
        None (then the engine creates it)."""
        return None

    def found_is_whole(self, ctx):
        """True when an object ``find`` returns after a create whose answer
        was lost can only be the whole of what ``create`` makes: one request
        made it, and find matches it by the name or marks that request
        carried.  The engine then takes it as the resource's (create_attempts);
        otherwise the create fails and the next run's replacement deletes it."""
        return False

    def show(self, ctx):
        """The live object as a dict; None when it is gone."""
        return {}

    def check(self, ctx):
        """Heat's stack check: raise ResourceFailure (or CloudNotFound) when
        the live object is gone or unhealthy."""
        if self.show(ctx) is None:
            ctx.fail('%s %s not found' % (self.type_name, ctx.physical_id))

    def attributes(self, ctx, live, names=None):
        """Heat's attributes from the live object (``show`` included):
        at least ``names`` (None: all); more may be given."""
        attrs = {}
        if isinstance(live, dict):
            for name in self.heat_type().attributes:
                if name in live:
                    attrs[name] = live[name]
            attrs['show'] = live
        return attrs

    def reference_id(self, ctx):
        """What get_resource gives: the physical id unless the type says."""
        return ctx.physical_id if ctx.physical_id is not None else ctx.name

    def drift(self, ctx, live):
        """Property names whose live value differs from what was applied
        (check mode reports them); none by default."""
        return []


# -- properties as Heat's Properties give them -----------------------------------

def effective_properties(type_name, resolved):
    """Every schema property of ``type_name`` with the value from
    ``resolved`` converted to the schema type, or the default, or None."""
    return _effective_map(rt.heat_type(type_name).properties, resolved or {})


def _effective_map(schema, data):
    out = {}
    for key, prop in schema.items():
        out[key] = _convert(prop, data.get(key))
    for key, value in data.items():
        if key not in out:
            out[key] = value   # translated/legacy names the schema keeps elsewhere
    return out


def _convert(prop, value):
    if value is None:
        value = prop.default
        if value is None:
            return None
    kind = prop.type
    try:
        if kind == 'String':
            if isinstance(value, bool):
                return 'true' if value else 'false'
            return value if isinstance(value, str) else str(value)
        if kind == 'Integer':
            return int(value)
        if kind == 'Number':
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return value
            text = str(value)
            return float(text) if any(c in text for c in '.eE') else int(text)
        if kind == 'Boolean':
            if isinstance(value, str):
                return value.strip().lower() in ('true', 'yes', 'on', '1', 't', 'y')
            return bool(value)
        if kind == 'List':
            if isinstance(value, str):
                value = [v.strip() for v in value.split(',')] if value else []
            items = list(value)
            if prop.schema is not None:
                return [_convert(prop.schema, item) for item in items]
            return items
        if kind == 'Map':
            if isinstance(prop.schema, dict) and isinstance(value, dict):
                return _effective_map(prop.schema, value)
            return value
    except (TypeError, ValueError):
        return value   # validation reported it already; keep what was given
    return value
