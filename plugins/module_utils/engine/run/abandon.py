# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack ``state: abandoned``: Heat's ``stack abandon`` without Heat.

The stack's record (its nested stacks' with it) is dropped and the cloud is
left alone: no handler runs, no request changes anything.  What it answers
is Heat's abandon data (heat/engine/stack.py ``prepare_abandon``), the
document ``openstack stack adopt --adopt-file`` reads back: the stack's
name, id, action and status, the user environment as a dict, the files,
the template as a dict and per resource its id, type, action, status,
metadata and ``resource_data`` (Heat's keys, from each plugin's
``heat_resource_data``).  A nested stack's resource (a template resource,
a group) is its nested stack's abandon dict, as Heat's StackResource
answers: Heat's adopt builds the nested stack from the parent's template
and takes only its ``resources`` from there.

Check mode answers the same data and removes nothing (Heat's ``stack
export``).  The data holds the stack's secrets in clear, as Heat's does:
its hidden parameter values (which the store keeps only under a user
store key: without them Heat could not adopt the stack, so the abandon is
refused), generated passwords, private keys.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import dataclasses
import json

from ...errors import StackersError
from ...hot import loader
from ...hot.parameter_values import MASK
from ...resources.heat.template_resource import NESTED_STACK
from ...resources.sdk import note_secret
from ..nested import stacks as nesting
from ..read.view import stack_view
from ..store.backends import forget_tree
from ..store.owner import new_owner
from ..store.records import CURRENT
from ..store.secrets import secret_strings
from ..walk.run_state import StackRun
from . import phases


def abandon(invocation, stack):
    """Heat's abandon of ``stack`` (its stored row, or None: nothing left,
    nothing changed)."""
    if stack is None:
        return {'changed': False, 'stack': None, 'resources': [], 'events': []}
    store = invocation.store
    if invocation.request.check_mode:
        return _result(stack, abandon_data(invocation, stack))
    invocation.owner = new_owner()
    stack = phases.lock(invocation)
    try:
        data = abandon_data(invocation, stack)
        forget_tree(store, stack['id'])
        return _result(stack, data)
    finally:
        if store.stack_by_id(stack['id']) is not None:
            store.unlock(stack['id'], invocation.owner)


def _result(stack, data):
    return {'changed': True, 'stack': stack_view(stack, None, None), 'resources': [],
            'events': [], 'abandon_data': data}


def abandon_data(invocation, stack):
    """Heat's abandon dict of the stored top-level ``stack``."""
    sd, goals = _definition(invocation, stack)
    files = dict(sd.files or {})
    _gather_files(sd, goals, files)
    return _stack_data(_Walk(invocation, files), stack, sd, goals)


@dataclasses.dataclass
class _Walk:
    """What every level of the abandon dict reads: the engine call and the
    files map (Heat gives a nested stack its parent's)."""
    invocation: object
    files: dict


def _definition(invocation, stack):
    """The stack's definition rebuilt from its record (hidden values put
    back from the store), and its nested stacks' goals."""
    inputs = copy.deepcopy(stack.get('definition') or {})
    if not inputs.get('template'):
        raise StackersError('Stack "%s" cannot be abandoned: its record keeps no template'
                            % stack['name'])
    given = _hidden_given(stack)
    kept = {}
    if stack.get('secrets') and invocation.vault.user_key:
        kept = invocation.vault.decrypt(stack['secrets']) or {}
        for value in secret_strings(kept.values()):
            note_secret(invocation.conn, value)     # the module then knows the data holds it
    params = inputs.setdefault('parameters', {})
    for name in given:
        if name in kept:
            params[name] = kept[name]
    request = dataclasses.replace(invocation.request, checker=None)
    try:
        sd, _graph = phases.load(request, inputs, stack['id'])
    except StackersError as exc:
        missing = _missing(stack, given, kept)
        if missing:
            raise StackersError(
                'Stack "%s" cannot be abandoned: the hidden parameter(s) %s have no value in the '
                'state store, which keeps hidden values only under a store key: give the '
                'store_key the stack was written with (Heat could not adopt the stack without '
                'them)' % (stack['name'], ', '.join(missing)))
        raise StackersError('Stack "%s" cannot be abandoned: its recorded definition does not '
                            'load: %s' % (stack['name'], exc))
    missing = [name for name in given if name not in kept]
    if missing:
        raise StackersError(
            'Stack "%s" cannot be abandoned: the hidden parameter(s) %s were given but their '
            'values are not in the state store (kept only under a store key): give the store_key '
            'the stack was written with (Heat would adopt the stack with other values)'
            % (stack['name'], ', '.join(sorted(missing))))
    goals = nesting.nest_goals(sd, invocation.store, stack['id'], max_resources=-1,
                               region=invocation.request.region_name)
    return sd, goals


def _hidden_given(stack):
    """Names of the hidden parameters the user gave (the record shows them
    masked; their values are cut out of the stored inputs)."""
    env = ((stack.get('shown') or {}).get('environment') or {})
    names = set()
    for section in ('parameters', 'parameter_defaults'):
        for name, value in (env.get(section) or {}).items():
            if value == MASK and name not in ((stack.get('definition') or {}).get('parameters') or {}):
                names.add(name)
    return sorted(names)


def _missing(stack, given, kept):
    """Hidden parameters a rebuild lacks: those given and not kept, and
    those declared without a default and not kept."""
    out = set(n for n in given if n not in kept)
    try:
        declared = loader.load_text(stack['definition']['template'], max_size=None).data
    except StackersError:
        declared = None
    declared = declared.get('parameters') if isinstance(declared, dict) else None
    for name, schema in (declared if isinstance(declared, dict) else {}).items():
        if isinstance(schema, dict) and str(schema.get('hidden')).lower() == 'true' and \
                schema.get('default') is None and name not in kept:
            out.add(name)
    return sorted(out)


def _gather_files(sd, goals, files):
    """Every file the stack's templates read (provider templates, get_file)
    into ``files``, under the names the templates use: Heat's adopt reads
    them from the files map only."""
    for name, content in sd.template.files_read().items():
        files.setdefault(name, content)
    for goal in goals.values():
        _gather_files(goal.sd, goal.children, files)


def _environment(sd):
    """Heat's user_env_as_dict: the merged environments, and as its
    ``parameters`` every value the user gave (Heat merges ``-P`` into them)."""
    env = sd.environment.as_dict() if sd.environment is not None else {
        'parameters': {}, 'parameter_defaults': {}, 'resource_registry': {'resources': {}},
        'event_sinks': []}
    given = {}
    for name, value in (getattr(sd.parameters, 'user_values', None) or {}).items():
        try:
            given[name] = json.loads(json.dumps(value))
        except (TypeError, ValueError):
            continue        # a nested stack's value known only during a run
    env['parameters'] = given
    return dict((key, env.get(key)) for key in
                ('resource_registry', 'parameters', 'parameter_defaults', 'event_sinks'))


def _stack_data(walk, stack, sd, goals):
    store = walk.invocation.store
    run = StackRun(store, walk.invocation.vault, walk.invocation.conn, stack, None)
    resources = {}
    for row in run.rows.values():
        if row.role != CURRENT:
            continue
        goal = goals.get(row.name)
        child_id = row.facts.get(NESTED_STACK)
        if goal is not None and goal.kind == 'stack':
            raise StackersError(
                'Stack "%s" cannot be abandoned: resource "%s" is an OS::Heat::Stack, whose stack '
                'Heat keeps as a stack of its own, which abandon data cannot carry'
                % (stack['name'], row.name))
        if child_id is not None or goal is not None:
            child = store.stack_by_id(child_id) if child_id else None
            resources[row.name] = {} if child is None or goal is None else \
                _stack_data(walk, child, goal.sd, goal.children)
            continue
        ctx = run.context(row)
        resources[row.name] = {
            'name': row.name, 'resource_id': row.physical_id, 'type': row.type,
            'action': row.action, 'status': row.status,
            'metadata': row.metadata if row.metadata is not None else {},
            'resource_data': run.plugin(row.type, row.name).heat_resource_data(ctx) or {}}
    template = sd.template.data
    return {
        'name': stack['name'], 'id': stack['id'], 'action': stack['action'],
        'status': stack['status'],
        'environment': _environment(sd),
        'files': walk.files, 'template': template.data if hasattr(template, 'data') else template,
        'resources': resources, 'project_id': stack.get('project_id'),
        'stack_user_project_id': None, 'tags': stack.get('tags') or None}
