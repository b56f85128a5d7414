# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Cinder: API, scheduler, volume and backup services in one (eventlet) process, fake:// RPC,
SQLite.

The volume backend is our TimedFakeVolumeDriver (Cinder's own fake driver, with build times and
a sparse file per volume).  cinder-backup runs Cinder's Swift backup driver against this cloud's
own Swift (internal endpoint, the user's token: the backup's objects land in the volume owner's
account, container ``volumebackups``); without Swift (a partial cloud), the posix driver into
the state dir.  The API runs with the real Keystone middleware; the schema comes from Cinder's
migrations.
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
{backup}
{authtoken}
{nova}
"""

SWIFT_BACKUP = """[DEFAULT]
# the backup service tells the scheduler it is there every 10 s (default 60): should the
# scheduler's request at its start be missed, backups work 10 s later, not a minute
backup_driver_stats_polling_interval = 10
backup_driver = cinder.backup.drivers.swift.SwiftBackupDriver
backup_swift_auth = per_user
backup_swift_url = {url}/v1/AUTH_
"""

POSIX_BACKUP = """[DEFAULT]
backup_driver_stats_polling_interval = 10
backup_driver = cinder.backup.drivers.posix.PosixBackupDriver
backup_posix_path = {state}/backups
"""


def _backup_section(plan, state):
    swift = plan['services'].get('swift')
    if swift:
        return SWIFT_BACKUP.format(url=swift['internal'])
    return POSIX_BACKUP.format(state=state)


def _this_host_connector(multipath=False, enforce_multipath=False):
    """The connector properties of this host, for Cinder's own attaches (backup, restore, image
    copies), without os-brick's probes of its iSCSI, NVMe and FC initiators: those run commands
    as root through privsep (sudo, findmnt, blkid, nvme; no such tools or rights here) and the
    backup dies on them before it can even fail (it stays 'creating').  The fake volume driver
    answers such a connector with the volume's own file (os-brick's ``local`` connector)."""
    import platform
    from oslo_config import cfg
    return {'platform': platform.machine(), 'os_type': sys.platform, 'ip': cfg.CONF.my_ip,
            'host': cfg.CONF.host, 'multipath': False, 'enforce_multipath': False}


def _own_heartbeats(service):
    """Cinder's Service keeps its database row's id in a class attribute (one service per
    process) and its heartbeat (report_state) updates that row: with scheduler, volume and backup
    in one process, every heartbeat went to the last-made service's row, the volume service's
    row aged, and a minute after start the scheduler found it down (NoValidBackend). Each
    service's heartbeat now first puts back its own id (report_state reads it before it yields)."""

    class OwnHeartbeat(service.Service):
        def report_state(self):
            service.Service.service_id = self.origin_service_id
            return super(OwnHeartbeat, self).report_state()
    return OwnHeartbeat


def _until_the_scheduler_knows_the_backup_service(scheduler, backup, timeout=60.0):
    """The scheduler sends a backup to a backup service whose capabilities it has; it asks for
    them once at its start (a fanout that fake:// loses for a service not listening yet) and the
    backup service sends them at its own start and then every backup_driver_stats_polling_interval.
    Before the API serves (so before the cloud says ready) the backup service sends them until
    the scheduler has them with its driver working: a backup made right after the start otherwise fails with "Service
    not found for creating backup"."""
    import time
    from cinder import context
    ctxt = context.get_admin_context()
    deadline = time.monotonic() + timeout
    states = scheduler.manager.driver.host_manager.backup_service_states
    # a backup service that published before its driver was ready said backend_state False
    while not any(caps.get('backend_state') for caps in states.values()):
        if time.monotonic() > deadline:
            raise RuntimeError('the Cinder scheduler never got the backup service capabilities')
        if backup.manager.is_initialized:
            backup.manager.publish_service_capabilities(ctxt)
        time.sleep(0.5)     # green: the services start meanwhile


def main():
    plan = _base.load_plan()
    me = plan['services']['cinder']
    state = os.path.join(plan['state_dir'], 'cinder')
    conf = _base.write_file(os.path.join(state, 'cinder.conf'), CONF_TEMPLATE.format(
        state=state, venv=sys.prefix, backup=_backup_section(plan, state),
        authtoken=_base.authtoken_section(plan),
        nova=_base.service_auth_section(plan, 'nova', 'interface = internal')))
    _base.sqlite_locking()
    from oslo_config import cfg
    from oslo_log import log as logging
    from cinder import i18n
    i18n.enable_lazy()
    from cinder.common import config
    from cinder import coordination, objects, rpc, service, utils, version
    # registers cinder-backup's options (backup_workers, backup_max_operations)
    from cinder.cmd import backup as backup_cmd  # noqa: F401
    CONF = cfg.CONF
    objects.register_all()
    CONF(['--config-file', conf], project='cinder', version=version.version_string())
    config.set_middleware_defaults()
    logging.setup(CONF, 'cinder')
    from cinder.volume import volume_utils
    volume_utils.brick_get_connector_properties = _this_host_connector
    from cinder.db import migration
    migration.db_sync()
    coordination.COORDINATOR.start()
    rpc.init(CONF)
    from oslo_service import service as os_service
    from oslo_service import wsgi
    launcher = os_service.ServiceLauncher(CONF, restart_method='mutate')
    Service = _own_heartbeats(service)
    scheduler = Service.create(binary='cinder-scheduler')
    launcher.launch_service(scheduler)
    launcher.launch_service(Service.create(
        host=CONF.host + '@fake', service_name='fake', binary='cinder-volume', coordination=True))
    # as cinder/cmd/backup.py starts it with one worker (its semaphore bounds the operations)
    backup = Service.create(
        binary='cinder-backup', coordination=True, service_name='backup', process_number=1,
        semaphore=utils.semaphore_factory(CONF.backup_max_operations, CONF.backup_workers))
    launcher.launch_service(backup)
    _until_the_scheduler_knows_the_backup_service(scheduler, backup)
    app = wsgi.Loader(CONF).load_app('osapi_volume')
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'cinder')


if __name__ == '__main__':
    _base.run(main)
