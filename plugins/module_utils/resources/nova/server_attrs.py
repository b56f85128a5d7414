# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::Server attributes as Heat's _resolve_attribute computes them.

``addresses`` is built from the server's Neutron ports (so each fixed
address names its port, with its subnets and network), floating IPs first
as Heat appends them; ``networks`` is Nova's label -> addresses map; both
are also keyed by network id.  Only those two cost Neutron requests; they
are computed when asked for (``names``), and the reads are shared when both
are.  ``console_urls`` is a lazy map: its requests (one per console type)
are made only when it is read.  ``show`` is Heat's ``_show_resource``:
novaclient's ``servers.get(id).to_dict()``, Nova's own JSON of the server
at the microversion Heat's client speaks, read by one GET of its own when
asked for (the SDK's Server has every field of every microversion, most of
them null where Nova sent nothing)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ipaddress

from ...errors import CloudError, CloudNotFound
from .. import raw_request, sdk
from ..base import own_metadata
from .common import as_dict

# Heat 27's self.client() is MicroversionMixin.client (first in
# NovaClientPlugin's MRO): with no version it asks get_max_microversion(),
# Nova's newest capped at its novaclient's API_MAX_VERSION, not
# NOVA_API_VERSION 2.1 (server_network.NO_NETWORKS is the same finding).
# Each microversion changes the body's keys (2.3 OS-EXT-SRV-ATTR:hostname,
# 2.26 tags, 2.100 scheduler_hints): Heat's key set is that of this cap.
NOVACLIENT_MAX_MICROVERSION = (2, 96)
CONSOLE_TYPES = ('novnc', 'xvpvnc', 'spice-html5', 'rdp-html5', 'serial', 'webmks')


def attributes(ctx, live, server_name, names=None):
    """The attributes of the type from ``live`` (the server's API dict,
    marks hidden) — '' where Heat answers '' for a missing server (None for
    ``show``): all of them, but ``addresses``, ``networks`` and ``show`` only
    when ``names`` is None or names them."""
    meta = ctx.metadata if isinstance(ctx.metadata, dict) else {}
    attrs = {'name': server_name, 'os_collect_config': meta.get('os-collect-config', {})}
    if not isinstance(live, dict):
        for key in ('addresses', 'networks', 'instance_name', 'accessIPv4', 'accessIPv6',
                    'console_urls', 'tags'):
            attrs[key] = ''
        attrs['first_address'] = ''
        # Heat's _resolve_any_attribute: a missing server's show is None
        attrs['show'] = None
        return attrs
    ports = Neutron(ctx.conn, live.get('id'))
    if names is None or 'addresses' in names:
        attrs['addresses'] = ports.addresses()
    if names is None or 'networks' in names:
        attrs['networks'] = ports.extend(_labels(live))
    attrs['first_address'] = first_address(live)
    attrs['instance_name'] = live.get('OS-EXT-SRV-ATTR:instance_name')
    attrs['accessIPv4'] = live.get('accessIPv4')
    attrs['accessIPv6'] = live.get('accessIPv6')
    attrs['console_urls'] = ConsoleUrls(ctx.conn, live.get('id'))
    attrs['tags'] = list(live.get('tags') or [])
    if names is None or 'show' in names:
        attrs['show'] = show(ctx.conn, live.get('id') or ctx.physical_id, meta)
    return attrs


def show_microversion(conn):
    """The compute microversion Heat's servers.get speaks (None: a Nova
    without microversions, asked without one)."""
    newest = sdk.max_microversion(conn, 'compute')
    if not newest:
        return None
    return '%d.%d' % min(tuple(newest), NOVACLIENT_MAX_MICROVERSION)


def show(conn, server_id, meta):
    """Heat's show of the server: Nova's body at show_microversion(), the
    stack marks left out of its metadata, ``os_collect_config`` (the
    attribute's name) set from the resource's metadata (``meta``) as
    BaseServer._show_resource sets it; None when the server is gone (Heat
    ignores the not-found)."""
    try:
        body = raw_request.send_json(conn.compute, 'GET', raw_request.path('servers', server_id),
                                     microversion=show_microversion(conn))
    except CloudNotFound:
        return None
    view = public_view((body or {}).get('server') or {})
    view.setdefault('os_collect_config', meta.get('os-collect-config', {}))
    return view


def public_view(live):
    """The server as the user made it: the stack marks left out."""
    view = dict(live)
    if isinstance(view.get('metadata'), dict):
        view['metadata'] = own_metadata(view['metadata'])
    return view


def _labels(live):
    # novaclient's Server.networks: label -> the addresses' text
    return dict((label, [a.get('addr') for a in addrs])
                for label, addrs in (live.get('addresses') or {}).items())


def first_address(live):
    """Heat's server_to_ipaddress: the first address of the last label."""
    nets = _labels(live)
    for label in sorted(nets, reverse=True):
        if nets[label]:
            return nets[label][0]
    return ''


class Neutron(object):
    """The Neutron side of a server, read once per attributes() call."""

    def __init__(self, conn, server_id):
        self.conn = conn
        self.server_id = server_id
        self._nets = {}
        self._subnets = {}

    def network(self, net_id):
        if net_id not in self._nets:
            try:
                self._nets[net_id] = as_dict(sdk.call(self.conn.network.get_network, net_id))
            except CloudError:
                # Heat logs the failure and gives None
                self._nets[net_id] = None
        return self._nets[net_id]

    def subnets(self, fixed_ips):
        out = []
        for fixed in fixed_ips:
            sid = fixed.get('subnet_id')
            if not sid:
                continue
            if sid not in self._subnets:
                try:
                    self._subnets[sid] = as_dict(sdk.call(self.conn.network.get_subnet, sid))
                except CloudError:
                    return None
            out.append(self._subnets[sid])
        return out

    def addresses(self):
        ports = sdk.call(lambda: list(self.conn.network.ports(device_id=self.server_id)))
        fips = None
        nets = {}
        for port in ports:
            net = self.network(port.network_id)
            label = net['name'] if net else port.network_id
            entries = nets.setdefault(label, [])
            for fixed in port.fixed_ips or []:
                addr = {'addr': fixed.get('ip_address'),
                        'OS-EXT-IPS-MAC:mac_addr': port.mac_address,
                        'OS-EXT-IPS:type': 'fixed', 'port': port.id}
                try:
                    # Heat's value is a one-element tuple (a stray comma):
                    # it reaches templates as a list
                    addr['version'] = [ipaddress.ip_address(addr['addr']).version]
                except ValueError:
                    addr['version'] = None
                if addr['addr']:
                    if fips is None:
                        fips = sdk.call(lambda: list(self.conn.network.ips()))
                    for fip in fips:
                        if fip.fixed_ip_address == addr['addr']:
                            entries.append({'addr': fip.floating_ip_address,
                                            'version': addr['version'],
                                            'OS-EXT-IPS-MAC:mac_addr': port.mac_address,
                                            'OS-EXT-IPS:type': 'floating', 'port': None})
                addr['subnets'] = self.subnets(port.fixed_ips)
                addr['network'] = net
                entries.append(addr)
        return self.extend(nets)

    def extend(self, nets):
        """Heat's _extend_networks: each label also under its network's id
        (when the name names one network)."""
        out = dict(nets)
        by_name = {}
        for net in self._nets.values():
            if net:
                by_name.setdefault(net['name'], []).append(net['id'])
        for label in list(nets):
            ids = by_name.get(label)
            if ids is None:
                found = sdk.call(lambda: list(self.conn.network.networks(name=label)))
                ids = [n.id for n in found]
                by_name[label] = ids
            if len(ids) == 1:
                out[ids[0]] = nets[label]
        return out


class ConsoleUrls(dict):
    """Heat's lazy console map: type -> URL, or the error text.  A dict so
    it serialises; the requests happen at the first read."""

    def __init__(self, conn, server_id):
        super(ConsoleUrls, self).__init__()
        self._conn = conn
        self._server_id = server_id
        self._loaded = False
        # real keys, so that json's C encoder (which checks the dict's own
        # size first) reaches items() and the load
        for kind in CONSOLE_TYPES:
            dict.__setitem__(self, kind, None)

    def _load(self):
        if self._loaded:
            return
        self._loaded = True
        for kind in CONSOLE_TYPES:
            try:
                data = sdk.call(self._conn.compute.get_server_console_url, self._server_id, kind)
                url = (data or {}).get('url')
            except (CloudError, ValueError) as exc:
                url = 'Cannot get console url: %s' % exc
            dict.__setitem__(self, kind, url)

    def __getitem__(self, key):
        self._load()
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._load()
        return dict.get(self, key, default)

    def items(self):
        self._load()
        return dict.items(self)

    def keys(self):
        self._load()
        return dict.keys(self)

    def values(self):
        self._load()
        return dict.values(self)

    def __iter__(self):
        self._load()
        return dict.__iter__(self)

    def __len__(self):
        return len(CONSOLE_TYPES)

    def __contains__(self, key):
        return key in CONSOLE_TYPES

    def __repr__(self):
        return 'ConsoleUrls(%s)' % self._server_id

    def __eq__(self, other):
        self._load()
        return dict.__eq__(self, other)

    __hash__ = None

    def copy(self):
        self._load()
        return dict(self)

    def __reduce__(self):
        self._load()
        return (dict, (dict(self),))

    def __deepcopy__(self, memo):
        return self.copy()
