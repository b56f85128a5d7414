# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/nova/server_software.py: Heat's SOFTWARE_CONFIG multipart with
the GET TempURL of the deployments document, a config's id rendered as its
text, and the document's place and cleanup."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import email
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.heat import swift_fake  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import Peer  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _deploy_document as doc  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova import server_software as mod  # noqa: E402

S = 'OS::Nova::Server'
CONFIG_ID = '0b4bd2b4-45a8-4c2b-8e84-5f3f2d0e8b1a'


def _ctx(props, conn=None, peers=None):
    conn = conn or swift_fake.cloud('k')[0]
    peers = peers or {}

    def lookup(pid):
        return Peer('c', 'OS::Heat::SoftwareConfig', pid, 'pn', peers[pid]) if pid in peers else None
    return swift_fake.ctx(S, dict({'image': 'i', 'flavor': 'f'}, **props), conn, name='server',
                          lookup=lookup)


def _parts(text):
    msg = email.message_from_string(text)
    return [(p.get_filename(), p.get_content_type(), p.get_payload()) for p in msg.get_payload()]


def test_software_config_user_data_is_heats_multipart_naming_the_document():
    conn, swift, proxy = swift_fake.cloud('k')
    ctx = _ctx({'user_data_format': 'SOFTWARE_CONFIG', 'user_data': '#!/bin/sh\necho boot\n'}, conn)
    text = mod.user_data(ctx)
    parts = _parts(text)
    assert [(p[0], p[1]) for p in parts] == [
        ('cloud-config', 'text/cloud-config'), ('part-handler.py', 'text/part-handler'),
        ('', 'text/plain'), ('cfn-init-data', 'text/x-cfninitdata')]
    assert parts[2][2] == '#!/bin/sh\necho boot\n'
    meta = json.loads(parts[3][2])
    container, obj = ctx.data[doc.WHERE_KEY]
    assert container == 's-server-x'      # the server's physical name, as Heat's default
    occ = meta['os-collect-config']
    assert occ['collectors'] == ['ec2', 'request', 'local']
    assert occ['request']['metadata_url'].startswith(
        '%s/%s/%s?temp_url_sig=' % (swift_fake.ENDPOINT, container, obj))
    assert json.loads(swift.containers[container]['objects'][obj][0]) == meta
    assert meta['deployments'] == []
    # the agent reads it through its GET TempURL (no token)
    got = swift(('GET'), occ['request']['metadata_url'], {'authenticated': False})
    assert json.loads(got.content) == meta
    mod.delete(ctx)
    assert swift.objects(container) is None and doc.WHERE_KEY not in ctx.data


def test_deployment_swift_data_names_the_document_and_user_parts_are_kept():
    conn, swift, proxy = swift_fake.cloud('k')
    given = mod.multipart_user_data('#cloud-config\nruncmd: [ls]\n', None)
    ctx = _ctx({'user_data_format': 'SOFTWARE_CONFIG', 'user_data': given,
                'deployment_swift_data': {'container': 'box', 'object': 'doc'}}, conn)
    parts = _parts(mod.user_data(ctx))
    assert ctx.data[doc.WHERE_KEY] == ['box', 'doc']
    names = [p[0] for p in parts]
    # the given multipart's parts come in one by one, then the metadata
    assert names == ['cloud-config', 'part-handler.py', 'cloud-config', 'part-handler.py', '',
                     'cfn-init-data']
    assert 'doc' in swift.objects('box')


def test_a_config_id_in_raw_or_software_config_user_data_is_the_configs_text():
    peers = {CONFIG_ID: {'config': {'config': '#!/bin/sh\necho from config\n'}}}
    ctx = _ctx({'user_data_format': 'RAW', 'user_data': CONFIG_ID}, peers=peers)
    assert mod.user_data(ctx) == '#!/bin/sh\necho from config\n'
    ctx = _ctx({'user_data_format': 'SOFTWARE_CONFIG', 'user_data': CONFIG_ID}, peers=peers)
    assert _parts(mod.user_data(ctx))[2][2] == '#!/bin/sh\necho from config\n'
    # HEAT_CFNTOOLS keeps the text; an unknown id stays as written
    ctx = _ctx({'user_data_format': 'HEAT_CFNTOOLS', 'user_data': CONFIG_ID}, peers=peers)
    assert mod.user_data(ctx) == CONFIG_ID
    assert mod.user_data(_ctx({'user_data_format': 'RAW', 'user_data': CONFIG_ID})) == CONFIG_ID
