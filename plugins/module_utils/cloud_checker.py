# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``CloudChecker``: the engine's service-backed custom constraints
(``glance.image``, ``nova.flavor`` ...) asked of the cloud, on a
connection made by connection.py.  Apart from it because only the modules
that validate a template need the constraints (the read-only ones take
connection.py without the template language)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .errors import ResourceFailure
from .hot.constraints import NOT_CHECKED
from .resources.keystone import _common as keystone

# Heat's service-backed custom constraints -> (SDK proxy, finder, what Heat
# calls the missing thing in its message).  Names not listed stay "not
# checked" even with a connection.
_SERVICE_LOOKUPS = {
    'nova.flavor': ('compute', 'find_flavor', 'Flavor'),
    'nova.keypair': ('compute', 'find_keypair', 'Keypair'),
    'nova.server': ('compute', 'find_server', 'Server'),
    'glance.image': ('image', 'find_image', 'Image'),
    'cinder.volume': ('block_storage', 'find_volume', 'Volume'),
    'cinder.snapshot': ('block_storage', 'find_snapshot', 'VolumeSnapshot'),
    'cinder.backup': ('block_storage', 'find_backup', 'Volume backup'),
    'cinder.vtype': ('block_storage', 'find_type', 'VolumeType'),
    'neutron.network': ('network', 'find_network', 'network'),
    'neutron.subnet': ('network', 'find_subnet', 'subnet'),
    'neutron.port': ('network', 'find_port', 'port'),
    'neutron.router': ('network', 'find_router', 'router'),
    'neutron.security_group': ('network', 'find_security_group', 'security_group'),
    'neutron.subnetpool': ('network', 'find_subnet_pool', 'subnetpool'),
    'neutron.address_scope': ('network', 'find_address_scope', 'address_scope'),
    'neutron.qos_policy': ('network', 'find_qos_policy', 'policy'),
    'neutron.segment': ('network', 'find_segment', 'segment'),
    'octavia.loadbalancer': ('load_balancer', 'find_load_balancer', 'loadbalancer'),
    'octavia.listener': ('load_balancer', 'find_listener', 'listener'),
    'octavia.pool': ('load_balancer', 'find_pool', 'pool'),
    'octavia.l7policy': ('load_balancer', 'find_l7_policy', 'l7policy'),
    'octavia.flavor': ('load_balancer', 'find_flavor', 'flavor'),
    'octavia.flavorprofile': ('load_balancer', 'find_flavor_profile', 'flavorprofile'),
}
# Heat's keystone.* constraints ask its get_<kind>_id finders, which read
# ``name{domain}`` and refuse a service name two services share: the same
# finders as the Keystone plugins' (resources/keystone/_common.py).
_KEYSTONE_LOOKUPS = dict(('keystone.%s' % kind, kind) for kind in (
    'project', 'user', 'group', 'role', 'domain', 'service', 'region'))


class CloudChecker(object):
    """``checker(name, value)`` for the engine's service-backed custom
    constraints (contract in hot/constraints.py): asks the cloud whether the
    named thing exists.

    Returns True when it does, the reason (Heat's "could not be found"
    message) when it does not, and NOT_CHECKED for a constraint it has no
    lookup for.  The cloud's own errors (authentication, a service missing
    from the catalog) propagate: the module reports them as such.  Answers
    are cached: a template often names the same image many times.
    """

    def __init__(self, conn):
        self.conn = conn
        self._seen = {}

    def __call__(self, name, value):
        if name in _KEYSTONE_LOOKUPS:
            return self._keystone(_KEYSTONE_LOOKUPS[name], value)
        lookup = _SERVICE_LOOKUPS.get(name)
        if lookup is None:
            return NOT_CHECKED
        key = (name, str(value))
        if key not in self._seen:
            proxy, finder, label = lookup
            found = getattr(getattr(self.conn, proxy), finder)(str(value), ignore_missing=True)
            self._seen[key] = True if found is not None else 'The %s (%s) could not be found.' % (label, value)
        return self._seen[key]

    def _keystone(self, kind, value):
        key = ('keystone.' + kind, str(value))
        if key not in self._seen:
            try:
                if str(value) == '':
                    # Heat's KeystoneBaseConstraint: an empty value names nothing
                    raise keystone.not_found(kind, value)
                keystone.lookup(self.conn, kind, str(value))
                self._seen[key] = True
            except ResourceFailure as exc:
                self._seen[key] = exc.message
        return self._seen[key]
