# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The pieces a resource_registry is made of (registry.py resolves with
them): the section's key words, one mapping as written (:class:`Entry`,
with where it was written and how it sorts against the others), the
checks of hooks and restricted_actions values, and the answer of a lookup
(:class:`ResourceInfo`).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

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


def is_template_name(name):
    return isinstance(name, str) and name.endswith(TEMPLATE_SUFFIXES)


def as_list(value):
    return [value] if isinstance(value, str) else list(value)


def _one_or_more_of(value, allowed):
    """A name of ``allowed``, or a list of them (how Heat reads hooks and
    restricted actions)."""
    if isinstance(value, str):
        return value in allowed
    if isinstance(value, list):
        return all(isinstance(v, str) and v in allowed for v in value)
    return False


def check_hooks(value):
    if _one_or_more_of(value, HOOK_TYPES):
        return None
    return ('Invalid hook type "%s" for resource breakpoint, acceptable hook types are: %s'
            % (value, HOOK_TYPES))


def check_restricted(value):
    if _one_or_more_of(value, RESTRICTED_ACTIONS):
        return None
    return ('Invalid restricted_action type "%s" for resource, acceptable restricted_action '
            'types are: %s' % (value, RESTRICTED_ACTIONS))


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
