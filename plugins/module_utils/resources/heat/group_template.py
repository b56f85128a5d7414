# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nested templates Heat 27 builds for its group types, as pure data.

A group runs as a nested stack whose template the group writes; these
functions write it as Heat does, from the group's resolved properties and
what the previous run left (members, removed names):

- ResourceGroup (resource_group.py): member names (_resource_names, the
  name skiplist Heat stores as ``name_blacklist``), the members'
  definitions (build_resource_definition, _handle_repl_val), the template
  (_assemble_nested) and its outputs (_nested_output_defns).
- ResourceChain (resource_chain.py child_template).
- AutoScalingGroup (autoscaling_group.py / instance_group.py
  _create_template): members named by short random ids, the oldest and
  failed ones removed first.

Members are dicts: ``name``, ``status`` (e.g. 'CREATE_FAILED'),
``created_time`` (one comparable kind per call: ISO text or datetime),
``reference_id`` and, where a template is rebuilt from them,
``definition`` (the member's rendered HOT definition).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import os

from ...errors import TemplateError, UnknownResourceType
from ...hot.properties import validate_properties
from ...hot.registry import Registry
from .scaling import ordered_members
from .scaling_batches import member_definitions

# The template version both groups give their nested stacks.
HOT_VERSION = '2015-04-30'
DEFAULT_INDEX_VAR = '%index%'
MISSING_TYPE = 'The Resource Type (%s) could not be found.'
RESOURCE_GROUP_ATTRIBUTES = ('refs', 'refs_map', 'attributes', 'removed_rsrc_list')
CHAIN_ATTRIBUTES = ('refs', 'attributes')
# The output every ResourceGroup and AutoScalingGroup template has: member
# name to reference id (the refs and refs_map attributes read it).
REFS_MAP = 'refs_map'
_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'


def get_attr(*path):
    return {'get_attr': list(path)}


def get_resource(name):
    return {'get_resource': name}


def split_attr(attr):
    """A referenced attribute (a name, or a list/tuple of name and path)
    as ``(key, [path...])``."""
    if isinstance(attr, str):
        return attr, []
    return attr[0], list(attr[1:])


def output_name(key, path, refs_whole=False):
    """The nested output an attribute is read from (_attribute_output_name):
    the key and path joined by ', '; a ResourceGroup reads ``refs`` and its
    paths from one ``refs`` output (``refs_whole``)."""
    if refs_whole and key == 'refs':
        return 'refs'
    return ', '.join(str(part) for part in [key] + list(path))


def make_template(definitions, outputs=None):
    """The HOT dict of a group's nested stack (scaling/template.py
    make_template and the group's output definitions)."""
    template = {'heat_template_version': HOT_VERSION}
    resources = {}
    for name, defn in definitions:
        if defn.get('depends_on'):
            # Heat keeps only the dependencies on members added before.
            defn = dict(defn, depends_on=[d for d in defn['depends_on'] if d in resources])
        resources[name] = defn
    # Heat leaves the section out of an empty group's template.
    if resources:
        template['resources'] = resources
    if outputs:
        template['outputs'] = dict((name, {'value': value}) for name, value in outputs.items())
    return template


# -- ResourceGroup ------------------------------------------------------------

def validate_resource_group(properties, path=()):
    """Heat's property checks of a ResourceGroup (index_var at least 3
    long, count not negative, removal_policies_mode allowed, ...) with
    Heat's wording, before any cloud call; raises TemplateError.  ``path``
    is the group's path in its template, ('resources', name)."""
    validate_properties('OS::Heat::ResourceGroup', properties, path)


def replace_index(value, index_var, name):
    """``value`` with ``index_var`` replaced by the member's name in every
    string, recursively through maps (values only) and lists
    (_handle_repl_val); other values untouched."""
    if isinstance(value, str):
        return value.replace(index_var, name)
    if isinstance(value, dict):
        return dict((key, replace_index(item, index_var, name)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return [replace_index(item, index_var, name) for item in value]
    return value


def member_definition(name, resource_def, index_var=DEFAULT_INDEX_VAR, *, include_all=False):
    """One member's HOT definition: ``resource_def``'s type and metadata,
    its properties without null values (with them when ``include_all``, as
    Heat's validate writes its test member) and with the index replaced
    (get_resource_def then build_resource_definition)."""
    props = resource_def.get('properties')
    if props and not include_all:
        props = dict((key, value) for key, value in props.items() if value is not None)
    if props:
        props = replace_index(props, index_var, name)
    defn = {'type': resource_def['type']}
    if props is not None:
        defn['properties'] = copy.deepcopy(props)
    if resource_def.get('metadata') is not None:
        defn['metadata'] = copy.deepcopy(resource_def['metadata'])
    return defn


def removal_entries(removal_policies, skiplist, members=(), created=True):
    """The names ``removal_policies`` remove (_get_new_skiplist_entries).

    An entry is taken as a name when it is already removed, when it names
    a member (failed ones too), or always while the group is not yet
    created (``created`` False).  Otherwise a text entry is matched against
    the members' reference ids (the first member with it).  Heat drops the
    entries that match nothing without a word; they are returned apart,
    as ``(names, unmatched)``, for the caller to report or not.
    """
    names, unmatched = [], []
    current = set(skiplist or ())
    member_names = [m['name'] for m in members or ()]
    for policy in removal_policies or ():
        for entry in (policy or {}).get('resource_list') or ():
            text = str(entry)
            if text in current or not created or text in member_names:
                names.append(text)
                continue
            match = None
            if isinstance(entry, str):
                match = next((m['name'] for m in members
                              if m.get('reference_id') == entry), None)
            if match is None:
                unmatched.append(entry)
            else:
                names.append(match)
    return names, unmatched


def updated_skiplist(properties, skiplist=None, members=(), created=True):
    """The removed names after a create or update (_update_name_skiplist):
    in 'append' mode the stored ones plus the new entries, in 'update' mode
    the new entries only.  Sorted, as Heat stores and shows them
    (removed_rsrc_list).  Returns ``(skiplist, unmatched entries)``."""
    current = set(skiplist or ())
    names, unmatched = removal_entries(properties.get('removal_policies'), current,
                                       members, created)
    mode = properties.get('removal_policies_mode') or 'append'
    start = set() if mode == 'update' else current
    return sorted(start | set(names)), unmatched


def resource_names(count, skiplist=()):
    """The members' names (_resource_names): the first ``count`` indexes,
    as text, that were never removed by a removal policy."""
    skipped = set(skiplist or ())
    names, index = [], 0
    while len(names) < count:
        if str(index) not in skipped:
            names.append(str(index))
        index += 1
    return names


def resource_group_outputs(names, referenced_attrs=()):
    """The nested outputs for the attributes the parent template reads
    (ResourceGroup._nested_output_defns), plus ``refs_map`` always."""
    outputs = {}
    for attr in referenced_attrs or ():
        key, path = split_attr(attr)
        name = output_name(key, path, refs_whole=True)
        value = None
        if key.startswith('resource.'):
            parts = key.split('.', 2)
            attr_path = parts[2:] + path
            if attr_path:
                if parts[1] in names:
                    value = get_attr(parts[1], *attr_path)
            else:
                key = REFS_MAP
        elif key == 'attributes' and path:
            value = dict((n, get_attr(n, *path)) for n in names)
        elif key not in RESOURCE_GROUP_ATTRIBUTES:
            value = [get_attr(n, key, *path) for n in names]
        if key == 'refs':
            value = [get_resource(n) for n in names]
        if value is not None:
            outputs[name] = value
    outputs[REFS_MAP] = dict((n, get_resource(n)) for n in names)
    return outputs


class GroupPlan(object):
    """A ResourceGroup's next nested stack (see resource_group_plan)."""

    def __init__(self, names, removed, template, unmatched, existing):
        self.names = names
        self.removed = removed
        self.template = template
        self.unmatched = unmatched
        existing = [m['name'] for m in existing]
        self.added = [n for n in names if n not in existing]
        self.deleted = [n for n in existing if n not in names]


def resource_group_plan(properties, removed=None, members=(), created=None,
                        referenced_attrs=()):
    """A ResourceGroup's nested template for a create (``created`` False)
    or an update or resize (Heat's handle_create / handle_update without
    rolling batches: child_template after _update_name_skiplist).

    ``properties``: the group's resolved properties; ``removed``: the
    stored removed names; ``members``: the nested stack's members now;
    ``referenced_attrs``: the group attributes the parent template reads.
    ``created`` defaults to whether there are members.
    """
    if created is None:
        created = bool(members)
    props = dict(properties)
    skiplist, unmatched = updated_skiplist(props, removed, members, created)
    count = props.get('count')
    names = resource_names(1 if count is None else count, skiplist)
    index_var = props.get('index_var') or DEFAULT_INDEX_VAR
    definitions = [(n, member_definition(n, props['resource_def'], index_var)) for n in names]
    template = make_template(definitions, resource_group_outputs(names, referenced_attrs))
    return GroupPlan(names, skiplist, template, unmatched, members or ())


# -- ResourceChain ------------------------------------------------------------

def chain_outputs(names, referenced_attrs=()):
    """ResourceChain._nested_output_defns (no refs_map output here)."""
    outputs = {}
    for attr in referenced_attrs or ():
        key, path = split_attr(attr)
        value = None
        if key.startswith('resource.'):
            parts = key.split('.', 2)
            attr_path = parts[2:] + path
            if parts[1] in names:
                value = (get_attr(parts[1], *attr_path) if attr_path
                         else get_resource(parts[1]))
        elif key == 'refs':
            value = [get_resource(n) for n in names]
        elif key == 'attributes' and path:
            value = dict((n, get_attr(n, *path)) for n in names)
        elif key not in CHAIN_ATTRIBUTES:
            value = [get_attr(n, key, *path) for n in names]
        if value is not None:
            outputs[output_name(key, path)] = value
    return outputs


def chain_template(resources, concurrent=False, resource_properties=None,
                   concurrency_limit=None, referenced_attrs=()):
    """A ResourceChain's nested template (child_template): members "0".."n-1"
    of the listed types, all with ``resource_properties``, each depending
    on the one before unless ``concurrent``.

    Heat caps a concurrent chain at the number of live heat-engine
    services: member i then waits for member i - that number (so a Heat
    with one engine runs a "concurrent" chain in sequence).
    ``concurrency_limit`` reproduces it; None sets no cap.
    """
    names = [str(index) for index in range(len(resources))]
    definitions = []
    for index, type_name in enumerate(resources):
        defn = {'type': type_name}
        if resource_properties is not None:
            defn['properties'] = copy.deepcopy(resource_properties)
        if index > 0 and not concurrent:
            defn['depends_on'] = [names[index - 1]]
        elif concurrency_limit and index >= concurrency_limit:
            defn['depends_on'] = [names[index - concurrency_limit]]
        definitions.append((names[index], defn))
    return make_template(definitions, chain_outputs(names, referenced_attrs))


# -- AutoScalingGroup ---------------------------------------------------------

def member_id(bits):
    """A 12-character member name from 60 random bits, in the alphabet of
    Heat's short ids (lower-case base32); Heat takes the bits from a
    version-4 UUID (short_id.generate_id)."""
    return ''.join(_ID_ALPHABET[(bits >> shift) & 31] for shift in range(55, -1, -5))


def random_member_id():
    return member_id(int.from_bytes(os.urandom(8), 'big') >> 4)


def asg_member_definition(resource):
    """The definition every member of an AutoScalingGroup gets: its
    ``resource`` property read as a HOT resource (a text depends_on
    becomes a list)."""
    if not isinstance(resource, dict) or 'type' not in resource:
        raise TemplateError('the resource property needs a type',
                            path=('properties', 'resource'))
    defn = {'type': resource['type']}
    for key in ('properties', 'metadata', 'deletion_policy', 'update_policy', 'depends_on'):
        if resource.get(key) is not None:
            defn[key] = copy.deepcopy(resource[key])
    if isinstance(defn.get('depends_on'), str):
        defn['depends_on'] = [defn['depends_on']]
    return defn


def asg_outputs(names, referenced_attrs=()):
    """AutoScalingGroup._nested_output_defns: a map output per member
    attribute path read through outputs, outputs_list or resource.<i>.<attr>,
    plus ``refs_map``."""
    outputs = {}
    for attr in referenced_attrs or ():
        key, path = split_attr(attr)
        if key == 'outputs_list':
            key = 'outputs'
        if key.startswith('resource.'):
            path = key.split('.', 2)[2:] + path
            if path:
                key = 'outputs'
        if key == 'outputs' and path:
            outputs[output_name(key, path)] = dict((n, get_attr(n, *path)) for n in names)
    outputs[REFS_MAP] = dict((n, get_resource(n)) for n in names)
    return outputs


def asg_template(resource, size, members=(), updates=0, *, new_id=random_member_id,
                 referenced_attrs=()):
    """An AutoScalingGroup's nested template at ``size`` (_create_template):
    existing members in Heat's order (failed, then oldest, first) keep
    their definitions unless ``updates`` of them take the new one (rolling
    update batches); the first ones in that order go when it shrinks; new
    members are named by ``new_id()``.  Returns ``(template, names)``."""
    old = [(m['name'], m['definition']) for m in ordered_members(members)
           if m.get('definition') is not None]
    definitions = member_definitions(old, asg_member_definition(resource), size, updates, new_id)
    names = [name for name, _defn in definitions]
    return make_template(definitions, asg_outputs(names, referenced_attrs)), names


def member_type_found(given, type_name, *keys):
    """Refuse (at ``keys`` of the group's RuleInput ``given``) a member type
    the stack's environment cannot resolve, as a group's validate() does when
    it validates its members' nested stack; a type not known yet (waiting on
    a resource) is left to that stack."""
    if not isinstance(type_name, str) or not type_name:
        return
    registry = getattr(given.stack.environment, 'registry', None) if given.stack else None
    try:
        (registry if registry is not None else Registry()).resolve(type_name)
    except UnknownResourceType:
        given.fail(MISSING_TYPE % type_name, *keys)
