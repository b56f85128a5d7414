# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The config types built from their properties, kept in the record as
SoftwareConfig is (software_config.py), each building its ``config`` as
Heat's handle_create does:

- OS::Heat::StructuredConfig: the ``config`` map as given (its deployment,
  OS::Heat::StructuredDeployment, substitutes the inputs into it);
- OS::Heat::CloudConfig: ``#cloud-config`` and the YAML of ``cloud_config``,
  group Heat::Ungrouped;
- OS::Heat::MultipartMime: a MIME multipart of its ``parts``: a part that is a
  config's id is that config's text (found in the record), a ``multipart``
  part contributes each of its own parts;
- OS::Heat::SoftwareComponent: ``{configs: [...]}`` in group ``component``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import email
import os
import re
from email.mime import multipart, text

try:
    import yaml
except ImportError:  # pragma: no cover - PyYAML is a requirement; the module reports it
    yaml = None

from .software_config import CONFIG, SoftwareConfig

_UUID = re.compile(r'^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$')


class StructuredConfig(SoftwareConfig):
    type_name = 'OS::Heat::StructuredConfig'


class CloudConfig(SoftwareConfig):
    type_name = 'OS::Heat::CloudConfig'

    def config_text(self, ctx):
        dumped = yaml.safe_dump(ctx.properties.get('cloud_config'), default_flow_style=False)
        return '#cloud-config\n%s' % dumped


class SoftwareComponent(SoftwareConfig):
    type_name = 'OS::Heat::SoftwareComponent'

    @classmethod
    def validate(cls, given):
        # Heat's SoftwareComponent.validate: one config per action (a config
        # without ``actions`` has CREATE and UPDATE), for the order of the
        # configs of an action would be undefined.
        seen = set()
        for index, config in enumerate(given.props.get('configs') or ()):
            actions = config.get('actions') or ()
            if any(action in seen for action in actions):
                given.fail('Defining more than one configuration for the same action in '
                           'SoftwareComponent "%s" is not allowed.' % given.resource_name,
                           'configs', index, 'actions')
            seen.update(actions)

    def config_text(self, ctx):
        return {'configs': ctx.properties.get('configs')}

    def create(self, ctx):
        config_id = super(SoftwareComponent, self).create(ctx)
        ctx.data[CONFIG]['group'] = 'component'
        return config_id

    def attributes(self, ctx, live, names=None):
        attrs = super(SoftwareComponent, self).attributes(ctx, live, names)
        attrs['configs'] = (attrs.get(CONFIG) or {}).get('configs')
        return attrs


def mime_text(part, subtype, filename, always_attach=False):
    """One text part as Heat makes it: us-ascii when it can be, an attachment when named (or,
    with ``always_attach``, even with an empty filename, as the server's build_userdata does)."""
    try:
        part.encode('us-ascii')
        charset = 'us-ascii'
    except UnicodeEncodeError:
        charset = 'utf-8'
    msg = (text.MIMEText(part, _subtype=subtype, _charset=charset) if subtype
           else text.MIMEText(part, _charset=charset))
    if filename or always_attach:
        msg.add_header('Content-Disposition', 'attachment', filename=filename)
    return msg


def _append(subparts, part, subtype, filename):
    if not subtype and filename:
        subtype = os.path.splitext(filename)[0]
    subparts.append(mime_text(part or '', subtype, filename))


def multipart_message(ctx, parts):
    """Heat's MultipartMime.get_message of ``parts``."""
    subparts = []
    for item in parts or ():
        config = item.get(CONFIG)
        part = config
        if isinstance(config, str) and _UUID.match(config):
            peer = ctx.lookup(config)
            stored = peer.data.get(CONFIG) if peer is not None else None
            if isinstance(stored, dict):
                part = stored.get(CONFIG)
        if (item.get('type') or 'text') == 'multipart':
            given = email.message_from_string(part or '')
            if given.is_multipart():
                for sub in given.get_payload():
                    _append(subparts, sub.get_payload(), sub.get_content_subtype(),
                            sub.get_filename())
        else:
            _append(subparts, part, item.get('subtype') or '', item.get('filename') or '')
    return multipart.MIMEMultipart(_subparts=subparts).as_string()


class MultipartMime(SoftwareConfig):
    type_name = 'OS::Heat::MultipartMime'

    def config_text(self, ctx):
        return multipart_message(ctx, ctx.properties.get('parts'))
