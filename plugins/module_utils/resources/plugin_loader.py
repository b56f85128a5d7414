# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Users' resource plugins, loaded from directories as Heat's ``plugin_dirs``.

``load(dirs)`` imports every plugin module of those directories (on the host
the module runs on), checks it and registers its types in Heat's catalogue
(hot/resource_types.py: ``is_known``, ``heat_type``) and in the resource
registry (``registry.PLUGINS``), so that validation, the environment's
``resource_registry``, the planner, the walk and the implicit dependencies
treat them as built-in types.  Each module that reads templates calls it once,
before it parses anything; nothing else is discovered.

A plugin module is a top-level ``*.py`` file of a directory whose name does
not start with ``_`` (those, and packages, are its helpers, imported by the
plugin modules with relative imports).  It declares ``CONTRACT_VERSION``
(resources/base.py's) and Heat's ``resource_mapping()`` returning
``{type name: ResourcePlugin subclass}`` (or Heat's
``available_resource_mapping()``, which wins when both exist, as in Heat).

Everything is checked before anything is registered, and a fault raises a
``ResourcePluginError`` naming the file: a directory or file another user
can write to, an import that raises, a contract version mismatch, a missing
or bad mapping, a type name clashing with a built-in type or another
file's, a schema that is not valid (plugin_schema.py).  So a module refuses
the task before any cloud call.

Module state: ``_LOADED`` (type name -> LoadedPlugin) is what the last
``load`` registered; the next ``load`` replaces it whole.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import grp
import hashlib
import importlib
import inspect
import os
import pwd
import re
import stat
import sys
import traceback
import types

# What a plugin may import of the collection (docs/plugins.md): imported here
# by name so that AnsiballZ ships them with every module that loads plugins.
from .. import errors
from ..errors import (PluginContractMismatch, PluginImportError, PluginMappingError, PluginTypeClash,
                      PluginUnsafe, ResourcePluginError)
from ..hot import resource_types as rt
from . import base, registry, sdk
from . import plugin_schema

ENV_VAR = 'STACKERS_PLUGIN_DIRS'
CONTRACT_VERSION = base.CONTRACT_VERSION
# The package the plugin modules of each directory are imported under.
PACKAGE = 'stackers_resource_plugins'
# Heat's mapping functions, the first found wins (heat/engine/plugin_manager.py).
MAPPING_FUNCTIONS = ('available_resource_mapping', 'resource_mapping')
TYPE_NAME = re.compile(r'^[A-Za-z][A-Za-z0-9_]*(::[A-Za-z0-9_]+)+$')
PUBLIC_MODULES = (base, errors, sdk)

# One loaded type: its name, its registered class, the file that maps it,
# its schemas as the class declares them (Heat's resource type show shape)
# and the implicit dependencies it declares.
LoadedPlugin = collections.namedtuple(
    'LoadedPlugin', 'type_name plugin path properties_schema attributes_schema implicit_dependencies')

_LOADED = {}


def configured_dirs(option=None, environ=None):
    """The plugin directories of a task: its ``resource_plugin_dirs`` when
    given (an empty list: none), else ``$STACKERS_PLUGIN_DIRS`` split on
    ``os.pathsep``."""
    if option is not None:
        return [str(d) for d in option]
    value = (os.environ if environ is None else environ).get(ENV_VAR) or ''
    return [d for d in value.split(os.pathsep) if d]


def loaded():
    """type name -> LoadedPlugin of the types the last ``load`` registered."""
    return dict(_LOADED)


def declared_dependencies(type_name):
    """The implicit dependencies a loaded plugin type declares: ``((own
    property, target type, target property), ...)``; () for any other type."""
    item = _LOADED.get(type_name)
    return item.implicit_dependencies if item is not None else ()


def load(dirs):
    """Load the plugin modules of ``dirs`` and register their types, in
    place of those an earlier call registered.  Returns ``{type name:
    LoadedPlugin}`` (in the order the directories and files give them);
    raises a ResourcePluginError, registering nothing, on the first fault."""
    found = collections.OrderedDict()
    encoded = {}
    for directory in dirs:
        paths = _plugin_files(directory)
        package = _package(directory)
        for path in paths:
            for item, entry in _load_file(package, directory, path):
                earlier = found.get(item.type_name)
                if earlier is not None:
                    raise PluginTypeClash('%s is also mapped by %s' % (item.type_name, earlier.path),
                                          filename=path)
                found[item.type_name] = item
                encoded[item.type_name] = entry
    unload()
    for name, item in found.items():
        rt.add_type(name, *encoded[name])
        registry.PLUGINS[name] = item.plugin
        _LOADED[name] = item
    return dict(found)


def unload():
    """Forget every type ``load`` registered."""
    for name in list(_LOADED):
        rt.remove_type(name)
        registry.PLUGINS.pop(name, None)
        del _LOADED[name]


# -- the files -------------------------------------------------------------------

def _check_safe(path):
    """Refuse what another user could change: the other write bit, the
    group write bit of a group another user is in, or an owner that is
    neither this user nor root (as ssh's StrictModes)."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise ResourcePluginError('cannot read the resource plugin directory or file: %s'
                                  % (err.strerror or err), filename=path)
    if st.st_mode & stat.S_IWOTH or (st.st_mode & stat.S_IWGRP and _shared_group(st)):
        raise PluginUnsafe('other users can write to this resource plugin %s (mode %s): '
                           'make it writable by its owner only (chmod go-w)'
                           % ('directory' if stat.S_ISDIR(st.st_mode) else 'file',
                              oct(stat.S_IMODE(st.st_mode))), filename=path)
    if st.st_uid not in (os.geteuid(), 0):
        raise PluginUnsafe('this resource plugin %s belongs to another user (uid %d): only files of '
                           'the user running the module, or of root, are loaded'
                           % ('directory' if stat.S_ISDIR(st.st_mode) else 'file', st.st_uid),
                           filename=path)


def _shared_group(st):
    """Whether a user other than the file's owner may be in its group: a
    user's private group (umask 002 checkouts make files group-writable)
    holds only that user.  A group the system cannot name counts as
    shared."""
    try:
        group = grp.getgrgid(st.st_gid)
        owner = pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        return True
    if any(member != owner for member in group.gr_mem):
        return True
    return any(user.pw_gid == st.st_gid and user.pw_uid != st.st_uid for user in pwd.getpwall())


def _plugin_files(directory):
    if not os.path.isdir(directory):
        raise ResourcePluginError('no such resource plugin directory', filename=directory)
    _check_safe(directory)
    names = sorted(n for n in os.listdir(directory)
                   if n.endswith('.py') and not n.startswith(('_', '.')))
    paths = [os.path.join(directory, n) for n in names]
    for path in paths:
        _check_safe(path)
    return paths


def _package(directory):
    """The package a directory's modules are imported under, made afresh at
    each load (as Heat's create_subpackage makes its plugin package), so
    that a plugin's relative imports of its helpers work and a directory
    loaded again is read again.  Each name is new, under our own root
    package: no module anybody imported is replaced."""
    real = os.path.realpath(directory)
    if PACKAGE not in sys.modules:
        root = types.ModuleType(PACKAGE)
        root.__path__ = []
        _add_module(PACKAGE, root)
    _LOADS[0] += 1
    name = '%s.d%s_%d' % (PACKAGE, hashlib.sha256(real.encode('utf-8')).hexdigest()[:16], _LOADS[0])
    package = types.ModuleType(name)
    package.__path__ = [real]
    _add_module(name, package)
    return name


_LOADS = [0]


def _add_module(name, module):
    """Register a package of our own that no one else has (the one write
    into the interpreter's import table: relative imports, tracebacks and
    ``inspect`` find a module there)."""
    if name in sys.modules and name != PACKAGE:
        raise ResourcePluginError('the plugin package %s exists already' % name)
    sys.modules[name] = module


def _import(package, directory, path):
    module_name = '%s.%s' % (package, os.path.basename(path)[:-3])
    try:
        return importlib.import_module(module_name)
    except Exception as err:  # pylint: disable=broad-except
        # a user's code: whatever it raises is the fault reported
        filename, line = _where(directory, path, err)
        raise PluginImportError('cannot import the resource plugin: %s' % _last_line(err),
                                filename=filename, line=line)


def _last_line(err):
    return traceback.format_exception_only(type(err), err)[-1].strip()


def _where(directory, path, err):
    """The file and line inside the plugin directory where ``err`` was
    raised (a syntax error's own), else the plugin file itself."""
    real = os.path.realpath(directory) + os.sep
    if isinstance(err, SyntaxError) and err.filename and os.path.realpath(err.filename).startswith(real):
        return err.filename, err.lineno
    inside = [frame for frame in traceback.extract_tb(err.__traceback__)
              if os.path.realpath(frame.filename).startswith(real)]
    if inside:
        return inside[-1].filename, inside[-1].lineno
    return path, None


# -- one plugin module ---------------------------------------------------------------

def _load_file(package, directory, path):
    """[(LoadedPlugin, its encoded catalogue entry)] of one plugin module."""
    module = _import(package, directory, path)
    declared = getattr(module, 'CONTRACT_VERSION', None)
    if declared is None:
        raise PluginContractMismatch('the resource plugin declares no CONTRACT_VERSION (this collection\'s '
                                     'plugin contract is version %d)' % CONTRACT_VERSION, filename=path)
    if declared != CONTRACT_VERSION:
        raise PluginContractMismatch('the resource plugin was written for version %r of the plugin contract; '
                                     'this collection\'s is version %d (docs/plugins.md)'
                                     % (declared, CONTRACT_VERSION), filename=path)
    mapping = _mapping(module, path)
    out = []
    for type_name, cls in mapping.items():
        out.append(_load_type(type_name, cls, path))
    return out


def _mapping(module, path):
    for name in MAPPING_FUNCTIONS:
        func = getattr(module, name, None)
        if func is None:
            continue
        if not callable(func):
            raise PluginMappingError('%s is not a function' % name, filename=path)
        try:
            mapping = func()
        except Exception as err:  # pylint: disable=broad-except
            raise PluginMappingError('%s() raised %s' % (name, _last_line(err)), filename=path)
        if not isinstance(mapping, dict):
            raise PluginMappingError('%s() must return a dict {type name: plugin class}, not %s'
                                     % (name, type(mapping).__name__), filename=path)
        return mapping
    raise PluginMappingError('the resource plugin has no resource_mapping() function (name helper '
                             'modules with a leading _ to keep them from being loaded as plugins)',
                             filename=path)


def _class_line(cls):
    try:
        return inspect.getsourcelines(cls)[1]
    except (OSError, TypeError):
        return None


def _load_type(type_name, cls, path):
    if not isinstance(type_name, str) or not TYPE_NAME.match(type_name):
        raise PluginMappingError('%r is not a resource type name (words joined by ::, as My::Cloud::Thing)'
                                 % (type_name,), filename=path)
    if not (isinstance(cls, type) and issubclass(cls, base.ResourcePlugin)):
        raise PluginMappingError('%s is mapped to %r, which is not a subclass of ResourcePlugin '
                                 '(resources/base.py)' % (type_name, cls), filename=path)
    line = _class_line(cls)
    if rt.is_builtin(type_name) or (type_name in registry.PLUGINS and type_name not in _LOADED):
        raise PluginTypeClash('%s is a built-in resource type: a plugin type needs a name of its own'
                              % type_name, filename=path, line=line)
    if cls.type_name not in (None, type_name):
        raise PluginMappingError('%s is mapped to the class %s, whose type_name is %s'
                                 % (type_name, cls.__name__, cls.type_name), filename=path, line=line)
    entry = plugin_schema.encode(cls, type_name, path, line)
    rules = plugin_schema.implicit_rules(cls, type_name, path, line)
    if cls.type_name is None:
        # the registry and the engine know a class by its type_name; its doc
        # stays the user's (heat_resource_type_info shows it)
        cls = type(cls.__name__, (cls,), {'type_name': type_name, '__module__': cls.__module__,
                                          '__doc__': cls.__doc__})
    return LoadedPlugin(type_name=type_name, plugin=cls, path=path, properties_schema=cls.properties_schema,
                        attributes_schema=getattr(cls, 'attributes_schema', {}),
                        implicit_dependencies=rules), entry
