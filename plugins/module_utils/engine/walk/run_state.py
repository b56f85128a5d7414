# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One run of one stack: what every resource task shares.

``StackRun`` is the run's context: the store and the vault, the stack row,
the definition being applied (``sd``), the plugins, and the record's rows
(``ResourceRow``s, this run's view of them).  Rows are written through it,
so secrets are always split off and encrypted on the way to the store.  The
run's events are its ``log`` (events.py); what it masks, its ``masker``
(secrets.py).

What the template functions read of its rows goes through its ``seam``
(seam.py); the attributes they read are computed by the methods of
attributes.py it inherits.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading

from ...resources import registry
from ...resources.base import Peer, ResourceContext
from ...resources.heat.template_resource import NESTED_STACK, TemplateResource
from ...resources.sdk import note_secret
from .attributes import RowAttributes
from .create_attempts import ACTION_RETRY_LIMIT
from .events import EventLog
from ...resources.heat.group_kinds import group_type
from ...resources.heat.remote_stack import is_stack
from ..store.records import CURRENT, Rows
from .seam import Seam
from ..store.secrets import MASK_PREFIX, Masker, digest, secret_strings


class StackRun(RowAttributes):

    def __init__(self, store, vault, conn, stack, definition=None, *, secret_values=(),
                 check_mode=False):
        self.store = store
        self.vault = vault
        self.conn = conn
        self.stack = stack
        self.sd = definition
        self.check_mode = check_mode
        # heat.conf's action_retry_limit: how often an object that went to an
        # error status while building is deleted and made again (the request's)
        self.action_retry_limit = ACTION_RETRY_LIMIT
        # the run updates the stack to other inputs (or rolls one back):
        # what the types replaced by every stack update need to know
        self.stack_updated = False
        # the stack action the run records (hooks.py: which hooks hold), and
        # for a delete with no definition, the stored environment's registry
        self.action = None
        self.hook_registry = None
        # an adopt (engine/run/adopt.py): name -> the entry of Heat's abandon
        # data of each resource of this stack (definition/heat_data.py); None
        # for any other run
        self.adopting = None
        self.masker = Masker(secret_values, (stack or {}).get('salt'))
        self.log = EventLog(store, stack, self.masker, check_mode=check_mode)
        self._plugins = {}
        self._lock = threading.RLock()
        self.rows = Rows()              # uuid -> ResourceRow (this run's view of the record)
        self._attr_cache = {}           # uuid -> _Known: a row's attributes learnt in this run
        self.decisions = {}             # name -> planner Decision
        # row uuid -> property names a converge's stack check found drifted,
        # which the planner counts as changed; kept in memory only, so a run
        # killed before putting them back leaves no mark a later run without
        # converge would act on (a converge reads them again)
        self.drifted = {}
        # resources whose output attributes this run has settled (outputs.refresh_steps)
        self.outputs_read = set()
        self.seam = Seam(definition, self)
        # Nested stacks (engine/nested/stacks.py): name -> Nest of each template
        # resource of this stack; the types that are templates.
        self.nests = {}
        self.deleting = {}              # uuid -> the StackRun of a template resource's stack
        self.template_types = set()
        if stack is not None and stack.get('id'):
            for row in store.resources(stack['id']):
                self.rows[row.uuid] = row
        self.use_definition(definition)

    def use_definition(self, definition, graph=None):
        """Run ``definition`` (a nested stack's, built again once its
        parameters are known); ``graph``: prepare its seam with it."""
        self.sd = definition
        self.seam = Seam(definition, self)
        for row in self.rows.values():
            if row.facts.get(NESTED_STACK):
                self.template_types.add(row.type)
        for defn in (definition.resources.values() if definition is not None else ()):
            if getattr(defn.type_info, 'template', None) or group_type(defn) or is_stack(defn):
                self.template_types.add(defn.type)
        if graph is not None:
            self.seam.prepare(graph, self.rows.values())

    def bind_stack(self, stack):
        """The stack row of a nested stack made during the run."""
        self.stack = stack
        self.masker.salt = stack.get('salt') or ''
        self.log.stack_id, self.log.stack_name = stack['id'], stack['name']

    # -- plugins and rows ---------------------------------------------------
    def plugin(self, type_name, resource_name=None):
        plugin = self._plugins.get(type_name)
        if plugin is None:
            if type_name in self.template_types:
                plugin = TemplateResource()
            else:
                plugin = registry.require_supported(type_name, resource_name)()
            self._plugins[type_name] = plugin
        return plugin

    def rows_of(self, name, role=None):
        return self.rows.of(name, role)

    def current(self, name):
        rows = self.rows.of(name, CURRENT)
        return rows[0] if rows else None

    def save(self, row, ctx=None, touch=True):
        """Commit a row (after a handler ran, with its ctx's data);
        ``touch=False``: keep its updated_time (only its cache changed)."""
        if ctx is not None:
            plugin = self.plugin(row.type, row.name)
            secret_keys = set(plugin.secret_data)
            data = ctx.data or {}
            # A value holding a hidden parameter (TestResource keeps its
            # ``value``) is a secret too: encrypted, never in clear.
            secret_keys.update(k for k, v in data.items() if self.masker.mask(v) != v)
            hidden = dict((k, v) for k, v in data.items() if k in secret_keys)
            self.note_secrets(hidden)
            if row.reference_id and row.reference_id in secret_strings(hidden.values()):
                # a RandomString's reference id is its value: the record
                # keeps a digest, get_resource asks for it again (reference_of)
                row = row.replace(reference_id=digest(row.reference_id, self.masker.salt))
            row = row.replace(
                physical_id=ctx.physical_id,
                data=dict((k, v) for k, v in data.items() if k not in secret_keys),
                secret_data=self.vault.encrypt(hidden) if hidden else None)
        if row.status == 'IN_PROGRESS':
            with self._lock:     # an action starts: what was read of it is no longer true
                self._attr_cache.pop(row.uuid, None)
        if self.check_mode:
            return row
        with self._lock:
            saved = self.store.save_resource(row, touch=touch)
            self.rows[saved.uuid] = saved
        return saved

    def save_data(self, row, ctx):
        """Commit ``ctx``'s data on the run's newest copy of ``row``: once a
        resource is published, readers may have added to its attribute cache
        (attributes.py), which an older copy would write over."""
        with self._lock:
            return self.save(self.rows.get(row.uuid, row), ctx, touch=False)

    def forget(self, row):
        if not self.check_mode:
            self.store.delete_resource(row.uuid)
        with self._lock:
            self.rows.pop(row.uuid, None)
            self._attr_cache.pop(row.uuid, None)

    def set_roles(self, changes):
        if not self.check_mode:
            self.store.set_roles(changes)
        with self._lock:
            for row_uuid, role in changes:
                if row_uuid in self.rows:
                    self.rows[row_uuid] = self.rows[row_uuid].replace(role=role)

    def reference_of(self, row):
        """A row's reference id (get_resource); one the record keeps as a
        secret's digest is computed again from its decrypted data."""
        reference = row.reference_id
        if not (isinstance(reference, str) and reference.startswith(MASK_PREFIX)):
            return reference
        reference = self.plugin(row.type, row.name).reference_id(self.context(row))
        return reference if reference is None or isinstance(reference, str) else str(reference)

    def note_secrets(self, values):
        """The secret data of a row (made now or read back from the record):
        masked in the run's messages (reasons, events) and noted on the
        connection for the module to hide (sdk.note_secret)."""
        found = secret_strings((values or {}).values())
        self.masker.learned.update(found)
        for value in found:
            note_secret(self.conn, value)

    def context(self, row, properties=None, *, action=None, changed=(), old_properties=None):
        data = dict(row.data or {})
        if row.secret_data:
            secret = self.vault.decrypt(row.secret_data) or {}
            self.note_secrets(secret)
            data.update(secret)
        stack = self.stack or {}
        return ResourceContext(
            conn=self.conn, stack_id=stack.get('id'), stack_name=stack.get('name'),
            name=row.name, type_name=row.type, physical_name=row.physical_name,
            physical_id=row.physical_id,
            properties=properties if properties is not None else (row.properties or {}),
            old_properties=old_properties, changed=changed, metadata=row.metadata,
            data=data, action=action, lookup=self.peer)

    def peer(self, physical_id):
        """The resource of the record whose physical id is ``physical_id``
        (this run's rows first, then any stack of the store: a nested
        stack's deployment reads its parent's config), as a ``Peer``."""
        if not physical_id:
            return None
        with self._lock:
            found = [r for r in self.rows.values()
                     if r.physical_id == physical_id and r.role == CURRENT]
        row = found[0] if found else self.store.resource_by_physical_id(physical_id)
        if row is None:
            return None
        data = dict(row.data or {})
        if row.secret_data:
            data.update(self.vault.decrypt(row.secret_data) or {})
        return Peer(row.name, row.type, row.physical_id, row.physical_name, data)
