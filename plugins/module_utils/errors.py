# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Typed errors raised by the engine.

The engine never calls fail_json: it raises one of these, and only modules
turn them into a failure.  Every error that comes from a template or an
environment can carry *where* it happened (file, path inside the document,
line) so the message a user sees points at the offending line.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


def format_path(path):
    """Render a path tuple like ('resources', 'srv', 'properties', 'networks', 0)
    as Heat-ish dotted text: resources.srv.properties.networks[0]."""
    out = ''
    for part in path or ():
        if isinstance(part, int):
            out += '[%d]' % part
        elif out:
            out += '.' + str(part)
        else:
            out = str(part)
    return out


class StackersError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, message, **details):
        super(StackersError, self).__init__(message)
        self.message = message
        self.details = details

    def __str__(self):
        return self.message


class LocatedError(StackersError):
    """An error about a place in a document (template or environment).

    ``path`` is a tuple of keys/indexes inside the document, ``filename`` the
    file it came from and ``line`` (1-based) where that path starts, when
    known.  ``str()`` gives ``file:line: path: message`` with the parts that
    are known, so modules can show it as is.
    """

    def __init__(self, message, path=None, filename=None, line=None, **details):
        super(LocatedError, self).__init__(message, **details)
        self.path = tuple(path) if path else ()
        self.filename = filename
        self.line = line

    def locate(self, filename=None, positions=None):
        """Fill in file and line from a positions map (path -> (line, col))
        when they are not known yet; the nearest known ancestor path wins.
        Returns self so callers can ``raise err.locate(...)``."""
        if self.filename is None and filename is not None:
            self.filename = filename
        if self.line is None and positions:
            path = self.path
            while True:
                pos = positions.get(path)
                if pos is not None:
                    self.line = pos[0]
                    break
                if not path:
                    break
                path = path[:-1]
        return self

    @property
    def where(self):
        loc = ''
        if self.filename:
            loc = str(self.filename)
            if self.line:
                loc += ':%d' % self.line
        elif self.line:
            loc = 'line %d' % self.line
        return loc

    def __str__(self):
        parts = []
        if self.where:
            parts.append(self.where)
        if self.path:
            parts.append(format_path(self.path))
        parts.append(self.message)
        return ': '.join(parts)


class TemplateError(LocatedError):
    """The template (or a file it uses) is invalid."""


class EnvironmentError_(LocatedError):
    """An environment file is invalid (named with a trailing underscore so it
    never shadows the builtin)."""


class ParameterError(LocatedError):
    """A parameter declaration or value is invalid (Heat's
    StackValidationFailed for parameters)."""


class UnknownResourceType(TemplateError):
    """A resource type Heat itself does not know."""


class UnsupportedResourceType(StackersError):
    """A type Heat knows but this collection does not implement (yet): refused
    by anything that would create it."""


class DependencyCycle(TemplateError):
    """The resources' dependencies form a cycle; ``cycle`` lists them."""

    def __init__(self, message, cycle=(), **kw):
        super(DependencyCycle, self).__init__(message, **kw)
        self.cycle = list(cycle)


class ConstraintNotChecked(StackersError):
    """A service-backed custom constraint could not be checked because no
    cloud connection was given (reported, not fatal)."""


# -- the stack engine ---------------------------------------------------------

class CloudError(StackersError):
    """The cloud refused or failed a request (translated from an SDK
    exception by resources/sdk.py, the one layer that knows them).
    ``status`` is the HTTP status when there was one."""

    def __init__(self, message, status=None, **details):
        super(CloudError, self).__init__(message, **details)
        self.status = status


class CloudNotFound(CloudError):
    """The thing asked for does not exist (404)."""


class CloudConflict(CloudError):
    """The cloud answered 409 (in use, duplicate name, wrong state)."""


class CloudTransient(CloudError):
    """A fault worth retrying: 5xx, 429 or a dropped connection."""


class ResourceFailure(StackersError):
    """A resource's action failed; ``resource`` names it and the message is
    the real reason, as Heat puts it in resource_status_reason."""

    def __init__(self, message, resource=None, action=None, **details):
        super(ResourceFailure, self).__init__(message, **details)
        self.resource = resource
        self.action = action


class NestedStackFailure(ResourceFailure):
    """A nested stack failed: ``reason`` is its parent resource's status
    reason, in Heat's form (the failing resource's path from the parent,
    ``resources.a.resources.b``, and the leaf's own message)."""

    def __init__(self, message, reason, **details):
        super(NestedStackFailure, self).__init__(message, **details)
        self.reason = reason


class ResourceLimitExceeded(LocatedError):
    """A request over one of Heat's limits (hot/limits.py: size, body, resources,
    depth) or over the bound on a function's value (Heat's RequestLimitExceeded)."""


class ResourceActionNotSupported(StackersError):
    """Heat's refusal of an action a resource cannot do in its state (a
    non-empty container's delete without PurgeOnDelete); its name is the
    kind Heat puts before the reason."""

    def __init__(self, action, **details):
        super(ResourceActionNotSupported, self).__init__(
            '%s is not supported for resource.' % action, **details)


class NotSupported(StackersError):
    """Heat's NotSupported: an action the stack's state does not allow (a
    cancel of a stack not in progress); ``feature`` words it as Heat does."""

    def __init__(self, feature, **details):
        super(NotSupported, self).__init__('%s is not supported.' % feature, **details)


class StackLocked(StackersError):
    """Another live run holds the stack's lock."""


class StackTimeout(StackersError):
    """The stack's action did not finish within its timeout."""


class StackNotFound(StackersError):
    """No stack of that name in the store."""


class StoreError(StackersError):
    """The state store cannot be used (unreadable, wrong schema, bad key)."""


class ResourcePluginError(LocatedError):
    """A user's resource plugin (``resource_plugin_dirs``) that cannot be
    loaded, refused before anything is made: ``filename`` is the plugin's
    file (or directory), ``line`` where known; ``path`` names the schema
    entry at fault (``properties_schema.size.type``)."""


class PluginImportError(ResourcePluginError):
    """Importing the plugin's file raised (the message ends with the
    traceback's last line)."""


class PluginTypeClash(ResourcePluginError):
    """A plugin's type name is a built-in type's, or another plugin file's."""


class PluginSchemaError(ResourcePluginError):
    """A plugin class's properties, attributes or update_policy schema is not valid."""


class PluginUnsafe(ResourcePluginError):
    """A plugin directory or file that another user could write to (group or
    other write bit, or owned by someone but this user or root)."""


class PluginContractMismatch(ResourcePluginError):
    """The plugin was written for another version of the plugin contract
    (its ``CONTRACT_VERSION``), or declares none."""


class PluginMappingError(ResourcePluginError):
    """The plugin's ``resource_mapping()`` is missing, raises, or maps
    something other than type names to ResourcePlugin classes."""
