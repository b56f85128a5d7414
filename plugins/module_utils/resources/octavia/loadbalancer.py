# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Octavia::LoadBalancer and OS::Octavia::Listener.

As Heat's: the VIP subnet and the flavor given by name or id, ``tenant_id``
sent as ``project_id``; a listener's load balancer and default pool by name
or id.  Name, description and admin state (and a listener's limits, TLS refs
and allowed CIDRs) update in place; the rest replaces.  Heat retries a
listener's calls while its load balancer is immutable, not a load balancer's
own update (it never meets one: its children wait for it); the shared
handlers retry both.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ._common import OctaviaPlugin


class LoadBalancer(OctaviaPlugin):
    type_name = 'OS::Octavia::LoadBalancer'
    kind = 'loadbalancer'
    renames = {'vip_subnet': ('vip_subnet_id', 'subnet'), 'flavor': ('flavor_id', 'flavor'),
               'tenant_id': ('project_id', None)}
    drift_fields = ('description', 'admin_state_up')
    # An amphora takes a minute or more to boot on a real cloud.
    poll_interval = 5.0

    def update_body(self, ctx):
        # Heat sends the changed properties as they are (only name,
        # description and admin_state_up can change).
        return dict((k, ctx.properties.get(k)) for k in sorted(ctx.changed))


class Listener(OctaviaPlugin):
    type_name = 'OS::Octavia::Listener'
    kind = 'listener'
    renames = {'loadbalancer': ('loadbalancer_id', 'loadbalancer'),
               'default_pool': ('default_pool_id', 'pool')}
    drift_fields = ('description', 'admin_state_up', 'connection_limit')

    # -- validate (Heat's Listener.validate) -------------------------------------
    @classmethod
    def validate(cls, given):
        # A reference given as null (or an attribute not made yet) reads as ''
        # in Heat's properties: only a reference not given at all is refused.
        props = given.props
        if props['protocol'] == 'TERMINATED_HTTPS' and props['default_tls_container_ref'] is None:
            given.fail('Property default_tls_container_ref required when protocol is '
                       'TERMINATED_HTTPS.', 'default_tls_container_ref')
