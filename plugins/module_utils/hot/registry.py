# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The resource_registry of an environment, resolved the way Heat does.

Heat keeps two registries: the global one (every plugin class, plus the
operator's environment.d) and the user's, built from the environment.  A
lookup gathers every entry that could answer a type name, sorts them (user
entries first, then the longest registry path, then path order) and takes
the first that resolves; aliases and wildcards resolve again from the top.
Per-resource entries live under ``resources:`` and apply to one resource
name exactly for type mappings, but to glob patterns for hooks and
restricted_actions; a nested stack sees the sub-map of its parent resource.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import fnmatch

from ..errors import EnvironmentError_, TemplateError, UnknownResourceType
from . import resource_types

HOOK_TYPES = ('pre-create', 'pre-update', 'pre-delete', 'post-create',
              'post-update', 'post-delete')
RESTRICTED_ACTIONS = ('update', 'replace')
TEMPLATE_SUFFIXES = ('.yaml', '.template')
NONE_TYPE = 'OS::Heat::None'
RESOURCES = 'resources'
HOOKS = 'hooks'
RESTRICTED = 'restricted_actions'
# Read by python-heatclient to resolve relative template paths; never sent
# to Heat as a mapping.
BASE_URL = 'base_url'

# Aliases Heat ships in etc/heat/environment.d/default.yaml.  They are only
# present where the operator installed that file, so they are off unless a
# caller asks for them (the template files it also maps are not included).
HEAT_DEFAULT_GLOBAL_REGISTRY = {
    'OS::Quantum*': 'OS::Neutron*',
    'OS::Metering::Alarm': 'OS::Aodh::Alarm',
    'OS::Ceilometer::Alarm': 'OS::Aodh::Alarm',
    'OS::Ceilometer::GnocchiResourcesAlarm': 'OS::Aodh::GnocchiResourcesAlarm',
    'OS::Ceilometer::GnocchiAggregationByMetricsAlarm': 'OS::Aodh::GnocchiAggregationByMetricsAlarm',
    'OS::Ceilometer::GnocchiAggregationByResourcesAlarm': 'OS::Aodh::GnocchiAggregationByResourcesAlarm',
    'OS::Ceilometer::CombinationAlarm': 'OS::Aodh::CombinationAlarm',
}

# A mapping chain longer than this is a wildcard growing without end.
_MAX_CHAIN = 64


def is_template_name(name):
    return isinstance(name, str) and name.endswith(TEMPLATE_SUFFIXES)


def _as_list(value):
    return [value] if isinstance(value, str) else list(value)


def _check_hooks(value):
    if isinstance(value, str):
        ok = value in HOOK_TYPES
    elif isinstance(value, list):
        ok = all(isinstance(v, str) and v in HOOK_TYPES for v in value)
    else:
        ok = False
    if not ok:
        return ('Invalid hook type "%s" for resource breakpoint, acceptable hook types are: %s'
                % (value, HOOK_TYPES))
    return None


def _check_restricted(value):
    if isinstance(value, str):
        ok = value in RESTRICTED_ACTIONS
    elif isinstance(value, list):
        ok = all(isinstance(v, str) and v in RESTRICTED_ACTIONS for v in value)
    else:
        ok = False
    if not ok:
        return ('Invalid restricted_action type "%s" for resource, acceptable restricted_action '
                'types are: %s' % (value, RESTRICTED_ACTIONS))
    return None


class Entry(object):
    """One user mapping: ``path`` inside the registry, its ``value`` (target
    type or template) and where it was written (``filename``, ``line``)."""

    __slots__ = ('path', 'name', 'value', 'kind', 'filename', 'line', 'user')

    def __init__(self, path, value, filename=None, line=None, user=True):
        self.path = tuple(path)
        self.name = self.path[-1]
        self.filename = filename
        self.line = line
        self.user = user
        if is_template_name(self.name):
            self.kind, self.value = 'template', self.name
        elif is_template_name(value):
            self.kind, self.value = 'template', value
        elif self.name.endswith('*'):
            self.kind, self.value = 'glob', value
        else:
            self.kind, self.value = 'map', value

    def moved(self, path):
        return Entry(path, self.value, self.filename, self.line, self.user)

    def same(self, other):
        return (other is not None and self.path == other.path and self.value == other.value
                and self.user == other.user)

    def sort_key(self):
        return (not self.user, -len(self.path), self.path)

    def __repr__(self):
        return 'Entry(%s -> %s)' % ('/'.join(self.path), self.value)


class ResourceInfo(object):
    """The answer of :meth:`Registry.resolve`.

    ``type_name`` is the type asked for; ``name`` is what Heat calls the
    implementation's name: the plugin type, or for a template resource the
    registry key mapped to the template (the template itself when the type
    is a file name).  ``template`` is the template's file name (a key of the
    files map, an absolute path or a URL) or None; ``plugin`` the plugin type
    for plugin resources; ``is_none`` says the implementation does nothing
    (OS::Heat::None, or a removed type Heat stubs out the same way).
    ``path`` is the registry path of the entry (Heat's item_to_remove for a
    nested stack's environment), ``chain`` the types passed through.
    """

    __slots__ = ('name', 'type_name', 'template', 'plugin', 'is_none', 'path', 'user',
                 'chain', 'entry')

    def __init__(self, name, type_name, template=None, plugin=None, is_none=False, *, path=(),
                 user=False, chain=(), entry=None):
        self.name = name
        self.type_name = type_name
        self.template = template
        self.plugin = plugin
        self.is_none = is_none
        self.path = tuple(path)
        self.user = user
        self.chain = tuple(chain)
        self.entry = entry

    @property
    def heat_type(self):
        """The catalogue entry of a plugin implementation (None for templates)."""
        return resource_types.heat_type(self.plugin) if self.plugin else None

    def __repr__(self):
        impl = self.template or self.plugin
        return 'ResourceInfo(%s -> %s)' % (self.type_name, impl)


class _NotFound(Exception):
    pass


class Registry(object):
    """A user resource_registry on top of Heat's global registry."""

    def __init__(self, global_mappings=None):
        self._tree = {RESOURCES: {}}
        self._user_level = True
        self._global = {}
        for name, value in (global_mappings or {}).items():
            self._global[name] = Entry((name,), value, user=False)

    # -- loading -------------------------------------------------------------
    def load(self, raw, filename=None, positions=None, prefix=('resource_registry',)):
        """Add a resource_registry mapping (as written in an environment).
        ``positions`` (path -> (line, col)) with ``prefix`` give lines."""
        if not isinstance(raw, dict):
            raise EnvironmentError_('resource_registry must be a mapping', path=prefix,
                                    filename=filename).locate(None, positions)
        self._load((), raw, filename, positions or {}, prefix)

    def _load(self, path, mapping, filename, positions, prefix):
        for key, value in mapping.items():
            here = path + (key if isinstance(key, str) else str(key),)
            pos = positions.get(prefix + path + (key,))
            line = pos[0] if pos else None
            if isinstance(value, Entry):
                self._register(here, value.moved(here))
            elif value is None:
                self._register(here, None)
            elif here[-1] == HOOKS or here[-1] == RESTRICTED:
                problem = (_check_hooks if here[-1] == HOOKS else _check_restricted)(value)
                if problem:
                    raise EnvironmentError_(problem, path=prefix + here, filename=filename, line=line)
                self._put(here, value, filename, line, prefix)
            elif isinstance(value, dict):
                self._load(here, value, filename, positions, prefix)
            elif here[-1] == BASE_URL and (len(here) == 1 or (len(here) == 3 and here[0] == RESOURCES)):
                continue
            elif here == (RESOURCES,):
                raise EnvironmentError_('resources must be a mapping of resource names',
                                        path=prefix + here, filename=filename, line=line)
            elif not isinstance(value, str):
                raise EnvironmentError_('the type %s must map to a type name or a template file, not %r'
                                        % (here[-1], value), path=prefix + here,
                                        filename=filename, line=line)
            else:
                self._register(here, Entry(here, value, filename, line))

    def _level(self, path, filename=None, line=None, prefix=()):
        level = self._tree
        for key in path:
            nxt = level.setdefault(key, {})
            if not isinstance(nxt, dict):
                raise EnvironmentError_('%s is both a mapping and a group of per-resource entries'
                                        % '/'.join(path), path=prefix + tuple(path),
                                        filename=filename, line=line)
            level = nxt
        return level

    def _put(self, path, value, filename=None, line=None, prefix=()):
        self._level(path[:-1], filename, line, prefix)[path[-1]] = value

    def _register(self, path, entry):
        level = self._level(path[:-1], getattr(entry, 'filename', None),
                            getattr(entry, 'line', None))
        name = path[-1]
        if entry is not None:
            level[name] = entry
        elif name.endswith('*'):
            # A null wildcard removes the matching entries loaded so far.
            for key in [k for k, v in level.items() if isinstance(v, Entry) and k.startswith(name[:-1])]:
                del level[key]
        else:
            level.pop(name, None)

    def copy(self):
        new = Registry()
        new._global = dict(self._global)
        new._load_tree((), self.as_dict(entries=True))
        return new

    def _load_tree(self, path, tree):
        for key, value in tree.items():
            here = path + (key,)
            if isinstance(value, Entry):
                self._register(here, value.moved(here))
            elif isinstance(value, dict):
                self._level(here)
                self._load_tree(here, value)
            else:
                self._put(here, value)

    def as_dict(self, entries=False):
        """The user registry as a resource_registry mapping (Heat's
        as_dict); with ``entries`` the leaves stay :class:`Entry` objects so
        origins survive a reload."""
        def walk(level):
            out = {}
            for key, value in level.items():
                if isinstance(value, dict):
                    out[key] = walk(value)
                elif isinstance(value, Entry):
                    out[key] = value if entries else value.value
                else:
                    out[key] = list(value) if isinstance(value, list) else value
            return out
        return walk(self._tree)

    # -- nested stacks -------------------------------------------------------
    def remove(self, info):
        """Drop the template entry that produced ``info`` (Heat removes it
        from a nested stack's registry so a provider template can use the
        type it implements)."""
        entry = info.entry if isinstance(info, ResourceInfo) else info
        if not isinstance(entry, Entry) or entry.kind != 'template' or not entry.user:
            return
        level = self._tree
        for key in entry.path[:-1]:
            level = level.get(key)
            if not isinstance(level, dict):
                return
        level.pop(entry.path[-1], None)

    def keep_resources_for(self, resource_name):
        """Make ``resources:`` what the nested stack of ``resource_name``
        sees: the sub-maps of every pattern matching it, the exact name
        last so it wins."""
        current = self._tree[RESOURCES]
        merged = {}
        for pattern, sub in current.items():
            if isinstance(sub, dict) and fnmatch.fnmatchcase(resource_name, pattern):
                merged.update(sub)
        if isinstance(current.get(resource_name), dict):
            merged.update(current[resource_name])
        self._tree[RESOURCES] = {}
        self._load_tree((RESOURCES,), merged)

    def nested(self, nested_path):
        """A copy of this registry as seen inside the nested stacks along
        ``nested_path`` (parent resource names from the top)."""
        reg = self
        for name in nested_path:
            reg = reg.copy()
            reg.keep_resources_for(name)
        return reg

    # -- lookups ---------------------------------------------------------------
    def resolve(self, type_name, resource_name=None, nested_path=(), ignore=None):
        """The implementation of ``type_name`` for resource ``resource_name``
        (a :class:`ResourceInfo`); UnknownResourceType when nothing
        resolves.  ``ignore`` skips one answer (Heat's facade lookup)."""
        if type_name == '':
            raise TemplateError('Resource "%s" has no type' % resource_name)
        if type_name is None:
            raise TemplateError('Non-empty resource type is required for resource "%s"' % resource_name)
        if not isinstance(type_name, str):
            raise TemplateError('Resource "%s" type is not a string' % resource_name)
        reg = self.nested(nested_path) if nested_path else self
        try:
            return reg._resolve(type_name, resource_name, ignore, ())
        except _NotFound:
            raise UnknownResourceType('The Resource Type (%s) could not be found.' % type_name)

    def _candidates(self, type_name, resource_name):
        tree = self._tree
        found = []
        if is_template_name(type_name) and self._user_level:
            # A file name used as a type registers itself on first use.
            known = tree.get(type_name)
            found.append(known if isinstance(known, Entry) else Entry((type_name,), type_name))
        if resource_name is not None:
            specific = tree[RESOURCES].get(resource_name)
            if isinstance(specific, dict) and isinstance(specific.get(type_name), Entry):
                found.append(specific[type_name])
        if isinstance(tree.get(type_name), Entry):
            found.append(tree[type_name])
        for key, entry in tree.items():
            if key.endswith('*') and isinstance(entry, Entry) and self._glob_matches(entry, type_name):
                found.append(entry)
        glob_entries = [e for k, e in self._global.items()
                        if (k == type_name and e.kind != 'glob')
                        or (e.kind == 'glob' and self._glob_matches(e, type_name))]
        found.extend(glob_entries)
        if resource_types.is_known(type_name):
            found.append(Entry((type_name,), None, user=False))
        found.sort(key=Entry.sort_key)
        return found

    @staticmethod
    def _glob_matches(entry, type_name):
        # The target is excluded so "OS::*": "OS::Heat::None" cannot recurse.
        return entry.kind == 'glob' and type_name != entry.value and type_name.startswith(entry.name[:-1])

    def _resolve(self, type_name, resource_name, ignore, chain):
        if type_name in chain or len(chain) > _MAX_CHAIN:
            raise EnvironmentError_('resource_registry mappings form a loop: %s'
                                    % ' -> '.join(chain + (type_name,)))
        chain = chain + (type_name,)
        for entry in self._candidates(type_name, resource_name):
            if entry.value is None and not entry.user:
                info = ResourceInfo(type_name, chain[0], plugin=type_name,
                                    is_none=resource_types.heat_type(type_name).is_none,
                                    path=entry.path, chain=chain, entry=entry)
            elif entry.kind == 'template':
                info = ResourceInfo(entry.name, chain[0], template=entry.value, path=entry.path,
                                    user=entry.user, chain=chain, entry=entry)
            else:
                if entry.kind == 'glob' and entry.value.endswith('*'):
                    target = entry.value[:-1] + type_name[len(entry.name) - 1:]
                else:
                    target = entry.value
                reg = self if entry.user else _global_only(self)
                try:
                    info = reg._resolve(target, resource_name, None, chain)
                except _NotFound:
                    continue
                except EnvironmentError_ as exc:
                    if exc.filename is None and exc.line is None and entry.user:
                        exc.filename, exc.line = entry.filename, entry.line
                        exc.path = ('resource_registry',) + entry.path
                    raise
                info = ResourceInfo(info.name, chain[0], template=info.template, plugin=info.plugin,
                                    is_none=info.is_none, path=info.path, user=info.user,
                                    chain=info.chain, entry=info.entry)
            if ignore is not None and ignore.entry is not None and info.entry is not None \
                    and ignore.entry.same(info.entry):
                continue
            return info
        raise _NotFound(type_name)

    def hooks(self, resource_name, nested_path=()):
        """Every hook set on ``resource_name`` (exact names and globs)."""
        return self._collect(HOOKS, resource_name, nested_path)

    def matches_hook(self, resource_name, hook, nested_path=()):
        return hook in self.hooks(resource_name, nested_path)

    def restricted_actions(self, resource_name, nested_path=()):
        """The set of ``update``/``replace`` restricted for ``resource_name``."""
        return self._collect(RESTRICTED, resource_name, nested_path)

    def _collect(self, key, resource_name, nested_path):
        reg = self.nested(nested_path) if nested_path else self
        found = set()
        for pattern, sub in reg._tree[RESOURCES].items():
            if isinstance(sub, dict) and key in sub and fnmatch.fnmatchcase(resource_name, pattern):
                found.update(_as_list(sub[key]))
        return found

    def template_entries(self):
        """Every user entry that names a template (for loading the files)."""
        out = []

        def walk(level):
            for value in level.values():
                if isinstance(value, dict):
                    walk(value)
                elif isinstance(value, Entry) and value.kind == 'template':
                    out.append(value)
        walk(self._tree)
        return out


def _global_only(registry):
    reg = Registry()
    reg._user_level = False
    reg._global = registry._global
    return reg
