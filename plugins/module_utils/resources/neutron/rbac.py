# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::RBACPolicy (Heat's rbac_policy.py): an object shared with a
project.  ``object_id`` may name the object (Heat's translation looks it up
by the object type).  Neutron keeps one policy per object, action and
target, so ``find`` knows the one an interrupted create made by them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .common import NeutronPlugin, lookup_id, prepare_body
from .raw import raw_list, raw_update

# Heat's SUPPORTED_TYPES_ACTIONS: the actions each object type takes.
ACTIONS = {
    'network': ('access_as_shared', 'access_as_external'),
    'qos_policy': ('access_as_shared',),
    'security_group': ('access_as_shared',),
    'address_scope': ('access_as_shared',),
    'subnetpool': ('access_as_shared',),
}
# object type -> the kind lookup_id finds it as
_KINDS = {'subnetpool': 'subnet_pool'}


class RBACPolicy(NeutronPlugin):
    type_name = 'OS::Neutron::RBACPolicy'
    entity = 'rbac_policy'
    collection = None
    taggable = False
    drift_keys = {'target_tenant': 'target_tenant'}

    @classmethod
    def validate(cls, given):
        props = given.props
        action, kind = props.get('action'), props.get('object_type')
        if kind in ACTIONS and action not in ACTIONS[kind]:
            given.fail('Invalid action "%s" for object type %s. Valid actions: %s'
                       % (action, kind, ', '.join(ACTIONS[kind])), 'action')

    def object_id(self, ctx):
        kind = ctx.properties.get('object_type')
        return lookup_id(ctx, _KINDS.get(kind, kind), ctx.properties.get('object_id'))

    def create_body(self, ctx):
        body = prepare_body(ctx.properties)
        body['object_id'] = self.object_id(ctx)
        return body

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        if diff:
            raw_update(ctx.conn, self.entity, ctx.physical_id, diff)

    def find(self, ctx):
        props = ctx.properties
        found = raw_list(ctx.conn, '/rbac-policies', 'rbac_policies', object_id=self.object_id(ctx),
                         object_type=props.get('object_type'), action=props.get('action'),
                         target_tenant=props.get('target_tenant'))
        return found[0]['id'] if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return True
