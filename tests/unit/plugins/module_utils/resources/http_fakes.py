# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fakes of the raw requests raw_request.py sends through a service proxy.

``Proxy`` records each request (its path unquoted) and answers it from
``handler(method, url, kwargs)`` (the url as sent, quoted); every keyword a request passes is held against what the real
path accepts (keystoneauth's Session.request, then requests' own), so a
keyword neither takes fails the test.  ``Response`` has what the plugins
and the SDK's ``raise_from_response`` read of a requests Response."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import http.client
import inspect
import json as _json
from unittest import mock
from urllib.parse import unquote

import requests
from keystoneauth1 import session as ksa_session
from openstack import proxy as sdk_proxy
from requests.structures import CaseInsensitiveDict

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties

_ACCEPTED = (set(inspect.signature(ksa_session.Session.request).parameters) |
             set(inspect.signature(requests.Session.request).parameters)) - {'self', 'url', 'method'}


class Response(object):
    def __init__(self, status, body=None, headers=None):
        self.status_code = status
        self.headers = CaseInsensitiveDict(headers or {})
        if isinstance(body, (dict, list)):
            self.content = _json.dumps(body).encode()
            self.headers.setdefault('Content-Type', 'application/json')
        else:
            self.content = body or b''
        self.reason = http.client.responses.get(status, '')
        self.text = self.content.decode('utf-8', 'replace')

    def json(self):
        return _json.loads(self.content)


class Proxy(object):
    """A service proxy's get/put/post/patch/head/delete."""

    def __init__(self, handler, endpoint='http://127.0.0.1:9/svc/v1'):
        self.handler = handler
        self.endpoint = endpoint
        self.requests = []
        self.faults = {}     # (METHOD, path) -> status answered once

    def get_endpoint(self):
        return self.endpoint

    def _send(self, method, url, **kwargs):
        unknown = set(kwargs) - _ACCEPTED
        assert not unknown, 'keystoneauth/requests take no %s' % sorted(unknown)
        assert kwargs.get('raise_exc') is False, 'raw requests answer errors themselves'
        path = unquote(url)
        self.requests.append((method, path, kwargs))
        status = self.faults.pop((method, path), None)
        if status is not None:
            return Response(status, {'error': {'message': 'injected %d' % status}})
        return self.handler(method, url, kwargs)

    def writes(self):
        return [(m, p) for m, p, _k in self.requests if m not in ('GET', 'HEAD')]

    def __getattr__(self, name):
        if name in ('get', 'put', 'post', 'patch', 'head', 'delete'):
            assert callable(getattr(sdk_proxy.Proxy, name))
            return lambda url, **kw: self._send(name.upper(), url, **kw)
        raise AttributeError(name)


def ctx(type_name, props, conn=None, **kw):
    kw.setdefault('stack_id', 'sid')
    kw.setdefault('stack_name', 's')
    kw.setdefault('name', 'r')
    kw.setdefault('physical_name', 's-%s-x' % kw['name'])
    return ResourceContext(conn=conn or mock.MagicMock(), type_name=type_name,
                           properties=effective_properties(type_name, props), **kw)
