# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A server's networks as Heat's ServerNetworkMixin handles them.

An entry with ``subnet`` or ``port_extra_properties`` gets an *internal*
port that the server owns (created before the server, named
``<resource>-port-<index>``, deleted after the server); its id is kept in
``ctx.data['internal_ports']`` so a delete after a crash still finds it.
Other entries go to Nova as ``uuid``/``port``/``fixed_ip``/``tag``.
On update the old and new lists are matched against the server's
interfaces; what no longer matches is detached, what is new attached."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from .. import sdk
from . import common

KEYS = ('uuid', 'network', 'fixed_ip', 'port', 'subnet', 'port_extra_properties',
        'floating_ip', 'allocate_network', 'tag')
IFACE_KEYS = ('port', 'network', 'fixed_ip', 'subnet')

# Heat 27 asks Nova with its highest microversion, where a server needs
# networks; novaclient refuses the create before any request is sent.
# (NovaClientPlugin's MRO puts MicroversionMixin.client before
# ClientPlugin.client, so client() with no version uses
# get_max_microversion(), not NOVA_API_VERSION 2.1; the real Heat on the local
# cloud fails such a server this way and makes no POST /servers.)
NO_NETWORKS = 'nics are required after microversion 2.36'

# port_extra_properties -> the SDK's Port attribute (other keys ignored)
_PORT_EXTRA = {'admin_state_up': 'is_admin_state_up', 'mac_address': 'mac_address',
               'binding:vnic_type': 'binding_vnic_type',
               'port_security_enabled': 'is_port_security_enabled',
               'propagate_uplink_status': 'propagate_uplink_status',
               'allowed_address_pairs': 'allowed_address_pairs'}


def resolve(conn, networks):
    """Entries with every key present and names turned into ids (Heat's
    translation rules: uuid -> network, then name-or-id lookups)."""
    out = []
    for net in networks or ():
        entry = dict((k, (net or {}).get(k)) for k in KEYS)
        if entry['uuid'] and not entry['network']:
            entry['network'] = entry['uuid']
        entry['uuid'] = None
        entry['network'] = common.network_id(conn, entry['network'])
        if entry['subnet']:
            sid, snet = common.subnet(conn, entry['subnet'])
            entry['subnet'] = sid
            if snet and not entry['network']:
                entry['network'] = snet
        entry['port'] = common.port_id(conn, entry['port'])
        out.append(entry)
    return out


def str_network(nets):
    for net in nets or ():
        if net.get('allocate_network'):
            return net['allocate_network']
    return None


def network_id(conn, net):
    if net.get('network'):
        return net['network']
    if net.get('subnet'):
        return common.subnet_network_id(conn, net['subnet'])
    return None


def build_nics(ctx, nets, security_groups):
    """The ``networks`` of the create body (Heat's _build_nics)."""
    if not nets:
        ctx.fail(NO_NETWORKS)
    allocate = str_network(nets)
    if allocate:
        return allocate
    nics = []
    for idx, net in enumerate(nets):
        nic = {}
        net_id = network_id(ctx.conn, net)
        if net_id:
            nic['uuid'] = net_id
        port = net.get('port')
        if not port and (net.get('subnet') or net.get('port_extra_properties')):
            port = create_internal_port(ctx, net, idx, security_groups, net_id)
        if port:
            nic['port'] = port
        elif net.get('fixed_ip'):
            nic['fixed_ip'] = net['fixed_ip']
        if net.get('floating_ip') and port:
            associate_fip(ctx, net, port)
        if net.get('tag'):
            nic['tag'] = net['tag']
        nics.append(nic)
    return nics


def associate_fip(ctx, net, port):
    body = {'port_id': port}
    if net.get('fixed_ip'):
        body['fixed_ip_address'] = net['fixed_ip']
    sdk.call(ctx.conn.network.update_ip, net['floating_ip'], **body)


def create_internal_port(ctx, net, idx, security_groups, net_id=None):
    attrs = {'network_id': net_id or network_id(ctx.conn, net),
             'name': '%s-port-%s' % (ctx.name, idx), 'tags': ctx.tags()}
    fixed = {}
    if net.get('fixed_ip'):
        fixed['ip_address'] = net['fixed_ip']
    if net.get('subnet'):
        fixed['subnet_id'] = net['subnet']
    if fixed:
        attrs['fixed_ips'] = [fixed]
    if security_groups:
        attrs['security_group_ids'] = common.security_group_ids(
            ctx.conn, security_groups, ctx.conn.current_project_id)
    attrs.update(_extra(ctx.conn, net.get('port_extra_properties')))
    port = sdk.call(ctx.conn.network.create_port, retry_writes=False, **attrs)
    ctx.data.setdefault('internal_ports', []).append(port.id)
    return port.id


def _extra(conn, extra):
    if not extra:
        return {}
    out = {}
    for key, attr in _PORT_EXTRA.items():
        if extra.get(key) is not None:
            out[attr] = extra[key]
    if extra.get('no_fixed_ips'):
        out['fixed_ips'] = []
    qos = extra.get('qos_policy')
    if qos:
        out['qos_policy_id'] = qos if common.is_uuid(qos) else sdk.call(
            conn.network.find_qos_policy, qos, ignore_missing=False).id
    return out


def delete_internal_port(ctx, port_id):
    sdk.delete_quietly(ctx.conn.network.delete_port, port_id, ignore_missing=False)
    ports = ctx.data.get('internal_ports') or []
    if port_id in ports:
        ports.remove(port_id)


def delete_internal_ports(ctx):
    for port_id in list(ctx.data.get('internal_ports') or ()):
        delete_internal_port(ctx, port_id)
    ctx.data.pop('internal_ports', None)


# -- update: which interfaces go, which come ---------------------------------------

def calculate(ctx, old_nets, new_nets, ifaces, security_groups):
    """(ports to detach, attach kwargs) as Heat's calculate_networks."""
    allocate = str_network(new_nets)
    if allocate:
        remove = [i['port_id'] for i in ifaces]
        add = []
        if allocate == 'auto':
            add.append(_auto_attach(ctx, security_groups))
        return remove, add
    if not new_nets and not old_nets:
        return [], []
    new_nets = [dict(n) for n in new_nets or ()]
    old_nets = [dict(n) for n in old_nets or ()]
    remove, kept = [], []
    if not old_nets or str_network(old_nets):
        remove = [i['port_id'] for i in ifaces]
    else:
        kept = _exclude_unchanged(ctx, old_nets, new_nets, ifaces)
        for net in old_nets:
            if net.get('port'):
                remove.append(net['port'])
            if net.get('floating_ip'):
                sdk.delete_quietly(ctx.conn.network.update_ip, net['floating_ip'], port_id=None)
    return remove, _add_nets(ctx, new_nets, kept, security_groups)


def _auto_attach(ctx, security_groups):
    conn = ctx.conn
    project = conn.current_project_id
    nets = [n.id for n in sdk.call(lambda: list(conn.network.networks(
        project_id=project, is_shared=False, is_admin_state_up=True)))]
    nets += [n.id for n in sdk.call(lambda: list(conn.network.networks(is_shared=True)))]
    if not nets:
        topo = sdk.call(conn.network.get_auto_allocated_topology, project)
        nets = [topo.id]
    if len(nets) > 1:
        ctx.fail('Unable to automatically allocate a network: Multiple possible networks found.')
    args = {'port_id': None, 'net_id': nets[0], 'fip': None}
    if security_groups:
        args['security_groups'] = common.security_group_ids(conn, security_groups, project)
    return args


def _add_nets(ctx, new_nets, kept, security_groups):
    sg_ids = None
    if security_groups:
        sg_ids = common.security_group_ids(ctx.conn, security_groups, ctx.conn.current_project_id)
    if not new_nets and not kept:
        args = {'port_id': None, 'net_id': None, 'fip': None}
        if sg_ids:
            args['security_groups'] = sg_ids
        return [args]
    add = []
    for idx, net in enumerate(new_nets):
        args = {'port_id': None, 'net_id': None, 'fip': None}
        if net.get('port'):
            args['port_id'] = net['port']
        elif net.get('subnet') or net.get('port_extra_properties'):
            args['port_id'] = create_internal_port(ctx, net, idx, security_groups)
        if not args['port_id']:
            args['net_id'] = network_id(ctx.conn, net)
            if sg_ids:
                args['security_groups'] = sg_ids
        if args['net_id']:
            args['fip'] = net.get('fixed_ip')
        if net.get('floating_ip') and args['port_id']:
            associate_fip(ctx, net, args['port_id'])
        add.append(args)
    return add


def _iface_props(iface):
    fixed = iface.get('fixed_ips') or []
    return {'port': iface.get('port_id'), 'network': iface.get('net_id'),
            'fixed_ip': fixed[0].get('ip_address') if fixed else None,
            'subnet': fixed[0].get('subnet_id') if fixed else None}


def _subset(small, big):
    return all(k in big and big[k] == v for k, v in small.items())


def _best_match(candidates, wanted):
    if wanted.get('port') is not None:
        return next((c for c in candidates if c.get('port') == wanted['port']
                     and _subset(wanted, c)), None)
    if wanted.get('fixed_ip') is not None:
        return next((c for c in candidates if c.get('fixed_ip') == wanted['fixed_ip']
                     and _subset(wanted, c)), None)
    best, matches = None, 0
    for cand in candidates:
        num = sum(1 for k, v in wanted.items() if k in cand and cand[k] == v) \
            if _subset(wanted, cand) else 0
        if num > matches:
            best, matches = cand, num
    return best


def _exclude_unchanged(ctx, old_nets, new_nets, ifaces):
    """Heat's _exclude_not_updated_networks: old entries are completed from
    the live interfaces; a new entry equal to an old one keeps its port."""
    props = [_iface_props(i) for i in ifaces]
    for old in old_nets:
        if old.get('port') is None:
            old['network'] = network_id(ctx.conn, old)
        reduced = dict((k, v) for k, v in old.items() if k in IFACE_KEYS and v is not None)
        match = _best_match(props, reduced)
        if match is not None:
            old.update(match)
            props.remove(match)
    for net in new_nets + old_nets:
        for key in KEYS:
            net[key] = net.get(key) or None
    kept = []
    for new in list(new_nets):
        reduced = dict((k, v) for k, v in new.items() if k not in IFACE_KEYS or v is not None)
        match = _best_match(old_nets, reduced)
        if match is not None:
            kept.append(match)
            new_nets.remove(new)
            old_nets.remove(match)
    return kept
