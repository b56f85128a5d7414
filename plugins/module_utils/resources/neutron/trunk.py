# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Trunk (Heat's trunk.py): sub-ports diffed as whole
(port, segmentation type, segmentation id) entries, removed before added
(a port cannot be two sub-ports at once)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from .common import NeutronPlugin, lookup_id, prepare_update


def _subports(ctx, items):
    """Sub-ports with ports by name or id resolved (Heat's translation)."""
    out = []
    for item in items or ():
        item = dict(item)
        item['port'] = lookup_id(ctx, 'port', item.get('port'))
        out.append(item)
    return out


def _key(item):
    return (item.get('port'), item.get('segmentation_type'), item.get('segmentation_id'))


class Trunk(NeutronPlugin):
    type_name = 'OS::Neutron::Trunk'
    entity = 'trunk'
    collection = 'trunks'
    has_status = True
    drift_keys = {'name': 'name', 'description': 'description', 'admin_state_up': 'admin_state_up'}

    def create_body(self, ctx):
        body = super(Trunk, self).create_body(ctx)
        body['port_id'] = lookup_id(ctx, 'port', body.pop('port'))
        if body.get('sub_ports'):
            body['sub_ports'] = [
                {'port_id': sp['port'], 'segmentation_type': sp['segmentation_type'],
                 'segmentation_id': sp['segmentation_id']}
                for sp in _subports(ctx, body['sub_ports'])]
        return body

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        diff.pop('sub_ports', None)
        old = dict((_key(s), s) for s in _subports(ctx, (ctx.old_properties or {}).get('sub_ports')))
        new = dict((_key(s), s) for s in _subports(ctx, ctx.properties.get('sub_ports')))
        if 'sub_ports' in ctx.changed and set(old) == set(new):
            # the template changed none (a converge putting the cloud's drift
            # back): what to add and remove is weighed against the live trunk
            live = (self.show(ctx) or {}).get('sub_ports') or ()
            old = dict((_key(s), s) for s in (
                {'port': sp.get('port_id'), 'segmentation_type': sp.get('segmentation_type'),
                 'segmentation_id': sp.get('segmentation_id')} for sp in live))
        delete = [old[k] for k in old if k not in new]
        create = [new[k] for k in new if k not in old]
        net = ctx.conn.network
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            prepare_update(ctx, diff)
            sdk.call(net.update_trunk, ctx.physical_id, **diff)
        if delete:
            sdk.call(net.delete_trunk_subports, ctx.physical_id,
                     [{'port_id': sp['port']} for sp in delete])
        if create:
            sdk.call(net.add_trunk_subports, ctx.physical_id,
                     [{'port_id': sp['port'], 'segmentation_type': sp['segmentation_type'],
                       'segmentation_id': sp['segmentation_id']} for sp in create])

    def drift(self, ctx, live):
        out = super(Trunk, self).drift(ctx, live)
        if isinstance(live, dict) and ctx.properties.get('sub_ports') is not None:
            want = set((sp.get('port'), sp.get('segmentation_type'), sp.get('segmentation_id'))
                       for sp in ctx.properties['sub_ports'])
            have = set((sp.get('port_id'), sp.get('segmentation_type'), sp.get('segmentation_id'))
                       for sp in live.get('sub_ports') or ())
            if want != have:
                out.append('sub_ports')
        return out
