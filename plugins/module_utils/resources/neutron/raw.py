# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Neutron's hot calls as raw JSON: create, show, delete and the tags PUT.

They go through the network proxy's public keystoneauth Adapter methods
(``sdk.request_json``): Neutron's JSON is what the plugins read and what
``show`` answers, and building an SDK Resource for the request and another
from the answer would cost more CPU than the request itself.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from urllib.parse import urlencode

from .. import sdk
from ...errors import CloudNotFound

# Entity -> (its collection's path under the network endpoint, the JSON key
# of one object): the entities whose hot calls go as raw JSON.
RAW = {
    'network': ('/networks', 'network'), 'subnet': ('/subnets', 'subnet'),
    'port': ('/ports', 'port'), 'router': ('/routers', 'router'),
    'security_group': ('/security-groups', 'security_group'),
    'security_group_rule': ('/security-group-rules', 'security_group_rule'),
    'trunk': ('/trunks', 'trunk'), 'qos_policy': ('/qos/policies', 'policy'),
    'subnet_pool': ('/subnetpools', 'subnetpool'), 'address_scope': ('/address-scopes', 'address_scope'),
    'rbac_policy': ('/rbac-policies', 'rbac_policy'), 'segment': ('/segments', 'segment'),
    'metering_label': ('/metering/metering-labels', 'metering_label'),
    'metering_label_rule': ('/metering/metering-label-rules', 'metering_label_rule'),
}
# Neutron's tag extension serves a QoS policy's tags at the root, not under /qos
# (PUT /qos/policies/{id}/tags answers "Invalid tags body"; the SDK uses this too).
TAGS_BASE = {'qos_policy': '/policies'}


def raw_create(conn, entity, body):
    """POST one object; Neutron's JSON of it."""
    path, key = RAW[entity]
    return sdk.request_json(conn.network, 'POST', path, {key: body}, retry_writes=False)[key]


def raw_get(conn, entity, ident):
    """Neutron's JSON of one object, or None when it is gone."""
    path, key = RAW[entity]
    try:
        return sdk.request_json(conn.network, 'GET', '%s/%s' % (path, ident))[key]
    except CloudNotFound:
        return None


def raw_delete(conn, entity, ident):
    """DELETE one object; gone already is success."""
    try:
        sdk.request_json(conn.network, 'DELETE', '%s/%s' % (RAW[entity][0], ident))
    except CloudNotFound:
        pass


def raw_set_tags(conn, entity, ident, tags):
    """Neutron's PUT .../tags: the object's whole tag list replaced."""
    base = TAGS_BASE.get(entity) or RAW[entity][0]
    sdk.request_json(conn.network, 'PUT', '%s/%s/tags' % (base, ident),
                     {'tags': list(tags)})


def raw_update(conn, entity, ident, body):
    """PUT the changed fields of one object; Neutron's JSON of it."""
    path, key = RAW[entity]
    return sdk.request_json(conn.network, 'PUT', '%s/%s' % (path, ident), {key: body})[key]


def raw_list(conn, path, plural, **query):
    """Neutron's JSON of the objects of a collection that match ``query``
    (Neutron's own filters, by its field names)."""
    if query:
        path = '%s?%s' % (path, urlencode(sorted(query.items())))
    return sdk.request_json(conn.network, 'GET', path)[plural]


def raw_delete_path(conn, path):
    """DELETE one object by its path; gone already is success."""
    try:
        sdk.request_json(conn.network, 'DELETE', path)
    except CloudNotFound:
        pass
