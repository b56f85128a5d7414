# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a StackDefinition (stack.py) is made of and how it reports: one
enabled resource as the template defines it, one output, and the context
that gives errors their file and line.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import gc

from ..errors import LocatedError
from . import functions as fns


class ResourceDefinition(object):
    """One enabled resource as the template defines it (functions parsed)."""

    __slots__ = ('name', 'type', 'properties', 'metadata', 'depends_on', 'update_policy',
                 'deletion_policy', 'external_id', 'condition', 'description', 'path',
                 'type_info', 'requires', 'functions', 'field_functions')

    def __init__(self, name, type, path, properties=None, metadata=None, *, depends_on=None,
                 update_policy=None, deletion_policy=None, external_id=None, condition=None,
                 description=None, functions=(), field_functions=()):
        self.name = name
        self.type = type
        self.path = path
        self.properties = properties
        self.metadata = metadata
        self.depends_on = depends_on
        self.update_policy = update_policy
        self.deletion_policy = deletion_policy
        self.external_id = external_id
        self.condition = condition
        self.description = description
        # Functions of properties and metadata (dependencies come from
        # those), and of the other parsed fields, in parse order.
        self.functions = functions
        self.field_functions = field_functions
        self.type_info = None
        self.requires = None

    def __repr__(self):
        return '<ResourceDefinition %s (%s)>' % (self.name, self.type)


class OutputDefinition(object):
    """One output: ``value`` is parsed, or None when its condition is false."""

    __slots__ = ('name', 'value', 'description', 'condition', 'enabled', 'path', 'functions')

    def __init__(self, name, value, description, condition, enabled, *, path, functions=()):
        self.name, self.value, self.description = name, value, description
        self.condition, self.enabled, self.path = condition, enabled, path
        self.functions = functions

    def resolve(self):
        return fns.resolve(self.value) if self.enabled else None

    def required_resources(self):
        """Resources the value refers to; [] when it cannot work anyway."""
        try:
            return sorted(set(fns.dependencies(self.value)))
        except LocatedError:
            return []


class Locator(object):
    """Context manager adding file and line to errors about the template.

    It also pauses the cyclic garbage collector while the outermost block
    runs: building a big stack allocates hundreds of thousands of small
    objects that all stay alive, and repeated full collections over them
    would make the work grow faster than the template."""

    __slots__ = ('template', 'paused')

    def __init__(self, template):
        self.template = template
        self.paused = False

    def __enter__(self):
        if gc.isenabled():
            gc.disable()
            self.paused = True
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.paused:
            gc.enable()
        if exc is not None and isinstance(exc, LocatedError):
            self.template.locate(exc)
        return False
