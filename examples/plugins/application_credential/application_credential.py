# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stackers::Keystone::ApplicationCredential: a Keystone application credential of the user running the stack.

Heat has no type for it: a stack that hands its servers (or an agent) a
credential of their own needs this plugin.  Keystone never changes an
application credential, so every property change makes a new one (the old
one is deleted once its dependents moved on); the secret Keystone answers at
create is kept encrypted in the stack's record and read by ``get_attr``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

CONTRACT_VERSION = 1


class ApplicationCredential(ResourcePlugin):
    """A Keystone application credential of the user running the stack."""

    properties_schema = {
        'name': {'type': 'string', 'description': 'Its name; a name of the stack and resource when not given.',
                 'constraints': [{'length': {'min': 1, 'max': 255}}]},
        'description': {'type': 'string', 'default': '', 'description': 'What it is for.'},
        'expires_at': {'type': 'string', 'description': 'When it expires (ISO 8601); never when not given.',
                       'constraints': [{'custom_constraint': 'iso_8601'}]},
        'unrestricted': {'type': 'boolean', 'default': False,
                         'description': 'Whether it may make other application credentials and trusts.'},
    }
    attributes_schema = {
        'secret': {'type': 'string', 'description': 'The secret, to authenticate with the id.'},
        'name': {'type': 'string', 'description': 'Its name.'},
        'project_id': {'type': 'string', 'description': 'The project it is scoped to.'},
        'expires_at': {'type': 'string', 'description': 'When it expires, or null.'},
    }
    # the secret is stored encrypted and never cached with the other attributes
    secret_data = ('secret',)

    def _name(self, ctx):
        return ctx.properties['name'] or ctx.physical_name

    def create(self, ctx):
        props = ctx.properties
        # a POST: not sent again on a transient fault (find() looks for it by name)
        made = sdk.call(ctx.conn.identity.create_application_credential, ctx.conn.current_user_id,
                        self._name(ctx), description=props['description'],
                        expires_at=props['expires_at'], unrestricted=props['unrestricted'],
                        retry_writes=False)
        ctx.data['secret'] = made.secret
        return made.id

    def delete(self, ctx):
        if ctx.physical_id is not None:
            sdk.delete_quietly(ctx.conn.identity.delete_application_credential, ctx.conn.current_user_id,
                               ctx.physical_id, ignore_missing=False)

    def find(self, ctx):
        found = sdk.call(ctx.conn.identity.find_application_credential, ctx.conn.current_user_id,
                         self._name(ctx), ignore_missing=True)
        return found.id if found is not None else None

    def show(self, ctx):
        if ctx.physical_id is None:
            return None
        found = sdk.get_or_none(ctx.conn.identity.get_application_credential, ctx.conn.current_user_id,
                                ctx.physical_id)
        if found is None:
            return None
        return {'id': found.id, 'name': found.name, 'description': found.description,
                'project_id': found.project_id, 'expires_at': found.expires_at,
                'unrestricted': found.unrestricted}

    def attributes(self, ctx, live, names=None):
        attrs = super(ApplicationCredential, self).attributes(ctx, live, names)
        attrs['secret'] = ctx.data.get('secret')
        return attrs

    def heat_resource_data(self, ctx):
        return {'secret': ctx.data.get('secret')}

    def from_heat_resource_data(self, ctx, resource_data):
        ctx.data['secret'] = resource_data.get('secret')


def resource_mapping():
    return {'Stackers::Keystone::ApplicationCredential': ApplicationCredential}
