# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The checks of a stack's resources that need the cloud, before any write.

Heat validates every resource at stack create, and some types' validation
asks a service (a key pair without a public key is refused when Nova no
longer generates keys).  The plugins that have such checks say so
(``has_preflight``); only their resources are resolved and asked, so a
stack without them costs no request here.  Values that depend on other
resources resolve as Heat's validation resolves them (before anything
exists).

Resources the record already holds are not asked again: a rerun that
changes nothing makes no request (Heat validates them again on every
update, which costs its service a request and tells nothing new about a
resource that exists).  A plugin whose check matters to a replacement
makes it again in its create (the key pair does).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...resources import registry
from ...errors import TemplateError
from ...resources.base import effective_properties


def preflight(sd, conn, *, recorded=frozenset):
    """Raise a TemplateError (with the resource's property path and line)
    for the first resource its plugin refuses; ``conn`` None checks nothing,
    and neither are the resources named by ``recorded()`` (the record has
    them; asked only once a resource with a check is met, so a stack
    without one reads no record here)."""
    if conn is None:
        return
    known = None
    for name, defn in sd.resources.items():
        cls = registry.PLUGINS.get(getattr(defn.type_info, 'plugin', None) or defn.type)
        if cls is None or not cls.has_preflight or defn.external_id is not None:
            continue
        if known is None:
            known = recorded()
        if name in known:
            continue
        props = effective_properties(defn.type, sd.resolve_properties(name))
        refused = cls().preflight(conn, props)
        if refused:
            key, message = refused
            path = ('resources', name, 'properties') + ((key,) if key else ())
            err = TemplateError(message, path=path)
            sd.template.locate(err)
            raise err
