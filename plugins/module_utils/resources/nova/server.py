# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::Server: create, delete, suspend/resume, check, replace rules.

The create body is built as Heat's handle_create builds it (image and
flavor by name or id, networks with internal ports, block devices, user
data, metadata with the stack marks, tags); the server is then polled until
ACTIVE.  Updates in place are in server_update.py, networks in
server_network.py, attributes in server_attrs.py, the image of
deletion_policy Snapshot and the stack snapshot in server_snapshot.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import time

from ...errors import CloudConflict, CloudTransient
from .. import poll_batch, sdk
from ..base import ResourcePlugin, TAG_RESOURCE, TAG_STACK, own_metadata
from . import (common, server_attrs, server_build, server_network, server_rules, server_snapshot,
               server_software, server_update)

PERSONALITY_REMOVED = ('Cannot use the personality parameter as nova no longer '
                       'supports it. Use user_data instead.')
# a suspend or resume refused a moment (409) or lost: asked at most this many times
TOGGLE_TRIES = 3
TOGGLE_BACKOFF = 1.0


class Server(ResourcePlugin):
    type_name = 'OS::Nova::Server'
    poll_interval = 2.0
    # A build, a delete, a suspend or a resume is never over at Nova's answer.
    slow_actions = ('CREATE', 'DELETE', 'SUSPEND', 'RESUME')
    # Each console URL is a request, and they expire: read only when a template asks.
    uncached_attributes = ('console_urls',)
    # Neutron reads (the server's ports, their networks and subnets, floating
    # IPs), and show's GET of Nova's own body at the microversion Heat's
    # client speaks (the live object is the SDK's, with every field of every
    # microversion): made only when a template reads them, so a create
    # waits on none of them.
    costly_attributes = ('addresses', 'networks', 'show')
    physical_name_limit = 255

    @staticmethod
    def server_name(ctx):
        return ctx.properties.get('name') or ctx.physical_name

    # -- validate (Heat's Server.validate: server_rules.py) ---------------------------
    @classmethod
    def validate(cls, given):
        server_rules.validate(given)

    # -- create ----------------------------------------------------------------------
    prefetch_properties = (('image',), ('flavor',))

    def prefetch(self, ctx):
        if ctx.properties.get('flavor'):
            common.flavor_id(ctx.conn, ctx.properties['flavor'])
        if ctx.properties.get('image'):
            common.image_id(ctx.conn, ctx.properties['image'])

    def create(self, ctx):
        props, conn = ctx.properties, ctx.conn
        if props.get('personality'):
            ctx.fail(PERSONALITY_REMOVED)
        # networks first: a missing network fails before anything exists
        nets = server_network.resolve(conn, props.get('networks'))
        attrs = {'name': self.server_name(ctx),
                 'flavor_id': common.flavor_id(conn, props['flavor']),
                 'metadata': server_build.server_metadata(ctx, props.get('metadata'))}
        if props.get('image'):
            attrs['image_id'] = common.image_id(conn, props['image'])
        bdm = (server_build.block_device_mapping_v2(conn, props.get('block_device_mapping_v2'))
               + server_build.block_device_mapping_v1(props.get('block_device_mapping')))
        if bdm:
            attrs['block_device_mapping'] = bdm
        groups = props.get('security_groups') or []
        if groups:
            attrs['security_groups'] = [{'name': g} for g in groups]
        optional = (('key_name', 'key_name'), ('availability_zone', 'availability_zone'),
                    ('config_drive', 'config_drive'), ('admin_pass', 'admin_password'),
                    ('diskConfig', 'disk_config'), ('reservation_id', 'reservation_id'))
        for prop, attr in optional:
            if props.get(prop):
                attrs[attr] = props[prop]
        hints = server_build.scheduler_hints(props.get('scheduler_hints'))
        if hints:
            attrs['scheduler_hints'] = hints
        if props.get('tags'):
            # Heat sets them once ACTIVE; Nova (2.52+) takes them in the body
            attrs['tags'] = list(props['tags'])
        attrs['networks'] = server_network.build_nics(ctx, nets, groups)
        # last: a SOFTWARE_CONFIG server's deployments document is made here,
        # and deleted again when Nova makes no server (no row would own it)
        made = False
        try:
            user_data = server_build.user_data(props, server_software.user_data(ctx))
            if user_data:
                attrs['user_data'] = user_data
            server = sdk.call(conn.compute.create_server, retry_writes=False, **attrs)
            made = True
        finally:
            if not made:
                server_software.delete(ctx)
        return server.id

    def check_create_complete(self, ctx):
        server = self._get(ctx)
        if server is None:
            return False
        ctx.live = common.as_dict(server)
        return common.check_active(ctx, ctx.live)

    def _get(self, ctx):
        """Heat's fetch_server: a transient fault means "not yet".  Servers
        polled at the same moment share one list call (poll_batch)."""
        try:
            # gone: Nova's 404 (Heat's fetch_server lets it fail the resource)
            return poll_batch.look(ctx, 'server', ctx.physical_id, poll_batch.server_key(ctx),
                                   existing=True)
        except common.CloudTransient:
            return None

    # -- update ----------------------------------------------------------------------
    def needs_replace(self, ctx):
        """Heat's needs_replace_with_prop_diff: the *_update_policy says REPLACE."""
        after, before = ctx.properties, ctx.old_properties or {}
        for prop, policy in (('flavor', 'flavor_update_policy'), ('image', 'image_update_policy'),
                             ('user_data', 'user_data_update_policy')):
            if prop in ctx.changed and (after.get(policy) or before.get(policy)) == 'REPLACE':
                return True
        return False

    def needs_replace_failed(self, ctx):
        if not ctx.physical_id:
            return True
        server = sdk.get_or_none(ctx.conn.compute.get_server, ctx.physical_id)
        if server is None:
            return True
        return server.status in ('ERROR', 'DELETED', 'SOFT_DELETED')

    def update(self, ctx):
        server_update.start(ctx)

    def check_update_complete(self, ctx):
        return server_update.check(ctx)

    # -- delete ----------------------------------------------------------------------
    def delete(self, ctx):
        # the deployments document goes first: the agent reads it no more
        server_software.delete(ctx)
        if not ctx.physical_id:
            # no server: its internal ports were never attached
            server_network.delete_internal_ports(ctx)
            return
        try:
            sdk.call(ctx.conn.compute.delete_server, ctx.physical_id, ignore_missing=False)
        except common.CloudNotFound:
            ctx.data['server_gone'] = True

    def check_delete_complete(self, ctx):
        if not ctx.physical_id:
            return True
        server = None
        if not ctx.data.get('server_gone'):
            try:
                server = poll_batch.look(ctx, 'server', ctx.physical_id,
                                         poll_batch.server_key(ctx))
            except common.CloudTransient:
                return False
        if server is not None and not self._delete_done(ctx, server):
            return False
        # the server is gone and Nova unbound its ports: ours go now
        server_network.delete_internal_ports(ctx)
        ctx.data.pop('server_gone', None)
        return True

    def _delete_done(self, ctx, server):
        if common.task_state(server) == 'deleting':
            return False
        status = common.status_of(server)
        if status == 'DELETED':
            return True
        if status == 'SOFT_DELETED':
            sdk.call(ctx.conn.compute.force_delete_server, ctx.physical_id)
        elif status == 'ERROR':
            fault = common.fault_of(server)
            ctx.in_error('ERROR', 'Server %s delete failed: (%s) %s' % (
                server.name, fault.get('code'), fault.get('message', 'Unknown')))
        return False

    # -- deletion_policy Snapshot (server_snapshot.py) --------------------------------
    def snapshot(self, ctx, state):
        return server_snapshot.start(ctx, state)

    def check_snapshot_complete(self, ctx):
        return server_snapshot.check(ctx)

    heat_snapshot_keys = {server_snapshot.IMAGE_KEY: server_snapshot.HEAT_IMAGE_KEY}

    def restore_properties(self, properties, resource_data):
        return server_snapshot.restore_properties(properties, resource_data)

    def delete_snapshot(self, ctx, resource_data):
        server_snapshot.delete_image(ctx, resource_data)

    # -- suspend / resume ----------------------------------------------------------
    def suspend(self, ctx):
        self._toggle(ctx, 'SUSPENDED', ctx.conn.compute.suspend_server, 'suspend')

    def check_suspend_complete(self, ctx):
        server = self._get(ctx)
        if server is None:
            return False
        status = common.status_of(server)
        if status in common.DEFERRED_STATUSES | {'ACTIVE'}:
            return status == 'SUSPENDED'
        ctx.unknown_status('Suspend of server %s failed' % server.name, status)

    def resume(self, ctx):
        self._toggle(ctx, 'ACTIVE', ctx.conn.compute.resume_server, 'resume')

    def check_resume_complete(self, ctx):
        server = self._get(ctx)
        return server is not None and common.check_active(ctx, common.as_dict(server))

    def _toggle(self, ctx, target, action, verb):
        if not ctx.physical_id:
            ctx.fail('Cannot %s %s, resource_id not set' % (verb, ctx.name))
        server = sdk.get_or_none(ctx.conn.compute.get_server, ctx.physical_id)
        if server is None:
            ctx.fail('Failed to find server %s' % ctx.physical_id)
        # already there: nothing to ask (Heat).  A 409 or a transient fault
        # is looked at again: the server may be on its way (its task_state,
        # an earlier request whose answer was lost), else the action is
        # asked again, a bounded number of times.
        for attempt in range(TOGGLE_TRIES):
            if common.status_of(server) == target or (attempt and common.task_state(server)):
                return
            try:
                sdk.call(action, ctx.physical_id)
                return
            except (CloudConflict, CloudTransient):
                if attempt + 1 >= TOGGLE_TRIES:
                    raise
            time.sleep(TOGGLE_BACKOFF * (attempt + 1))
            server = sdk.call(ctx.conn.compute.get_server, ctx.physical_id)

    # -- reading -------------------------------------------------------------------
    def find(self, ctx):
        name = self.server_name(ctx)
        found = [s for s in sdk.call(lambda: list(ctx.conn.compute.servers(name=name)))
                 if s.name == name and (s.metadata or {}).get(TAG_STACK) == str(ctx.stack_id)
                 and (s.metadata or {}).get(TAG_RESOURCE) == str(ctx.name)]
        return found[0].id if len(found) == 1 else None

    def found_is_whole(self, ctx):
        return True    # one POST, found by its unique name and the marks it carried

    def heat_resource_data(self, ctx):
        # Heat keeps the ports it made for the server's networks (a subnet or
        # port_extra_properties) as JSON ``[{"id": ...}]`` (server_network_mixin.py):
        # given back, its delete of the server deletes them
        ports = ctx.data.get('internal_ports')
        return {'internal_ports': json.dumps([{'id': p} for p in ports])} if ports else {}

    def from_heat_resource_data(self, ctx, resource_data):
        # the same ports Heat made: without them the server's delete would leave them
        text = resource_data.get('internal_ports')
        ports = json.loads(text) if isinstance(text, str) and text else []
        ids = [p['id'] for p in ports if isinstance(p, dict) and p.get('id')]
        if ids:
            ctx.data['internal_ports'] = ids

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        return common.as_dict(sdk.get_or_none(ctx.conn.compute.get_server, ctx.physical_id))

    def check(self, ctx):
        server = sdk.call(ctx.conn.compute.get_server, ctx.physical_id)
        status = common.status_of(server)
        if status != 'ACTIVE':
            ctx.fail("'status': expected 'ACTIVE', got '%s'" % status)

    def attributes(self, ctx, live, names=None):
        if live is None and ctx.physical_id and ctx.live is not None:
            live = ctx.live
        return server_attrs.attributes(ctx, live, self.server_name(ctx), names)

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        props, out = ctx.properties, []
        if live.get('name') != self.server_name(ctx):
            out.append('name')
        if own_metadata(live.get('metadata')) != server_build.meta_serialize(props.get('metadata')):
            out.append('metadata')
        if props.get('tags') is not None and sorted(live.get('tags') or []) != sorted(props['tags']):
            out.append('tags')
        flavor = live.get('flavor') or {}
        if props.get('flavor') not in (flavor.get('original_name'), flavor.get('id')):
            out.append('flavor')
        image = live.get('image') or {}
        want = props.get('image')
        if want and isinstance(image, dict) and image.get('id'):
            if not common.is_uuid(want):
                want = common.image_id(ctx.conn, want)
            if want != image.get('id'):
                out.append('image')
        return out
