# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Name lookups a run's creates will make, asked when the run starts.

A server named by its image and flavor, a router or floating IP by its
external network's name, a port by the Neutron extensions: asked only when
each create's turn comes, the lookups (a flavor list, image discovery and
an image list in front of every server POST) would sit on the stack's
critical path.  What they look up is
known from the template and parameters alone, so they are asked here,
beside the first wave of creates, and the creates find the answers kept
for the run (``sdk.remembered``: a create asking while the lookup is under
way waits for that answer instead of asking again).

Only for resources the record does not have yet (they will be created): a
rerun that changes nothing makes no call.  A failed lookup is not kept; the
create asks again and reports it as its own failure.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import concurrent.futures
import contextlib

from ...hot import functions as fns
from ...resources.base import ResourceContext
from ...resources.sdk import later_services, warm, warm_service

# Lookups are a handful of GETs; more threads would only compete with the
# scheduler's for the same cloud.
WORKERS = 4


def known_values(run, name, paths):
    """The values at ``paths`` (tuples of keys into the properties) that
    the template gives without a resource reference (top-level property
    -> its resolved value); the others are left out."""
    defn = run.sd.resources[name]
    props = defn.properties or {}
    out = {}
    for key in sorted(set(path[0] for path in paths)):
        snippet = props.get(key)
        if snippet is None or fns.dependencies(snippet):
            continue
        try:
            out[key] = run.sd.resolve(snippet, defn.path + ('properties', key))
        except Exception:  # noqa: B902 - validated already; the create reports its own error
            continue
    return out


def lookups(run):
    """(plugin, context) for each distinct lookup of the resources to be created."""
    seen, out = set(), []
    for name in sorted(run.sd.resources):
        if run.current(name) is not None:
            continue
        defn = run.sd.resources[name]
        plugin = run.plugin(defn.type, name)
        paths = plugin.prefetch_properties
        if paths is None:
            continue
        values = known_values(run, name, paths) if paths else {}
        key = (type(plugin), repr(sorted(values.items())))
        if key in seen:
            continue
        seen.add(key)
        out.append((plugin, ResourceContext(conn=run.conn, stack_id=run.stack['id'],
                                            stack_name=run.stack['name'], name=name,
                                            type_name=defn.type, properties=values,
                                            action='CREATE')))
    return out


def _ask(plugin, ctx):
    try:
        # the service's version document through the run's one reader: a
        # flavor lookup beside a key pair's create read it twice otherwise
        warm(ctx.conn, ctx.type_name)
        plugin.prefetch(ctx)
    except Exception:  # noqa: B902 - not kept: the create asks again and fails with it
        pass


def _later(conn, types):
    """(function, args) reading the version documents that resources of
    ``types`` read only in their polls, after a first call to another
    service: a volume attachment's first call is Nova's and its polls read
    Cinder's document, which nothing else had read when a stack delete's
    attachments looked (two GETs on the way to their servers' deletes)."""
    services = sorted(set(svc for t in types for svc in later_services(t)))
    return [(warm_service, (conn, svc)) for svc in services]


@contextlib.contextmanager
def _pool(todo):
    if not todo:
        yield
        return
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(WORKERS, len(todo)))
    try:
        for fn, args in todo:
            pool.submit(fn, *args)
        yield
    finally:
        pool.shutdown(wait=True)


def started(run):
    """Ask the lookups of ``run``'s creates on a small pool while the body
    runs; the pool is waited for when it ends."""
    if run.conn is None or run.sd is None:
        return _pool([])
    todo = lookups(run)
    types = set(ctx.type_name for _plugin, ctx in todo)
    types.update(run.sd.resources[name].type for name in run.sd.resources
                 if run.current(name) is None)
    return _pool([(_ask, item) for item in todo] + _later(run.conn, types))


def deleting(run, rows):
    """``started`` for a walk deleting ``rows``: the documents their polls
    read after a first call elsewhere (only rows with a cloud object: the
    others make no call)."""
    if run.conn is None:
        return _pool([])
    return _pool(_later(run.conn, [row.type for row in rows if row.physical_id is not None]))
