# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Neutron: ML2 (flat + vxlan) with the agentless 'localbind' driver; router, qos, trunk, tag,
segments, metering and port_forwarding (the API's records: no L3 or metering agent applies them).

The API runs with Keystone (authtoken) like a real neutron-server; no agents, fake:// RPC,
SQLite whose schema is created from the models (the alembic chain does not run on SQLite).
Port events go to Nova through its internal endpoint, as the service user.
The ML2 extension driver tag_ports_during_bulk_creation is on, as a deployment may choose: a port's
tags then go in its POST (the engine sees the extension's alias and saves the tags PUT).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

from localcloud.services import _base

CONF_TEMPLATE = """
[DEFAULT]
core_plugin = ml2
service_plugins = router,qos,trunk,tag,segments,metering,port_forwarding
auth_strategy = keystone
transport_url = fake://
api_paste_config = {venv}/etc/neutron/api-paste.ini
log_file = {state}/neutron.log
debug = false
allow_overlapping_ips = true
host = localcloud
notify_nova_on_port_status_changes = true
notify_nova_on_port_data_changes = true
send_events_interval = 1
dhcp_agent_notification = false
[agent]
report_interval = 0
[database]
connection = sqlite:///{state}/neutron.sqlite
[ml2]
type_drivers = flat,vlan,vxlan
tenant_network_types = vxlan
mechanism_drivers = localbind
extension_drivers = port_security,qos,tag_ports_during_bulk_creation
[ml2_type_vxlan]
vni_ranges = 1:10000
[ml2_type_flat]
flat_networks = *
[ml2_type_vlan]
network_vlan_ranges = physnet1:100:2000
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
[oslo_concurrency]
lock_path = {state}/locks
{authtoken}
{nova}
"""


def main():
    plan = _base.load_plan()
    me = plan['services']['neutron']
    state = os.path.join(plan['state_dir'], 'neutron')
    conf = _base.write_file(os.path.join(state, 'neutron.conf'), CONF_TEMPLATE.format(
        state=state, venv=sys.prefix, authtoken=_base.authtoken_section(plan),
        nova=_base.service_auth_section(plan, 'nova', 'endpoint_type = internal')))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    '_entrypoints'))
    from oslo_service import backend
    backend.init_backend(backend.BackendType.THREADING)
    _base.sqlite_locking()
    sys.argv[1:] = ['--config-file', conf]
    from neutron import server
    server._init_configuration(prog='neutron-server')
    from neutron.db.migration.models import head
    from neutron_lib.db import api as db_api
    head.get_metadata().create_all(db_api.CONTEXT_WRITER.get_engine())
    from neutron.server import api
    app = api.api_server()
    # Build Neutron's policy enforcer now, once, before the first request (the app is built and
    # its extensions loaded: pecan's startup has just called policy.reset() for that reason).
    # neutron.policy.init() is lazy and not thread-safe: it publishes the global _ENFORCER first
    # and only then registers the default rules (a slow stevedore scan of 'neutron.policies'),
    # so a second request thread arriving meanwhile sees an enforcer without rules and gets
    # "rule:create_network is disallowed by policy".  Admins never reach init() (with
    # enforce_new_defaults off, neutron.policy.enforce() returns early for an admin context),
    # so the seed, run as admin, did not warm it: the first two concurrent requests of a
    # non-admin user on a fresh cloud raced in it.  A real neutron-server has long been
    # serving when a user's first request arrives; this makes ours start the same way.
    from neutron import policy
    policy.init()
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'neutron')


if __name__ == '__main__':
    _base.run(main)
