# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's implicit dependencies: the edges ten resource types add beyond
get_resource / get_attr / depends_on (their ``add_dependencies``).

Heat compares property values as its validation sees them, before anything
exists, and so do we: a reference to a resource without live data resolves
to its placeholder (None for the Neutron types), a String property turns
None into '', deprecated names count through the type's translation rules
(see heat_props.py).  So a port whose network is *any* in-stack net depends
on every subnet whose network is any in-stack net: both read ''.  A value
Heat cannot read (wrong type, required and missing) skips the comparison,
as Heat's ``except (ValueError, TypeError)`` does.  Where Heat gives up
on the rest of a resource's rule instead, it walks the stack in the order of
a set (random from run to run); such values make the template invalid
anyway, so here they only skip what they concern.

Every rule matches by value through an index built once per (interface,
reading), never pairwise.  The answer is a list of ``(requirer, group)``
references and the groups (lists of resource names, in template order):
dependencies.py turns a group into edges, or into one hub node when the fan-out
would be quadratic (a thousand ports on a network with a thousand subnets).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...resources import plugin_loader
from .heat_props import Unreadable, properties_view

# Heat's type names a target is tested against (Resource.has_interface).
SUBNET = 'OS::Neutron::Subnet'
PORT = 'OS::Neutron::Port'
ROUTER = 'OS::Neutron::Router'
ROUTER_INTERFACE = 'OS::Neutron::RouterInterface'
ROUTER_GATEWAY = 'OS::Neutron::RouterGateway'
ROUTE_TABLE = 'AWS::EC2::RouteTable'
INTERFACES = (SUBNET, PORT, ROUTER, ROUTER_INTERFACE, ROUTER_GATEWAY, ROUTE_TABLE)


def has_interface(defn, interface):
    """Heat's has_interface: the resource's type, or the name its
    implementation is registered under (aliases), is ``interface``."""
    if defn.type == interface:
        return True
    info = defn.type_info
    return info is not None and getattr(info, 'name', None) == interface


# -- readings of properties (each has a stable label for the indexes) --------

def _get(key):
    def read(props):
        return props.get(key)
    read.label = key
    return read


def _item(key):
    def read(props):
        return props[key]
    read.label = '[%s]' % key
    return read


def _either(first, second):
    """``get(first) or get(second)``: how Heat reads a value that moved."""
    def read(props):
        return props.get(first) or props.get(second)
    read.label = '%s|%s' % (first, second)
    return read


def _gateway_network(props):
    """A router's external gateway network (none without a gateway)."""
    gateway = props.get('external_gateway_info')
    if not gateway:
        raise Unreadable()
    try:
        return gateway.get('network')
    except AttributeError:
        raise Unreadable()


_gateway_network.label = 'external_gateway_info.network'


class _Index(object):
    """Members of one interface by the value one reading gives."""

    __slots__ = ('by_value', 'all', 'falsy')

    def __init__(self, ctx, interface, read):
        self.by_value = {}
        self.all = []
        self.falsy = []
        for name in ctx.by_interface.get(interface, ()):
            try:
                value = read(ctx.view(name))
            except Unreadable:
                continue
            self.all.append(name)
            if not value:
                self.falsy.append(name)
            try:
                self.by_value.setdefault(value, []).append(name)
            except TypeError:
                pass  # a map or list never equals the strings compared with it


class _Context(object):

    def __init__(self, stack, interfaces=INTERFACES):
        self.stack = stack
        self.resources = stack.resources
        self.by_interface = {}
        kinds = {}
        for name, defn in self.resources.items():
            info = defn.type_info
            key = (defn.type, info is not None and getattr(info, 'name', None))
            found = kinds.get(key)
            if found is None:
                found = kinds[key] = [i for i in interfaces if has_interface(defn, i)]
            for interface in found:
                self.by_interface.setdefault(interface, []).append(name)
        self.views = {}
        self.indexes = {}
        self.groups = {}
        self.refs = []

    def view(self, name):
        props = self.views.get(name)
        if props is None:
            props = self.views[name] = properties_view(self.stack, self.resources[name])
        return props

    def index(self, interface, read):
        key = (interface, read.label)
        found = self.indexes.get(key)
        if found is None:
            found = self.indexes[key] = _Index(self, interface, read)
        return found

    def has(self, interface):
        return interface in self.by_interface

    def _refer(self, requirer, key, members):
        if members:
            self.groups.setdefault(key, members)
            self.refs.append((requirer, key))

    def depend(self, requirer, interface, read, value):
        """``requirer`` needs every ``interface`` whose reading equals ``value``."""
        index = self.index(interface, read)
        try:
            members = index.by_value.get(value)
        except TypeError:
            return
        if members:
            self._refer(requirer, (interface, read.label, 'value', value), members)

    def depend_on_all(self, requirer, interface, read, falsy_only=False):
        """... every readable ``interface`` (or those whose reading is falsy)."""
        index = self.index(interface, read)
        kind = 'falsy' if falsy_only else 'all'
        self._refer(requirer, (interface, read.label, kind),
                    index.falsy if falsy_only else index.all)


class _Match(object):
    """The requirer needs every ``interface`` whose ``target`` reading
    equals its own ``own`` reading (both readable)."""

    __slots__ = ('own', 'interface', 'target')

    def __init__(self, own, interface, target):
        self.own, self.interface, self.target = own, interface, target

    def __call__(self, name, props, ctx):
        if not ctx.has(self.interface):
            return  # Heat reads its own value only while looking at a target
        try:
            value = self.own(props)
        except Unreadable:
            return
        ctx.depend(name, self.interface, self.target, value)


def _server(name, props, ctx):
    # All subnets of the networks it attaches to; a network not known yet
    # (a port, or a reference) means every subnet, as does a subnet whose
    # network is not known.
    try:
        nets = props['networks']
    except Unreadable:
        return
    if not nets:
        return
    ids = set()
    for net in nets:
        net_id = net.get('network') if isinstance(net, dict) else None
        if not net_id:
            ctx.depend_on_all(name, SUBNET, _get('network'))
            return
        ids.add(net_id)
    ctx.depend_on_all(name, SUBNET, _get('network'), falsy_only=True)
    for net_id in ids:
        ctx.depend(name, SUBNET, _get('network'), net_id)


def _port_subnets(ctx, name, first_only):
    """The subnet values of the ports ``name`` requires explicitly, as the
    floating IP types compare them with a router interface's subnet; a port
    without fixed IPs matches an interface without a subnet (FloatingIP
    only)."""
    found = set()
    for dep in ctx.resources[name].requires or ():
        if not has_interface(ctx.resources[dep], PORT):
            continue
        try:
            fixed_ips = ctx.view(dep).get('fixed_ips')
        except Unreadable:
            continue
        if not fixed_ips:
            if not first_only:
                found.add(None)
            continue
        for fixed_ip in fixed_ips[:1] if first_only else fixed_ips:
            try:
                found.add(fixed_ip.get('subnet') or fixed_ip.get('subnet_id'))
            except (AttributeError, TypeError):
                continue
    return found


_INTERFACE_SUBNET = _either('subnet', 'subnet_id')


def _interfaces_on_port_subnets(first_only):
    """The router interfaces on the subnets of the ports it requires (only
    the first fixed IP of each port counts for the association types)."""
    def clause(name, props, ctx):
        if not ctx.has(ROUTER_INTERFACE):
            return
        ctx.index(ROUTER_INTERFACE, _INTERFACE_SUBNET)  # Heat reads them all
        for subnet in _port_subnets(ctx, name, first_only):
            ctx.depend(name, ROUTER_INTERFACE, _INTERFACE_SUBNET, subnet)
    return clause


# One entry per Heat type whose plugin adds dependencies: its clauses.
RULES = {
    # All subnets of the port's network (it may get an address on any).
    'OS::Neutron::Port': (_Match(_item('network'), SUBNET, _get('network')),),
    'OS::Nova::Server': (_server,),
    # The subnets of the external gateway's network.
    'OS::Neutron::Router': (_Match(_gateway_network, SUBNET, _get('network')),),
    'OS::Neutron::RouterGateway': (
        _Match(_item('router_id'), ROUTER_INTERFACE, _item('router')),
        _Match(_item('network'), SUBNET, _item('network'))),
    'OS::Neutron::FloatingIP': (
        _Match(_item('floating_network'), ROUTER_GATEWAY, _either('network', 'network_id')),
        _Match(_item('floating_network'), ROUTER, _gateway_network),
        _interfaces_on_port_subnets(first_only=False)),
    'OS::Neutron::FloatingIPAssociation': (_interfaces_on_port_subnets(first_only=True),),
    'OS::Neutron::FloatingIPPortForward': (_interfaces_on_port_subnets(first_only=True),),
    'OS::Neutron::ExtraRouteSet': (_Match(_item('router'), ROUTER_INTERFACE, _get('router')),),
    'OS::Neutron::ExtraRoute': (
        _Match(_item('router_id'), ROUTER_INTERFACE, _get('router')),
        _Match(_item('router_id'), ROUTER_GATEWAY, _get('router_id'))),
    # Every route table of the VPC (the gateway is set on their routers).
    'AWS::EC2::VPCGatewayAttachment': (_Match(_item('VpcId'), ROUTE_TABLE, _get('VpcId')),),
}


def _declared(plugin):
    """The clauses of what a user's plugin type declares
    (``implicit_dependencies``: own property, target type, target property),
    or None."""
    declared = plugin_loader.declared_dependencies(plugin)
    if not declared:
        return None
    return tuple(_Match(_get(own), target, _get(prop)) for own, target, prop in declared)


def _rule(defn):
    """The rule of the resource's implementation: a plugin class (through
    aliases), not a provider template nor a type mapped to OS::Heat::None."""
    info = defn.type_info
    if info is None or getattr(info, 'template', None) or getattr(info, 'is_none', False):
        return None
    plugin = getattr(info, 'plugin', None)
    found = RULES.get(plugin)
    return found if found is not None else _declared(plugin)


def implicit_dependencies(stack):
    """``(refs, groups)``: ``refs`` lists ``(requirer, group_key)`` pairs,
    ``groups`` maps a group key to the resource names (template order) the
    requirer needs.  A key is a tuple: (interface, reading, 'value', value),
    or (interface, reading, 'all' | 'falsy')."""
    ctx = None
    interfaces = INTERFACES + tuple(sorted(set(
        rule[1] for loaded in plugin_loader.loaded().values() for rule in loaded.implicit_dependencies)))
    for name, defn in stack.resources.items():
        clauses = _rule(defn)
        if clauses is None:
            continue
        if ctx is None:
            ctx = _Context(stack, interfaces)
        props = ctx.view(name)
        for clause in clauses:
            clause(name, props, ctx)
    if ctx is None:
        return [], {}
    return ctx.refs, ctx.groups
