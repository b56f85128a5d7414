# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::Flavor (admin only).

Only ``extra_specs`` and ``tenants`` change in place (Heat unsets every old
extra spec key and sets the new ones; tenant access is diffed for a private
flavor).  A private flavor without tenants is shared with the stack's own
project, as Heat does."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ..base import ResourcePlugin
from .common import as_dict, is_uuid, not_found


class Flavor(ResourcePlugin):
    type_name = 'OS::Nova::Flavor'

    def create(self, ctx):
        props = ctx.properties
        attrs = {
            'name': props.get('name') or ctx.physical_name,
            'ram': props['ram'], 'vcpus': props['vcpus'],
            'disk': props.get('disk') or 0, 'swap': props.get('swap') or 0,
            'ephemeral': props.get('ephemeral') or 0,
            'rxtx_factor': props['rxtx_factor'] if props.get('rxtx_factor') is not None else 1.0,
            'is_public': True if props.get('is_public') is None else bool(props['is_public']),
        }
        # Heat's flavorid 'auto' is Nova's default: a generated UUID
        if props.get('flavorid') and props['flavorid'] != 'auto':
            attrs['id'] = props['flavorid']
        compute = ctx.conn.compute
        flavor = sdk.call(compute.create_flavor, retry_writes=False, **attrs)
        if props.get('extra_specs'):
            flavor = sdk.call(compute.create_flavor_extra_specs, flavor, _str_specs(props['extra_specs']))
        if not attrs['is_public']:
            tenants = _project_ids(ctx, props.get('tenants')) or [ctx.conn.current_project_id]
            for tenant in tenants:
                sdk.call(compute.flavor_add_tenant_access, flavor.id, tenant)
        ctx.live = as_dict(flavor)
        return flavor.id

    def update(self, ctx):
        compute = ctx.conn.compute
        fid = ctx.physical_id
        if 'extra_specs' in ctx.changed:
            flavor = sdk.call(compute.get_flavor, fid)
            for key in sorted(flavor.extra_specs or {}):
                sdk.delete_quietly(compute.delete_flavor_extra_specs_property, fid, key)
            new = ctx.properties.get('extra_specs')
            if new:
                sdk.call(compute.create_flavor_extra_specs, fid, _str_specs(new))
        if 'tenants' in ctx.changed and not ctx.properties.get('is_public', True):
            old = set(a['tenant_id'] for a in sdk.call(compute.get_flavor_access, fid))
            new = set(_project_ids(ctx, ctx.properties.get('tenants')))
            for tenant in sorted(old - new):
                sdk.call(compute.flavor_remove_tenant_access, fid, tenant)
            for tenant in sorted(new - old):
                sdk.call(compute.flavor_add_tenant_access, fid, tenant)

    def delete(self, ctx):
        if ctx.physical_id:
            sdk.delete_quietly(compute_of(ctx).delete_flavor, ctx.physical_id, ignore_missing=False)

    def find(self, ctx):
        name = ctx.properties.get('name') or ctx.physical_name
        flavors = sdk.call(lambda: list(compute_of(ctx).flavors(details=False, is_public=None)))
        found = [f for f in flavors if f.name == name]
        return found[0].id if len(found) == 1 else None

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        return as_dict(sdk.get_or_none(compute_of(ctx).get_flavor, ctx.physical_id))

    def attributes(self, ctx, live, names=None):
        live = live if live is not None else ctx.live
        if not isinstance(live, dict):
            return {'is_public': None, 'extra_specs': None, 'show': live}
        return {'is_public': live.get('os-flavor-access:is_public'),
                'extra_specs': live.get('extra_specs') or {},
                'show': live}

    def drift(self, ctx, live):
        if not isinstance(live, dict):
            return []
        want = _str_specs(ctx.properties.get('extra_specs') or {})
        return ['extra_specs'] if (live.get('extra_specs') or {}) != want else []


def compute_of(ctx):
    return ctx.conn.compute


def _str_specs(specs):
    # Nova stores extra spec values as strings
    return dict((str(k), v if isinstance(v, str) else str(v)) for k, v in (specs or {}).items())


def _project_ids(ctx, tenants):
    """Heat resolves tenants through Keystone (name or id)."""
    out = []
    for tenant in tenants or ():
        if is_uuid(tenant):
            out.append(tenant)
            continue
        project = sdk.get_or_none(ctx.conn.identity.find_project, tenant, ignore_missing=False)
        if project is None:
            raise not_found('Project', tenant)
        out.append(project.id)
    return out
