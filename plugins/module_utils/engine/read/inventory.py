# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stacks' servers as an inventory, without Ansible (the heat_stacks
inventory plugin maps this onto Ansible's inventory).

Every OS::Nova::Server of the stacks asked for is a host: nested stacks,
ResourceGroup and AutoScalingGroup members included (read from the store
with heat_stack_info's reads, never a lock).  Its addresses come from the
cloud, one GET of the server each (the record does not keep them: they
move as floating IPs come and go); ``ansible_host`` is its floating address
where it has one, else its first fixed one.  Groups: the stack, each group
resource holding members, and each metadata key/value of the server.
A server taking software deployments (SOFTWARE_CONFIG user data) has
``heat_deployments_url``: the GET TempURL of its deployments document, the
one its agent polls, which the software_deployment role reads.
A host is named by the first of ``hostnames`` that gives it a name no other
host of the inventory has: the server's Nova name, the resource's path in
its stack, that path after the stack's name, or the server's id.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ...errors import CloudNotFound, StackersError
from ...resources import sdk
from ...resources.base import TAG_RESOURCE, TAG_STACK
from ...resources.heat import _deploy_document as document
from ...resources.heat import _swift_signal as swift
from .info import InfoRequest, info
from ..store.backends import open_store

SERVER = 'OS::Nova::Server'
# template resources, groups and OS::Heat::Stack nest at most this deep (Heat's limit)
DEPTH = 5
# what a host can be named by, for the plugin's `hostnames` option
HOSTNAMES = ('name', 'resource', 'stack_resource', 'id')


def group_name(*parts):
    """An Ansible group name from parts: letters, digits and underscores."""
    return re.sub(r'[^A-Za-z0-9_]', '_', '_'.join(str(p) for p in parts if p != ''))


def _addresses(server):
    fixed, floating = [], []
    for network, entries in sorted((server.get('addresses') or {}).items()):
        for entry in entries or ():
            kind = entry.get('OS-EXT-IPS:type')
            (floating if kind == 'floating' else fixed).append(
                {'network': network, 'addr': entry.get('addr'), 'version': entry.get('version'),
                 'type': kind or 'fixed'})
    return fixed, floating


def _server(conn, server_id):
    if conn is None:
        return None
    try:
        return sdk.request_json(conn.compute, 'GET', '/servers/%s' % server_id)['server']
    except CloudNotFound:
        return None


def hosts(store_path, stacks=None, conn=None, *, store_key=None, store_url=None, hostnames=('name',)):
    """[{name, groups, vars}] for every server of ``stacks`` (names; None:
    every top-level stack of the store), each named by the first of
    ``hostnames`` (HOSTNAMES) that gives it a name not taken."""
    unknown = [h for h in hostnames or () if h not in HOSTNAMES]
    if unknown:
        raise StackersError('hostnames: %s is none of %s' % (', '.join(map(str, unknown)), ', '.join(HOSTNAMES)))
    listed = info(InfoRequest(store_path=store_path, store_url=store_url), conn) if not stacks else None
    names = stacks or [s['stack_name'] for s in listed['stacks']]
    out, taken = [], set()
    urls = _DocumentUrls(store_path, conn, store_url)
    for stack_name in names:
        shown = info(InfoRequest(stack_name, store_path=store_path, store_url=store_url,
                                 store_key=store_key, nested_depth=DEPTH), conn)
        stack = shown['stack']
        outputs = dict((o['output_key'], o.get('output_value')) for o in stack.get('outputs') or ())
        holders = dict((r['physical_resource_id'], r) for r in shown['resources'] if r.get('physical_resource_id'))
        for row in shown['resources']:
            if row['resource_type'] != SERVER or not row.get('physical_resource_id'):
                continue
            out.append(_host(conn, stack, outputs, row))
            path = _resource_path(stack, holders, row)
            out[-1]['vars']['heat_resource_path'] = path
            out[-1]['name'] = _host_name(hostnames or ('name',), taken, out[-1], stack, path)
            taken.add(out[-1]['name'])
            url = urls(row['physical_resource_id'], stack_name)
            if url:
                out[-1]['vars']['heat_deployments_url'] = url
    urls.close()
    return out


def _resource_path(stack, holders, row):
    """The server's resource in its top-level stack: its name, after the
    resources holding its nested stacks (``web.0``: member 0 of group web)."""
    parts = [row['resource_name']]
    stack_id, seen = row.get('stack_id'), set()
    while stack_id and stack_id != stack['id'] and stack_id in holders and stack_id not in seen:
        seen.add(stack_id)
        holder = holders[stack_id]
        parts.insert(0, holder['resource_name'])
        stack_id = holder.get('stack_id')
    return '.'.join(parts)


def _host_name(hostnames, taken, host, stack, path):
    """The first of ``hostnames`` that names the host and is not taken; the
    stack-qualified path when none is (names must be unique)."""
    candidates = {'name': host['vars'].get('heat_server_name'), 'resource': path,
                  'stack_resource': '%s.%s' % (stack['stack_name'], path),
                  'id': host['vars']['heat_server_id']}
    for choice in hostnames:
        if candidates[choice] and candidates[choice] not in taken:
            return candidates[choice]
    return host['vars']['heat_server_id'] if candidates['stack_resource'] in taken else candidates['stack_resource']


class _DocumentUrls(object):
    """server id -> the GET TempURL of its deployments document (None when
    it has none, or without a cloud to sign it), from the record."""

    def __init__(self, store_path, conn, store_url=None):
        self.conn, self.store_path, self.store_url, self.store = conn, store_path, store_url, None

    def __call__(self, server_id, stack_name):
        if self.conn is None:
            return None
        if self.store is None:
            # the same store the stacks were read from (a Swift one in an AWX job)
            self.store = open_store(self.store_path, self.store_url, self.conn, writable=False)
        self.store.get_stack(stack_name)     # a Swift store reads that stack's records only
        row = self.store.resource_by_physical_id(server_id)
        where = (row.data or {}).get(document.WHERE_KEY) if row is not None else None
        return swift.temp_url(self.conn, where[0], where[1], method='GET') if where else None

    def close(self):
        if self.store is not None:
            self.store.close()


def _host(conn, stack, outputs, row):
    server_id = row['physical_resource_id']
    server = _server(conn, server_id) or {}
    fixed, floating = _addresses(server)
    # the engine's own marks on the server are not the user's metadata
    metadata = dict((k, v) for k, v in (server.get('metadata') or {}).items()
                    if k not in (TAG_STACK, TAG_RESOURCE))
    groups = [group_name('heat', stack['stack_name'])]
    holder = row.get('parent_resource')
    if holder:
        groups.append(group_name('heat', stack['stack_name'], holder))
    for key, value in sorted(metadata.items()):
        groups.append(group_name('heat_meta', key, value))
    variables = {
        'heat_stack': stack['stack_name'], 'heat_stack_id': stack['id'],
        'heat_stack_outputs': outputs, 'heat_resource': row['resource_name'],
        'heat_nested_stack': row.get('stack_name', stack['stack_name']),
        'heat_server_id': server_id, 'heat_server_name': server.get('name'),
        'heat_server_status': server.get('status'),
        'heat_addresses': fixed + floating, 'heat_metadata': metadata,
    }
    address = (floating or fixed or [{}])[0].get('addr')
    if address:
        variables['ansible_host'] = address
    return {'name': None, 'groups': groups, 'vars': variables}
