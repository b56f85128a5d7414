# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""An ML2 mechanism driver that binds ports without agents, and a matching trunk driver.

No L2 agent runs here, so no stock driver would ever bind a port (Nova's boot would fail with
binding_failed).  This one binds any 'normal' port on any host, on the first segment, with
vif_type ovs, and marks it ACTIVE the way an agent does once the tap is wired: Neutron then sends
Nova the real network-vif-plugged event.  The trunk plugin refuses to load unless some driver
claims trunk support, hence the trunk driver: it binds subports next to their parent and marks
the trunk ACTIVE, as the OVS agent would.
"""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

from neutron.services.trunk.drivers import base as trunk_base
from neutron_lib import constants as const
from neutron_lib.api.definitions import portbindings
from neutron_lib.callbacks import events, registry, resources
from neutron_lib.plugins import directory
from neutron_lib.plugins.ml2 import api
from neutron_lib.services.trunk import constants as trunk_consts

_TRUNK_DRIVER = []


class LocalBindMechanismDriver(api.MechanismDriver):

    def initialize(self):
        if not _TRUNK_DRIVER:
            _TRUNK_DRIVER.append(LocalBindTrunkDriver(
                'localbind', (portbindings.VIF_TYPE_OVS,), (trunk_consts.SEGMENTATION_TYPE_VLAN,),
                None, can_trunk_bound_port=True))

    @property
    def connectivity(self):
        return portbindings.CONNECTIVITY_L2

    def bind_port(self, context):
        if context.current.get(portbindings.VNIC_TYPE, portbindings.VNIC_NORMAL) != portbindings.VNIC_NORMAL:
            return
        for segment in context.segments_to_bind:
            context.set_binding(segment[api.ID], portbindings.VIF_TYPE_OVS,
                                {portbindings.CAP_PORT_FILTER: True, portbindings.OVS_HYBRID_PLUG: False},
                                status=const.PORT_STATUS_ACTIVE)
            return


@registry.has_registry_receivers
class LocalBindTrunkDriver(trunk_base.DriverBase):

    @property
    def is_loaded(self):
        return True

    @registry.receives(resources.PORT, [events.AFTER_UPDATE])
    def _parent_became_active(self, resource, event, trigger, payload=None):
        port = payload.latest_state
        details = port.get('trunk_details')
        was_active = payload.states[0].get('status') == const.PORT_STATUS_ACTIVE
        if not details or port.get('status') != const.PORT_STATUS_ACTIVE or was_active:
            return
        plugin = directory.get_plugin()
        for sub in details.get('sub_ports', []):
            plugin.update_port(payload.context, sub['port_id'], {'port': {
                portbindings.HOST_ID: port.get(portbindings.HOST_ID),
                'device_owner': trunk_consts.TRUNK_SUBPORT_OWNER}})
        from neutron.objects import trunk as trunk_obj
        trunk = trunk_obj.Trunk.get_object(payload.context, id=details['trunk_id'])
        if trunk is not None:
            trunk.update(status=trunk_consts.TRUNK_ACTIVE_STATUS)
