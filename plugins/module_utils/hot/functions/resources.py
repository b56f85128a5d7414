# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Functions that refer to resources: ``get_resource``, ``get_attr`` (in its
three historical forms) and ``resource_facade``."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from collections.abc import Sequence

from .base import Function, collect_dependencies, resolve


def unknown_reference(fn, name):
    """The error for a reference to a resource that is not part of the stack
    (undefined, or disabled by its condition)."""
    stack = fn.stack
    if isinstance(name, str) and stack is not None and stack.resource_defined(name):
        why = 'its condition is false, so it is not part of the stack'
    else:
        why = 'there is no such resource in the template'
    return fn.error('"%s" refers to resource "%s", but %s' % (fn.fn_name, name, why))


class _ResourceReference(Function):
    """A function naming one resource of the stack (get_resource, get_attr):
    the name must be an enabled resource, and that resource is a
    dependency."""

    __slots__ = ()
    references = True

    def _raw_name(self):
        raise NotImplementedError

    def _name(self):
        name = self._raw_name()
        if not isinstance(name, str):  # a plain name is most of them, and resolves to itself
            name = resolve(name)
        stack = self.stack
        if stack is None:
            stack = self.need_stack()
        try:
            enabled = stack.resource_enabled(name)
        except TypeError:  # an unhashable name
            enabled = False
        if not enabled:
            raise unknown_reference(self, name)
        return name

    def dependencies(self):
        out = []
        collect_dependencies(self.args, out)
        out.append(self._name())
        return out

    def own_dependencies(self):
        return (self._name(),)


class GetResource(_ResourceReference):
    """``get_resource: name``: the resource's reference id (physical id)."""

    __slots__ = ()

    def _raw_name(self):
        return self.args

    def result(self):
        return self.stack.reference_id(self._name())


class GetAttThenSelect(_ResourceReference):
    """``get_attr: [resource, attribute, path...]`` as 2013-05-23 had it:
    the attribute is fetched, then the path selects inside it."""

    __slots__ = ('_resource_name', '_attribute', '_path_components')
    _all_attributes_form = False

    def __init__(self, stack, fn_name, args, path=()):
        super(GetAttThenSelect, self).__init__(stack, fn_name, args, path)
        self._resource_name, self._attribute, self._path_components = self._parse_args()

    def _form_error(self):
        return self.error('The arguments of "%s" must be [resource_name, attribute, '
                          '(path, ...)]' % self.fn_name)

    def _parse_args(self):
        args = self.args
        if not isinstance(args, Sequence) or isinstance(args, str):
            raise self.error('The argument of "%s" must be a list' % self.fn_name)
        if len(args) < 2:
            raise self._form_error()
        return args[0], args[1], args[2:]

    def _raw_name(self):
        return self._resource_name

    has_check = True

    def check(self):
        name = self._name()
        if self._attribute is None and self._all_attributes_form:
            return
        attr = resolve(self._attribute)
        self.stack.check_attribute(name, attr, self.path)

    def attribute_name(self):
        """The attribute's name when the template writes it as a string;
        None for the all-attributes form or a name a function computes."""
        return self._attribute if isinstance(self._attribute, str) else None

    def attribute_path(self):
        """(resource, attribute, path) as resolved now, for callers that want
        to know which attributes are used (attribute None = all of them)."""
        attr = None if self._attribute is None else resolve(self._attribute)
        return self._name(), attr, tuple(resolve(self._path_components))

    def result(self):
        name = self._name()
        attr = resolve(self._attribute)
        path = resolve(self._path_components)
        return self.stack.attribute(name, attr, path)


class GetAtt(GetAttThenSelect):
    """``get_attr`` from 2014-10-16: the path is part of the attribute
    request (same value for the data this engine holds)."""

    __slots__ = ()


class GetAttAllAttributes(GetAtt):
    """``get_attr`` from 2015-10-15: ``[resource]`` alone gives every
    attribute of the resource as a map."""

    __slots__ = ()
    _all_attributes_form = True

    def _parse_args(self):
        args = self.args
        if not args:
            raise self.error('The arguments of "%s" must be [resource_name] or '
                             '[resource_name, attribute, (path, ...)]' % self.fn_name)
        if isinstance(args, Sequence):
            # A one-character string is a one-item sequence to Heat too.
            if len(args) > 1:
                return super(GetAttAllAttributes, self)._parse_args()
            return args[0], None, []
        raise self.error('The argument of "%s" must be a list' % self.fn_name)

    def result(self):
        if self._attribute is None:
            return self.stack.all_attributes(self._name())
        return super(GetAttAllAttributes, self).result()


class ResourceFacade(Function):
    """``resource_facade: metadata|deletion_policy|update_policy``: data of
    the parent resource, in a provider (nested) template."""

    __slots__ = ()
    allowed = ('metadata', 'deletion_policy', 'update_policy')

    def __init__(self, stack, fn_name, args, path=()):
        super(ResourceFacade, self).__init__(stack, fn_name, args, path)
        if not isinstance(args, str) or args not in self.allowed:
            raise self.error('The argument of "%s" must be one of: %s'
                             % (fn_name, ', '.join(self.allowed)))

    def result(self):
        parent = self.need_stack().parent_resource
        if parent is None:
            raise self.error('"%s" can only be used in the template of a nested stack '
                             '(there is no parent resource here)' % self.fn_name)
        # The CFN spelling maps onto the same three fields.
        field = self.allowed.index(resolve(self.args))
        if field == 0:
            return parent.metadata
        if field == 1:
            return parent.deletion_policy
        return resolve(parent.update_policy) or {}
