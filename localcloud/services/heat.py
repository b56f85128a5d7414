# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat (with --with-heat): heat-api and heat-engine in one process, convergence, fake:// RPC.

Authenticated by the local Keystone (authtoken, trusts for deferred operations).  Heat's client
plugins take their URLs from the token's catalog, i.e. the public endpoints: Heat goes through the
front door like any client, so it sees the same latency and faults as the engine it is compared
with.  The schema comes from the models (as Heat's own tests do), with SQLite's AUTOINCREMENT (see
`create_schema`).  Stack users (signal responders: ScalingPolicy, WaitConditionHandle, deployments)
live in the `heat` domain that Keystone's setup makes, as devstack configures it.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

from localcloud.services import _base

CONF_TEMPLATE = """
[DEFAULT]
transport_url = fake://
host = localcloud
num_engine_workers = 1
# One engine process stands for heat-engine's max(4, CPUs) = 4 workers of 64 RPC threads each. A
# resource holds its worker thread until it is complete, a nested stack's resource until its whole
# child is: with 64 threads, 64 nested stacks waiting at once leave none to run their children and
# the engine deadlocks (measured with 4 threads and 6 slow group members).
executor_thread_pool_size = 256
convergence_engine = true
periodic_interval = 600
log_file = {state}/heat.log
debug = false
environment_dir = {venv}/etc/heat/environment.d
region_name_for_services = RegionOne
max_resources_per_stack = -1
# stacks move between this Heat and the collection both ways (issue 35: abandon and adopt)
enable_stack_adopt = true
enable_stack_abandon = true
# no heat-api-cfn here: servers still get these URLs in their (never read) user data, instead of
# a failed catalog lookup for a 'cloudformation' endpoint
heat_metadata_server_url = {public_root}/heat-cfn
heat_waitcondition_server_url = {public_root}/heat-cfn/v1/waitcondition
# signal responders make their users in a domain of their own, administered by its own user
stack_user_domain_name = {domain[name]}
stack_domain_admin = {domain[admin]}
stack_domain_admin_password = {domain[password]}
[database]
connection = sqlite:///{state}/heat.sqlite
[paste_deploy]
api_paste_config = {venv}/etc/heat/api-paste.ini
[trustee]
auth_type = password
auth_url = {ks}/v3
username = {user}
password = {password}
user_domain_id = default
[clients_keystone]
auth_uri = {ks}
[ec2authtoken]
auth_uri = {ks}/v3
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
policy_file = {state}/policy.yaml
{authtoken}
"""


def create_schema():
    """Heat's tables from its models, each integer key AUTOINCREMENT (on copies of the tables).

    Without it SQLite hands out the highest deleted id again, which MySQL and PostgreSQL never
    do, and Heat relies on that: `Resource.clear_stored_attributes` deletes the attribute row
    (table resource_properties_data) but keeps its id, so after an in-place update it deletes that
    id a second time.  With the id reused in between for the resource's new properties, those go
    instead; the resource then fails to load (NotFound, which the convergence worker drops
    silently) and its stack stays UPDATE_IN_PROGRESS, or DELETE_IN_PROGRESS, forever.
    """
    import sqlalchemy
    from heat.db import api as db_api
    from heat.db import models
    metadata = sqlalchemy.MetaData()
    for table in models.BASE.metadata.sorted_tables:
        # SQLAlchemy emits AUTOINCREMENT only on a table whose one primary key is an integer
        table.to_metadata(metadata).dialect_kwargs['sqlite_autoincrement'] = True
    metadata.create_all(db_api.get_engine())


def main():
    plan = _base.load_plan()
    me = plan['services']['heat']
    state = os.path.join(plan['state_dir'], 'heat')
    su = plan['service_user']
    conf = _base.write_file(os.path.join(state, 'heat.conf'), CONF_TEMPLATE.format(
        state=state, venv=sys.prefix, public_root=plan['public_root'], ks=plan['services']['keystone']['internal'],
        user=su['username'], password=su['password'], authtoken=_base.authtoken_section(plan),
        domain=plan['heat_domain']))
    # the admin API lists every project's stacks; Heat denies that to everyone by default
    _base.write_file(os.path.join(state, 'policy.yaml'), '"stacks:global_index": "rule:context_is_admin"\n')
    from oslo_service import backend
    backend.init_backend(backend.BackendType.THREADING)
    _base.sqlite_locking()
    from oslo_config import cfg
    from oslo_log import log as logging
    import oslo_i18n
    oslo_i18n.enable_lazy()
    from heat import version
    from heat.common import config, messaging
    CONF = cfg.CONF
    logging.register_options(CONF)
    CONF(args=['--config-file', conf], project='heat', prog='heat-api',
         version=version.version_info.version_string())
    logging.setup(CONF, 'heat')
    config.set_config_defaults()
    messaging.setup()
    create_schema()
    from heat.engine import service as engine_service
    from heat.rpc import api as rpc_api
    engine_service.EngineService(CONF.host, rpc_api.ENGINE_TOPIC).start()
    app = config.load_paste_app('heat-api')
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'heat')


if __name__ == '__main__':
    _base.run(main)
