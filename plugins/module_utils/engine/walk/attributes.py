# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The attributes of a run's rows, as ``get_attr`` reads them.

When a resource settles its row caches the attributes that cost nothing
beyond the live object its handler left (``cacheable_attributes``).  Those
that cost requests of their own (a plugin's ``costly_attributes``: a port's
subnets, a server's addresses) are computed the first time a template reads
them, from one live read of the row per run, and added to the row's cache:
a rerun reads them from the record, and a create never waits on reads no
template uses.  ``uncached_attributes`` are computed at each read; a
plugin with ``secret_data`` caches nothing (its attributes are computed once
per run).  Cached values are masked (hidden parameter values), as the
record keeps them; a row that cached nothing when it settled (no live
object then) starts its cache at its first read, unless a value holds a
secret.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from ...resources.heat.template_resource import NESTED_STACK, SECRET_OUTPUTS
from ...resources.heat import remote_stack as stack_resource
from ...resources.heat.group_kinds import GROUP_TYPES, group_type
from ...resources.heat.group_kinds import attribute as group_attribute

# Live reads of the attributes the outputs use, side by side (refresh_attributes).
REFRESH_WORKERS = 8


class RowAttributes(object):
    """StackRun's attribute methods (it provides plugin, rows, save, masker,
    seam, context, ``_lock`` and ``_attr_cache``)."""

    def attribute(self, row, key):
        """What ``get_attr`` of a published row's ``key`` gives: the cached
        value; a costly attribute the cache lacks (any, when the row caches
        nothing) computed now, once per run; an uncached one read live."""
        if row.facts.get(NESTED_STACK):
            return self.nested_attribute(row, key)
        plugin = self.plugin(row.type, row.name)
        if key in plugin.uncached_attributes:
            return self.live_attribute(row, key)
        declared = key == 'show' or key in plugin.heat_type().attributes
        attrs = self._known(row, plugin, (key,) if declared else ())
        if key in attrs:
            return attrs[key]
        if declared:
            return None
        raise KeyError(key)

    def nested_attribute(self, row, key):
        """A template resource's attribute (Heat's TemplateResource): an
        output of its nested stack, or ``resource.<name>[.<attribute>]``, a
        resource of that stack, read through this run's view of it."""
        kind = self._nested_kind(row)
        if kind in GROUP_TYPES:
            return group_attribute(self, row, self.nests.get(row.name), key, [])
        if kind == stack_resource.STACK_TYPE:
            return stack_resource.attribute(self.nested_outputs(row), key, row.physical_name)
        if key.startswith('resource.'):
            parts = key.split('.', 2)
            nest = self.nests.get(row.name)
            inner = nest.run.current(parts[1]) if nest is not None and len(parts) > 1 else None
            if inner is None:
                return None
            if len(parts) == 2:
                return nest.run.reference_of(inner)
            return nest.run.attribute(inner, parts[2])
        outputs = self.nested_outputs(row)
        if key in outputs:
            return outputs[key]
        raise KeyError(key)

    def attribute_path(self, row, key, path):
        """(True, value) when the attribute itself reads ``path`` (a group's
        ``attributes`` and per-member lists: Heat's get_attr path goes to
        each member), else (False, None): the path selects in the value."""
        if row.facts.get(NESTED_STACK) and self._nested_kind(row) in GROUP_TYPES:
            return True, group_attribute(self, row, self.nests.get(row.name), key, list(path))
        return False, None

    def attributes(self, row):
        """Every attribute of a row (get_attr without a name), computed as needed."""
        if row.facts.get(NESTED_STACK) and self._nested_kind(row) == stack_resource.STACK_TYPE:
            outputs = self.nested_outputs(row)
            return dict((key, stack_resource.attribute(outputs, key, row.physical_name))
                        for key in ('outputs', 'stack_name'))
        if row.facts.get(NESTED_STACK):
            return self.nested_outputs(row)
        plugin = self.plugin(row.type, row.name)
        return self._known(row, plugin, _all_form_names(plugin))

    def nested_outputs(self, row):
        """A nested stack's outputs as its parent's row keeps them (its
        attributes), those holding a secret given back from the row's
        encrypted data (nested/steps.py: the record keeps their digests)."""
        outputs = dict(row.attrs or {})
        if row.secret_data:
            secret = self.vault.decrypt(row.secret_data) or {}
            self.note_secrets(secret.get(SECRET_OUTPUTS) or {})
            outputs.update(secret.get(SECRET_OUTPUTS) or {})
        return outputs

    def cacheable_attributes(self, plugin, ctx):
        """Attributes to keep in the row when a resource's action ends:
        those that cost nothing now (the handler left the live object in
        ctx.live, or the plugin's come from its data alone); the costly ones
        wait for a template to read them.  None means none kept: computed on
        use."""
        if (ctx.live is None and not plugin.attributes_from_record) or plugin.secret_data:
            return None
        return self._secret_free(plugin, _computed(plugin, ctx, _cheap_names(plugin)))

    def _secret_free(self, plugin, got):
        """``got`` when the record may cache it, else None: attributes of a
        plugin with secret data, or holding a secret, are computed on use,
        never cached (_known also lets a row with a cache keep them masked)."""
        if plugin.secret_data or self.masker.mask(got) != got:
            return None
        return got

    def live_attribute(self, row, key):
        """An attribute the plugin never lets the cache keep, computed now
        (from this run's live read of the row)."""
        plugin = self.plugin(row.type, row.name)
        entry = self._entry(row.uuid)
        with entry.lock:
            ctx = self._live(row, entry)
        return (plugin.attributes(ctx, ctx.live, names={key}) or {}).get(key)

    def refresh_attributes(self, uses):
        """Read again the attributes the outputs use (``uses``: resource name
        -> attribute names, None for all) and keep them: a value cached when
        its resource settled may have moved since (a network's ``subnets``
        once its subnets exist).  One live read per resource, side by side:
        they are the last thing the run waits for."""
        todo = []
        for name in sorted(uses):
            row = self.current(name)
            if row is None or row.status != 'COMPLETE' or row.physical_id is None or \
                    row.facts.get(NESTED_STACK):
                continue    # a nested stack's outputs are settled by its own finish
            plugin = self.plugin(row.type, row.name)
            # None (the all-attributes form) also stands for names given
            # beside it (outputs.py): a show the record keeps is read again
            names = _all_form_names(plugin, row.attrs) if uses[name] is None else [
                n for n in sorted(uses[name]) if n not in plugin.uncached_attributes]
            if names:
                todo.append((row, plugin, names))
        if len(todo) == 1:
            self._refresh(*todo[0])
        elif todo:
            with ThreadPoolExecutor(min(REFRESH_WORKERS, len(todo))) as pool:
                for future in [pool.submit(self._refresh, *item) for item in todo]:
                    future.result()

    # -- inside --------------------------------------------------------------
    def _nested_kind(self, row):
        """The engine type a nested stack's row is (a registry alias of a
        group type is that group), from its definition or else its type."""
        defn = self.sd.resources.get(row.name) if self.sd is not None else None
        if defn is not None and defn.type == row.type:
            return group_type(defn) or (stack_resource.STACK_TYPE if stack_resource.is_stack(defn)
                                        else row.type)
        return row.type

    def _known(self, row, plugin, names):
        """The row's attributes as this run knows them, with those of
        ``names`` it lacks computed from one live read of the row per run
        (concurrent readers wait for that one) and kept in the row."""
        entry = self._entry(row.uuid)
        with entry.lock:
            if entry.attrs is None:
                entry.attrs = dict(row.attrs or {})
                entry.cached = row.attrs is not None
            # A cache holds every cheap attribute the plugin gave: only the
            # costly ones it lacks are left to compute.
            want = [n for n in names if n not in entry.attrs and n not in entry.asked and
                    n not in plugin.uncached_attributes and
                    (not entry.cached or n in plugin.costly_attributes)]
            if not want:
                return entry.attrs
            keep = not plugin.secret_data
            if keep and not entry.cached:
                want = _first_cache(plugin, want)
            ctx = self._live(row, entry)
            got = _computed(plugin, ctx, want)
            if keep and ctx.live is not None:
                masked = self.masker.mask(got)
                # A row with a cache gives it as the record keeps it (masked);
                # one without gives what it computes, and starts a cache only
                # when that holds no secret (a TestResource's hidden value).
                if entry.cached or masked == got:
                    got = masked
                    entry.cached = True
                    self._keep(row.uuid, got)
            merged = dict(got)
            merged.update(entry.attrs)        # a value already given stays as given
            entry.attrs = merged              # replaced, never changed: readers hold it
            entry.asked.update(want)
            return merged

    def _keep(self, row_uuid, attrs, fresh=False):
        """Add computed attributes to the newest copy of the row's cache (an
        older one would write over what was saved meanwhile, e.g. the end of
        the resource's create, resource_tasks._finish), if the run still
        holds the row settled; ``fresh``: they replace the cached values (a
        read again), else those cached stay.  The row saved, or None (check
        mode never writes: see save)."""
        with self._lock:
            current = self.rows.get(row_uuid)
            if current is None or current.status != 'COMPLETE':
                return None
            merged = dict(current.attrs or {}) if fresh else dict(attrs)
            merged.update(attrs if fresh else current.attrs or {})
            return self.save(current.replace(attrs=merged), touch=False)

    def _refresh(self, row, plugin, names):
        plugin, ctx = self._read_live(row)
        if ctx.live is None:
            return
        if not plugin.secret_data and row.attrs is None:
            names = _first_cache(plugin, names)
        got = _computed(plugin, ctx, names)
        entry = _Known()
        entry.ctx = ctx                       # what the outputs read next comes from this read
        keep = self._secret_free(plugin, got) is not None
        with self._lock:
            if keep:
                # onto the newest copy: the read waited on the cloud meanwhile
                saved = self._keep(row.uuid, got, fresh=True)
                keep = saved is not None
                row = saved or row
            if not keep:
                entry.attrs = got
                entry.asked.update(names)
            self._attr_cache[row.uuid] = entry
            if keep:
                self.seam.publish(row)

    def _entry(self, row_uuid):
        with self._lock:
            entry = self._attr_cache.get(row_uuid)
            if entry is None:
                entry = self._attr_cache[row_uuid] = _Known()
            return entry

    def _live(self, row, entry):
        """The row's ctx with its live object, read once per run (entry.lock held)."""
        if entry.ctx is None:
            entry.ctx = self._read_live(row)[1]
        return entry.ctx

    def _read_live(self, row):
        """(plugin, ctx) of a row with the live object read into ctx.live."""
        plugin = self.plugin(row.type, row.name)
        ctx = self.context(row)
        ctx.live = plugin.show(ctx)
        return plugin, ctx


def _all_names(plugin):
    """Every attribute a cache may hold: the type's and ``show``, not the uncached."""
    names = [n for n in plugin.heat_type().attributes if n not in plugin.uncached_attributes]
    return names if 'show' in names else names + ['show']


def _all_form_names(plugin, kept=None):
    """What get_attr without a name computes: every attribute but a costly
    ``show`` (a server's own GET) unless ``kept`` (a row's cache) holds it:
    Heat's FnGetAtts leaves show out of its answer, so never reads it."""
    return [n for n in _all_names(plugin)
            if n != 'show' or n not in plugin.costly_attributes or n in (kept or {})]


def _cheap_names(plugin):
    return [n for n in _all_names(plugin) if n not in plugin.costly_attributes]


def _first_cache(plugin, names):
    """What to compute for a row that caches nothing yet: ``names`` and its
    cheap attributes (no cost beyond the live read), so that its cache holds
    every attribute but the costly ones not asked for."""
    return _cheap_names(plugin) + [n for n in names if n in plugin.costly_attributes]


def _computed(plugin, ctx, names):
    """The plugin's attributes for ``names`` (it may give more), the uncached left out."""
    attrs = plugin.attributes(ctx, ctx.live, names=set(names)) or {}
    return dict((k, v) for k, v in attrs.items() if k not in plugin.uncached_attributes)


class _Known(object):
    """What one run learnt of one row's attributes: its cache and what was
    computed (``attrs``), the names asked of the plugin, the live read."""

    __slots__ = ('lock', 'attrs', 'cached', 'asked', 'ctx')

    def __init__(self):
        self.lock = threading.RLock()
        self.attrs = None
        self.cached = False
        self.asked = set()
        self.ctx = None


class _Attributes(Mapping):
    """The lazy ``attrs`` of a resource in the seam (see RowAttributes.attribute)."""

    def __init__(self, run, row):
        self._run = run
        self._row = row

    def __getitem__(self, key):
        return self._run.attribute(self._row, key)

    def select(self, key, path):
        """See RowAttributes.attribute_path."""
        return self._run.attribute_path(self._row, key, path)

    def __iter__(self):
        return iter(self._run.attributes(self._row))

    def __len__(self):
        return len(self._run.attributes(self._row))
