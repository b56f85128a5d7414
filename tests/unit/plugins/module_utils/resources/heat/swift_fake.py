# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A Swift account as the signal handles see it: containers versioned the
legacy way (``X-Versions-Location``: a PUT over an object archives the old
one as ``<len:03x><name>/<timestamp>``, a DELETE restores the newest
archive), prefix listings, the account's TempURL key, and PUTs to a TempURL
(absolute URL, no token) checked against the key; a PUT with
``If-None-Match: *`` over an existing object answers 412 (the state store's
lock; the check and the write are one step, as in Swift), ``X-Delete-After``
ends an object when ``now()`` passes it (an expired object is absent, as
Swift's object server has it), objects answer their Etag, and ``refuse``
answers a method 403."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import hmac
import itertools
import threading
import time
from unittest import mock
from urllib.parse import parse_qs, unquote, urlparse

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources import http_fakes as fakes  # noqa: E402

ENDPOINT = 'http://127.0.0.1:8080/object-store/v1/AUTH_p1'
ACCOUNT = '/v1/AUTH_p1'
KEY = 'X-Account-Meta-Temp-Url-Key'
_CLOCK = itertools.count(1700000000)


def _missing():
    return fakes.Response(404, b'<html><h1>Not Found</h1></html>', {'Content-Type': 'text/html'})


class Swift(object):

    def __init__(self, key=None):
        self.account = {KEY: key} if key else {}
        self.containers = {}   # name -> {'headers': {}, 'objects': {name: (body, ts)}}
        self.refuse = set()    # methods answered 403 (a read-only user)
        self.conditional = True   # False: an old Swift that ignores If-None-Match
        self.now = time.time      # Swift's clock, for X-Delete-After
        self.expiry = {}          # (container, name) -> when it ends
        self.requests = []        # (method, container, name) of each object request
        self._guard = threading.Lock()

    # -- what an agent or a test does directly ------------------------------------
    def put(self, container, name, body):
        box = self.containers[container]
        ts = '%016.05f' % next(_CLOCK)
        if box['headers'].get('X-Versions-Location') and name in box['objects']:
            old = box['objects'][name]
            box['objects']['%03x%s/%s' % (len(name.encode()), name, old[1])] = old
        box['objects'][name] = (body if isinstance(body, bytes) else body.encode(), ts)

    def objects(self, container):
        box = self.containers.get(container)
        return sorted(box['objects']) if box else None

    # -- the HTTP side ---------------------------------------------------------------
    def __call__(self, method, url, kw):
        headers = kw.get('headers') or {}
        if '://' in url:
            return self._temp_url(method, url, kw)
        if method in self.refuse:
            return fakes.Response(403, b'<html><h1>Forbidden</h1></html>', {'Content-Type': 'text/html'})
        parts = [unquote(p) for p in url.strip('/').split('/', 1)] if url.strip('/') else []
        if not parts:
            if method == 'POST':
                self.account.update(headers)
                return fakes.Response(204)
            return fakes.Response(204, headers=dict(self.account))
        box = self.containers.get(parts[0])
        if len(parts) == 2:
            return self._object(method, parts[0], parts[1], box, kw)
        if method == 'PUT':
            if box is None:
                self.containers[parts[0]] = {'headers': dict(headers), 'objects': {}}
                return fakes.Response(201)
            box['headers'].update(headers)
            return fakes.Response(202)
        if box is None:
            return _missing()
        if method == 'HEAD':
            return fakes.Response(204, headers=dict(box['headers']))
        if method == 'POST':
            box['headers'].update(headers)
            return fakes.Response(204)
        if method == 'GET':
            params = kw.get('params') or {}
            assert params['format'] == 'json'
            names = [n for n in sorted(box['objects']) if n.startswith(params.get('prefix', ''))
                     and n > params.get('marker', '')]
            return fakes.Response(200, [{'name': n, 'hash': hashlib.md5(box['objects'][n][0]).hexdigest()}
                                        for n in names[:params.get('limit', 10000)]])
        if method == 'DELETE':
            if box['objects']:
                return fakes.Response(409, b'Conflict')
            del self.containers[parts[0]]
            return fakes.Response(204)
        raise AssertionError('unexpected %s %s' % (method, url))

    def _object(self, method, container, name, box, kw):
        with self._guard:
            self.requests.append((method, container, name))
            ends = self.expiry.get((container, name))
            if box is not None and ends is not None and ends <= self.now():
                box['objects'].pop(name, None)
                del self.expiry[(container, name)]
            return self._object_now(method, container, name, box, kw)

    def _object_now(self, method, container, name, box, kw):
        if method == 'PUT':
            if box is None:
                return _missing()
            headers = kw.get('headers') or {}
            if (self.conditional and headers.get('If-None-Match') == '*'
                    and name in box['objects']):
                return fakes.Response(412, b'Precondition Failed')
            self.put(container, name, kw.get('data') or b'')
            if headers.get('X-Delete-After'):
                self.expiry[(container, name)] = self.now() + int(headers['X-Delete-After'])
            else:
                self.expiry.pop((container, name), None)
            return fakes.Response(201)
        if box is None or name not in box['objects']:
            return _missing()
        body, ts = box['objects'][name]
        if method == 'HEAD':
            return fakes.Response(200, headers={'X-Timestamp': ts, 'Etag': hashlib.md5(body).hexdigest()})
        if method == 'GET':
            return fakes.Response(200, body, {'Etag': hashlib.md5(body).hexdigest()})
        if method == 'DELETE':
            del box['objects'][name]
            prefix = '%03x%s/' % (len(name.encode()), name)
            archived = sorted(n for n in box['objects'] if n.startswith(prefix))
            if box['headers'].get('X-Versions-Location') and archived:
                box['objects'][name] = box['objects'].pop(archived[-1])
            return fakes.Response(204)
        raise AssertionError('unexpected %s %s/%s' % (method, container, name))

    def _temp_url(self, method, url, kw):
        assert kw.get('authenticated') is False, 'a TempURL is sent without a token'
        parsed = urlparse(url)
        path = unquote(parsed.path)
        assert path.startswith('/object-store' + ACCOUNT + '/')
        signed = path[len('/object-store'):]
        query = parse_qs(parsed.query)
        body = '\n'.join([method, query['temp_url_expires'][0], signed])
        expect = hmac.new(self.account[KEY].encode(), body.encode(), hashlib.sha1).hexdigest()
        if query['temp_url_sig'][0] != expect:
            return fakes.Response(401, b'Unauthorized')
        container, name = signed[len(ACCOUNT) + 1:].split('/', 1)
        return self._object(method, container, name, self.containers.get(container), kw)


class SwiftProxy(fakes.Proxy):
    """The object store proxy: raw requests, and the SDK's public TempURL
    signer (a computation, no request)."""

    def generate_temp_url(self, path, seconds, method, absolute=False, temp_url_key=None):
        assert absolute is True and temp_url_key
        body = '\n'.join([method, str(seconds), path])
        sig = hmac.new(temp_url_key.encode(), body.encode(), hashlib.sha1).hexdigest()
        return '%s?temp_url_sig=%s&temp_url_expires=%s' % (path, sig, seconds)


def cloud(key=None):
    """(conn, swift, proxy): a connection whose object store is the fake."""
    swift = Swift(key)
    conn = mock.MagicMock()
    conn.object_store = SwiftProxy(swift, endpoint=ENDPOINT)
    return conn, swift, conn.object_store


def ctx(type_name, props, conn, **kw):
    return fakes.ctx(type_name, props, conn=conn, **kw)
