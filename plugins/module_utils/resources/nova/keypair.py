# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::KeyPair: import a public key or let Nova generate the pair.

The physical id is the key name (Nova's keypair identity).  Every property
replaces the resource; the name is unique per user, so the old key pair has
to go before the new one exists (Heat's prepare_for_replace).

Like Heat (KeyPair.validate), a key pair without ``public_key`` is refused
before anything is made when Nova speaks microversion 2.92 or later, where
Nova no longer generates keys; ``type`` and ``user`` need 2.2 and 2.10."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import ResourcePlugin
from .common import as_dict


# Heat's microversion floors for the properties (nova/keypair.py).
MICROVERSION_KEY_TYPE = (2, 2)
MICROVERSION_USER = (2, 10)
MICROVERSION_PUBLIC_KEY = (2, 92)


def _key_body(key):
    """A public key's type and body (Nova may keep another comment or spacing)."""
    return tuple(str(key or '').split()[:2])


class KeyPair(ResourcePlugin):
    type_name = 'OS::Nova::KeyPair'
    replace_deletes_first = True
    # the engine stores these ctx.data keys encrypted
    secret_data = ('private_key',)
    has_preflight = True

    def preflight(self, conn, properties):
        if properties.get('public_key') and not (properties.get('type') or
                                                 properties.get('user')):
            # Every Nova takes this one: no need to read its version document,
            # which the run otherwise waited for before its first create.
            return None
        newest = sdk.max_microversion(conn, 'compute') or (2, 0)
        unsupported = [key for key, floor in (('type', MICROVERSION_KEY_TYPE),
                                              ('user', MICROVERSION_USER))
                       if properties.get(key) and newest < floor]
        if unsupported:
            return (unsupported[0], 'Cannot use "%s" properties - nova does not support required '
                    'api microversion.' % unsupported)
        if not properties.get('public_key') and newest >= MICROVERSION_PUBLIC_KEY:
            return ('public_key', 'The public_key property is required by the nova API version '
                    'currently used.')
        return None

    def create(self, ctx):
        props = ctx.properties
        # The run's preflight skips key pairs the record holds: a replacement
        # is checked here (the version document is read once per run).
        refused = self.preflight(ctx.conn, props)
        if refused:
            ctx.fail(refused[1])
        attrs = {'name': props['name']}
        # Without a public key Nova generates the pair and answers the private
        # key once (a Nova below 2.92: preflight refuses it on newer ones).
        if props.get('public_key'):
            attrs['public_key'] = props['public_key']
        if props.get('type'):
            attrs['type'] = props['type']
        if props.get('user'):
            attrs['user_id'] = props['user']
        keypair = sdk.call(ctx.conn.compute.create_keypair, retry_writes=False, **attrs)
        private = getattr(keypair, 'private_key', None)
        if props.get('save_private_key') and private:
            ctx.data['private_key'] = private
        ctx.data['public_key'] = getattr(keypair, 'public_key', None)
        live = as_dict(keypair)
        if isinstance(live, dict):
            live.pop('private_key', None)
        ctx.live = live
        return keypair.name or props['name']

    def heat_resource_data(self, ctx):
        # Heat keeps a generated private key (save_private_key) as data
        # 'private_key': its private_key attribute reads nothing else
        private = ctx.data.get('private_key')
        return {'private_key': private} if private else {}

    def from_heat_resource_data(self, ctx, resource_data):
        # Heat keeps the private key Nova generated (save_private_key) as
        # ``private_key``; it is answered once, so the adopted one is the only copy
        if resource_data.get('private_key'):
            ctx.data['private_key'] = resource_data['private_key']

    def delete(self, ctx):
        if ctx.physical_id:
            sdk.delete_quietly(ctx.conn.compute.delete_keypair, ctx.physical_id,
                               **self._user_kw(ctx))

    def find(self, ctx):
        name = ctx.properties.get('name')
        if not name:
            return None
        found = sdk.get_or_none(ctx.conn.compute.get_keypair, name, **self._user_kw(ctx))
        if found is None:
            return None
        want = ctx.properties.get('public_key')
        if want and _key_body(getattr(found, 'public_key', None)) != _key_body(want):
            return None     # someone else's key of that name: never taken, never deleted
        return found.name

    def found_is_whole(self, ctx):
        # one POST; with the public key given, find takes only the key that carries it
        return bool(ctx.properties.get('public_key'))

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        found = sdk.get_or_none(ctx.conn.compute.get_keypair, ctx.physical_id, **self._user_kw(ctx))
        if found is None:
            return None
        live = as_dict(found)
        live.pop('private_key', None)
        return live

    def check(self, ctx):
        # Heat's handle_check: a GET, which fails when the key is gone
        if self.show(ctx) is None:
            ctx.fail('The Key (%s) could not be found.' % ctx.physical_id)

    def attributes(self, ctx, live, names=None):
        if live is None:
            live = ctx.live
        # Heat: the private key only when asked to save it ('' otherwise);
        # the public key from the property, else from Nova.
        private = ctx.data.get('private_key', '') if ctx.properties.get('save_private_key') else ''
        public = ctx.properties.get('public_key') or ctx.data.get('public_key')
        if not public and isinstance(live, dict):
            public = live.get('public_key')
        return {'private_key': str(private), 'public_key': str(public),
                'show': live}

    @staticmethod
    def _user_kw(ctx):
        # another user's key (admin) is only reachable with user_id
        user = ctx.properties.get('user')
        return {'user_id': user} if user else {}
