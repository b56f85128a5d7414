# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Neutron::Router and OS::Neutron::RouterInterface (Heat's router.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from ...errors import CloudNotFound, ResourceFailure
from ...hot.type_checks import conflict, unspecified
from .common import NeutronPlugin, is_uuid, listed, lookup_id, prepare_update


def _gateway(ctx, info):
    """Heat's _resolve_gateway: the network by name or id, unset keys left
    out, fixed IPs' subnets by name or id."""
    if not info:
        return info
    gw = {'network_id': lookup_id(ctx, 'network', info.get('network'))}
    if info.get('enable_snat') is not None:
        gw['enable_snat'] = info['enable_snat']
    fixed = info.get('external_fixed_ips')
    if fixed is not None:
        gw['external_fixed_ips'] = []
        for item in fixed:
            entry = dict((k, v) for k, v in (item or {}).items() if v is not None)
            if 'subnet' in entry:
                entry['subnet_id'] = lookup_id(ctx, 'subnet', entry.pop('subnet'))
            gw['external_fixed_ips'].append(entry)
    return gw


class Router(NeutronPlugin):
    type_name = 'OS::Neutron::Router'
    entity = 'router'
    collection = 'routers'
    has_status = True
    drift_keys = {'name': 'name', 'admin_state_up': 'admin_state_up'}
    prefetch_properties = (('external_gateway_info', 'network'),)

    @classmethod
    def validate(cls, given):
        """Heat's Router.validate, on the properties as its translation
        leaves them: a legacy l3_agent_id moves into l3_agent_ids (Heat
        cannot do that when l3_agent_ids is given too, whatever its value,
        so its own conflict of the two never fires).  value_specs unchecked:
        see NeutronPlugin."""
        props = given.props
        agents = props.get('l3_agent_ids')
        if props.get('l3_agent_id'):
            if 'l3_agent_ids' in given.data:
                given.fail('Incorrect translation rule using - cannot resolve Add rule for '
                           'non-list translation value "l3_agent_ids.0".', 'l3_agent_ids')
            agents = [props['l3_agent_id']]
        distributed, ha = props.get('distributed'), props.get('ha')
        if distributed and agents:
            given.fail(conflict('distributed', 'l3_agent_id/l3_agent_ids'), 'distributed')
        if ha and distributed:
            given.fail(conflict('distributed', 'ha'), 'distributed')
        if not ha and agents and len(agents) > 1:
            given.fail('Non HA routers can only have one L3 agent.', 'l3_agent_ids')

    def prefetch(self, ctx):
        info = ctx.properties.get('external_gateway_info')
        if isinstance(info, dict):
            lookup_id(ctx, 'network', info.get('network'))

    def _agents(self, body):
        one = body.pop('l3_agent_id', None)
        many = body.pop('l3_agent_ids', None)
        return many or ([one] if one else None)

    def create_body(self, ctx):
        body = super(Router, self).create_body(ctx)
        if body.get('external_gateway_info'):
            body['external_gateway_info'] = _gateway(ctx, body['external_gateway_info'])
        self._agents(body)
        return body

    def create(self, ctx):
        ident = super(Router, self).create(ctx)
        agents = self._agents(dict(ctx.properties))
        if agents:
            self._replace_agents(ctx, agents)
        return ident

    def found_is_whole(self, ctx):
        return not self._agents(dict(ctx.properties)) and super(Router, self).found_is_whole(ctx)

    def update(self, ctx):
        diff = self.prop_diff(ctx)
        if 'external_gateway_info' in diff:
            diff['external_gateway_info'] = _gateway(ctx, diff['external_gateway_info'])
        if 'l3_agent_ids' in diff or 'l3_agent_id' in diff:
            self._replace_agents(ctx, self._agents(diff))
        if 'tags' in diff:
            self.set_user_tags(ctx, diff.pop('tags'))
        if diff:
            prepare_update(ctx, diff)
            sdk.call(ctx.conn.network.update_router, ctx.physical_id, **diff)

    def _replace_agents(self, ctx, agents):
        """Heat's _replace_agent: every hosting agent removed, then the
        wanted ones added."""
        net = ctx.conn.network
        for agent in listed(net.routers_hosting_l3_agents, router=ctx.physical_id):
            sdk.call(net.remove_router_from_agent, agent.id, ctx.physical_id)
        for agent in agents or ():
            sdk.call(net.add_router_to_agent, agent, ctx.physical_id)

    def drift(self, ctx, live):
        out = super(Router, self).drift(ctx, live)
        want = ctx.properties.get('external_gateway_info')
        have = (live or {}).get('external_gateway_info') or {}
        if want:
            net = want.get('network')
            if (is_uuid(net) and have.get('network_id') != net) or not have or (
                    want.get('enable_snat') is not None and have.get('enable_snat') != want['enable_snat']):
                out.append('external_gateway_info')
        elif want is not None and have:
            out.append('external_gateway_info')
        return out


def _parse_ref(ref):
    """``router:subnet_id=subnet`` (or ``:port_id=``); Heat's old form
    ``router:subnet`` means a subnet."""
    tokens = ref.replace('=', ':').split(':')
    if len(tokens) == 2:
        tokens.insert(1, 'subnet_id')
    return tokens[0], tokens[1], tokens[2]


def _subnet_or_port(key, value):
    """The (subnet, port) arguments of add/remove_interface_to/from_router.
    Positional: openstacksdk 4.0 names them subnet_id/port_id, later
    releases subnet/port, and the collection supports both."""
    return (value, None) if key == 'subnet_id' else (None, value)


class RouterInterface(NeutronPlugin):
    """No object of its own: the physical id is Heat's
    ``<router>:subnet_id=<subnet>`` / ``<router>:port_id=<port>``; the live
    object shown for check is the router's interface port."""

    type_name = 'OS::Neutron::RouterInterface'
    taggable = False
    aliases = {'router_id': 'router', 'subnet_id': 'subnet', 'port_id': 'port'}

    @classmethod
    def validate(cls, given):
        """Heat's RouterInterface.validate, a legacy subnet_id or port_id
        read as the property it translates to."""
        props = given.props
        subnet = props.get('subnet') is not None or props.get('subnet_id') is not None
        port = props.get('port') is not None or props.get('port_id') is not None
        if subnet and port:
            given.fail(conflict('subnet', 'port'),
                       'subnet' if 'subnet' in given.data else 'subnet_id')
        if not subnet and not port:
            given.fail(unspecified('subnet', 'port'))

    def _target(self, ctx):
        props = self.props(ctx)
        router = lookup_id(ctx, 'router', props.get('router'))
        if props.get('subnet'):
            return router, 'subnet_id', lookup_id(ctx, 'subnet', props['subnet'])
        return router, 'port_id', lookup_id(ctx, 'port', props.get('port'))

    def create(self, ctx):
        router, key, value = self._target(ctx)
        sdk.call(ctx.conn.network.add_interface_to_router, router, *_subnet_or_port(key, value),
                 retry_writes=False)
        return '%s:%s=%s' % (router, key, value)

    def delete(self, ctx):
        if not ctx.physical_id:
            return
        router, key, value = _parse_ref(ctx.physical_id)
        sdk.delete_quietly(ctx.conn.network.remove_interface_from_router, router,
                           *_subnet_or_port(key, value))

    def found_is_whole(self, ctx):
        return True    # one PUT; find matches the router's interface on that subnet or port

    def _interface_port(self, ctx, router, key, value):
        ports = listed(ctx.conn.network.ports, device_id=router)
        for port in ports:
            if key == 'port_id' and port.id == value:
                return port
            if key == 'subnet_id' and any(ip.get('subnet_id') == value for ip in port.fixed_ips or ()):
                if (port.device_owner or '').startswith('network:router_interface'):
                    return port
        return None

    def show(self, ctx):
        if not ctx.physical_id:
            return None
        port = self._interface_port(ctx, *_parse_ref(ctx.physical_id))
        return port.to_dict(body=True, headers=False, computed=False, original_names=True) if port else None

    def find(self, ctx):
        try:
            router, key, value = self._target(ctx)
        except (CloudNotFound, ResourceFailure):   # the router or subnet is gone
            return None
        if self._interface_port(ctx, router, key, value) is None:
            return None
        return '%s:%s=%s' % (router, key, value)

    def check_create_complete(self, ctx):
        return True

    def check_update_complete(self, ctx):
        return True

    def attributes(self, ctx, live, names=None):
        # Heat has no entity to show for an interface: ``show`` is None.
        return {'show': None}

    def drift(self, ctx, live):
        return []
