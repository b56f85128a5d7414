# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Swift: proxy + account, container and object servers in one process (eventlet green threads).

One replica on one device, rings built here at each start, tempurl/formpost/SLO/DLO/versioning in
the proxy pipeline, authtoken + keystoneauth against the local Keystone.  Two small pieces of ours:
an in-process stand-in for memcache (the proxy is a single process, so a dict is a correct cache)
and the container updater's sweep run in a green thread (account object/byte counts come only
from it).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sys
import threading
import time

from localcloud.services import _base

SWIFT_CONF = """
[swift-hash]
swift_hash_path_suffix = localcloud-suffix
swift_hash_path_prefix = localcloud-prefix
[storage-policy:0]
name = Policy-0
default = yes
[swift-constraints]
"""

SERVER_CONF = """
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = {port}
workers = 0
swift_dir = {etc}
devices = {devices}
mount_check = false
disable_fallocate = true
log_name = {kind}-server
log_address = /nonexistent
log_level = WARNING
eventlet_debug = false
[pipeline:main]
pipeline = {kind}-server
[app:{kind}-server]
use = egg:swift#{kind}
[{kind}-replicator]
[{kind}-auditor]
[{kind}-updater]
"""

PROXY_CONF = """
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = {port}
workers = 0
swift_dir = {etc}
log_name = proxy-server
log_address = /nonexistent
log_level = WARNING
[pipeline:main]
pipeline = mount catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl formpost authtoken keystoneauth staticweb copy container-quotas account-quotas slo dlo versioned_writes symlink proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true
# one device: never error-limit it (one 507 would otherwise make every PUT 503 for a minute)
error_suppression_interval = 0
[filter:mount]
paste.filter_factory = localcloud.services.swift:mount_filter
prefix = {prefix}
[filter:cache]
paste.filter_factory = localcloud.services.swift:cache_filter
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
www_authenticate_uri = {ks_public}/v3
auth_url = {ks_internal}/v3
auth_type = password
username = {user}
password = {password}
project_name = service
user_domain_id = default
project_domain_id = default
interface = internal
delay_auth_decision = true
cache = swift.cache
include_service_catalog = false
[filter:keystoneauth]
use = egg:swift#keystoneauth
operator_roles = admin, member
reseller_admin_role = ResellerAdmin
reseller_prefix = AUTH_
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:bulk]
use = egg:swift#bulk
[filter:tempurl]
use = egg:swift#tempurl
[filter:formpost]
use = egg:swift#formpost
[filter:staticweb]
use = egg:swift#staticweb
[filter:copy]
use = egg:swift#copy
[filter:container-quotas]
use = egg:swift#container_quotas
[filter:account-quotas]
use = egg:swift#account_quotas
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
[filter:versioned_writes]
use = egg:swift#versioned_writes
allow_versioned_writes = true
allow_object_versioning = true
[filter:symlink]
use = egg:swift#symlink
"""


class DictCache(object):
    """The memcache client interface over a dict, with expiry (tempurl keys, tokens, info)."""

    def __init__(self):
        self._data = {}
        self._lock = threading.Lock()
        self.memcache_servers = []

    def _live(self, key):
        item = self._data.get(key)
        if item is None or (item[1] and item[1] < time.time()):
            self._data.pop(key, None)
            return None
        return item

    @staticmethod
    def _expiry(ttl):
        if not ttl:
            return 0
        return ttl if ttl > 30 * 24 * 3600 else time.time() + ttl

    def set(self, key, value, serialize=True, time=0, min_compress_len=0, raise_on_error=False):
        if serialize and not isinstance(value, bytes):
            # what a memcache round trip does to a value (tuples become lists ...)
            value = json.loads(json.dumps(value))
        with self._lock:
            self._data[key] = (value, self._expiry(time))

    def get(self, key, raise_on_error=False):
        with self._lock:
            item = self._live(key)
            return None if item is None else item[0]

    def incr(self, key, delta=1, time=0):
        with self._lock:
            item = self._live(key)
            value = max(0, (int(item[0]) if item else 0) + int(delta))
            self._data[key] = (value, self._expiry(time))
            return value

    def decr(self, key, delta=1, time=0):
        return self.incr(key, -delta, time)

    def delete(self, key, server_key=None):
        with self._lock:
            self._data.pop(key, None)

    def set_multi(self, mapping, server_key, serialize=True, time=0, min_compress_len=0):
        for key, value in mapping.items():
            self.set(key, value, serialize=serialize, time=time)

    def get_multi(self, keys, server_key):
        return [self.get(k) for k in keys]


_CACHE = DictCache()


def cache_filter(global_conf, **local_conf):
    def make(app):
        def cached(env, start_response):
            env['swift.cache'] = _CACHE
            return app(env, start_response)
        return cached
    return make


def mount_filter(global_conf, **local_conf):
    # Swift builds its paths from SCRIPT_NAME + PATH_INFO: strip the prefix without recording it
    return lambda app: _base.prefixed(app, local_conf.get('prefix', ''), script_name=False)


def build_rings(etc, ports):
    from swift.common.ring import RingBuilder
    for kind, port in ports.items():
        builder = RingBuilder(8, 1, 1)
        builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': port,
                         'device': 'd1', 'weight': 100, 'meta': ''})
        builder.rebalance()
        builder.get_ring().save(os.path.join(etc, '%s.ring.gz' % kind))


def main():
    plan = _base.load_plan()
    me = plan['services']['swift']
    state = os.path.join(plan['state_dir'], 'swift')
    etc = os.path.join(state, 'etc')
    devices = os.path.join(state, 'node')
    os.makedirs(os.path.join(devices, 'd1'), exist_ok=True)
    from localcloud.plan import listen
    # bound now and kept (plan.listen says why a port picked and bound later can be taken)
    listeners = {kind: listen() for kind in ('account', 'container', 'object')}
    listeners['proxy'] = _base.inherited('swift')
    ports = {kind: sock.getsockname()[1] for kind, sock in listeners.items() if kind != 'proxy'}
    _base.write_file(os.path.join(etc, 'swift.conf'), SWIFT_CONF)
    confs = []
    for kind, port in ports.items():
        confs.append((kind + '-server', _base.write_file(
            os.path.join(etc, kind + '-server.conf'),
            SERVER_CONF.format(port=port, etc=etc, devices=devices, kind=kind))))
    su = plan['service_user']
    confs.append(('proxy-server', _base.write_file(os.path.join(etc, 'proxy-server.conf'), PROXY_CONF.format(
        port=me['port'], etc=etc, prefix=me['prefix'], user=su['username'], password=su['password'],
        ks_public=plan['services']['keystone']['public'],
        ks_internal=plan['services']['keystone']['internal']))))
    build_rings(etc, ports)

    from swift.common import utils
    utils.monkey_patch()
    import eventlet
    from eventlet import greenio
    from swift.common import wsgi
    # run_server() selects the eventlet hub; doing that from a green thread orphans the main
    # greenlet, so pick it once here and let later calls through only in fresh (tpool) threads
    eventlet.hubs.use_hub(utils.get_hub())
    use_hub = eventlet.hubs.use_hub

    def _use_hub_once(mod=None):
        if getattr(eventlet.hubs._threadlocal, 'hub', None) is None:
            return use_hub(mod)
    eventlet.hubs.use_hub = _use_hub_once
    threads = []
    for section, path in confs:
        conf, logger, log_name = wsgi._initrp(path, section, verbose=True)
        raw = listeners.get(section[:-len('-server')])
        # eventlet serves green sockets; wrapping is what eventlet.listen() does to a new one
        sock = wsgi.get_socket(conf) if raw is None else greenio.GreenSocket(raw)
        threads.append(eventlet.spawn(wsgi.run_server, conf, logger, sock,
                                      global_conf={'log_name': log_name}))
        eventlet.sleep(0)
    threads.append(eventlet.spawn(_container_updater, os.path.join(etc, 'container-server.conf')))
    _base.ready('swift', me['port'])
    for thread in threads:
        thread.wait()


def _container_updater(path, interval=2.0):
    from swift.common.utils import readconf
    from swift.container.updater import ContainerUpdater
    import eventlet
    conf = readconf(path, 'container-updater')
    conf.update({'interval': interval, 'recon_cache_path': os.path.dirname(path)})
    updater = ContainerUpdater(conf)
    while True:
        eventlet.sleep(interval)
        try:
            updater.run_once()
        except Exception as exc:   # the next sweep retries
            print('container-updater: %r' % exc, flush=True)


if __name__ == '__main__':
    _base.run(main)
