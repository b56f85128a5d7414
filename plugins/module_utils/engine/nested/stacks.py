# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nested stacks (template resources) walked in the parent's walk.

Heat runs a nested stack as a stack of its own, started when its parent
resource's turn comes.  Here every nested stack's goal is made with its
parent's (``nest_goals``: its definition, validated before any cloud call,
its graph, its record's name and id) and its steps join the parent's in
one scheduler walk (steps.attach): a nested resource starts as soon as its own
requirements and its stack's start are done, beside the parent's other
work, with no wait for a traversal to "reach" it.  Each nested stack keeps
its own record in the store (its parent's id and resource name), its
events and its outputs, which are its parent resource's attributes.

The steps of a nested stack are keyed with their ``path`` (converge.StepKey):
the names of the template resources from the top (``('a', 'b')``); the top
stack's have none.  For a template resource ``r``: ``StepKey('nest', r)``
starts its stack (the resource's IN_PROGRESS, the stack record), the nested
steps follow, and ``StepKey('res', r)`` finishes it (outputs, COMPLETE).
The tasks themselves are in steps.py.

A property of a template resource that waits on other resources is a
parameter its stack gets during the run: ``StepKey('param', (r, name))``
resolves it once those resources are done and gives it to the nested definition
(checked as Heat checks a nested stack's parameters), and only the nested
steps that read it wait for it.  The resources of such a stack are
validated as Heat validates a stack's create just before each one starts.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import hashlib
import json
import uuid
from typing import Any, Dict, FrozenSet, List, Optional

from ...errors import LocatedError, ResourceLimitExceeded
from ...hot import functions as fns
from ...hot.functions.params import GetParam
from ...hot.limits import DEFAULT as DEFAULT_LIMITS
from ...hot.nested import child_definition, in_nested, nested_parameters
from ...hot.stack_inputs import provider_template
from ...resources import registry
from ...resources.base import physical_name
from ...resources.heat.template_resource import NESTED_STACK
from ..graph import dependencies as _graph
from ...resources.heat import group_kinds as groups, remote_stack as stack_resource
from ..walk import run_state
from ..definition import heat_data
from ..definition.inputs import hidden_values

# heat/common/config.py: max_resources_per_stack, counted over the whole tree.
MAX_RESOURCES = DEFAULT_LIMITS.max_resources_per_stack


@dataclasses.dataclass
class NestGoal:
    """What a nested stack converges to, made before the walk: its
    definition (built with the values known before the run when
    ``deferred``), graph, provider template, the stack record's name and id
    (new or the recorded ones) and its own nested stacks' goals."""
    name: str
    sd: Any
    graph: Any
    template: Any
    deferred: bool
    stack_name: str
    stack_id: str
    stored: Optional[Dict[str, Any]]
    digest: str
    children: Dict[str, 'NestGoal']
    # the parameters (the parent resource's property names) known only
    # during the run: each is supplied by its own step
    waiting: FrozenSet[str] = frozenset()
    # a group's member names, in order (None: a template resource)
    names: Optional[List[str]] = None
    # an autoscaling group a signal resizes (its scaling marks are the signal's)
    resized: bool = False
    # 'template' (a template resource), 'group' or 'stack' (OS::Heat::Stack)
    kind: str = 'template'


def is_template(defn):
    return bool(getattr(defn.type_info, 'template', None))


def is_nested(defn):
    """A template resource, a group or an OS::Heat::Stack: a resource that
    is a nested stack."""
    return is_template(defn) or groups.group_type(defn) is not None or \
        stack_resource.is_stack(defn)


def param_snippets(defn):
    """name -> parsed value of each parameter a nested resource gives its
    stack: a template resource's properties, an OS::Heat::Stack's
    ``parameters`` entries."""
    if stack_resource.is_stack(defn):
        return stack_resource.parameter_snippets(defn)
    return dict(defn.properties or {})


def param_path(defn, param):
    """Where parameter ``param`` of a nested resource is in its template."""
    if stack_resource.is_stack(defn):
        return defn.path + ('properties', 'parameters', param)
    return defn.path + ('properties', param)


def template_digest(template):
    """What says a provider template changed (its text as loaded)."""
    data = template.data if hasattr(template, 'data') else template
    # canonical: a group's members come in another order once they exist
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha1(text.encode('utf-8')).hexdigest()


def nest_goals(sd, store, stack_id, *, max_resources=MAX_RESOURCES, region=None, resize=None,
               adopting=None):
    """name -> NestGoal of every nested resource of ``sd`` (a validated
    definition), recursively; ``stack_id``: its record (None: new).
    ``max_resources``: Heat's max_resources_per_stack over the whole tree
    (-1: no limit); ``region``: the connection's (an OS::Heat::Stack's
    context may name no other); ``resize``: group name -> the size a
    signal asks of it; ``adopting``: the stack's resource entries in
    Heat's abandon data, for an adopt."""
    total = [len(sd.resources)]
    _check_total(total[0], max_resources, ('resources',))
    return _goals_at(sd, store, stack_id, (total, max_resources, region), frozenset(),
                     resize=resize, adopting=adopting)


def _check_total(total, max_resources, path):
    if max_resources is not None and max_resources >= 0 and total > max_resources:
        # Heat's RequestLimitExceeded with StackResourceLimitExceeded's text
        raise ResourceLimitExceeded('Request limit exceeded: Maximum resources per stack '
                                    'exceeded.', path=path)


def params_read(snippet):
    """Names of the parameters a parsed snippet reads (get_param)."""
    if isinstance(snippet, fns.Function):
        if isinstance(snippet, GetParam):
            args = snippet.args
            name = args if isinstance(args, str) else (args[0] if isinstance(args, list) and args
                                                       else None)
            if isinstance(name, str):
                yield name
        yield from params_read(snippet.args)
    elif isinstance(snippet, dict):
        for value in snippet.values():
            yield from params_read(value)
    elif isinstance(snippet, (list, tuple)):
        for value in snippet:
            yield from params_read(value)


def _waiting(snippets, unknown_params):
    """Parameter names (of ``snippets``, a nested resource's) whose values
    are known only during the run: they refer to a resource, or read a
    parameter itself waiting."""
    out = set()
    for key, value in snippets.items():
        if fns.dependencies(value) or (unknown_params and
                                       not unknown_params.isdisjoint(params_read(value))):
            out.add(key)
    return out


def _goals_at(sd, store, stack_id, limit, unknown_params, *, resize=None, adopting=None):
    total, max_resources, region = limit
    rows = {}
    if stack_id is not None:
        rows = dict((r.name, r) for r in store.resources(stack_id) if r.role == 'current')
    out = {}
    for name, defn in sd.resources.items():
        if not is_nested(defn):
            continue
        row = rows.get(name)
        stored = None
        child_id = row.facts.get(NESTED_STACK) if row is not None else None
        if child_id is not None:
            stored = store.stack_by_id(child_id)
        if stored is not None:
            child_name, child_id = stored['name'], stored['id']
        else:
            child_name = physical_name(sd.stack_name, name)
            child_id = str(uuid.uuid4())
        names, kind = None, 'template'
        if groups.group_type(defn):
            kind = 'group'
            members = groups.members_of(store.resources(child_id)) if stored else []
            size = (resize or {}).get(name)
            if stored is None and adopting is not None:
                # Heat's adopt: the group's members are its data's, under their
                # names (an autoscaling group's are random) and at their number
                # (a group Heat scaled is no longer at its desired_capacity)
                members = heat_data.members(adopting, name)
                size = len(members)
            template, names, _removed, late = groups.goal_template(
                sd, defn, row, members, resize=size)
            waiting, params = frozenset(late), {}
        else:
            if stack_resource.is_stack(defn):
                kind = 'stack'
                stack_resource.check_region(defn, region)
                template = stack_resource.template_of(sd, defn)
            else:
                template = provider_template(sd, defn)
            snippets = param_snippets(defn)
            waiting = _waiting(snippets, unknown_params)
            params = nested_parameters(defn, True, waiting, properties=snippets)
        deferred = bool(waiting)
        child, graph = build_child(sd, defn, template, params, stack=(child_name, child_id),
                                   strict=not deferred)
        total[0] += len(child.resources)
        _check_total(total[0], max_resources, defn.path + ('type',))
        out[name] = NestGoal(name=name, sd=child, graph=graph, template=template,
                             deferred=deferred, stack_name=child_name, stack_id=child_id,
                             stored=stored, digest=template_digest(template),
                             waiting=frozenset(waiting), names=names, kind=kind,
                             resized=name in (resize or {}),
                             children=_goals_at(
                                 child, store, stored and child_id, limit, frozenset(waiting),
                                 adopting=None if adopting is None
                                 else heat_data.nested_entries(adopting, name)))
    return out


def build_child(sd, defn, template, params, *, stack, strict=True):
    """(definition, graph) of the nested stack of ``defn`` (``stack``: its
    record's name and id), validated as Heat validates a nested stack's
    create (``strict``) or its parent's (values not checked)."""
    stack_name, stack_id = stack
    try:
        child = child_definition(sd, defn, template, params, stack_name=stack_name,
                                 stack_id=stack_id)
        graph = child.validate(strict=strict,
                               graph_builder=lambda s: _graph.build_graph(s, implicit=True))
    except LocatedError as exc:
        raise in_nested(exc, defn)
    for name, inner in child.resources.items():
        if not is_nested(inner):
            registry.require_supported(getattr(inner.type_info, 'plugin', None) or inner.type,
                                       name)
    return child, graph


def count(nests):
    return sum(1 + count(n.children) for n in nests.values())


# -- the walk's steps -------------------------------------------------------------

def outcomes_at(outcomes, path):
    """The outcomes of the steps of the stack at ``path``, keyed as that
    stack names them (no path)."""
    return dict((k.in_stack(), o) for k, o in outcomes.items() if k.path == path)


def moved(deps, work, prefix):
    """A stack's (deps, work) one level down, under ``prefix``."""
    return (dict((k.under(prefix), set(d.under(prefix) for d in v)) for k, v in deps.items()),
            dict((k.under(prefix), w) for k, w in work.items()))


def child_run(invocation, parent, stack, sd):
    """A nested stack's run: its parent's secrets masked in it too, its
    events copied to its parent's log."""
    secrets = list(parent.masker.secrets) + list(hidden_values(sd).values() if sd else ())
    child = run_state.StackRun(invocation.store, invocation.vault, invocation.conn, stack, sd,
                               secret_values=secrets, check_mode=parent.check_mode)
    child.masker.learned = parent.masker.learned     # one set for the tree (secrets.Masker)
    child.action_retry_limit = parent.action_retry_limit
    child.log.parent = parent.log
    return child
