# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack's outputs as Heat lists them: ``output_key``,
``output_value``, ``description`` (and ``output_error`` for an output
that cannot be resolved, e.g. its resource failed)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError
from ..graph import dependencies as graphs
from .converge import StepKey
from .scheduler import once
from .seam import attribute_functions


def output_attributes(sd):
    """What the enabled outputs read of each resource: name -> attribute
    names, or None for all of them (get_attr without a name, or with a name
    a function computes)."""
    uses = {}
    for defn in sd.outputs.values():
        if defn.enabled:
            try:
                _attribute_uses(defn.value, uses)
            except StackersError:
                continue
    return uses


def _attribute_uses(snippet, uses):
    for function in attribute_functions(snippet):
        attr = function.attribute_name()
        for name in function.own_dependencies():
            if attr is None:
                uses[name] = None
            elif uses.get(name, ()) is not None:
                uses.setdefault(name, set()).add(attr)


# -- reading the outputs' attributes again, during the walk -----------------------
#
# A value a resource cached when it settled may move once later resources
# exist: a network's subnets once its subnets are made, a port's device once
# its server is, a server's addresses once a floating IP is bound to its port.
# What moves an object is what names it (a subnet names its network, a
# server its port) or what names the same thing it does (a floating IP and a
# server naming one port).  So the outputs' reads of a resource are a step
# of the walk after the resource and those ("changers"), not a round after
# the whole walk: they go beside the walk's last steps (a stack's volume
# attachments) instead of after them.  A read that fails here is left to
# finish, which reads what no step read; a run that changed neither the
# resource nor a changer reads nothing for it (its cached values cannot
# have moved).

# A resource with more changers than this (a network a thousand ports name),
# or a walk with more deletes, is read at finish: its step would wait for
# most of the walk anyway, and its dependencies would cost the walk a set of
# that size per output resource.
MAX_CHANGERS = 50


def requirement_maps(graph):
    """({resource: what it requires}, {resource: what requires it}), hubs
    expanded: one pass over the graph for every changers() asked."""
    requires = dict((node, graphs.resource_requires(graph, node)) for node in graph.nodes
                    if not graphs.is_hub(graph, node))
    required_by = {}
    for node, reqs in requires.items():
        for req in reqs:
            required_by.setdefault(req, set()).add(node)
    return requires, required_by


def changers(graph, name, maps=None, limit=None):
    """The resources whose create or update may move ``name``'s attributes:
    those requiring it, and those requiring something it requires (None
    when they are more than ``limit``)."""
    requires, required_by = maps or requirement_maps(graph)
    found = set()
    for group in [required_by.get(name, ())] + [required_by.get(req, ())
                                                for req in sorted(requires.get(name, ()))]:
        if limit is not None and len(group) > limit + 1:
            return None
        found.update(group)
        if limit is not None and len(found) > limit + 1:
            return None
    found.discard(name)
    return None if limit is not None and len(found) > limit else found


def refresh_steps(run, graph, deps, work):
    """Add to the walk (``deps``, ``work``) one step per resource the outputs
    read an attribute of, after it and its changers."""
    uses = output_attributes(run.sd)
    # Deleting moves attributes too (a removed subnet leaves its network's
    # list): every delete of the walk and the changers' cleanups go first.
    deletes = set(key for key in deps if key.kind == 'del' and not key.path)
    if not uses or len(deletes) > MAX_CHANGERS:
        return
    removed = set(run.rows[key.name].name for key in deletes if key.name in run.rows)
    maps = requirement_maps(graph)
    for name in sorted(uses):
        if StepKey('res', name) not in deps:
            continue
        moving = changers(graph, name, maps, MAX_CHANGERS)
        if moving is None:
            continue
        key = StepKey('outputs', name)
        deps[key] = set(step for other in moving | set([name])
                        for step in (StepKey('res', other), StepKey('cleanup', other))
                        if step in deps) | deletes
        work[key] = once(_read_again, run, name, uses[name], moving | removed)


def _read_again(run, name, names, moving):
    if run.log.changed_resources([name] + sorted(moving)):
        try:
            run.refresh_attributes({name: names})
        except StackersError:
            return    # finish reads it (and says what failed, if it fails again)
    run.outputs_read.add(name)


def resolve_outputs(run):
    out = []
    sd = run.sd
    for name in sorted(sd.outputs):
        defn = sd.outputs[name]
        item = {'output_key': name, 'description': defn.description or 'No description given'}
        if not defn.enabled:
            item['output_value'] = None
            out.append(item)
            continue
        missing = [r for r in defn.required_resources() if r not in sd.resource_data]
        if missing:
            item['output_value'] = None
            item['output_error'] = 'Resource %s is not created' % ', '.join(missing)
            out.append(item)
            continue
        try:
            with sd._located():
                item['output_value'] = defn.resolve()
        except StackersError as exc:
            item['output_value'] = None
            item['output_error'] = str(exc)
        out.append(item)
    return out
