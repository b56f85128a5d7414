# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/guest_data.py: user data parsed as cloud-init parses it, and the path mapping."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import base64
import gzip
import json
from email.mime import multipart, text

import pytest

from localcloud import guest_data


def _part(content, filename, subtype):
    msg = text.MIMEText(content, _subtype=subtype, _charset='us-ascii') if subtype \
        else text.MIMEText(content, _charset='us-ascii')
    msg.add_header('Content-Disposition', 'attachment', filename=filename)
    return msg


def test_decode_takes_novas_base64_and_unzips():
    assert guest_data.decode(None) == b''
    assert guest_data.decode(base64.b64encode(b'#!/bin/sh\n').decode()) == b'#!/bin/sh\n'
    zipped = base64.b64encode(gzip.compress(b'#cloud-config\n')).decode()
    assert guest_data.decode(zipped) == b'#cloud-config\n'


@pytest.mark.parametrize('data, kind', [
    ('#!/bin/bash\necho hi\n', 'shell'),
    ('#cloud-config\nruncmd: [ls]\n', 'cloud-config'),
    ('#cloud-boothook\nls\n', 'boothook'),
    ('just words\n', 'unknown'),
])
def test_a_single_part_is_known_by_its_first_line(data, kind):
    assert guest_data.parts(data) == [guest_data.Part(kind, '', data)]


def test_empty_user_data_has_no_parts():
    assert guest_data.parts(b'') == []


def test_heats_multipart_gives_every_part_with_its_kind_and_filename():
    md = {'os-collect-config': {'request': {'metadata_url': 'http://127.0.0.1:1/x'}}}
    blob = multipart.MIMEMultipart(_subparts=[
        _part('output: {all: x}\n', 'cloud-config', 'cloud-config'),
        _part('#!/bin/bash\nexit 0\n', 'boothook.sh', 'cloud-boothook'),
        _part('# part-handler\n', 'part-handler.py', 'part-handler'),
        # Heat attaches a SOFTWARE_CONFIG user's raw text as text/plain, filename ''
        _part('#!/bin/sh\necho user\n', '', None),
        _part(json.dumps(md), 'cfn-init-data', 'x-cfninitdata'),
    ]).as_string()
    got = guest_data.parts(blob.encode())
    assert [(p.kind, p.filename) for p in got] == [
        ('cloud-config', 'cloud-config'), ('boothook', 'boothook.sh'),
        ('part-handler', 'part-handler.py'), ('shell', ''), ('cfninitdata', 'cfn-init-data')]
    assert json.loads(got[-1].payload) == md
    assert got[3].payload == '#!/bin/sh\necho user\n'


def test_a_base64_transfer_encoded_part_is_decoded():
    blob = multipart.MIMEMultipart(_subparts=[_part('#cloud-config\nruncmd: [ls]\n', 'x', 'plain')])
    blob.get_payload()[0].replace_header('Content-Transfer-Encoding', 'base64')
    blob.get_payload()[0].set_payload(base64.b64encode(b'#cloud-config\nruncmd: [ls]\n').decode())
    assert guest_data.parts(blob.as_string())[0].kind == 'cloud-config'


@pytest.mark.parametrize('path, expected', [
    ('/etc/app.conf', '/g/root/etc/app.conf'),
    ('var/lib/x', '/g/root/var/lib/x'),
    ('/../../etc/passwd', '/g/root/etc/passwd'),
    ('/a/./b/../c', '/g/root/a/c'),
    ('/', '/g/root'),
])
def test_host_path_keeps_every_path_under_the_root(path, expected):
    assert guest_data.host_path('/g/root', path) == expected


def test_write_files_decodes_and_reads_permissions():
    cfg = guest_data.cloud_config('\n'.join([
        '#cloud-config',
        'write_files:',
        '  - path: /etc/a',
        '    content: hello',
        '    permissions: "0600"',
        '  - path: /etc/b',
        '    encoding: b64',
        '    content: %s' % base64.b64encode(b'\x00\x01').decode(),
        '    append: true',
        '  - path: /etc/c',
        '    encoding: gz+b64',
        '    content: %s' % base64.b64encode(gzip.compress(b'zipped')).decode(),
        '    permissions: 0755',
        '  - content: no path, skipped',
    ]))
    assert guest_data.write_files(cfg) == [
        {'path': '/etc/a', 'data': b'hello', 'mode': 0o600, 'append': False},
        {'path': '/etc/b', 'data': b'\x00\x01', 'mode': 0o644, 'append': True},
        {'path': '/etc/c', 'data': b'zipped', 'mode': 0o755, 'append': False},
    ]


def test_runcmd_strings_go_to_sh_and_lists_are_argv():
    cfg = guest_data.cloud_config('#cloud-config\nruncmd:\n  - echo "a b" > f\n  - [ls, -l, 3]\n  - []\n')
    assert guest_data.runcmd(cfg) == [['sh', '-c', 'echo "a b" > f'], ['ls', '-l', '3']]


def test_a_cloud_config_that_is_no_mapping_is_empty():
    assert guest_data.cloud_config('#cloud-config\n- a\n') == {}
    assert guest_data.cloud_config('#cloud-config\n{unclosed') == {}
    assert guest_data.write_files({}) == [] and guest_data.runcmd({}) == []
