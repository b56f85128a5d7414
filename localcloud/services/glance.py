# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Glance: the API (glance.common.wsgi_app) with the file store, SQLite, Keystone middleware.

Glance 33 has no standalone glance-api command any more (it is meant for a WSGI server): we
serve wsgi_app.init_app() ourselves.  The schema comes from Glance's own migrations, run here
in-process instead of `glance-manage db_sync`.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

from localcloud.services import _base

CONF_TEMPLATE = """
[DEFAULT]
enabled_backends = fs:file
worker_self_reference_url = {internal}
log_file = {state}/glance.log
debug = false
enabled_import_methods = [glance-direct,web-download,copy-image]
image_cache_dir = {state}/cache
show_image_direct_url = false
show_multiple_locations = false
[database]
connection = sqlite:///{state}/glance.sqlite
[glance_store]
default_backend = fs
[fs]
filesystem_store_datadir = {state}/images
[os_glance_staging_store]
filesystem_store_datadir = {state}/staging
[os_glance_tasks_store]
filesystem_store_datadir = {state}/tasks
[paste_deploy]
flavor = keystone
config_file = {venv}/etc/glance/glance-api-paste.ini
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
[wsgi]
task_pool_threads = 4
[import_filtering_opts]
allowed_hosts = [127.0.0.1]
allowed_ports = [{front_port}]
{authtoken}
"""


def main():
    plan = _base.load_plan()
    me = plan['services']['glance']
    state = os.path.join(plan['state_dir'], 'glance')
    fresh = not os.path.exists(os.path.join(state, 'glance.sqlite'))
    _base.write_file(os.path.join(state, 'glance-api.conf'), CONF_TEMPLATE.format(
        state=state, venv=sys.prefix, internal=me['internal'], front_port=plan['front_port'],
        authtoken=_base.authtoken_section(plan)))
    os.environ['OS_GLANCE_CONFIG_DIR'] = state
    _base.sqlite_locking()
    if fresh:
        from glance.cmd import manage
        from glance.common import config
        from glance.common import wsgi_app
        config.set_config_defaults()
        manage.CONF([], project='glance', prog='glance-manage',
                    default_config_files=wsgi_app._get_config_files())
        try:
            manage.DbCommands().sync()
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise
        manage.CONF.reset()
    from glance.common import wsgi_app
    app = wsgi_app.init_app()
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'glance')


if __name__ == '__main__':
    _base.run(main)
