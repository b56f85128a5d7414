# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Nova::Server updates in place, as Heat's handle_update does them.

Metadata, tags, name and the admin password change at once; interface
detach/attach, resize (resize, VERIFY_RESIZE, confirm) and rebuild are
*steps* run one after the other by check_update_complete: each step is
called once, then its checker is polled until done.  The steps live in
``ctx.data['update_steps']`` (plain JSON), so a run that dies mid-update
picks up where it was."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

from ...errors import CloudConflict
from .. import sdk
from . import common, server_build, server_network

# An attach of a free port that Nova refuses (409) is asked again on the next
# poll up to BUSY_LIMIT times; a metadata set refused, BUSY_TRIES times.
ATTACH_BUSY = 'attach_busy'
BUSY_LIMIT = 30
BUSY_TRIES = 3
# Polls of an interface check before Heat's InterfaceDetach/AttachFailed.
INTERFACE_CHECKS = 120


def _step(handler, checker, args=(), kwargs=None, checker_args=None):
    return {'handler': handler, 'args': list(args), 'kwargs': kwargs or {},
            'checker': checker, 'checker_args': list(args if checker_args is None else checker_args),
            'called': False, 'complete': False, 'polls': 0}


def start(ctx):
    """Apply what is immediate and plan the steps."""
    conn, sid = ctx.conn, ctx.physical_id
    props, old, changed = ctx.properties, ctx.old_properties or {}, ctx.changed
    server = None
    steps = []
    if 'metadata' in changed:
        server = server or sdk.call(conn.compute.get_server, sid)
        update_metadata(ctx, server, props.get('metadata'))
    if 'tags' in changed:
        server = server or sdk.call(conn.compute.get_server, sid)
        sdk.call(server.set_tags, conn.compute, list(props.get('tags') or []))
    if 'name' in changed:
        sdk.call(conn.compute.update_server, sid, name=props.get('name') or ctx.physical_name)
    if 'networks' in changed:
        steps.extend(_network_steps(ctx, old.get('networks'), props.get('networks')))
    if 'flavor' in changed:
        flavor = common.flavor_id(conn, props['flavor'])
        steps.append(_step('resize', 'check_resize', [flavor]))
        steps.append(_step('verify_resize', 'check_verify_resize'))
    rebuild_ud = ('user_data' in changed and props.get('user_data_update_policy') == 'REBUILD')
    if 'image' in changed:
        kwargs = {'preserve_ephemeral': props.get('image_update_policy') == 'REBUILD_PRESERVE_EPHEMERAL',
                  'metadata': server_build.server_metadata(ctx, props.get('metadata'))}
        if props.get('admin_pass'):
            kwargs['admin_password'] = props['admin_pass']
        if rebuild_ud:
            kwargs['user_data'] = server_build.user_data(props)
        steps.append(_step('rebuild', 'check_rebuild', [common.image_id(conn, props['image'])], kwargs))
    else:
        if rebuild_ud:
            # Heat hands the user data to rebuild as the image (a bug Nova
            # refuses); the rebuild meant keeps the image, with new user data
            steps.append(_step('rebuild', 'check_rebuild', [None],
                               {'user_data': server_build.user_data(props)}))
        if 'admin_pass' in changed and props.get('admin_pass'):
            sdk.call(conn.compute.change_server_password, sid, props['admin_pass'])
    ctx.data['update_steps'] = steps


def update_metadata(ctx, server, metadata):
    """Heat's meta_update: drop keys no longer wanted, set the rest (the
    stack marks stay)."""
    want = server_build.server_metadata(ctx, metadata)
    current = getattr(server, 'metadata', None) or {}
    for key in sorted(set(current) - set(want)):
        sdk.delete_quietly(ctx.conn.compute.delete_server_metadata, server, [key])
    # a 409 is Nova's moment (the server busy, locked a moment): the same keys
    # are set again, a bounded number of times
    for attempt in range(BUSY_TRIES):
        try:
            sdk.call(ctx.conn.compute.set_server_metadata, server, **want)
            return
        except CloudConflict:
            if attempt + 1 >= BUSY_TRIES:
                raise
            time.sleep(1.0 + attempt)


def _network_steps(ctx, old, new):
    conn = ctx.conn
    ifaces = [{'port_id': i.port_id, 'net_id': i.net_id, 'fixed_ips': i.fixed_ips or []}
              for i in sdk.call(lambda: list(conn.compute.server_interfaces(ctx.physical_id)))]
    old_nets = server_network.resolve(conn, old)
    new_nets = server_network.resolve(conn, new)
    remove, add = server_network.calculate(ctx, old_nets, new_nets, ifaces,
                                           ctx.properties.get('security_groups'))
    steps = [_step('interface_detach', 'check_interface_detach', [port]) for port in remove]
    steps += [_step('interface_attach', 'check_interface_attach', (), args, [args.get('port_id')])
              for args in add]
    return steps


def check(ctx):
    """Push the steps to completion in order (Heat's check_update_complete)."""
    steps = ctx.data.get('update_steps') or []
    for step in steps:
        if not step['called']:
            step['called'] = bool(HANDLERS[step['handler']](ctx, *step['args'], **step['kwargs']))
            return False
        if not step['complete']:
            step['polls'] += 1
            step['complete'] = bool(CHECKERS[step['checker']](ctx, step, *step['checker_args']))
            break
    # internal ports go only once Nova confirmed their detach
    for step in steps:
        if step['complete'] and step['handler'] == 'interface_detach':
            if step['args'][0] in (ctx.data.get('internal_ports') or ()):
                server_network.delete_internal_port(ctx, step['args'][0])
    done = all(step['complete'] for step in steps)
    if done:
        ctx.data.pop('update_steps', None)
    return done


def _server(ctx):
    """Heat's fetch_server: None on a transient fault (poll again)."""
    try:
        return sdk.call(ctx.conn.compute.get_server, ctx.physical_id)
    except common.CloudTransient:
        return None


# -- handlers and checkers (Heat's nova client plugin) -----------------------------

def _resize(ctx, flavor):
    if _server(ctx) is None:
        return False
    sdk.call(ctx.conn.compute.resize_server, ctx.physical_id, flavor)
    return True


def _check_resize(ctx, step, flavor):
    server = _server(ctx)
    if server is None or server.status in ('RESIZE', 'ACTIVE'):
        return False
    if server.status == 'VERIFY_RESIZE':
        return True
    ctx.fail("Resizing to '%s' failed, status '%s'" % (flavor, server.status))


def _verify_resize(ctx):
    server = _server(ctx)
    if server is None:
        return False
    status = common.status_of(server)
    if status == 'VERIFY_RESIZE':
        sdk.call(ctx.conn.compute.confirm_server_resize, ctx.physical_id)
        return True
    ctx.unknown_status('Could not confirm resize of server %s' % ctx.physical_id, status)


def _check_verify_resize(ctx, step):
    server = _server(ctx)
    if server is None:
        return False
    status = common.status_of(server)
    if status == 'ACTIVE':
        return True
    if status == 'VERIFY_RESIZE':
        return False
    task = common.task_state(server)
    if task is not None and 'resize' in task:
        return False
    ctx.unknown_status('Confirm resize for server %s failed' % ctx.physical_id, status)


def _rebuild(ctx, image, **kwargs):
    server = _server(ctx)
    if server is None:
        return False
    if image is None:
        image = (server.image or {}).get('id')
    sdk.call(ctx.conn.compute.rebuild_server, ctx.physical_id, image, **kwargs)
    return True


def _check_rebuild(ctx, step, *args):
    server = _server(ctx)
    if server is None or server.status == 'REBUILD':
        return False
    if server.status == 'ERROR':
        ctx.fail("Rebuilding server failed, status '%s'" % server.status)
    return True


def _interface_detach(ctx, port_id):
    sdk.delete_quietly(ctx.conn.compute.delete_server_interface, port_id,
                       server=ctx.physical_id, ignore_missing=False)
    return True


def _check_interface_detach(ctx, step, port_id):
    port = sdk.get_or_none(ctx.conn.network.get_port, port_id)
    done = True
    if port is not None:
        if port.device_id == ctx.physical_id:
            done = False
        else:
            server = _server(ctx)
            for addrs in ((server.addresses if server else None) or {}).values():
                for addr in addrs:
                    if (addr.get('OS-EXT-IPS:type') == 'fixed'
                            and addr.get('OS-EXT-IPS-MAC:mac_addr') == port.mac_address):
                        done = False
    if not done and step['polls'] >= INTERFACE_CHECKS:
        ctx.fail('Failed to detach interface (%s) from server (%s)' % (port_id, ctx.physical_id))
    return done


def _interface_attach(ctx, port_id=None, net_id=None, fip=None, security_groups=None):
    if _server(ctx) is None:
        return False
    attrs = {}
    if port_id:
        attrs['port_id'] = port_id
    if net_id:
        attrs['net_id'] = net_id
    if fip:
        attrs['fixed_ips'] = [{'ip_address': fip}]
    try:
        # an existing port's attach may be sent again after a 5xx or a lost
        # answer (a second one is the 409 below); one by network makes a port
        iface = sdk.call(ctx.conn.compute.create_server_interface, ctx.physical_id,
                         retry_writes=bool(port_id), **attrs)
    except CloudConflict:
        # "Port ... is still in use": on this server already (a run killed after
        # the attach, or its answer lost), the attach is done; a port no device
        # holds met a moment's refusal (the server busy): asked again on the
        # next poll, a bounded number of times; else the refusal stands
        port = sdk.get_or_none(ctx.conn.network.get_port, port_id) if port_id else None
        if port is not None and port.device_id == ctx.physical_id:
            return True
        busy = ctx.data.get(ATTACH_BUSY, 0) + 1
        if port is None or port.device_id or busy >= BUSY_LIMIT:
            raise
        ctx.data[ATTACH_BUSY] = busy
        return False
    ctx.data.pop(ATTACH_BUSY, None)
    if not port_id and security_groups:
        sdk.call(ctx.conn.network.update_port, iface.port_id, security_group_ids=security_groups)
    return True


def _check_interface_attach(ctx, step, port_id):
    if not port_id:
        return True
    server = _server(ctx)
    if server is None:
        return False
    port = sdk.call(ctx.conn.network.get_port, port_id)
    ips = [f['ip_address'] for f in (port.fixed_ips or []) if f.get('ip_address')]
    if not ips:
        done = port_id in [i.port_id for i in sdk.call(
            lambda: list(ctx.conn.compute.server_interfaces(ctx.physical_id)))]
    else:
        seen = set(a['addr'] for addrs in (server.addresses or {}).values() for a in addrs
                   if a.get('OS-EXT-IPS:type') == 'fixed')
        done = all(ip in seen for ip in ips)
    if not done and step['polls'] >= INTERFACE_CHECKS:
        ctx.fail('Failed to attach interface (%s) to server (%s)' % (port_id, ctx.physical_id))
    return done


HANDLERS = {'resize': _resize, 'verify_resize': _verify_resize, 'rebuild': _rebuild,
            'interface_detach': _interface_detach, 'interface_attach': _interface_attach}
CHECKERS = {'check_resize': _check_resize, 'check_verify_resize': _check_verify_resize,
            'check_rebuild': _check_rebuild, 'check_interface_detach': _check_interface_detach,
            'check_interface_attach': _check_interface_attach}
