# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One run of one stack: what every resource task shares.

It holds the store, the stack row, the stack definition being applied, the
plugins, the events of this run and the *resource data seam* the template
functions read: ``get_resource``/``get_attr`` of a resource answer from its
record row (reference id, and the attributes of attributes.py).  Rows are
written through here, so secrets are always split off and encrypted on the
way to the store.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading

from .. import resources as registry
from ..hot import functions as fns
from ..resources.base import ResourceContext, effective_properties
from . import graph as _graph
from . import secrets as sec
from .attributes import RowAttributes, _Attributes
from .planner import decide
from .store import now_iso


class StackRun(RowAttributes):

    def __init__(self, store, vault, conn, stack, definition=None, secret_values=(),
                 check_mode=False):
        self.store = store
        self.vault = vault
        self.conn = conn
        self.stack = stack
        self.sd = definition
        self.check_mode = check_mode
        self.events = []
        self._plugins = {}
        self._lock = threading.RLock()
        self.secrets = sec.secret_strings(secret_values)
        self.rows = _Rows()             # uuid -> row (this run's view of the record)
        self._attr_cache = {}           # uuid -> _Known: a row's attributes learnt in this run
        self.decisions = {}             # name -> planner Decision
        if stack is not None and stack.get('id'):
            for row in store.resources(stack['id']):
                self.rows[row['uuid']] = row

    # -- plugins and rows ---------------------------------------------------
    def plugin(self, type_name, resource_name=None):
        plugin = self._plugins.get(type_name)
        if plugin is None:
            plugin = registry.require_supported(type_name, resource_name)()
            self._plugins[type_name] = plugin
        return plugin

    def rows_of(self, name, role=None):
        rows = self.rows
        found = [rows[u] for u in rows.uuids_of(name)] if isinstance(rows, _Rows) else [
            r for r in rows.values() if r['name'] == name]
        return [r for r in found if role is None or r['role'] == role]

    def current(self, name):
        rows = self.rows_of(name, 'current')
        return rows[0] if rows else None

    def save(self, row, ctx=None, touch=True):
        """Commit a row (after a handler ran, with its ctx's data);
        ``touch=False``: keep its updated_time (only its cache changed)."""
        row = dict(row)
        if ctx is not None:
            row['physical_id'] = ctx.physical_id
            plugin = self.plugin(row['type'], row['name'])
            secret_keys = set(plugin.secret_data)
            data = ctx.data or {}
            # A value holding a hidden parameter (TestResource keeps its
            # ``value``) is a secret too: encrypted, never in clear.
            secret_keys.update(k for k, v in data.items() if self.mask(v) != v)
            row['data'] = dict((k, v) for k, v in data.items() if k not in secret_keys)
            hidden = dict((k, v) for k, v in data.items() if k in secret_keys)
            row['secret_data'] = self.vault.encrypt(hidden) if hidden else None
        if row.get('status') == 'IN_PROGRESS':
            with self._lock:     # an action starts: what was read of it is no longer true
                self._attr_cache.pop(row['uuid'], None)
        if self.check_mode:
            return row
        with self._lock:
            saved = self.store.save_resource(row, touch=touch)
            self.rows[saved['uuid']] = saved
        return saved

    def save_data(self, row, ctx):
        """Commit ``ctx``'s data on the run's newest copy of ``row``: once a
        resource is published, readers may have added to its attribute cache
        (attributes.py), which an older copy would write over."""
        with self._lock:
            return self.save(self.rows.get(row['uuid'], row), ctx, touch=False)

    def forget(self, row):
        if not self.check_mode:
            self.store.delete_resource(row['uuid'])
        with self._lock:
            self.rows.pop(row['uuid'], None)
            self._attr_cache.pop(row['uuid'], None)

    def set_roles(self, changes):
        if not self.check_mode:
            self.store.set_roles(changes)
        with self._lock:
            for row_uuid, role in changes:
                if row_uuid in self.rows:
                    self.rows[row_uuid] = dict(self.rows[row_uuid], role=role)

    def context(self, row, properties=None, action=None, changed=(), old_properties=None):
        data = dict(row.get('data') or {})
        if row.get('secret_data'):
            data.update(self.vault.decrypt(row['secret_data']) or {})
        stack = self.stack or {}
        return ResourceContext(
            conn=self.conn, stack_id=stack.get('id'), stack_name=stack.get('name'),
            name=row['name'], type_name=row['type'], physical_name=row.get('physical_name'),
            physical_id=row.get('physical_id'),
            properties=properties if properties is not None else (row.get('properties') or {}),
            old_properties=old_properties, changed=changed, metadata=row.get('metadata'),
            data=data, action=action)

    # -- events ---------------------------------------------------------------
    def event(self, row, action, status, reason='state changed'):
        event = {'resource_name': row['name'], 'resource_type': row.get('type'),
                 'physical_resource_id': row.get('physical_id') or '',
                 'resource_action': action, 'resource_status': status,
                 'resource_status_reason': self.masked_text(reason), 'event_time': now_iso()}
        return self._record(event)

    def stack_event(self, action, status, reason='Stack %s started'):
        stack = self.stack or {}
        event = {'resource_name': stack.get('name'), 'resource_type': 'OS::Heat::Stack',
                 'physical_resource_id': stack.get('id') or '', 'resource_action': action,
                 'resource_status': status, 'resource_status_reason': self.masked_text(reason),
                 'event_time': now_iso()}
        return self._record(event)

    def _record(self, event):
        with self._lock:
            if not self.check_mode and self.stack and self.stack.get('id'):
                event = self.store.add_event(self.stack['id'], event)
                event.pop('stack_id', None)
                event.pop('seq', None)
            self.events.append(event)
        return event

    # -- secrets ----------------------------------------------------------------
    def mask(self, value):
        return sec.mask(value, self.secrets, (self.stack or {}).get('salt') or '')

    def masked_text(self, text):
        for secret in self.secrets:
            if secret and secret in text:
                text = text.replace(secret, '*****')
        return text

    # -- the seam the template functions read ---------------------------------
    def publish(self, row):
        """Make a completed row what get_resource/get_attr of its name see."""
        if self.sd is None:
            return
        self.sd.resource_data[row['name']] = {'reference_id': row.get('reference_id'),
                                              'attrs': _Attributes(self, row)}

    def prepare(self, graph):
        """Take the definition's graph: each resource's requirements (hubs
        expanded), and the record's settled rows as what functions read."""
        self.requires = dict((k, set(v)) for k, v in _graph.requires_map(graph).items())
        self.publish_record()

    def publish_record(self):
        for row in self.rows.values():
            if row['role'] == 'current' and row.get('status') == 'COMPLETE' and \
                    row['name'] in self.sd.resources:
                self.publish(row)

    def resolve_properties(self, name, unknown_names=(), unknown_attrs=()):
        """(effective properties, names of properties whose value depends on
        ``unknown_names`` (resources to be made) or on attributes of
        ``unknown_attrs`` (resources to be updated, whose id stays)): the
        properties as the resource's handlers get them."""
        defn = self.sd.resources[name]
        props = defn.properties or {}
        unknown = set()
        resolved = {}
        for key, snippet in props.items():
            if unknown_names and set(fns.dependencies(snippet)) & set(unknown_names):
                unknown.add(key)
                continue
            if unknown_attrs and attribute_references(snippet) & set(unknown_attrs):
                unknown.add(key)
                continue
            resolved[key] = self.sd.resolve(snippet, defn.path + ('properties', key))
        return effective_properties(defn.type, resolved), unknown

    def decision_inputs(self, name, unknown_names=(), unknown_attrs=()):
        """What the planner decides a desired resource's fate on: its
        effective properties (``props``, and ``masked`` as the record keeps
        them), ``metadata``, ``external_id``, the environment's ``restricted``
        actions, and the ``unknown`` property names (see resolve_properties)."""
        defn = self.sd.resources[name]
        props, unknown = self.resolve_properties(name, unknown_names, unknown_attrs)
        registry_ = getattr(self.sd.environment, 'registry', None)
        external_id = None
        if defn.external_id is not None:
            external_id = self.sd.resolve(defn.external_id, defn.path + ('external_id',)) or None
        return {'props': props, 'masked': self.mask(props), 'metadata': self.resolve_metadata(name),
                'external_id': external_id, 'unknown': unknown,
                'restricted': registry_.restricted_actions(name) if registry_ is not None else ()}

    def decide(self, name, row, inputs):
        """The planner's Decision for desired resource ``name`` and its record ``row``."""
        defn = self.sd.resources[name]
        return decide(defn, row, self.plugin(defn.type, name), inputs['masked'],
                      unknown=inputs['unknown'], metadata=self.mask(inputs['metadata']),
                      restricted=inputs['restricted'], external_id=inputs['external_id'],
                      conn=self.conn)

    def resolve_metadata(self, name):
        defn = self.sd.resources[name]
        if defn.metadata is None:
            return None
        return self.sd.resolve(defn.metadata, defn.path + ('metadata',))


class _Rows(dict):
    """uuid -> row, with an index by resource name: a run asks for a name's
    rows once per resource, and a scan each time made big stacks quadratic."""

    def __init__(self):
        super(_Rows, self).__init__()
        self._by_name = {}

    def __setitem__(self, key, row):
        old = self.get(key)
        if old is not None and old['name'] != row['name']:
            self._by_name.get(old['name'], {}).pop(key, None)
        super(_Rows, self).__setitem__(key, row)
        self._by_name.setdefault(row['name'], {})[key] = None

    def __delitem__(self, key):
        row = self[key]
        super(_Rows, self).__delitem__(key)
        self._by_name.get(row['name'], {}).pop(key, None)

    def pop(self, key, *default):
        if key in self:
            row = self[key]
            del self[key]
            return row
        if default:
            return default[0]
        raise KeyError(key)

    def uuids_of(self, name):
        return list(self._by_name.get(name, ()))


def attribute_functions(snippet):
    """Every get_attr in a parsed snippet, nested ones included."""
    if isinstance(snippet, fns.Function):
        if hasattr(snippet, 'attribute_path'):
            yield snippet
        yield from attribute_functions(snippet.args)
    elif isinstance(snippet, dict):
        for value in snippet.values():
            yield from attribute_functions(value)
    elif isinstance(snippet, (list, tuple)):
        for value in snippet:
            yield from attribute_functions(value)


def attribute_references(snippet, out=None):
    """Names of the resources whose attributes a parsed snippet reads."""
    out = set() if out is None else out
    for function in attribute_functions(snippet):
        out.update(function.own_dependencies())
    return out
