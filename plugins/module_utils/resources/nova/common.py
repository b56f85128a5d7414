# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the nova plugins share: name-or-id lookups (a UUID is used as is,
a name costs one list call), the server status rules of Heat's nova client
plugin, and SDK objects as the plain dicts the API returned."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

# The Cloud* errors are re-exported: the server modules catch them as common.CloudNotFound.
from ...errors import CloudNotFound, CloudTransient, ResourceFailure  # noqa: F401 pylint: disable=unused-import
from .. import sdk

# Heat's NovaClientPlugin.deferred_server_statuses: still moving, poll again.
DEFERRED_STATUSES = frozenset((
    'BUILD', 'HARD_REBOOT', 'PASSWORD', 'REBOOT', 'RESCUE', 'RESIZE',
    'REVERT_RESIZE', 'SHUTOFF', 'SUSPENDED', 'VERIFY_RESIZE'))


def is_uuid(value):
    """Heat's uuidutils.is_uuid_like: a UUID in any accepted spelling."""
    if not isinstance(value, str):
        return False
    try:
        return str(uuid.UUID(value)).replace('-', '') == value.replace('-', '').lower()
    except (TypeError, ValueError, AttributeError):
        return False


def as_dict(obj):
    """The API's own view of an SDK resource (original field names), or the
    dict given."""
    if obj is None:
        return None
    # SDK resources are dicts too: ask them first
    to_dict = getattr(obj, 'to_dict', None)
    if to_dict is None:
        return dict(obj)
    view = to_dict(original_names=True, headers=False, computed=False)
    # A member the SDK reads into a resource class of its own (a server's
    # image and flavor) comes out with every field of that class, dozens of
    # them null (an image's hw_*): keep those the API sent.
    for key, value in (view.items() if isinstance(view, dict) else ()):
        if isinstance(value, dict) and hasattr(getattr(obj, key, None), 'to_dict'):
            view[key] = dict((k, v) for k, v in value.items() if v is not None)
    return view


def not_found(entity, name):
    """Heat's EntityNotFound wording."""
    return ResourceFailure('The %s (%s) could not be found.' % (entity, name))


def _one(entity, name, found):
    found = list(found)
    if not found:
        raise not_found(entity, name)
    if len(found) > 1:
        # Heat's PhysicalResourceNameAmbiguity
        raise ResourceFailure('Multiple physical resources were found with name (%s).' % name)
    return found[0]


# -- name or id --------------------------------------------------------------------

def image_id(conn, image):
    """An image named once per run is looked up once (sdk.remembered)."""
    if not image or is_uuid(image):
        return image
    return sdk.remembered(conn, ('image', image), lambda: _one(
        'Image', image, sdk.call(lambda: list(conn.image.images(name=image)))).id)


def flavor_id(conn, flavor):
    """Flavor ids are free strings ('1', 'm1.tiny'): one list answers both
    the id and the name question, as Heat's get-then-find does.  The list
    is read once per run; a flavor missing from it is listed again (a
    flavor the stack itself made after the first read)."""
    if not flavor or is_uuid(flavor):
        return flavor

    def listed():
        return sdk.call(lambda: list(conn.compute.flavors(details=False)))
    flavors = sdk.remembered(conn, ('flavors',), listed)
    if not any(flavor in (f.id, f.name) for f in flavors):
        flavors = sdk.remembered(conn, ('flavors',), listed, forget=True)
    for item in flavors:
        if item.id == flavor:
            return item.id
    return _one('Flavor', flavor, [f for f in flavors if f.name == flavor]).id


def network_id(conn, network):
    if not network or is_uuid(network):
        return network
    return _one('network', network, sdk.call(lambda: list(conn.network.networks(name=network)))).id


def subnet(conn, subnet_ref):
    """The subnet as (id, network_id or None when not fetched)."""
    if not subnet_ref:
        return None, None
    if is_uuid(subnet_ref):
        return subnet_ref, None
    found = _one('subnet', subnet_ref, sdk.call(lambda: list(conn.network.subnets(name=subnet_ref))))
    return found.id, found.network_id


def subnet_network_id(conn, subnet_id):
    return sdk.call(conn.network.get_subnet, subnet_id).network_id


def port_id(conn, port):
    if not port or is_uuid(port):
        return port
    return _one('port', port, sdk.call(lambda: list(conn.network.ports(name=port)))).id


def security_group_ids(conn, groups, project_id=None):
    """Heat's get_secgroup_uuids: ids as given, names looked up in the
    project (one list call for all names)."""
    groups = list(groups or ())
    names = [g for g in groups if not is_uuid(g)]
    if not names:
        return groups
    query = {'project_id': project_id} if project_id else {}
    found = sdk.call(lambda: list(conn.network.security_groups(**query)))
    out = []
    for group in groups:
        if is_uuid(group):
            out.append(group)
            continue
        matches = [sg.id for sg in found if sg.name == group]
        if not matches:
            raise not_found('security_group', group)
        if len(matches) > 1:
            raise ResourceFailure('Multiple security_group matches found for name '
                                  "'%s', use an ID to be more specific." % group)
        out.append(matches[0])
    return out


# -- server status (Heat's nova client plugin) ----------------------------------------

def status_of(server):
    status = server.get('status') if isinstance(server, dict) else getattr(server, 'status', None)
    return (status or '').split('(')[0]


def task_state(server):
    """Nova's task in progress on the server (``suspending``, ``deleting``...), or None."""
    # an SDK Server is a dict too: its attribute first, then the API's key
    task = getattr(server, 'task_state', None)
    if task is None and isinstance(server, dict):
        task = server.get('OS-EXT-STS:task_state')
    return task


def fault_of(server):
    fault = server.get('fault') if isinstance(server, dict) else getattr(server, 'fault', None)
    return fault or {}


def check_active(ctx, server, res_name='Server'):
    """True when ACTIVE, False while deferred; ERROR and unknown statuses
    fail with Heat's wording."""
    status = status_of(server)
    if status in DEFERRED_STATUSES:
        return False
    if status == 'ACTIVE':
        return True
    if status == 'ERROR':
        fault = fault_of(server)
        ctx.in_error('ERROR', 'Message: %s, Code: %s' % (
            fault.get('message', 'Unknown'), fault.get('code', 'Unknown')))
    ctx.unknown_status('%s is not active' % res_name,
                       server.get('status') if isinstance(server, dict) else status)
