# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Segment (Heat's segment.py): a segment of a network (the
``segments`` service plugin).  It carries no Neutron tags: ``find``
matches its generated name."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .common import NeutronPlugin, lookup_id, prepare_update
from .raw import raw_update

TUNNELS = ('vxlan', 'gre', 'geneve')


class Segment(NeutronPlugin):
    type_name = 'OS::Neutron::Segment'
    entity = 'segment'
    collection = 'segments'
    taggable = False
    drift_keys = {'name': 'name', 'description': 'description'}

    @classmethod
    def validate(cls, given):
        """Heat's Segment.validate: what each network type needs and refuses."""
        props = given.props
        physnet, kind, seg_id = (props.get('physical_network'), props.get('network_type'),
                                 props.get('segmentation_id'))
        required = '%s is required for %s provider network.'
        if kind in ('flat', 'vlan') and physnet is None:
            given.fail(required % ('physical_network', kind))
        if kind == 'vlan' and seg_id is None:
            given.fail(required % ('segmentation_id', kind))
        prohibited = '%s is prohibited for %s provider network.'
        if kind in ('local', 'flat') and seg_id is not None:
            given.fail(prohibited % ('segmentation_id', kind))
        if kind in TUNNELS and physnet is not None:
            given.fail(prohibited % ('physical_network', kind))
        if kind == 'vlan' and seg_id > 4094:
            given.fail('Up to 4094 VLAN network segments can exist on each physical_network.')

    def create_body(self, ctx):
        body = super(Segment, self).create_body(ctx)
        body['network_id'] = lookup_id(ctx, 'network', body.pop('network'))
        return body

    def update(self, ctx):
        diff = prepare_update(ctx, self.prop_diff(ctx))
        if diff:
            raw_update(ctx.conn, self.entity, ctx.physical_id, diff)
