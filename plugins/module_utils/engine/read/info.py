# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``info(request)``: what heat_stack_info answers, without Ansible.

The answers of ``openstack stack list / show``, ``stack resource list /
show``, ``stack event list`` (events.py), ``stack output show``,
``stack template show``, ``stack environment show`` and ``stack failures
list``, in the shapes of Heat's API, read from the state store alone: no
cloud call, no lock, no write.  The store is SQLite in WAL mode, so these
reads never block a run writing the same stack (nor wait for it): they see
the record as of its last commit.  A store that does not exist is not
made: it holds no stack.

Secrets stay masked as Heat masks them: hidden parameters show ``******``
(in the parameters and in the environment), and the record itself never
holds a secret in clear (store/sqlite.py, walk/attributes.py).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import dataclasses
import os
from typing import Any, Dict, List, Optional

from ...errors import StackersError, StackNotFound, StoreError
from ...hot import loader
from ...hot.shown import shown_value
from .events import failures, pending_hooks, select_events, stack_events
from . import follow as following
from ..store.records import CURRENT
from ..store.sqlite import default_store_path
from ..store.backends import open_store
from .view import nested_resource_views, row_views, stack_view

STACK_FILTERS = ('name', 'status', 'action', 'tags', 'tags_any')
RESOURCE_FILTERS = ('name', 'type', 'status', 'action', 'physical_resource_id')
# the options that ask about one stack
_NEED_NAME = ('nested_depth', 'resource_filters', 'resource', 'event_resource', 'marker', 'limit', 'sort',
              'output', 'template', 'environment', 'failures', 'hooks')


@dataclasses.dataclass
class InfoRequest:
    """heat_stack_info's options (see the module's docs).  Without ``name``
    the stacks are listed; every other option but the store's goes with a
    ``name``."""
    name: Optional[str] = None
    _keywords: dataclasses.KW_ONLY
    store_path: Optional[str] = None
    store_url: Optional[str] = None
    store_key: Optional[str] = None
    filters: Optional[Dict[str, Any]] = None
    show_nested: bool = False
    nested_depth: int = 0
    resource_filters: Optional[Dict[str, Any]] = None
    resource: Optional[str] = None
    event_resource: Optional[str] = None
    marker: Optional[str] = None
    limit: Optional[int] = None
    sort: Optional[List[str]] = None
    output: Optional[str] = None
    template: bool = False
    environment: bool = False
    failures: bool = False
    hooks: bool = False
    # the state the last look of a follower answered ({} for its first): follow.py
    follow: Optional[Dict[str, Any]] = None


def info(request, conn=None):
    path = request.store_url or request.store_path or default_store_path()
    if request.nested_depth < 0:
        raise StackersError('nested_depth must be 0 or more, not %s' % request.nested_depth)
    if not request.name:
        asked = [key for key in _NEED_NAME if getattr(request, key)]
        if asked:
            raise StackersError('%s ask(s) about one stack: give its name' % ', '.join(asked))
    if request.follow is not None:
        _check_follow(request)
        if not request.store_url and not os.path.exists(path):
            return following.look(_Nothing(path), request)    # no store yet: no stack yet
    if not request.store_url and not os.path.exists(path):
        if request.name:
            raise _not_found(request.name, path)
        return {'changed': False, 'stacks': []}
    store = open_store(request.store_path, request.store_url, conn, writable=False)
    try:
        if not request.name:
            return {'changed': False, 'stacks': list_stacks(store, request.filters, request.show_nested)}
        if request.follow is not None:
            return following.look(store, request)
        return show(store, request)
    finally:
        store.close()


def _check_follow(request):
    if not request.name:
        raise StackersError('follow follows one stack: give its name')
    given = [key for key in ('event_resource', 'marker', 'limit', 'sort') if getattr(request, key)]
    if given:
        raise StackersError('follow lists every event once, oldest first: %s cannot be given with it'
                            % ', '.join(given))


class _Nothing(object):
    """A store not made yet, as a follower reads it: no stack."""

    def __init__(self, path):
        self.path = path

    def get_stack(self, name):
        return None

    def deleted(self, stack_id):
        return None


def _not_found(name, path):
    return StackNotFound('The Stack (%s) could not be found in the state store %s: check the '
                         'stack name and store_path or store_url (list them without a name)' % (name, path))


# -- stack list -------------------------------------------------------------------

def list_stacks(store, filters=None, show_nested=False):
    """``openstack stack list``: newest first, nested stacks only with
    ``show_nested``; ``filters`` as Heat's (``status`` and ``action`` match
    either half of ``CREATE_COMPLETE`` or the whole; ``tags``: all of them,
    ``tags_any``: one of them)."""
    filters = dict(filters or {})
    unknown = sorted(set(filters) - set(STACK_FILTERS))
    if unknown:
        raise StackersError('Unknown stack list filter(s) %s: use %s'
                            % (', '.join(unknown), ', '.join(STACK_FILTERS)))
    out = []
    for stack in store.stacks():
        if stack.get('parent_id') and not show_nested:
            continue
        if _stack_matches(stack, filters):
            out.append(_summary(stack))
    out.sort(key=lambda s: (s['creation_time'] or '', s['stack_name']), reverse=True)
    return out


def _values(value):
    return [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]


def _stack_matches(stack, filters):
    tags = set(stack.get('tags') or ())
    for key, wanted in filters.items():
        if wanted is None:
            continue
        values = _values(wanted)
        if key == 'name' and stack['name'] not in values:
            return False
        if key in ('status', 'action') and not _state_matches(
                stack.get('action'), stack.get('status'), key, values):
            return False
        if key == 'tags' and not set(values) <= tags:
            return False
        if key == 'tags_any' and not set(values) & tags:
            return False
    return True


def _state_matches(action, status, key, values):
    whole = '%s_%s' % (action, status)
    return whole in values or (status if key == 'status' else action) in values


def _summary(stack):
    return {'id': stack['id'], 'stack_name': stack['name'], 'description': _description(stack),
            'stack_status': '%s_%s' % (stack.get('action'), stack.get('status')),
            'stack_status_reason': stack.get('status_reason'),
            'creation_time': stack.get('created_time'), 'updated_time': stack.get('updated_time'),
            'deletion_time': None, 'parent': stack.get('parent_id'), 'tags': stack.get('tags') or [],
            'stack_owner': None, 'stack_user_project_id': None}


def _template(stack):
    """The stack's template as data (None when the record has none)."""
    text = (stack.get('definition') or {}).get('template')
    if text is None:
        return None
    return loader.load_text(text, filename=stack['definition'].get('template_file')).data


def _description(stack):
    if stack.get('shown'):
        return stack['shown'].get('description')
    try:
        tmpl = _template(stack)
    except StackersError:
        return None
    return (tmpl or {}).get('description', 'No description') if isinstance(tmpl, dict) else None


def _shown(stack):
    """What the record shows of the stack's inputs (hot/shown.py): its
    description, parameters and environment, as the run that wrote it kept
    them.  A record written before runs kept it (any heat_stack run on the
    stack adds it, a rerun that changes nothing included) shows its
    description and the parameters given, and no environment; a nested
    stack's record has no inputs of its own: None."""
    if stack.get('shown'):
        return stack['shown']
    definition = stack.get('definition')
    if not definition:
        return None
    return {'description': _description(stack), 'environment': None,
            'parameters': dict((k, shown_value(v))
                               for k, v in (definition.get('parameters') or {}).items())}


# -- one stack --------------------------------------------------------------------

def show(store, request):
    stack = store.get_stack(request.name)
    if stack is None:
        raise _not_found(request.name, store.path)
    if request.event_resource and request.nested_depth:
        raise StackersError('event_resource cannot be given with nested_depth (as heatclient\'s '
                            '--resource with --nested-depth)')
    vault = _vault(store, request.store_key)
    shown = _shown(stack)
    outputs = _outputs(stack, vault)
    view = stack_view(stack, None, outputs)
    if shown is not None:
        view.update(description=shown.get('description'), parameters=shown.get('parameters'))
    view.update(parent=stack.get('parent_id'), tags=stack.get('tags') or [], deletion_time=None,
                capabilities=[], notification_topics=[], stack_owner=None, stack_user_project_id=None)
    if 'description' in view:
        view['template_description'] = view['description']
    result = {'changed': False, 'stack': view,
              'resources': resources(store, stack, request.nested_depth, request.resource_filters)}
    events = stack_events(store, stack, request.nested_depth)
    result['events'] = select_events(events, resource=request.event_resource, marker=request.marker,
                                     limit=request.limit, sort=request.sort)
    if request.resource is not None:
        result['resource'] = resource_show(store, stack, request.resource)
    if request.output is not None:
        result['output'] = output_show(outputs or [], request.output)
    if request.template:
        result['template'] = _template(stack)
    if request.environment:
        result['environment'] = _environment(shown, stack)
    if request.failures:
        result['failures'] = failures(store, stack)
    if request.hooks:
        result['hooks'] = pending_hooks(stack, events)
    return result


def _vault(store, store_key):
    """The store's vault, or None when the store was written with a user
    key that was not given (a key file is never made by a reader)."""
    if store_key or os.environ.get('STACKERS_STORE_KEY') or (
            not getattr(store, 'url', None) and os.path.exists(store.path + '.key')):
        return store.vault(store_key)
    return None


def _outputs(stack, vault):
    if not stack.get('outputs'):
        return None
    if vault is None:
        raise StoreError('The outputs of stack %s were encrypted with a store_key: give the same '
                         'store_key (or $STACKERS_STORE_KEY)' % stack['name'])
    return vault.decrypt(stack['outputs'])


def _environment(shown, stack):
    """Heat's environment show: the user's environment, hidden values
    ``******`` (hot/shown.py)."""
    if not shown or shown.get('environment') is None:
        raise StackersError('The environment of stack %s is not in its record: the record was written '
                            'before heat_stack kept it. Any heat_stack run on the stack records it (a '
                            'rerun with the same inputs changes nothing else)' % stack['name'])
    return shown['environment']


# -- resources ----------------------------------------------------------------------

def resources(store, stack, depth=0, filters=None):
    """``openstack stack resource list [--nested-depth N] [--filter ...]``:
    with a depth, every row names its ``stack_name`` (and ``stack_id``) and a
    nested stack's rows their ``parent_resource``; filters as Heat's
    (``type`` matches part of the type name)."""
    filters = dict(filters or {})
    unknown = sorted(set(filters) - set(RESOURCE_FILTERS))
    if unknown:
        raise StackersError('Unknown resource filter(s) %s: use %s'
                            % (', '.join(unknown), ', '.join(RESOURCE_FILTERS)))
    out = row_views(store.resources(stack['id'], roles=(CURRENT,)))
    if depth > 0:
        for view in out:
            view.update(stack_name=stack['name'], stack_id=stack['id'])
        out += nested_resource_views(store, stack['id'], depth)
    return [v for v in out if _resource_matches(v, filters)]


def _split(status):
    """``CREATE_IN_PROGRESS`` -> (``CREATE``, ``IN_PROGRESS``)."""
    for end in ('IN_PROGRESS', 'COMPLETE', 'FAILED'):
        if status and status.endswith('_' + end):
            return status[:-len(end) - 1], end
    return status, None


def _resource_matches(view, filters):
    action, status = _split(view['resource_status'])
    for key, wanted in filters.items():
        if wanted is None:
            continue
        values = _values(wanted)
        if key == 'name' and view['resource_name'] not in values:
            return False
        if key == 'type' and not any(v in (view['resource_type'] or '') for v in values):
            return False
        if key in ('status', 'action') and not _state_matches(action, status, key, values):
            return False
        if key == 'physical_resource_id' and view['physical_resource_id'] not in values:
            return False
    return True


def resource_show(store, stack, name):
    """``openstack stack resource show``: the row as listed, with its
    ``description``, ``metadata`` and ``attributes`` as recorded (the
    attributes the run cached; a plugin holding secrets caches none)."""
    rows = store.resources(stack['id'], roles=(CURRENT,))
    view = next((v for v in row_views(rows) if v['resource_name'] == name), None)
    if view is None:
        raise StackersError('The Resource (%s) could not be found in Stack %s.' % (name, stack['name']))
    row = next(r for r in rows if r.name == name)
    try:
        defn = ((_template(stack) or {}).get('resources') or {}).get(name) or {}
    except StackersError:
        defn = {}
    view.update(stack_name=stack['name'], description=defn.get('description', '') if isinstance(
        defn, dict) else '', metadata=row.metadata or {}, attributes=dict(row.attrs or {}))
    if stack.get('parent_resource'):
        view['parent_resource'] = stack['parent_resource']
    return view


def output_show(outputs, key):
    """``openstack stack output show``, Heat's refusal of an unknown key."""
    for item in outputs:
        if item.get('output_key') == key:
            return item
    raise StackersError('Specified output key %s not found.' % key)
