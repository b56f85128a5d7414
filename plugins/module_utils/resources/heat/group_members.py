# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A group's member definition validated as Heat 27's group validate()
does when a stack is created: the nested template the group would write
(a ResourceGroup's first member with every property, null ones too; an
AutoScalingGroup's one member; every member of a ResourceChain) validated
as a nested stack without its values (strict_validate off: the property
names, each type's own rule, which converts only what it reads).

The values are those the group's rule was given: resolved, a value waiting
on another resource as Heat reads it while validating (get_resource the
resource's name, get_attr null), so a member is refused only where Heat
refuses it.  An error about the written template is moved to the place of
the group's template it came from (``resource_def``, ``resource`` or
``resource_properties``), where the caller's locator finds its line; an
error inside a member's own template (a provider type) keeps its file and
line and says which group brought it in.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import LocatedError
from ...hot.nested import child_definition, in_nested
from ...hot.template import Template
from .group_template import (DEFAULT_INDEX_VAR, asg_template, chain_template, make_template,
                             member_definition, removal_entries, resource_names)


# Heat 27's words when a member's type is null, as one waiting on another
# resource reads while Heat validates; ours add why.
NO_TYPE = {
    'OS::Heat::ResourceGroup': 'Resource "None" has no type',
    'OS::Heat::ResourceChain': 'Non-empty resource type is required for resource "None"',
    'OS::Heat::AutoScalingGroup': 'Resource member type type must be string',
}
_WHY = ' (the member type comes from another resource, which Heat reads as null while it ' \
    'validates: it must be known before the run)'


def _no_type(given, *keys):
    given.fail(NO_TYPE[given.type_name] + (_WHY if keys[0] in given.waiting else ''), *keys)


def check_resource_group(given):
    """ResourceGroup.validate_nested_stack's nested stack: its first member
    (the first name no removal policy takes), index substituted."""
    props = given.props
    resource_def = props['resource_def']
    if not resource_def.get('type'):
        _no_type(given, 'resource_def', 'type')
    skipped, _unmatched = removal_entries(props.get('removal_policies'), (), created=False)
    name = resource_names(1, skipped)[0]
    member = member_definition(name, resource_def, props.get('index_var') or DEFAULT_INDEX_VAR,
                               include_all=True)
    _check(given, make_template([(name, member)]), lambda _n, rest: ('resource_def',) + rest)


def check_member_type(given):
    """An AutoScalingGroup's ``resource`` must have a type given as text
    (Heat reads the member's definition whatever the group's size)."""
    resource = given.props.get('resource')
    if isinstance(resource, dict) and not isinstance(resource.get('type'), str):
        _no_type(given, 'resource', 'type')


def check_autoscaling_group(given):
    """AutoScalingGroup.child_template's nested stack, at one member: Heat
    validates each distinct definition once, and every member has the
    same one."""
    resource = given.props.get('resource')
    if not isinstance(resource, dict) or not isinstance(resource.get('type'), str):
        return  # check_member_type has refused what Heat refuses
    template, _names = asg_template(resource, 1, new_id=lambda: 'member')
    _check(given, template, lambda _n, rest: ('resource',) + rest)


def check_chain(given):
    """ResourceChain.child_template's nested stack: each listed type with
    ``resource_properties``."""
    props = given.props
    for index, type_name in enumerate(props.get('resources') or ()):
        if not type_name:
            _no_type(given, 'resources', index)
    template = chain_template(props.get('resources') or [], bool(props.get('concurrent')),
                              props.get('resource_properties'))
    _check(given, template, _chain_place)


def _chain_place(name, rest):
    # A chain's member has only its type and the shared properties.
    if rest[:1] == ('properties',):
        return ('resource_properties',) + rest[1:]
    return ('resources', int(name))


def _check(given, template, place):
    """Validate ``template`` as the group's nested stack; ``place(member,
    path in the member)`` is where that path is beneath the group's
    properties."""
    stack, defn = given.stack, given.defn
    if stack is None or defn is None or getattr(stack, 'template', None) is None:
        return
    members = set(template.get('resources') or ())
    # Loaded beside the group's template: a member's provider template or
    # get_file is found as the group's would be.
    loaded = Template.load(template, filename=stack.template.filename, files=stack.files,
                           root=stack.template.root)
    try:
        child = child_definition(stack, defn, loaded, {})
        child.validate(strict=False, rules=True)
    except LocatedError as exc:
        path = exc.path
        if exc.line is None and len(path) > 1 and path[0] == 'resources' and path[1] in members:
            # about the written template: the same place in the group's
            exc.path = given.path + tuple(place(path[1], tuple(path[2:])))
            exc.filename = exc.line = None
            raise exc
        raise in_nested(exc, defn)
