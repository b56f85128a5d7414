# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A template resource (a provider template, ``type: leaf.yaml`` or a
registry mapping to a template): a nested stack.

The engine runs the nested stack's resources itself, in the same walk as
the parent's (engine/nested/stacks.py); this plugin only answers what the planner
and the attribute readers ask of the resource's own record: like Heat's
TemplateResource, every property (a parameter of the nested stack) changes
in place (the nested stack is updated, never replaced), and a FAILED one
is updated again rather than replaced.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import StackersError
from ..base import ResourcePlugin

# The output that, when the nested template has one, is the resource's reference id.
STACK_ID_OUTPUT = 'OS::stack_id'
# The row's data key holding the nested stack's id.
NESTED_STACK = 'nested_stack_id'
# the key, in a template resource's encrypted data, of its stack's outputs that hold a secret
SECRET_OUTPUTS = 'secret_outputs'


class TemplateResource(ResourcePlugin):

    type_name = None
    # The properties are the nested stack's parameters, converted by it.
    converts_properties = False

    @classmethod
    def update_allowed(cls, prop):
        return True

    def needs_replace_failed(self, ctx):
        return False

    def _engine_only(self, ctx):
        raise StackersError('resource "%s": a nested stack is created, updated and deleted by the '
                            'engine, not by a plugin handler' % ctx.name)

    create = update = delete = _engine_only

    def reference_id(self, ctx):
        return ctx.data.get('reference_id') or ctx.physical_id


def stack_arn(project_id, stack_name, stack_id):
    """Heat's reference id of a nested stack without an ``OS::stack_id``
    output: the stack's identifier as an ARN."""
    return 'arn:openstack:heat::%s:stacks/%s/%s' % (project_id or '', stack_name, stack_id)
