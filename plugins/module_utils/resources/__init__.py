# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The explicit registry of resource plugins: type name -> plugin class.

AnsiballZ ships only the module_utils a module imports by name, so each
plugin module is imported here explicitly and registered in ``PLUGINS``;
nothing is discovered at run time.  A type Heat knows but that has no plugin
here validates at the template level, is listed as not supported, and is
refused by anything that would create it (``require_supported``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import UnsupportedResourceType
from .cinder import PLUGINS as _CINDER
from .glance import PLUGINS as _GLANCE
from .heat import NESTED_RULES as _NESTED_RULES, PLUGINS as _HEAT
from .neutron import PLUGINS as _NEUTRON
from .nova import PLUGINS as _NOVA
from .octavia import PLUGINS as _OCTAVIA
from .swift import PLUGINS as _SWIFT

# type name -> plugin class; each service package lists its own.
PLUGINS = {}
for _group in (_HEAT, _NOVA, _NEUTRON, _CINDER, _OCTAVIA, _SWIFT, _GLANCE):
    PLUGINS.update(_group)


def is_supported(type_name):
    """True when the collection can create, update and delete this type."""
    return type_name in PLUGINS


def type_rule(type_name):
    """The rule of Heat's own validate() for ``type_name`` (called with a
    hot/type_checks.py RuleInput by strict validation): the plugin's
    ``validate``, or that of a type run as a nested stack; None when the
    type has none."""
    plugin = PLUGINS.get(type_name)
    if plugin is not None:
        return getattr(plugin, 'validate', None)
    return _NESTED_RULES.get(type_name)


def require_supported(type_name, resource_name=None):
    """The plugin class of ``type_name``; UnsupportedResourceType (naming the
    resource) when the collection does not implement the type."""
    plugin = PLUGINS.get(type_name)
    if plugin is None:
        where = 'resource "%s": ' % resource_name if resource_name else ''
        raise UnsupportedResourceType(
            '%s%s is a Heat resource type that stackers.orchestration does not support yet'
            % (where, type_name), type_name=type_name)
    return plugin
