# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Environment files, merged the way ``openstack stack create -e a -e b`` does.

The client (python-heatclient) reads each ``-e`` file, resolves the relative
template paths of its resource_registry against the file's directory, and
sends the files in order; Heat checks each one's sections and merges them
into the request's parameters: ``parameters`` and ``parameter_defaults``
key by key under the parameter_merge_strategies, every other section
shallowly (a later file's top-level registry key replaces the earlier one,
``resources:`` included).  We do both halves here.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os

from ..errors import EnvironmentError_
from .loader import Document, load_file, load_text
from .registry import BASE_URL, HOOKS, RESOURCES, RESTRICTED, Registry, is_template_name
from . import env_merge

SECTIONS = (PARAMETERS, RESOURCE_REGISTRY, PARAMETER_DEFAULTS, ENCRYPTED_PARAM_NAMES,
            EVENT_SINKS, PARAMETER_MERGE_STRATEGIES) = (
    'parameters', 'resource_registry', 'parameter_defaults', 'encrypted_param_names',
    'event_sinks', 'parameter_merge_strategies')
# What Heat's Environment does not count as a parameter in a flat legacy env.
_NOT_FLAT = (PARAMETER_DEFAULTS, ENCRYPTED_PARAM_NAMES, EVENT_SINKS, RESOURCE_REGISTRY)
# heat.event_sinks entry points: type -> (required keys, optional keys).
EVENT_SINK_TYPES = {'zaqar-queue': (('target',), ('ttl',))}
_PATHLIKE_SUFFIXES = ('.yaml', '.yml', '.json', '.template', '.env')


def _document(source, filename):
    if isinstance(source, Document):
        return source
    if source is None:
        return Document({}, {}, filename)
    if isinstance(source, dict):
        return Document(source, {}, filename)
    if isinstance(source, bytes):
        return load_text(source, filename, error_cls=EnvironmentError_)
    if isinstance(source, str):
        one_line = '\n' not in source and not source.lstrip().startswith('{')
        if one_line and (os.path.isfile(source) or os.sep in source
                         or source.endswith(_PATHLIKE_SUFFIXES)):
            return load_file(source, error_cls=EnvironmentError_)
        return load_text(source, filename, error_cls=EnvironmentError_)
    raise EnvironmentError_('An environment must be a file name, a text or a mapping, not %s'
                            % type(source).__name__, filename=filename)


class Environment(object):
    """One environment (or the merge of several).

    ``parameters``, ``parameter_defaults``, ``event_sinks``,
    ``encrypted_param_names``, ``parameter_merge_strategies`` (those of this
    file; a merged environment has none left, as in Heat) and ``registry``
    (:class:`Registry`).  ``sections`` keeps the checked sections in file
    order for merging; ``where(section, key)`` tells the (file, line) a value
    came from.
    """

    def __init__(self, global_registry=None):
        self.parameters = {}
        self.parameter_defaults = {}
        self.event_sinks = []
        self.encrypted_param_names = []
        self.parameter_merge_strategies = {}
        self.registry = Registry(global_registry)
        self.sections = {}
        self.filename = None
        self.positions = {}
        self._origins = {}

    # -- loading -------------------------------------------------------------
    @classmethod
    def load(cls, source, filename=None, files=None, legacy=False, global_registry=None):
        """Load one environment from a path, a text, a mapping or a
        Document.  ``files`` is the files map (name -> content): registry
        templates found there are taken as they are.  ``legacy`` accepts
        Heat's old flat form (every key a parameter) as Heat's Environment
        object does; environment *files* never get it."""
        if isinstance(source, Environment):
            return source
        doc = _document(source, filename)
        env = cls(global_registry)
        env.filename = doc.filename
        env.positions = doc.positions
        data = doc.data
        if not isinstance(data, dict):
            raise doc.error(EnvironmentError_, 'The environment is not a valid YAML mapping data type.')
        if legacy and PARAMETERS not in data:
            flat = dict((k, v) for k, v in data.items() if k not in _NOT_FLAT)
            data = dict((k, v) for k, v in data.items() if k in _NOT_FLAT)
            data[PARAMETERS] = flat
        else:
            for key, value in data.items():
                if key not in SECTIONS:
                    raise doc.error(EnvironmentError_, 'environment has wrong section "%s"' % key, (key,))
                if value is None:
                    raise doc.error(EnvironmentError_, 'environment has empty section "%s"' % key, (key,))
        env._check_shapes(doc, data)
        data = copy.deepcopy(data)
        if RESOURCE_REGISTRY in data:
            _resolve_template_paths(data[RESOURCE_REGISTRY], doc, files)
        # The client sends each file as JSON, so Heat sees string keys and
        # no YAML anchors shared between values.
        try:
            data = json.loads(json.dumps(data))
        except (TypeError, ValueError) as exc:
            raise doc.error(EnvironmentError_, 'The environment cannot be sent as JSON: %s' % exc)
        env.sections = data
        env._apply(data, doc)
        return env

    def _check_shapes(self, doc, data):
        for key in (PARAMETERS, PARAMETER_DEFAULTS, RESOURCE_REGISTRY, PARAMETER_MERGE_STRATEGIES):
            if key in data and not isinstance(data[key], dict):
                raise doc.error(EnvironmentError_, 'The "%s" section must be a mapping' % key, (key,))
        for key, value in data.get(PARAMETER_MERGE_STRATEGIES, {}).items():
            if not isinstance(value, str):
                raise doc.error(EnvironmentError_, 'A merge strategy must be a string, one of %s'
                                % ', '.join(env_merge.STRATEGIES), (PARAMETER_MERGE_STRATEGIES, key))
        names = data.get(ENCRYPTED_PARAM_NAMES, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise doc.error(EnvironmentError_, 'The "%s" section must be a list of parameter names'
                            % ENCRYPTED_PARAM_NAMES, (ENCRYPTED_PARAM_NAMES,))
        sinks = data.get(EVENT_SINKS, [])
        if not isinstance(sinks, list):
            raise doc.error(EnvironmentError_, 'The "event_sinks" section must be a list', (EVENT_SINKS,))
        for index, sink in enumerate(sinks):
            path = (EVENT_SINKS, index)
            if not isinstance(sink, dict) or 'type' not in sink:
                raise doc.error(EnvironmentError_, 'An event sink must be a mapping with a "type"', path)
            if sink['type'] not in EVENT_SINK_TYPES:
                raise doc.error(EnvironmentError_, 'Unknown event sink type "%s"; known types: %s'
                                % (sink['type'], ', '.join(sorted(EVENT_SINK_TYPES))), path + ('type',))
            required, optional = EVENT_SINK_TYPES[sink['type']]
            for key in sink:
                if key != 'type' and key not in required + optional:
                    raise doc.error(EnvironmentError_, 'Event sink "%s" takes no "%s"' % (sink['type'], key),
                                    path + (key,))
            for key in required:
                if key not in sink:
                    raise doc.error(EnvironmentError_, 'Event sink "%s" needs "%s"' % (sink['type'], key), path)

    def _apply(self, data, doc):
        self.parameters = dict(data.get(PARAMETERS, {}))
        self.parameter_defaults = dict(data.get(PARAMETER_DEFAULTS, {}))
        self.event_sinks = list(data.get(EVENT_SINKS, []))
        self.encrypted_param_names = list(data.get(ENCRYPTED_PARAM_NAMES, []))
        self.parameter_merge_strategies = dict(data.get(PARAMETER_MERGE_STRATEGIES, {}))
        for section, values in ((PARAMETERS, self.parameters), (PARAMETER_DEFAULTS, self.parameter_defaults)):
            for key in values:
                self._origins[(section, key)] = (doc.filename, doc.line_of((section, key)))
        self.registry.load(data.get(RESOURCE_REGISTRY, {}), doc.filename, doc.positions)

    # -- queries -------------------------------------------------------------
    def where(self, section, key=None):
        """(filename, line) of ``section`` (or of ``key`` in it), as far as known."""
        if key is not None and (section, key) in self._origins:
            return self._origins[(section, key)]
        line = None
        pos = self.positions.get((section,) if key is None else (section, key)) or self.positions.get((section,))
        if pos:
            line = pos[0]
        return (self.filename, line)

    def as_dict(self):
        """The user environment as Heat stores it (user_env_as_dict)."""
        return {PARAMETERS: copy.deepcopy(self.parameters),
                PARAMETER_DEFAULTS: copy.deepcopy(self.parameter_defaults),
                RESOURCE_REGISTRY: self.registry.as_dict(),
                EVENT_SINKS: copy.deepcopy(self.event_sinks)}

    def child(self, parent_resource_name=None, properties=None, item_to_remove=None):
        """The environment of a nested stack (Heat's get_child_environment):
        the parent's registry and parameter_defaults, the nested stack's own
        parameters (``properties``: flat values, or an environment-shaped
        mapping merged on top), without the template entry that made this
        nested stack (``item_to_remove``, a ResourceInfo), and with
        ``resources:`` narrowed to what ``parent_resource_name`` holds."""
        new = Environment()
        new.registry = self.registry.copy()
        new.parameter_defaults = copy.deepcopy(self.parameter_defaults)
        new.event_sinks = copy.deepcopy(self.event_sinks)
        new.filename = self.filename
        flat = properties is not None and not any(s in properties for s in SECTIONS)
        if flat:
            new.parameters = dict(properties)
        elif properties is not None:
            new.registry.load(properties.get(RESOURCE_REGISTRY, {}))
            new.parameters.update(properties.get(PARAMETERS, {}))
            new.parameter_defaults.update(properties.get(PARAMETER_DEFAULTS, {}))
            new.event_sinks.extend(properties.get(EVENT_SINKS, []))
        for key in new.parameter_defaults:
            if (PARAMETER_DEFAULTS, key) in self._origins:
                new._origins[(PARAMETER_DEFAULTS, key)] = self._origins[(PARAMETER_DEFAULTS, key)]
        if item_to_remove is not None:
            new.registry.remove(item_to_remove)
        if parent_resource_name:
            new.registry.keep_resources_for(parent_resource_name)
        return new


def _resolve_template_paths(registry, doc, files):
    """Do what python-heatclient does before sending an environment:
    template values at the top of resource_registry and one level under
    ``resources:<name>`` become absolute (relative to the file's directory
    or to ``base_url``).  Deeper levels are sent as written, as the client
    does, and then only work through the files map."""
    base_dir = os.path.dirname(os.path.abspath(doc.filename)) if doc.filename else None
    base = registry.get(BASE_URL, base_dir)
    _resolve_level(registry, base, doc, files, ('resource_registry',))
    resources = registry.get(RESOURCES)
    if isinstance(resources, dict):
        for name, sub in resources.items():
            if isinstance(sub, dict):
                _resolve_level(sub, sub.get(BASE_URL, base), doc, files,
                               ('resource_registry', RESOURCES, name))


def _resolve_level(level, base, doc, files, path):
    for key, value in level.items():
        if key in (BASE_URL, HOOKS, RESTRICTED) or not is_template_name(value) or '::' in value:
            continue
        level[key] = _template_ref(value, base, doc, files, path + (key,))


def _template_ref(value, base, doc, files, path):
    if files and value in files:
        return value
    if value.startswith('file://'):
        value = value[len('file://'):]
    elif '://' in value:
        return value
    if not isinstance(base, str) or not base:
        return value
    if base.startswith('file://'):
        base = base[len('file://'):]
    elif '://' in base:
        return base.rstrip('/') + '/' + value
    full = os.path.normpath(os.path.join(base, value))
    if files and full in files:
        return full
    if not os.path.isfile(full):
        raise doc.error(EnvironmentError_, 'Could not fetch contents for file://%s' % full, path)
    return full


def merge_environments(envs, files=None, param_types=None, parameters=None, global_registry=None):
    """Merge environments (paths, texts, mappings or Environments) in order,
    as Heat merges the files of ``-e a -e b``, into one :class:`Environment`.

    ``parameters`` are the values given outside any file (the request's own
    parameters); Heat starts from them, so a file's ``parameters`` override
    them.  ``param_types`` maps the template's parameter names (nested
    templates' too) to their types (HOT names, or objects with ``.type``):
    Heat merges only parameters it knows and by their type; without it every
    key counts and its type is guessed from its value."""
    loaded = [Environment.load(e, files=files, global_registry=global_registry) for e in envs]
    merged = Environment(global_registry)
    state = {PARAMETERS: dict(parameters or {}), PARAMETER_DEFAULTS: {},
             RESOURCE_REGISTRY: {}, EVENT_SINKS: [], ENCRYPTED_PARAM_NAMES: []}
    registry_origin = {}
    available = {}
    for index, env in enumerate(loaded):
        label = env.filename or 'environment %d' % (index + 1)
        strategies = env.sections.get(PARAMETER_MERGE_STRATEGIES, {})
        for section, value in env.sections.items():
            if section == PARAMETER_MERGE_STRATEGIES or not value:
                continue
            if section in (PARAMETERS, PARAMETER_DEFAULTS):
                try:
                    state[section] = env_merge.merge_parameters(
                        state[section], copy.deepcopy(value), param_types, strategies, available,
                        env_file=label)
                except env_merge.MergeError as exc:
                    name = exc.details.get('param')
                    where = (PARAMETER_MERGE_STRATEGIES, name) if exc.details.get('conflict') \
                        and (PARAMETER_MERGE_STRATEGIES, name) in env.positions else (section, name)
                    raise EnvironmentError_(exc.message, path=where, filename=env.filename,
                                            line=env.where(*where)[1])
                for key in value:
                    if key in state[section]:
                        merged._origins[(section, key)] = env._origins.get((section, key), (env.filename, None))
            elif section == RESOURCE_REGISTRY:
                if not state[section]:
                    state[section] = copy.deepcopy(value)
                    registry_origin.update((k, env) for k in value)
                else:
                    for key, sub in value.items():
                        if sub is not None:
                            state[section][key] = copy.deepcopy(sub)
                            registry_origin[key] = env
            elif state[section]:
                raise EnvironmentError_('"%s" given by more than one environment file cannot be merged '
                                        '(Heat fails on this too)' % section, path=(section,),
                                        filename=env.filename, line=env.where(section)[1])
            else:
                state[section] = copy.deepcopy(value)
    merged.parameters = state[PARAMETERS]
    merged.parameter_defaults = state[PARAMETER_DEFAULTS]
    merged.event_sinks = state[EVENT_SINKS]
    merged.encrypted_param_names = state[ENCRYPTED_PARAM_NAMES]
    for key, value in state[RESOURCE_REGISTRY].items():
        env = registry_origin.get(key)
        merged.registry.load({key: value}, env.filename if env else None, env.positions if env else None)
    merged.sections = dict((k, v) for k, v in state.items() if v)
    if len(loaded) == 1:
        merged.filename, merged.positions = loaded[0].filename, loaded[0].positions
    return merged
