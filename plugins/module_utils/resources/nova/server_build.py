# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The parts of a server create body that need no network: user data,
metadata, block device mappings (Heat's handle_create helpers)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import base64
import json

from ...errors import ResourceFailure
from . import common

# Nova refuses larger user data (the API's limit on the base64 text)
MAX_USER_DATA = 65535


def user_data(props, text=None):
    """The user data Nova gets (base64 text), or None for none: ``text``
    (server_software.user_data: Heat's build_userdata) or the property."""
    text = props.get('user_data') if text is None else text
    if not text:
        # novaclient sends no user data for an empty string
        return None
    data = text.encode('utf-8') if isinstance(text, str) else text
    encoded = base64.b64encode(data).decode('ascii')
    if len(encoded) > MAX_USER_DATA:
        raise ResourceFailure(
            'User data is too large: %d bytes base64-encoded, the limit is %d.'
            % (len(encoded), MAX_USER_DATA))
    return encoded


def meta_serialize(metadata):
    """Heat's meta_serialize: non-string values go as JSON text."""
    return dict((k, v if isinstance(v, str) else json.dumps(v))
                for k, v in (metadata or {}).items())


def server_metadata(ctx, metadata):
    return ctx.metadata_tags(meta_serialize(metadata))


def block_device_mapping_v2(conn, mappings):
    """Heat's _build_block_device_mapping_v2 (image names resolved once)."""
    out = []
    for m in mappings or ():
        bdm = None
        image = m.get('image') or m.get('image_id')
        if m.get('volume_id'):
            bdm = _volume_source(m['volume_id'], 'volume')
        elif m.get('snapshot_id'):
            bdm = _volume_source(m['snapshot_id'], 'snapshot')
        elif image:
            bdm = _volume_source(common.image_id(conn, image), 'image')
        elif m.get('swap_size'):
            bdm = {'source_type': 'blank', 'destination_type': 'local', 'boot_index': -1,
                   'delete_on_termination': True, 'guest_format': 'swap',
                   'volume_size': m['swap_size']}
        elif m.get('ephemeral_size') or m.get('ephemeral_format'):
            bdm = {'source_type': 'blank', 'destination_type': 'local', 'boot_index': -1,
                   'delete_on_termination': True}
            if m.get('ephemeral_size'):
                bdm['volume_size'] = m['ephemeral_size']
            if m.get('ephemeral_format'):
                bdm['guest_format'] = m['ephemeral_format']
        if bdm is None:
            continue
        if m.get('device_name'):
            bdm['device_name'] = m['device_name']
        for key in ('device_type', 'disk_bus', 'boot_index', 'volume_size',
                    'delete_on_termination', 'volume_type'):
            if m.get(key) is not None:
                bdm[key] = m[key]
        out.append(bdm)
    return out


def _volume_source(uuid, source):
    return {'uuid': uuid, 'source_type': source, 'destination_type': 'volume',
            'boot_index': 0, 'delete_on_termination': False}


def block_device_mapping_v1(mappings):
    """The legacy mapping Heat sends as ``device: id:type:size:delete``,
    in the v2 form Nova converts it to (the SDK sends only v2): the root
    device (vda) boots."""
    out = []
    for m in mappings or ():
        snap = m.get('snapshot_id')
        bdm = {'uuid': snap or m.get('volume_id'),
               'source_type': 'snapshot' if snap else 'volume',
               'destination_type': 'volume',
               'device_name': m.get('device_name'),
               'delete_on_termination': bool(m.get('delete_on_termination'))}
        if m.get('volume_size'):
            bdm['volume_size'] = m['volume_size']
        name = (m.get('device_name') or '').rsplit('/', 1)[-1]
        bdm['boot_index'] = 0 if name in ('vda', 'sda', 'xvda') else -1
        out.append(bdm)
    return out


def scheduler_hints(hints):
    # Heat adds heat_* hints only with stack_scheduler_hints (off by default)
    return dict(hints) if hints else None
