# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The attributes of Heat 27's group types, computed from their members.

Mirrors the get_attribute of ResourceGroup, ResourceChain and
AutoScalingGroup (with grouputils' member lookups).  Heat reads most of
them from the nested stack's outputs (group_template writes those); the
values are the same as reading the members, which is what these do:
``ref_of(name)`` answers a member's reference id, ``attr_of(name, path)``
a member's attribute (``path``: attribute name, then keys/indexes into it).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError, TemplateError
from .scaling import current_size, ordered_members


class MemberNotFound(StackersError, KeyError):
    """Heat's NotFound for a ``resource.<member>`` that is not in the group."""

    def __init__(self, member, group):
        super(MemberNotFound, self).__init__(
            "Member '%s' not found in group resource '%s'." % (member, group))


def invalid_attribute(group, key):
    """Heat's InvalidTemplateAttribute."""
    return TemplateError('The Referenced Attribute (%s %s) is incorrect.' % (group, key))


def select_path(value, path):
    """Follow ``path`` (keys, indexes) into ``value``; None when it leads
    nowhere (attributes.select_from_attribute)."""
    for key in path:
        # Text is a sequence to Heat too: a path may index into it.
        if not isinstance(value, (dict, list, tuple, str)):
            return None
        if not isinstance(key, (str, int)):
            return None
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _member(key, names, group, by_index=False):
    target = key.split('.', 2)[1]
    if by_index:
        try:
            return names[int(target)]
        except (ValueError, IndexError):
            raise MemberNotFound(target, group)
    if target not in names:
        raise MemberNotFound(target, group)
    return target


def _member_attr(key, path, names, group, read, *, by_index=False, empty_is_none=False):
    ref_of, attr_of = read
    attr_path = key.split('.', 2)[2:] + list(path)
    if empty_is_none and attr_path and not names:
        # A ResourceGroup without the output looks the member up in the
        # nested stack, and an empty stack is falsy to it: None, no error.
        return None
    return _one_member(key, path, _member(key, names, group, by_index), ref_of, attr_of)


def _one_member(key, path, name, ref_of, attr_of):
    attr_path = key.split('.', 2)[2:] + list(path)
    if attr_path:
        return attr_of(name, attr_path)
    return ref_of(name)


def resource_group_attribute(group, key, path, names, *, ref_of, attr_of, removed=()):
    """A ResourceGroup attribute (ResourceGroup.get_attribute).

    ``names``: the members in order (resource_names); ``removed``: the
    stored removed names.  ``refs`` is a list (a path indexes it),
    ``refs_map`` and ``attributes`` maps by name, ``resource.<name>[.<attr>]``
    one member, and any other key the list of that attribute of each member.
    """
    path = list(path or ())
    if key == 'removed_rsrc_list':
        return list(removed or ())
    if key == 'attributes' and not path:
        raise invalid_attribute(group, key)
    if key.startswith('resource.'):
        return _member_attr(key, path, names, group, (ref_of, attr_of), empty_is_none=True)
    if key == 'refs':
        return select_path([ref_of(n) for n in names], path)
    if key == 'refs_map':
        return dict((n, ref_of(n)) for n in names)
    if key == 'attributes':
        return dict((n, attr_of(n, path)) for n in names)
    return [attr_of(n, [key] + path) for n in names]


def chain_attribute(group, key, path, names, *, ref_of, attr_of):
    """A ResourceChain attribute (ResourceChain.get_attribute): ``refs``,
    ``attributes``, ``resource.<i>[.<attr>]`` and per-member lists."""
    path = list(path or ())
    if key == 'attributes' and not path:
        raise invalid_attribute(group, key)
    if key.startswith('resource.'):
        return _member_attr(key, path, names, group, (ref_of, attr_of))
    if key == 'refs':
        return select_path([ref_of(n) for n in names], path)
    if key == 'attributes':
        return dict((n, attr_of(n, path)) for n in names)
    return [attr_of(n, [key] + path) for n in names]


def asg_attribute(group, key, path, members, *, ref_of, attr_of):
    """An AutoScalingGroup attribute (AutoScalingResourceGroup.get_attribute).

    ``members``: the member records; failed ones are left out and the rest
    taken in Heat's order (oldest first).  ``outputs`` and ``outputs_list``
    need a path (the member attribute); ``resource.<i>`` takes the i-th
    member in that order (a negative index counts from the end, as Python
    does in Heat).
    """
    path = list(path or ())
    if key == 'current_size':
        return current_size(members)
    names = [m['name'] for m in ordered_members(members, include_failed=False)]
    if key == 'refs':
        return [ref_of(n) for n in names]
    if key == 'refs_map':
        return dict((n, ref_of(n)) for n in names)
    if key in ('outputs', 'outputs_list') and path:
        values = [(n, attr_of(n, path)) for n in names]
        if key == 'outputs':
            return dict(values)
        return [value for _name, value in values]
    if key.startswith('resource.'):
        return _member_attr(key, path, names, group, (ref_of, attr_of), by_index=True)
    raise invalid_attribute(group, key)
