# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The front door's ledger: every create and every delete the services answered, per kind.

It is the judge of a chaos campaign (bench/chaos.py): what a client made is what went through the
front door, whether or not the client saw the answer (a connection the front door dropped after
the service made the thing still counts, which is exactly the case that leaks).  A create is a
POST answered 2xx whose JSON is one object with an ``id`` (a key pair's ``name``); a delete is a
DELETE answered 2xx, its id the path's last segment.  Kinds are the collection's path segment
(``ports``, ``servers``, ``volumes``, ``os-keypairs``, ``os-volume_attachments`` ...).
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import threading
import time


def _one_object(data):
    """The single object of a ``{"port": {...}}`` document, or None."""
    if not data:
        return None
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(doc, dict) and len(doc) == 1:
        value = next(iter(doc.values()))
        if isinstance(value, dict):
            return value
    return None


def _kind(template):
    """The collection a route template names: its last segment that is not ``{id}``/``{name}``."""
    literal = [seg for seg in template.split('/') if seg and not seg.startswith('{')]
    return literal[-1] if literal else None


class Ledger(object):
    """Thread-safe list of creates and deletes, with per-kind sums."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = []

    def reset(self):
        with self.lock:
            self.entries = []

    def record(self, method, template, path, status, request_body, response_body):
        """Note one forwarded request: ``template`` is the route template under the service's
        prefix (ids as ``{id}``), ``path`` the same path with the real ids.  Returns the entry
        added, or None when the request made or removed nothing."""
        if status is None or not 200 <= status < 300:
            return None
        entry = None
        if method == 'POST':
            made = _one_object(response_body)
            if made is None:
                return None
            ident = made.get('id') or (made.get('name') if 'public_key' in made else None)
            if not ident:
                return None
            asked = _one_object(request_body) or {}
            name = asked.get('name') or made.get('name')
            entry = {'op': 'create', 'kind': _kind(template), 'id': str(ident), 'name': name}
        elif method == 'DELETE':
            segments = [seg for seg in path.split('/') if seg]
            tsegments = [seg for seg in template.split('/') if seg]
            if not segments or not tsegments or not tsegments[-1].startswith('{'):
                return None
            entry = {'op': 'delete', 'kind': _kind(template), 'id': segments[-1], 'name': None}
        if entry is None:
            return None
        with self.lock:
            entry.update(seq=len(self.entries) + 1, time=time.time(), route=template)
            self.entries.append(entry)
        return entry

    def as_dict(self):
        """``{"entries": [...], "kinds": {kind: {"created": n, "deleted": n, "live": [ids]}}}``:
        live ids are those created here and not deleted here (the cloud may have removed some on
        its own: a security group's rules go with it)."""
        with self.lock:
            entries = [dict(e) for e in self.entries]
        kinds = {}
        for entry in entries:
            sums = kinds.setdefault(entry['kind'], {'created': 0, 'deleted': 0, 'live': []})
            if entry['op'] == 'create':
                sums['created'] += 1
                sums['live'].append(entry['id'])
            else:
                sums['deleted'] += 1
                if entry['id'] in sums['live']:
                    sums['live'].remove(entry['id'])
        return {'entries': entries, 'kinds': kinds}
