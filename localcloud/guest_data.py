# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A guest's user data, read as cloud-init reads it (the parts a guest of the local cloud runs).

Pure functions, no I/O but the path mapping's arithmetic: which parts the user data has (a shell
script, a cloud-config, Heat's multipart MIME with its x-cfninitdata parts ...), the cloud-config
keys a guest honours (`write_files`, `runcmd`), and where an absolute path of the guest lands on
this machine (under the guest's root directory: P -> <root>/P).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import base64
import binascii
import collections
import email
import email.policy
import gzip
import os

import yaml

Part = collections.namedtuple('Part', 'kind filename payload')

# cloud-init's content types (MIME parts) and the kinds a guest knows them by
MIME_KINDS = {
    'text/x-shellscript': 'shell',
    'text/cloud-config': 'cloud-config',
    'text/x-cfninitdata': 'cfninitdata',
    'text/cloud-boothook': 'boothook',
    'text/part-handler': 'part-handler',
    'text/x-include-url': 'include',
}
# cloud-init's "starts with" rules, for a part with no telling content type (text/plain)
PREFIX_KINDS = (
    ('#!', 'shell'),
    ('#cloud-config', 'cloud-config'),
    ('#cloud-boothook', 'boothook'),
    ('#part-handler', 'part-handler'),
    ('#include', 'include'),
)


def decode(user_data):
    """Nova keeps user data as base64 text: its bytes (b'' for none), gunzipped if gzipped."""
    if not user_data:
        return b''
    if isinstance(user_data, str):
        user_data = user_data.encode('ascii')
    try:
        data = base64.b64decode(user_data, validate=True)
    except (binascii.Error, ValueError):
        data = user_data     # not base64: taken as written
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return data


def sniff(text):
    """A part's kind from its first characters (cloud-init's rule); 'unknown' when none fits."""
    for prefix, kind in PREFIX_KINDS:
        if text.startswith(prefix):
            return kind
    return 'unknown'


def _is_mime(text):
    head = text.lstrip()[:200].lower()
    return head.startswith('content-type:') or head.startswith('mime-version:')


def parts(data):
    """The parts of user data (bytes or text), in order: a list of Part(kind, filename, payload).

    A multipart MIME (Heat's SOFTWARE_CONFIG and HEAT_CFNTOOLS user data) gives one Part per leaf;
    a part's kind comes from its content type, or, for text/plain and others, from its content.
    Anything else is one part, its kind sniffed."""
    text = data.decode('utf-8', 'replace') if isinstance(data, bytes) else data
    if not text:
        return []
    if not _is_mime(text):
        return [Part(sniff(text), '', text)]
    msg = email.message_from_string(text, policy=email.policy.compat32)
    out = []
    for leaf in msg.walk():
        if leaf.is_multipart():
            continue
        raw = leaf.get_payload(decode=True)
        payload = raw.decode(leaf.get_content_charset() or 'utf-8', 'replace') if raw is not None else ''
        ctype = leaf.get_content_type()
        kind = MIME_KINDS.get(ctype) or sniff(payload)
        out.append(Part(kind, leaf.get_filename() or '', payload))
    return out


def host_path(root, path):
    """Where the guest's ``path`` is on this machine: under ``root``, whatever the path says.

    Absolute and relative paths alike are taken from the guest's root; '..' cannot climb out of
    it (normalised as from '/')."""
    inner = os.path.normpath('/' + str(path)).lstrip('/')
    return os.path.join(root, inner) if inner else root


def cloud_config(text):
    """A cloud-config part's settings (a dict; {} when it is not a YAML mapping)."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return {}
    return value if isinstance(value, dict) else {}


def _content(entry):
    content = entry.get('content', '')
    if content is None:
        content = ''
    if not isinstance(content, (str, bytes)):
        content = str(content)
    data = content.encode('utf-8') if isinstance(content, str) else content
    encoding = str(entry.get('encoding') or '').lower()
    if encoding in ('b64', 'base64', 'gz+b64', 'gzip+base64', 'gz+base64', 'gzip+b64'):
        data = base64.b64decode(data)
    if encoding.startswith('gz'):
        data = gzip.decompress(data)
    return data


def _mode(value, default=0o644):
    if value is None or value == '':
        return default
    if isinstance(value, int):
        # YAML already read 0644 as the octal number; cloud-init takes a number as it is
        return value
    try:
        return int(str(value), 8)
    except ValueError:
        return default


def write_files(cfg):
    """cloud-config `write_files`: a list of {path, data (bytes), mode, append}, in order.

    `encoding` (b64, gzip, gz+b64) is decoded; `permissions` is octal text or a number (default
    0644); `owner` and `defer` are not honoured (the guest runs as the cloud's user, and writes
    every file before any command)."""
    out = []
    for entry in cfg.get('write_files') or ():
        if not isinstance(entry, dict) or not entry.get('path'):
            continue
        out.append({'path': str(entry['path']), 'data': _content(entry),
                    'mode': _mode(entry.get('permissions')),
                    'append': bool(entry.get('append', False))})
    return out


def runcmd(cfg):
    """cloud-config `runcmd`: one argv per entry; a string runs with `sh -c`, a list as argv."""
    out = []
    for entry in cfg.get('runcmd') or ():
        if isinstance(entry, (list, tuple)):
            if entry:
                out.append([str(x) for x in entry])
        elif entry is not None:
            out.append(['sh', '-c', str(entry)])
    return out
