# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder: API, scheduler and volume service in one (eventlet) process, fake:// RPC, SQLite.

The volume backend is our TimedFakeVolumeDriver (Cinder's own fake driver, with build times).
The API runs with the real Keystone middleware; the schema comes from Cinder's migrations.
"""

from cinder import monkey_patch  # noqa: I100  (cinder is eventlet-based: patch first)
monkey_patch.patch()

import os  # noqa: E402
import sys  # noqa: E402

from localcloud.services import _base  # noqa: E402

__metaclass__ = type

CONF_TEMPLATE = """
[DEFAULT]
transport_url = fake://
auth_strategy = keystone
host = localcloud
enabled_backends = fake
state_path = {state}
api_paste_config = {venv}/etc/cinder/api-paste.ini
log_file = {state}/cinder.log
debug = false
report_interval = 10
periodic_interval = 10
default_volume_type = __DEFAULT__
resource_query_filters_file = {venv}/etc/cinder/resource_filters.json
[database]
connection = sqlite:///{state}/cinder.sqlite
[fake]
volume_driver = localcloud.drivers.cinder_fake.TimedFakeVolumeDriver
volume_backend_name = fake
[coordination]
backend_url = file://{state}/coordination
[oslo_concurrency]
lock_path = {state}/locks
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
{authtoken}
{nova}
"""


def main():
    plan = _base.load_plan()
    me = plan['services']['cinder']
    state = os.path.join(plan['state_dir'], 'cinder')
    conf = _base.write_file(os.path.join(state, 'cinder.conf'), CONF_TEMPLATE.format(
        state=state, venv=sys.prefix, authtoken=_base.authtoken_section(plan),
        nova=_base.service_auth_section(plan, 'nova', 'interface = internal')))
    _base.sqlite_locking()
    from oslo_config import cfg
    from oslo_log import log as logging
    from cinder import i18n
    i18n.enable_lazy()
    from cinder.common import config
    from cinder import coordination, objects, rpc, service, version
    CONF = cfg.CONF
    objects.register_all()
    CONF(['--config-file', conf], project='cinder', version=version.version_string())
    config.set_middleware_defaults()
    logging.setup(CONF, 'cinder')
    from cinder.db import migration
    migration.db_sync()
    coordination.COORDINATOR.start()
    rpc.init(CONF)
    from oslo_service import service as os_service
    from oslo_service import wsgi
    launcher = os_service.ServiceLauncher(CONF, restart_method='mutate')
    launcher.launch_service(service.Service.create(binary='cinder-scheduler'))
    launcher.launch_service(service.Service.create(
        host=CONF.host + '@fake', service_name='fake', binary='cinder-volume', coordination=True))
    app = wsgi.Loader(CONF).load_app('osapi_volume')
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'cinder')


if __name__ == '__main__':
    _base.run(main)
