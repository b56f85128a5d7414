# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's abandon data (``openstack stack abandon``, which Heat's adopt
reads) as the engine's inputs and adopt entries.

Heat's shapes (heat/engine/stack.py and resource.py ``prepare_abandon``):
a stack is ``{name, id, action, status, template, environment, files,
resources, project_id, stack_user_project_id, tags}``, ``environment``
being the user environment (``parameters``, ``parameter_defaults``,
``resource_registry`` ...); a resource is ``{name, resource_id, type,
action, status, metadata, resource_data}``, except a nested stack's
resource (a template resource, a group, an OS::Heat::Stack), whose entry
IS its nested stack's abandon dict (stack_resource.py prepare_abandon).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ...errors import StackersError

# The stack actions whose COMPLETE leaves every resource as its template
# says: what can be adopted (a SUSPEND_COMPLETE stack's servers are
# suspended, a DELETE's are gone; Heat adopts anything, we refuse those).
ADOPTABLE = ('CREATE', 'UPDATE', 'ADOPT', 'RESUME', 'CHECK', 'SNAPSHOT', 'RESTORE')
REMOTE_STACK = 'OS::Heat::Stack'
# Heat's user environment sections that hold nothing when empty
_ENV_SECTIONS = ('parameter_defaults', 'resource_registry', 'encrypted_param_names',
                 'event_sinks', 'parameter_merge_strategies')


def is_stack(entry):
    """Whether a resource entry is a nested stack's abandon dict."""
    return isinstance(entry, dict) and 'template' in entry and 'resources' in entry


def check(data, name=None):
    """Refuse abandon data that is not a stack Heat completed, naming what
    is wrong: the stack's status, a resource's status, a resource without
    its physical id (Heat's "Resource ID was not provided.")."""
    if not isinstance(data, dict) or not isinstance(data.get('template'), dict):
        raise StackersError('adopt_data is not Heat\'s abandon data (a dict with the stack\'s '
                            '"template", "environment", "files" and "resources")')
    _check_stack(data, name or data.get('name') or 'the stack', ())


def _check_stack(data, label, path):
    action, status = data.get('action'), data.get('status')
    if status != 'COMPLETE' or action not in ADOPTABLE:
        raise StackersError(
            'Stack %s is %s_%s in the adopt data: only a stack whose last action completed (%s) '
            'can be adopted' % (label, action, status, ', '.join('%s_COMPLETE' % a for a in ADOPTABLE)))
    for res_name, entry in sorted((data.get('resources') or {}).items()):
        where = '.'.join(path + (res_name,))
        if is_stack(entry):
            _check_stack(entry, 'of resource %s' % where, path + (res_name,))
            continue
        if not isinstance(entry, dict):
            raise StackersError('Resource %s of the adopt data is not a resource entry' % where)
        if entry.get('type') == REMOTE_STACK:
            # Heat's OS::Heat::Stack is a stack of its own in Heat (remote_stack.py), not a
            # nested stack: its abandon entry holds its id alone, none of its resources
            raise StackersError(
                'Resource %s is an OS::Heat::Stack: Heat keeps its stack (%s) apart, and its abandon '
                'data gives none of that stack\'s resources, so it cannot be adopted as a nested '
                'stack; move that stack on its own (adopt_from_heat.yml) and refer to it instead'
                % (where, entry.get('resource_id')))
        if entry.get('status') != 'COMPLETE':
            raise StackersError('Resource %s is %s_%s in the adopt data: only COMPLETE resources '
                                'can be adopted' % (where, entry.get('action'), entry.get('status')))
        if not entry.get('resource_id'):
            # Heat's handle_adopt fails the same way (resource.py)
            raise StackersError('Resource %s: Resource ID was not provided.' % where)


def inputs(data):
    """The record's inputs of a stack's abandon data: its template (as JSON
    text, which is YAML), its user environment (one environment, without
    the parameters and the sections Heat keeps empty; none when nothing
    is left), the parameters it holds, and its files."""
    env = dict(data.get('environment') or {})
    parameters = dict(env.pop('parameters', None) or {})
    registry = env.get('resource_registry')
    if isinstance(registry, dict):
        # Heat registers each template resource's file under its own name
        # (``nested.yaml: nested.yaml``); the user's environment had none
        # (and an empty ``resources`` section)
        env['resource_registry'] = dict((k, v) for k, v in registry.items()
                                        if not (isinstance(v, str) and k == v)
                                        and not (k == 'resources' and not _filled(v)))
    for section in _ENV_SECTIONS:
        if section in env and not _filled(env[section]):
            env.pop(section)
    environment = [{'data': env, 'filename': None}] if env else []
    return {'template': json.dumps(data['template'], indent=2, sort_keys=True),
            'template_file': None, 'environment': environment, 'parameters': parameters,
            'files': dict(data.get('files') or {})}


def _filled(value):
    if isinstance(value, dict):
        return any(_filled(v) for v in value.values())
    return bool(value)


def entries(data):
    """name -> entry of a stack's resources in the abandon data."""
    return dict((data or {}).get('resources') or {})


def nested_entries(entries_, name):
    """The entries of the nested stack of resource ``name`` ({} when the
    data has none: its resources are then missing, and fail so)."""
    entry = (entries_ or {}).get(name)
    return dict(entry.get('resources') or {}) if is_stack(entry) else {}


def members(entries_, name):
    """The members of group ``name`` in the data, as the engine reads a
    group's members (group_kinds.members_of), in the order of the nested
    template Heat wrote (its members' order: oldest first)."""
    entry = (entries_ or {}).get(name)
    if not is_stack(entry):
        return []
    found = entry.get('resources') or {}
    order = [n for n in (entry['template'].get('resources') or {}) if n in found]
    order += sorted(n for n in found if n not in order)
    out = []
    for seq, member in enumerate(order):
        got = found[member]
        out.append({'name': member, 'status': '%s_%s' % (got.get('action'), got.get('status')),
                    'created_time': ('', seq),
                    'reference_id': None if is_stack(got) else got.get('resource_id')})
    return out


def resource_id(entries_, name):
    """The physical id the data gives resource ``name``, or None."""
    entry = (entries_ or {}).get(name)
    if entry is None or is_stack(entry):
        return None
    return entry.get('resource_id') or None
