# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Nova: API, conductor, scheduler, one compute (fake virt driver) and Placement in one process.

Nova's own functional-test base wires conductor, scheduler, compute, cells and Placement in one
process (in-process RPC, SQLite).  We start it outside a test runner and swap its in-process
fakes of Neutron, Cinder and Glance for the real services (their internal endpoints); the API
runs with the real Keystone middleware; the compute driver is our TimedFakeDriver (kept across
restarts, see nova_db).  Its databases (API, cell0, cell1, Placement) are SQLite files in the
state dir (nova_db), so a restart on a kept state dir keeps Nova's servers, flavors, keypairs.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

# Nova's functional package applies eventlet monkey patching on import: it must come before
# anything imports requests/urllib3, or every DB call of the API hangs.
from nova.tests.functional import integrated_helpers  # noqa: I100  (import order matters)

import os   # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402

import fixtures  # noqa: E402
from nova.tests import fixtures as nova_fixtures  # noqa: E402

from localcloud.services import _base  # noqa: E402
from localcloud.services import nova_db  # noqa: E402


class _Absent(fixtures.Fixture):
    """Stands in for nova's fakes of Neutron, Cinder and Glance: the real ones are used."""

    def __init__(self, test, *args, **kwargs):
        super(_Absent, self).__init__()


nova_fixtures.NeutronFixture = _Absent
nova_fixtures.CinderFixture = _Absent
nova_fixtures.GlanceFixture = _Absent


def _password_auth(conf, group, plan):
    from keystoneauth1 import loading
    loading.register_auth_conf_options(conf, group)
    conf.register_opts(loading.get_auth_plugin_conf_options('password'), group=group)
    s = plan['service_user']
    values = dict(auth_type='password', auth_url=plan['services']['keystone']['internal'] + '/v3',
                  username=s['username'], password=s['password'], project_name='service',
                  user_domain_id='default', project_domain_id='default')
    for key, value in values.items():
        conf.set_override(key, value, group=group)


class LocalNova(integrated_helpers._IntegratedTestBase):
    ADMIN_API = True
    STUB_KEYSTONE = False
    CAST_AS_CALL = False
    PLAN = None

    def runTest(self):
        pass

    def _setup_services(self):
        plan = self.PLAN
        svc = plan['services']
        from oslo_config import cfg
        conf = cfg.CONF
        self.flags(api_paste_config=os.path.join(sys.prefix, 'etc', 'nova', 'api-paste.ini'),
                   group='wsgi')
        self.flags(response_validation='warn', group='api')
        # nova loads drivers only from under nova.virt: give ours a name there
        sys.modules['nova.virt.localcloud_state'] = nova_db
        self.flags(compute_driver='localcloud_state.PersistentFakeDriver')
        self.flags(vif_plugging_timeout=0, vif_plugging_is_fatal=False)
        # one compute node: a resize must land on the same host, as on a single-node devstack
        self.flags(allow_resize_to_same_host=True)
        # The compute's heartbeat is a green thread of this very process, beside the scheduler:
        # on a loaded machine (CI: 2 cores, two clouds) it can miss the default 60 s, and the
        # scheduler then finds no up host ("No valid host was found"). A compute that shares
        # the scheduler's process is down only when the scheduler is, so give it an hour.
        self.flags(service_down_time=3600)
        for quota in ('instances', 'cores', 'ram', 'key_pairs', 'server_groups',
                      'server_group_members', 'metadata_items'):
            self.flags(**{quota: -1, 'group': 'quota'})
        # keystonemiddleware: validate user tokens against the local Keystone
        import keystonemiddleware.auth_token  # noqa: F401  (registers [keystone_authtoken])
        _password_auth(conf, 'keystone_authtoken', plan)
        self.flags(www_authenticate_uri=svc['keystone']['public'] + '/v3', memcached_servers=[],
                   service_token_roles_required=True, group='keystone_authtoken')
        # the real Neutron, Glance and Cinder, by their internal endpoints
        _password_auth(conf, 'neutron', plan)
        self.flags(endpoint_override=svc['neutron']['internal'], region_name='RegionOne',
                   http_retries=0, group='neutron')
        self.flags(endpoint_override=svc['glance']['internal'], region_name='RegionOne',
                   group='glance')
        _password_auth(conf, 'cinder', plan)
        self.flags(endpoint_template=svc['cinder']['internal'] + '/v3/%(project_id)s',
                   os_region_name='RegionOne', group='cinder')
        # send a service token with user calls, as a deployment must: Cinder lets only Nova
        # (proven by the token) delete an in-use attachment (bug 2004555)
        _password_auth(conf, 'service_user', plan)
        self.flags(send_service_user_token=True, group='service_user')
        super(LocalNova, self)._setup_services()

    def _setup_cells(self):
        nova_db.setup_cells(self)

    def _setup_compute_service(self):
        return self._start_compute('localcloud')


def _serve_placement(test, plan):
    """Placement runs in this process (Nova's fixture, shared with the scheduler and compute);
    this also serves it over HTTP, with Keystone auth, for the catalog."""
    from keystoneauth1 import loading
    from keystonemiddleware.auth_token import _opts as ktm_opts
    from placement import deploy
    conf = test.placement_fixture.conf_fixture.conf
    conf.register_opts(ktm_opts._OPTS, group='keystone_authtoken')
    loading.register_auth_conf_options(conf, 'keystone_authtoken')
    _password_auth(conf, 'keystone_authtoken', plan)
    conf.set_override('www_authenticate_uri', plan['services']['keystone']['public'] + '/v3',
                      group='keystone_authtoken')
    conf.set_override('memcached_servers', [], group='keystone_authtoken')
    conf.set_override('auth_strategy', 'keystone', group='api')
    app = deploy.deploy(conf)
    conf.set_override('auth_strategy', 'noauth2', group='api')
    me = plan['services']['placement']
    _base.serve(app, me['port'], me['prefix'], 'placement', background=True)


def main():
    plan = _base.load_plan()
    me = plan['services']['nova']
    LocalNova.PLAN = plan
    # WAL, busy timeout, BEGIN IMMEDIATE, as every service here; then the fixtures' files
    _base.sqlite_locking()
    nova_db.install(os.path.join(plan['state_dir'], 'nova'))
    test = LocalNova('runTest')
    test.setUp()
    # nova's WarningsFixture turns some deprecation warnings into errors (HTTP 500)
    warnings.resetwarnings()
    warnings.simplefilter('ignore')
    # OSAPIFixture forces debug and StandardLogging keeps every record in memory
    _base.quiet_logging()
    if 'placement' in plan['services']:
        _serve_placement(test, plan)
    from nova.api import wsgi
    app = wsgi.Loader().load_app('osapi_compute')
    _base.serve(app, me['port'], me['prefix'], 'nova')


if __name__ == '__main__':
    _base.run(main)
