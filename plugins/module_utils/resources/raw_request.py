# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One HTTP request through a service proxy, answering the response itself.

Swift speaks in headers (a container's metadata and ACLs are request
headers, its state is the HEAD's headers) and Glance's updates are JSON
patches with their own media type: neither fits ``sdk.request_json``, and
the SDK's Resources drop what Heat keeps (a container's SDK object lowers
and filters the headers Heat's ``HeadContainer`` shows whole).  So these
go through the proxy's public keystoneauth Adapter methods, an HTTP error
raised by the SDK's public ``raise_from_response`` inside ``sdk.call``,
which turns it into the engine's CloudError family and retries transient
faults.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from urllib.parse import quote

from . import sdk


def path(*parts):
    """A URL path below the proxy's endpoint from names, each quoted whole
    (a container or object name may hold '/', spaces, any character)."""
    return '/' + '/'.join(quote(str(p), safe='') for p in parts)


def send(proxy, method, url, *, headers=None, json=None, params=None, retry_writes=True,
         data=None, authenticated=None, microversion=None):
    """The requests Response of ``method url`` (a path below the proxy's
    endpoint, or a whole URL); an HTTP error raises the CloudError of its
    status.  ``data`` is a raw body (a Swift object's bytes);
    ``authenticated=False`` sends no token (a Swift TempURL signs itself);
    ``microversion`` is the service's API microversion to ask for, in place
    of the proxy's default (keystoneauth writes its headers)."""
    kwargs = {'raise_exc': False}
    if headers:
        kwargs['headers'] = headers
    if json is not None:
        kwargs['json'] = json
    if data is not None:
        kwargs['data'] = data
    if authenticated is not None:
        kwargs['authenticated'] = authenticated
    if params:
        kwargs['params'] = params
    if microversion is not None:
        kwargs['microversion'] = microversion

    def once():
        response = getattr(proxy, method.lower())(url, **kwargs)
        if response.status_code >= 400:
            sdk.raise_from_response(response)
        return response
    return sdk.call(once, retry_writes=retry_writes)


def send_json(proxy, method, url, *, headers=None, json=None, params=None, retry_writes=True,
              microversion=None):
    """``send``'s answer as JSON (None for an empty one)."""
    response = send(proxy, method, url, headers=headers, json=json, params=params,
                    retry_writes=retry_writes, microversion=microversion)
    if response.status_code == 204 or not response.content:
        return None
    return response.json()
