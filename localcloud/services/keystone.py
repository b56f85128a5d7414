# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Keystone: fernet tokens, SQLite, dogpile memory cache; set up and bootstrapped in-process.

The one-time setup (schema, key repositories, bootstrap) runs in this process instead of five
keystone-manage runs (~13 s saved).  Every start re-registers the catalog, because the internal
ports (and with --port 0 the front door's) change from run to run.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

from localcloud.services import _base

CONF_TEMPLATE = """
[DEFAULT]
log_file = {state}/keystone.log
debug = false
[database]
connection = sqlite:///{state}/keystone.sqlite
[token]
provider = fernet
expiration = 86400
[fernet_tokens]
key_repository = {state}/fernet-keys
[fernet_receipts]
key_repository = {state}/fernet-receipts
[credential]
key_repository = {state}/credential-keys
[identity]
# bcrypt at the default 12 rounds costs ~0.25 s per password check on 2 cores
password_hash_rounds = 4
[oslo_policy]
enforce_scope = false
enforce_new_defaults = false
[cache]
enabled = true
backend = dogpile.cache.memory
"""


def setup(plan, fresh):
    from keystone.common import sql
    from keystone.common import fernet_utils
    import keystone.conf
    from keystone.common.sql import upgrades
    CONF = keystone.conf.CONF
    if fresh:
        upgrades.offline_sync_database_to_version()
        for group in ('fernet_tokens', 'fernet_receipts', 'credential'):
            g = getattr(CONF, group)
            # the credential repository has no max_active_keys option (keystone-manage uses 3)
            max_keys = g.max_active_keys if group != 'credential' else 3
            futils = fernet_utils.FernetUtils(g.key_repository, max_keys, group)
            futils.create_key_directory(os.getuid(), os.getgid())
            if futils.validate_key_repository(requires_write=True):
                futils.initialize_key_repository(os.getuid(), os.getgid())
    del sql


def bootstrap(plan):
    """Admin, roles, service user, demo project and user, and the whole catalog (idempotent)."""
    from keystone.cmd import bootstrap as ks_bootstrap
    from keystone.common import provider_api
    from keystone.server import backends

    backends.load_backends()
    ks_bootstrap.backends.load_backends = lambda: {}
    P = provider_api.ProviderAPIs
    ident = plan['services']['keystone']
    b = ks_bootstrap.Bootstrapper()
    b.admin_username = 'admin'
    b.admin_password = plan['admin']['password']
    b.project_name = 'admin'
    b.admin_role_name = 'admin'
    b.service_name = 'keystone'
    b.region_id = 'RegionOne'
    b.public_url = ident['public'] + '/v3'
    b.internal_url = ident['internal'] + '/v3'
    b.admin_url = ident['internal'] + '/v3'
    b.bootstrap()
    _sync_catalog(P, plan)
    roles = {r['name']: r['id'] for r in P.role_api.list_roles()}
    for name in ('heat_stack_owner', 'heat_stack_user', 'ResellerAdmin', 'load-balancer_member',
                 'load-balancer_admin', 'swiftoperator'):
        if name not in roles:
            rid = _uuid()
            roles[name] = P.role_api.create_role(rid, {'name': name, 'id': rid})['id']
    service = _project(P, 'service')
    demo = _project(P, 'demo')
    admin_project = _project(P, 'admin')
    su = plan['service_user']
    svc_user = _user(P, su['username'], su['password'], service['id'])
    for r in ('admin', 'service'):
        _grant(P, svc_user['id'], service['id'], roles[r])
    demo_user = _user(P, 'demo', plan['demo']['password'], demo['id'])
    for r in ('member', 'reader', 'load-balancer_member', 'heat_stack_owner'):
        _grant(P, demo_user['id'], demo['id'], roles[r])
    admin_user = P.identity_api.get_user_by_name('admin', 'default')
    for project in (demo, service):
        _grant(P, admin_user['id'], project['id'], roles['admin'])
    # lets the admin read every project's Swift account (the admin API lists all containers)
    _grant(P, admin_user['id'], admin_project['id'], roles['ResellerAdmin'])
    if 'heat' in plan['services']:
        _heat_domain(P, plan['heat_domain'], roles['admin'])
    return {'demo_project_id': demo['id'], 'service_project_id': service['id']}


def _heat_domain(P, spec, admin_role_id):
    """Heat's stack user domain, with its admin user holding admin on the domain (as devstack).

    Heat makes its signal responders' users there (ScalingPolicy, WaitConditionHandle,
    deployments) as this user; without a domain it would make them in the stack's project as the
    stack's owner, who may not list roles (identity:list_roles, 403).
    """
    from keystone import exception
    try:
        domain = P.resource_api.get_domain_by_name(spec['name'])
    except exception.DomainNotFound:
        did = _uuid()
        domain = P.resource_api.create_domain(did, {
            'id': did, 'name': spec['name'], 'enabled': True,
            'description': 'Owns users and projects created by heat'})
    try:
        user = P.identity_api.get_user_by_name(spec['admin'], domain['id'])
        user = P.identity_api.update_user(user['id'], {'password': spec['password']})
    except exception.UserNotFound:
        user = P.identity_api.create_user({
            'name': spec['admin'], 'password': spec['password'], 'domain_id': domain['id'],
            'enabled': True})
    P.assignment_api.create_grant(admin_role_id, user_id=user['id'], domain_id=domain['id'])


def _uuid():
    import uuid
    return uuid.uuid4().hex


def _project(P, name):
    from keystone import exception
    try:
        return P.resource_api.get_project_by_name(name, 'default')
    except exception.ProjectNotFound:
        pid = _uuid()
        return P.resource_api.create_project(pid, {
            'id': pid, 'name': name, 'domain_id': 'default', 'parent_id': 'default',
            'enabled': True, 'description': '', 'is_domain': False})


def _user(P, name, password, project_id):
    from keystone import exception
    try:
        user = P.identity_api.get_user_by_name(name, 'default')
        return P.identity_api.update_user(user['id'], {'password': password})
    except exception.UserNotFound:
        return P.identity_api.create_user({
            'name': name, 'password': password, 'domain_id': 'default', 'enabled': True,
            'default_project_id': project_id})


def _grant(P, user_id, project_id, role_id):
    from keystone import exception
    try:
        P.assignment_api.add_role_to_user_and_project(user_id, project_id, role_id)
    except exception.Conflict:
        pass


def _sync_catalog(P, plan):
    """One service per catalog entry; public endpoint = front door, internal = the process."""
    services = {s['type']: s for s in P.catalog_api.list_services()}
    for entry in plan['catalog']:
        svc = services.get(entry['type'])
        if svc is None:
            sid = _uuid()
            svc = P.catalog_api.create_service(sid, {
                'id': sid, 'type': entry['type'], 'name': entry['name'], 'enabled': True})
        existing = {}
        for ep in P.catalog_api.list_endpoints():
            if ep['service_id'] == svc['id']:
                existing.setdefault(ep['interface'], []).append(ep)
        wanted = {'public': entry['public'], 'internal': entry['internal'], 'admin': entry['internal']}
        for iface, url in wanted.items():
            eps = existing.get(iface, [])
            if eps:
                if eps[0]['url'] != url:
                    P.catalog_api.update_endpoint(eps[0]['id'], {'url': url})
                for extra in eps[1:]:
                    P.catalog_api.delete_endpoint(extra['id'])
            else:
                eid = _uuid()
                P.catalog_api.create_endpoint(eid, {
                    'id': eid, 'interface': iface, 'url': url, 'service_id': svc['id'],
                    'region_id': 'RegionOne', 'enabled': True})


def main():
    plan = _base.load_plan()
    me = plan['services']['keystone']
    state = os.path.join(plan['state_dir'], 'keystone')
    fresh = not os.path.exists(os.path.join(state, 'keystone.sqlite'))
    conf = _base.write_file(os.path.join(state, 'keystone.conf'), CONF_TEMPLATE.format(state=state))
    _base.sqlite_locking(foreign_keys=not fresh)
    import keystone.server
    from keystone.server.flask import application
    from keystone.server.flask import core as flask_core
    keystone.server.configure(config_files=[conf])
    setup(plan, fresh)
    if fresh:
        # the schema migrations run with foreign keys off; the service needs them on for cascades
        from keystone.common import sql
        with sql.session_for_write() as session:
            session.get_bind().dispose()
        _base.sqlite_locking(foreign_keys=True)
    ids = bootstrap(plan)
    _base.write_file(os.path.join(state, 'ids.json'), __import__('json').dumps(ids))
    app = flask_core.setup_app_middleware(application.application_factory('public'))
    _base.quiet_logging()
    _base.serve(app, me['port'], me['prefix'], 'keystone')


if __name__ == '__main__':
    _base.run(main)
