# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::Delay: a pause during the actions it names.

No cloud call.  As in Heat the wait is ``min_wait`` plus a uniform random
jitter up to ``max_jitter * jitter_multiplier``, drawn when the action
starts, for the actions listed in ``actions`` (CREATE, DELETE, SUSPEND,
RESUME); the start and length are kept in ``ctx.data`` and each check
compares the clock.  Heat sets no resource id, so the reference id is the
resource name.  (Heat's own check_resume_complete calls a method Delay does
not have, so a resume fails there; here it waits like the others.)
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random

from ._record_only import RecordOnly
from . import _waiting


def wait_secs(props, action, rng=random):
    """Heat's Delay._wait_secs for ``action`` (upper case)."""
    if action not in (props.get('actions') or ()):
        return 0
    min_wait = props.get('min_wait') or 0
    jitter = (props.get('max_jitter') or 0) * (props.get('jitter_multiplier') or 0)
    return min_wait + jitter * rng.random()


# Heat's stack_action_timeout: a stack's timeout when none is given.
DEFAULT_TIMEOUT = 3600


def stack_timeout(stack):
    """The timeout, in seconds, of the stack a resource is in (heat_stack's
    ``timeout``; Heat's default when none is known)."""
    timeout = getattr(stack, 'timeout_secs', None)
    return DEFAULT_TIMEOUT if timeout is None else timeout


class Delay(RecordOnly):
    type_name = 'OS::Heat::Delay'

    @classmethod
    def validate(cls, given):
        # Heat's Delay.validate (its message names the type through a bound
        # method by mistake; this is the text it means).
        props = given.props
        max_wait = props['min_wait'] + props['max_jitter'] * props['jitter_multiplier']
        if max_wait > stack_timeout(given.stack):
            given.fail('%s maximum delay %ss exceeds stack timeout.' % (cls.type_name, max_wait))

    def _start(self, ctx, action):
        _waiting.start(ctx, wait_secs(ctx.properties or {}, action))

    def _done(self, ctx):
        state = _waiting.elapsed(ctx)
        if state is None or not state[1] or state[0] >= state[1]:
            _waiting.clear(ctx)
            return True
        return False

    def create(self, ctx):
        self._start(ctx, 'CREATE')
        return None

    def check_create_complete(self, ctx):
        return self._done(ctx)

    def delete(self, ctx):
        self._start(ctx, 'DELETE')

    def check_delete_complete(self, ctx):
        return self._done(ctx)

    def suspend(self, ctx):
        self._start(ctx, 'SUSPEND')

    def check_suspend_complete(self, ctx):
        return self._done(ctx)

    def resume(self, ctx):
        self._start(ctx, 'RESUME')

    def check_resume_complete(self, ctx):
        return self._done(ctx)

    def show(self, ctx):
        return {}

    def attributes(self, ctx, live, names=None):
        return {'show': None}
