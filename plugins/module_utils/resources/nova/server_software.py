# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A server's user data as Heat builds it, and its deployments document.

- RAW or SOFTWARE_CONFIG user data that is a software config's id is that
  config's text (Heat's get_software_config), found in the record.
- SOFTWARE_CONFIG: Heat's ``build_userdata`` multipart: a cloud-config part,
  a part handler that writes the ``text/x-cfninitdata`` parts where
  os-collect-config reads them (/var/lib/heat-cfntools), the user's data
  (each part of it when it is itself a multipart), then the server's
  metadata as ``cfn-init-data``.  Heat also sends a boothook (cfn-tools'
  symlinks), which nothing here needs.  The parts' texts are our own.
- ``software_config_transport`` POLL_TEMP_URL (our default: Heat's is
  POLL_SERVER_CFN, a Heat API; the others are refused at validation): the
  metadata names a GET TempURL of the server's deployments document
  (heat/_deploy_document.py), written before the server exists and deleted
  with it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import email
import json
import re
import uuid
from email.mime import multipart

from ..heat import _deploy_document as document
from ..heat import config_types
from ..heat.software_config import CONFIG

SOFTWARE_CONFIG, RAW = 'SOFTWARE_CONFIG', 'RAW'
_UUID = re.compile(r'^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$')

_CLOUD_CONFIG = "output: {all: '| tee -a /var/log/cloud-init-output.log'}\n"
_PART_HANDLER = '''#part-handler
# Writes each text/x-cfninitdata part to /var/lib/heat-cfntools/<filename>,
# where os-collect-config and heat-cfntools read them.
import os


def list_types():
    return ['text/x-cfninitdata']


def handle_part(data, ctype, filename, payload):
    if ctype in ('__begin__', '__end__'):
        return
    if not os.path.isdir('/var/lib/heat-cfntools'):
        os.makedirs('/var/lib/heat-cfntools')
    with open(os.path.join('/var/lib/heat-cfntools', filename), 'w') as out:
        out.write(payload)
'''


def config_text(ctx, user_data):
    """``user_data``, or the text of the software config it names."""
    if not isinstance(user_data, str) or not _UUID.match(user_data):
        return user_data
    peer = ctx.lookup(user_data)
    stored = peer.data.get(CONFIG) if peer is not None else None
    return stored.get(CONFIG) if isinstance(stored, dict) else user_data


def _part(content, filename, subtype=None):
    if subtype is None:
        subtype = filename.rsplit('.', 1)[0] if filename else ''
    # build_userdata marks even the user's own part an attachment, with an empty filename
    return config_types.mime_text(content or '', subtype, filename, always_attach=True)


def multipart_user_data(user_data, metadata):
    """Heat's SOFTWARE_CONFIG multipart around ``user_data``."""
    parts = [_part(_CLOUD_CONFIG, 'cloud-config'),
             _part(_PART_HANDLER, 'part-handler.py')]
    given = email.message_from_string(user_data) if user_data else None
    if given is not None and given.is_multipart():
        for part in given.get_payload():
            parts.append(_part(part.get_payload(), part.get_filename(),
                               part.get_content_subtype()))
    else:
        parts.append(_part(user_data, ''))
    if metadata:
        parts.append(_part(json.dumps(metadata), 'cfn-init-data', 'x-cfninitdata'))
    return multipart.MIMEMultipart(_subparts=parts).as_string()


def where(ctx):
    """(container, object) of the server's document, kept in its data."""
    kept = ctx.data.get(document.WHERE_KEY)
    if kept:
        return tuple(kept)
    swift_data = ctx.properties.get('deployment_swift_data') or {}
    return (swift_data.get('container') or ctx.physical_name,
            swift_data.get('object') or str(uuid.uuid4()))


def user_data(ctx):
    """The user data text Nova gets, the document made first when the
    server takes deployments."""
    props = ctx.properties
    fmt = props.get('user_data_format')
    content = props.get('user_data')
    if fmt in (SOFTWARE_CONFIG, RAW):
        content = config_text(ctx, content)
    if fmt != SOFTWARE_CONFIG:
        return content
    container, obj = where(ctx)
    ctx.data[document.WHERE_KEY] = [container, obj]
    metadata = document.metadata(ctx.conn, container, obj)
    document.create(ctx.conn, container, obj, metadata)
    return multipart_user_data(content or '', metadata)


def delete(ctx):
    kept = ctx.data.pop(document.WHERE_KEY, None)
    if kept:
        document.delete(ctx.conn, kept[0], kept[1])
