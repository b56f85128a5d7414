# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Octavia's noop provider, made to finish what it starts, plus the status reconciler.

The stock noop provider only logs, so every object would stay PENDING_* forever (and the next
call on the load balancer gets 409 'immutable').  A real provider reports back through
octavia-driver-agent; here a small reconciler thread does the same job with Octavia's own
DriverUpdater (quotas, cascade deletes and VIP deallocation included):
PENDING_CREATE/PENDING_UPDATE -> ACTIVE (operating status ONLINE, members NO_MONITOR without a
health monitor) and PENDING_DELETE -> DELETED, after build_seconds['loadbalancer'] /
['loadbalancer_delete'].  The VIP port is not faked: the provider declines create_vip_port, so
the API allocates a real port in Neutron through the allowed-address-pairs network driver.
"""
from __future__ import absolute_import, division, print_function
__metaclass__ = type

import logging
import threading
import time

from octavia.api.drivers.noop_driver import driver as noop_mod
from octavia_lib.api.drivers import exceptions as lib_exc

from localcloud.drivers import timing

LOG = logging.getLogger('localcloud.octavia')
KICK = threading.Event()
_KINDS = ('loadbalancer', 'listener', 'pool', 'member', 'health', 'l7policy', 'l7rule')


class ReportingNoopProviderDriver(noop_mod.NoopProviderDriver):

    def create_vip_port(self, loadbalancer_id, project_id, vip_dictionary, additional_vip_dicts):
        raise lib_exc.NotImplementedError(user_fault_string='VIP ports come from Neutron',
                                          operator_fault_string='VIP ports come from Neutron')


def _kicking(name):
    original = getattr(noop_mod.NoopProviderDriver, name)

    def method(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        KICK.set()   # the API commits right after the provider returns
        return result
    method.__name__ = name
    return method


for _name in dir(noop_mod.NoopProviderDriver):
    if _name.split('_', 1)[0] in _KINDS and _name != 'create_vip_port':
        setattr(ReportingNoopProviderDriver, _name, _kicking(_name))


def install():
    """Make stevedore load our driver for the 'noop_driver' provider."""
    noop_mod.NoopProviderDriver = ReportingNoopProviderDriver


class Reconciler(object):

    def __init__(self):
        self.since = {}

    def _tree(self, session, lb):
        """Every object of one load balancer: (kind, object, operating status once active)."""
        from octavia.common import constants as c
        out = []
        for listener in lb.listeners:
            out.append(('listeners', listener, c.ONLINE))
            for policy in listener.l7policies:
                out.append(('l7policies', policy, c.ONLINE))
                out.extend(('l7rules', rule, c.ONLINE) for rule in policy.l7rules)
        for pool in lb.pools:
            out.append(('pools', pool, c.ONLINE))
            if pool.health_monitor is not None:
                out.append(('healthmonitors', pool.health_monitor, c.ONLINE))
            member_ok = c.ONLINE if pool.health_monitor is not None else c.NO_MONITOR
            out.extend(('members', member, member_ok) for member in pool.members)
        return out

    def pass_once(self, updater):
        from octavia.common import constants as c
        from octavia.db import api as db_api
        from octavia.db import models
        updates = []
        now = time.time()
        seen = set()
        session = db_api.get_session()
        with session.begin():
            lbs = session.query(models.LoadBalancer).filter(
                models.LoadBalancer.provider.like('noop_driver%'),
                models.LoadBalancer.provisioning_status != c.DELETED)
            for lb in lbs:
                tree = self._tree(session, lb)
                lb_deleting = lb.provisioning_status == c.PENDING_DELETE
                pending = [(k, o, ok) for k, o, ok in tree if o.provisioning_status.startswith('PENDING_')]
                if not lb.provisioning_status.startswith('PENDING_') and not pending:
                    continue
                key = (lb.id, lb.provisioning_status, tuple(sorted(o.id for _, o, _ in pending)))
                seen.add(key)
                started = self.since.setdefault(key, now)
                deleting = lb_deleting or any(o.provisioning_status == c.PENDING_DELETE
                                              for _, o, _ in pending)
                if now - started < timing.seconds('loadbalancer_delete' if deleting else 'loadbalancer'):
                    continue
                status = {k: [] for k in ('loadbalancers', 'listeners', 'pools', 'members',
                                          'healthmonitors', 'l7policies', 'l7rules')}
                for kind, obj, ok in (tree if lb_deleting else pending):
                    status[kind].append(self._next(obj, ok, lb_deleting))
                    if kind == 'healthmonitors' and not lb_deleting:
                        status['members'].extend(self._monitored(obj, pending))
                if lb.provisioning_status.startswith('PENDING_'):
                    status['loadbalancers'].append(self._next(lb, c.ONLINE, False))
                updates.append(status)
        self.since = {k: v for k, v in self.since.items() if k in seen}
        for status in updates:
            updater.update_loadbalancer_status(status)
        return bool(updates)

    @staticmethod
    def _monitored(monitor, pending):
        """A pool's members are ONLINE while a monitor watches them, NO_MONITOR otherwise
        (what a health manager reports for healthy members)."""
        from octavia.common import constants as c
        if monitor.provisioning_status == c.PENDING_CREATE:
            target = c.ONLINE
        elif monitor.provisioning_status == c.PENDING_DELETE:
            target = c.NO_MONITOR
        else:
            return []
        busy = {o.id for _, o, _ in pending}
        return [{'id': m.id, 'operating_status': target} for m in monitor.pool.members
                if m.id not in busy and m.operating_status in (c.ONLINE, c.NO_MONITOR)]

    @staticmethod
    def _next(obj, operating_ok, parent_deleting):
        from octavia.common import constants as c
        if parent_deleting or obj.provisioning_status == c.PENDING_DELETE:
            return {'id': obj.id, 'provisioning_status': c.DELETED}
        new = {'id': obj.id, 'provisioning_status': c.ACTIVE}
        if obj.provisioning_status == c.PENDING_CREATE or obj.operating_status == c.OFFLINE:
            new['operating_status'] = operating_ok if getattr(obj, 'enabled', True) else c.OFFLINE
        return new

    def run(self):
        from octavia.api.drivers.driver_agent import driver_updater
        updater = driver_updater.DriverUpdater()
        while True:
            KICK.wait(timeout=0.25 if self.since else 2.0)
            KICK.clear()
            time.sleep(0.02)
            try:
                self.pass_once(updater)
            except Exception:   # a failed pass is retried on the next tick
                LOG.exception('octavia status reconciler failed')


def start():
    thread = threading.Thread(target=Reconciler().run, name='octavia-reconciler', daemon=True)
    thread.start()
    return thread
