# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Octavia: the API with the noop provider (plus our status reconciler), SQLite, Keystone.

VIPs are real: the allowed-address-pairs network driver validates subnets and allocates the VIP
port in the local Neutron (service user, internal endpoint).  The alembic migrations do not run
on SQLite, so the schema comes from the models and the lookup tables are seeded the way
Octavia's own functional tests do.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

from localcloud.services import _base

CONF_TEMPLATE = """
[DEFAULT]
transport_url = fake://
debug = false
log_file = {state}/octavia.log
host = localcloud
[api_settings]
bind_host = 127.0.0.1
bind_port = {port}
auth_strategy = keystone
api_base_uri = {public}
enabled_provider_drivers = noop_driver:The local cloud's provider (noop driver with a status reconciler)
default_provider_driver = noop_driver
[database]
connection = sqlite:///{state}/octavia.sqlite
[controller_worker]
network_driver = allowed_address_pairs_driver
amphora_driver = amphora_noop_driver
compute_driver = compute_noop_driver
loadbalancer_topology = SINGLE
[task_flow]
jobboard_enabled = false
[certificates]
cert_manager = noop_cert_manager
[networking]
allow_invisible_resource_usage = true
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
[oslo_concurrency]
lock_path = {state}/locks
[neutron]
endpoint_override = {neutron}
region_name = RegionOne
valid_interfaces = internal
{service_auth}
{authtoken}
"""


def create_schema():
    import sqlalchemy
    from octavia.common import constants as c
    from octavia.db import api as db_api
    from octavia.db import base_models, models
    engine = db_api.get_engine()
    if sqlalchemy.inspect(engine).has_table('load_balancer'):
        return
    base_models.BASE.metadata.create_all(engine)
    session = db_api.get_session()
    lookups = [
        (c.SUPPORTED_PROVISIONING_STATUSES, models.ProvisioningStatus),
        (c.SUPPORTED_HEALTH_MONITOR_TYPES, models.HealthMonitorType),
        (c.SUPPORTED_LB_ALGORITHMS, models.Algorithm),
        (c.SUPPORTED_PROTOCOLS, models.Protocol),
        (c.SUPPORTED_OPERATING_STATUSES, models.OperatingStatus),
        (c.SUPPORTED_SP_TYPES, models.SessionPersistenceType),
        (c.SUPPORTED_AMPHORA_ROLES, models.AmphoraRoles),
        (c.SUPPORTED_LB_TOPOLOGIES, models.LBTopology),
        (c.SUPPORTED_VRRP_AUTH, models.VRRPAuthMethod),
        (c.SUPPORTED_L7RULE_TYPES, models.L7RuleType),
        (c.SUPPORTED_L7RULE_COMPARE_TYPES, models.L7RuleCompareType),
        (c.SUPPORTED_L7POLICY_ACTIONS, models.L7PolicyAction),
        (c.SUPPORTED_CLIENT_AUTH_MODES, models.ClientAuthenticationMode),
    ]
    with session.begin():
        for names, model in lookups:
            for name in names:
                session.add(model(name=name))
        session.flush()
        # placeholders that deleted flavors / availability zones point at (foreign keys are on)
        session.add(models.FlavorProfile(id=c.NIL_UUID, name='DELETED-PLACEHOLDER',
                                         provider_name=c.DELETED, flavor_data='{}'))
        session.flush()
        session.add(models.Flavor(id=c.NIL_UUID, flavor_profile_id=c.NIL_UUID, enabled=False,
                                  name='DELETED-PLACEHOLDER', description='Placeholder'))
        session.flush()
        session.add(models.AvailabilityZoneProfile(id=c.NIL_UUID, name='DELETED-PLACEHOLDER',
                                                   provider_name=c.DELETED,
                                                   availability_zone_data='{}'))
        session.flush()
        session.add(models.AvailabilityZone(availability_zone_profile_id=c.NIL_UUID,
                                            name=c.NIL_UUID, enabled=False,
                                            description='Placeholder'))


def main():
    plan = _base.load_plan()
    me = plan['services']['octavia']
    state = os.path.join(plan['state_dir'], 'octavia')
    conf = _base.write_file(os.path.join(state, 'octavia.conf'), CONF_TEMPLATE.format(
        state=state, port=me['port'], public=me['public'], neutron=plan['services']['neutron']['internal'],
        service_auth=_base.service_auth_section(plan, 'service_auth'),
        authtoken=_base.authtoken_section(plan)))
    _base.sqlite_locking()
    from localcloud.drivers import octavia_noop
    octavia_noop.install()
    from octavia.api import app as octavia_app
    app = octavia_app.setup_app(argv=[sys.argv[0], '--config-file', conf])
    from oslo_config import cfg
    # Octavia's pool_timeout default is refused by SQLAlchemy for SQLite's pool
    cfg.CONF.set_override('pool_timeout', None, group='database')
    create_schema()
    octavia_noop.start()
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'octavia')


if __name__ == '__main__':
    _base.run(main)
