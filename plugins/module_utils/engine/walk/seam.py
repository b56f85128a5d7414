# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The resource data seam: what the template functions of a run read.

``get_resource``/``get_attr`` of a resource answer from its record row once
the row is *published* (``sd.resource_data[name] = {reference_id, attrs}``,
the attributes lazily from attributes.py); a resource's properties and
metadata resolve through the same seam.  ``requires`` is each desired
resource's requirements in the definition's graph (hubs expanded).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...hot import functions as fns
from ...resources.base import effective_properties
from ..graph import dependencies as _graph
from .attributes import _Attributes
from ..store.records import CURRENT
from ..store.secrets import MASK_PREFIX


class Seam(object):
    """The seam of definition ``sd`` (None: a run with no definition, a
    delete); ``reader`` answers the attributes of a row (the StackRun)."""

    def __init__(self, sd, reader):
        self.sd = sd
        self.reader = reader
        self.requires = {}              # name -> names it requires (prepare)

    def publish(self, row):
        """Make a completed row what get_resource/get_attr of its name see."""
        if self.sd is None:
            return
        reference = row.reference_id
        if isinstance(reference, str) and reference.startswith(MASK_PREFIX) \
                and hasattr(self.reader, 'reference_of'):
            reference = self.reader.reference_of(row)     # a secret: kept as a digest
        self.sd.resource_data[row.name] = {'reference_id': reference,
                                           'attrs': _Attributes(self.reader, row)}

    def prepare(self, graph, rows):
        """Take the definition's graph (each resource's requirements, hubs
        expanded) and publish the record's settled ``rows``."""
        self.requires = dict((k, set(v)) for k, v in _graph.requires_map(graph).items())
        self.publish_record(rows)

    def publish_record(self, rows):
        for row in rows:
            if row.role == CURRENT and row.status == 'COMPLETE' and \
                    row.name in self.sd.resources:
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
        # the same sets of every resource of the stack come for each resource
        # (check mode's plan): taken as they are, not copied per property,
        # which would make a plan quadratic
        unknown_names, unknown_attrs = _as_set(unknown_names), _as_set(unknown_attrs)
        for key, snippet in props.items():
            if unknown_names and not unknown_names.isdisjoint(fns.dependencies(snippet)):
                unknown.add(key)
                continue
            if unknown_attrs and not unknown_attrs.isdisjoint(attribute_references(snippet)):
                unknown.add(key)
                continue
            resolved[key] = self.sd.resolve(snippet, defn.path + ('properties', key))
        if getattr(defn.type_info, 'template', None):
            return resolved, unknown     # a nested stack's parameters: it converts them
        # through the registry: an alias has the schema of the type it names
        type_name = getattr(defn.type_info, 'plugin', None) or defn.type
        return effective_properties(type_name, resolved), unknown

    def resolve_metadata(self, name):
        defn = self.sd.resources[name]
        if defn.metadata is None:
            return None
        return self.sd.resolve(defn.metadata, defn.path + ('metadata',))


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


def _as_set(names):
    return names if isinstance(names, (set, frozenset)) else frozenset(names)
