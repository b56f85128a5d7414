# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::TestResource: Heat's knob-driven resource for testing stacks.

No cloud call.  ``value`` is stored (attribute ``output``); ``wait_secs`` /
``action_wait_secs`` make each action last that long (-1: forever), measured
by polls against a start time kept in ``ctx.data``; ``fail`` fails create
and update with Heat's message once the wait is over (delete never fails);
``update_replace`` turns a change of ``value`` into a replacement.

Not reproduced: ``attr_wait_secs`` (Heat sleeps while resolving the
attribute; a handler here never sleeps), ``client_name``/``entity_name``
(Heat only calls a client while waiting and logs the result) and
``constraint_prop_secs`` (a delay inside Heat's validation).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ._record_only import RecordOnly
from . import _waiting


def _wait_secs(props, action):
    """Heat's _wait_secs: the action's own wait, else the global one."""
    secs = None
    per_action = props.get('action_wait_secs')
    if per_action:
        secs = per_action.get(action)
    if secs is None:
        secs = props.get('wait_secs')
    return secs if secs is not None else 0


class TestResource(RecordOnly):
    type_name = 'OS::Heat::TestResource'
    __test__ = False   # not a pytest class, whatever its name says

    def create(self, ctx):
        props = ctx.properties or {}
        _waiting.start(ctx, _wait_secs(props, 'create'))
        if props.get('fail'):
            # Heat sets no resource id for a resource told to fail.
            return None
        ctx.data['value'] = props.get('value')
        return ctx.physical_name

    def from_heat_resource_data(self, ctx, resource_data):
        # Heat's test_resource.py keeps the value it outputs as ``value``
        if 'value' in resource_data:
            ctx.data['value'] = resource_data['value']

    def check_create_complete(self, ctx):
        return self._done(ctx, deleting=False)

    def needs_replace(self, ctx):
        if 'value' in ctx.changed:
            return bool((ctx.properties or {}).get('update_replace'))
        return False

    def update(self, ctx):
        props = ctx.properties or {}
        value = props.get('value') if 'value' in ctx.changed else None
        if value:
            if not props.get('fail'):
                ctx.data['value'] = value
            _waiting.start(ctx, _wait_secs(props, 'update'))
        else:
            _waiting.start(ctx, 0)

    def check_update_complete(self, ctx):
        return self._done(ctx, deleting=False)

    def delete(self, ctx):
        _waiting.start(ctx, _wait_secs(ctx.properties or {}, 'delete'))

    def check_delete_complete(self, ctx):
        return self._done(ctx, deleting=True)

    def _done(self, ctx, deleting):
        state = _waiting.elapsed(ctx)
        if state is None:
            return True
        waited, seconds = state
        # Heat: a negative wait never ends; the end is strictly after it
        # (no wait at all ends at the first poll).
        if seconds == 0 or (seconds > 0 and waited > seconds):
            _waiting.clear(ctx)
            if (ctx.properties or {}).get('fail') and not deleting:
                ctx.fail('Test Resource failed %s' % ctx.name, kind='ValueError')   # as Heat raises it
            return True
        return False

    def check(self, ctx):
        if ctx.physical_id is None:
            ctx.fail('Resource not created', kind='Exception')

    def attributes(self, ctx, live, names=None):
        return {'output': ctx.data.get('value'), 'show': None}

    def heat_resource_data(self, ctx):
        # Heat's TestResource answers its ``output`` from data 'value'
        value = ctx.data.get('value')
        return {} if value is None else {'value': value}
