# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Neutron's hot requests sent as keystoneauth sends them at its end.

A keystoneauth Session ends every request in one call:
``requests.Session.request(method, url, headers=..., data=..., verify=...,
cert=..., timeout=..., allow_redirects=False)`` on its own requests session.
Before that call it spends about a third of the request's CPU again (measured
at 1,000 Neutron requests: 1.2 ms a request through the proxy, 0.9 ms with
the same requests call made here): endpoint resolution, the token's expiry
parsed four times, user agent built, headers copied and sanitised, logging
checked.

For the network service's raw-JSON calls (``sdk.request_json``: creates,
shows, deletes and tag PUTs, a thousand in a big stack) the engine makes that
same last call itself, through public interfaces only: the endpoint from the
proxy's ``get_endpoint()``, the token from the keystoneauth session's
``get_auth_headers()`` (it re-authenticates when the token nears expiry),
``verify``/``cert``/``timeout`` from the same session's public attributes, the
user agent keystoneauth sent on the run's first request of that service.  It
changes nothing in those libraries.

That last call is made as requests documents its prepared requests: what
``requests.Session.request`` merges into every request from the session
(its headers and hooks) and from the environment (proxies, a CA bundle:
``merge_environment_settings``) is taken once per endpoint, then each
request is a ``Request(...).prepare()`` given to ``Session.send``.  Merging
again at every request (settings dicts rebuilt, the environment's proxy
variables and ~/.netrc read) cost a third of each request's CPU (0.85 ms
against 0.56 ms, measured in a loop of POSTs to a local server).  A session
with something to merge per request (cookies it was sent, its own ``auth``
or ``params``, a netrc entry for the host) keeps ``Session.request``.

It stands aside, and the request goes through the proxy as before, when:
- the run has not yet made a request of that service through the proxy (the
  first one gives the user agent and proves the endpoint works);
- keystoneauth's request logging is on (a user debugging with the SDK's
  logging sees every request, as keystoneauth logs them);
- the answer is a 401 (an expired or revoked token: keystoneauth's path
  re-authenticates and retries) or a redirect (keystoneauth follows them).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import logging
import threading
import weakref

try:
    import requests
    from requests.structures import CaseInsensitiveDict
    from requests.utils import get_netrc_auth
except ImportError:  # pragma: no cover - keystoneauth's dependency: present wherever a request is sent
    requests = CaseInsensitiveDict = get_netrc_auth = None

# Services whose raw-JSON calls may go direct: Neutron's, which take no
# microversion header nor any other header the proxy adds.
SERVICES = ('network',)
# keystoneauth's request loggers (its Session logs through these names).
KSA_LOGGERS = ('keystoneauth.session', 'keystoneauth.session.request')

_SENDERS = weakref.WeakKeyDictionary()   # proxy -> Sender
_LOCK = threading.Lock()


class Sender:
    """One proxy's direct path: what keystoneauth's last call needs."""

    def __init__(self, proxy, user_agent):
        self.keystone = proxy.session
        self.base = proxy.get_endpoint().rstrip('/')
        self.user_agent = user_agent
        http = self.keystone.session
        # What Session.request would merge into each request, once: the
        # environment's settings depend on the host alone, the same for every
        # path of this endpoint.
        self.settings = http.merge_environment_settings(
            self.base, {}, None, self.keystone.verify, self.keystone.cert)
        self.session_headers = CaseInsensitiveDict(http.headers)
        self.prepared = not (http.auth or http.params or
                             (http.trust_env and get_netrc_auth(self.base)))

    def send(self, method, path, body):
        headers = dict(self.keystone.get_auth_headers() or {})
        headers['Accept'] = 'application/json'
        if self.user_agent:
            headers['User-Agent'] = self.user_agent
        http = self.keystone.session
        if not self.prepared or len(http.cookies):
            return http.request(
                method, self.base + path, json=body, headers=headers,
                verify=self.keystone.verify, cert=self.keystone.cert,
                timeout=self.keystone.timeout, allow_redirects=False)
        merged = CaseInsensitiveDict(self.session_headers)
        merged.update(headers)
        prepared = requests.Request(method, self.base + path, headers=merged, json=body,
                                    hooks=http.hooks).prepare()
        return http.send(prepared, timeout=self.keystone.timeout, allow_redirects=False,
                         **self.settings)


def logging_requests():
    """True when keystoneauth would log this request (a user debugging)."""
    return any(logging.getLogger(name).isEnabledFor(logging.DEBUG) for name in KSA_LOGGERS)


def sender(proxy):
    """The proxy's Sender, or None while the request must go through the proxy."""
    if getattr(proxy, 'service_type', None) not in SERVICES or logging_requests():
        return None
    try:
        return _SENDERS.get(proxy)
    except TypeError:   # an object without weak references (a test fake)
        return None


def learn(proxy, response):
    """After a request through the proxy: keep what the direct path needs
    (the user agent keystoneauth sent), once per proxy."""
    if getattr(proxy, 'service_type', None) not in SERVICES:
        return
    try:
        weakref.ref(proxy)
    except TypeError:   # an object without weak references (a test fake)
        return
    request = getattr(response, 'request', None)
    agent = getattr(request, 'headers', {}).get('User-Agent') if request is not None else None
    with _LOCK:
        if proxy not in _SENDERS:
            _SENDERS[proxy] = Sender(proxy, agent)


def usable(response):
    """False when the answer must be asked again through the proxy."""
    return response.status_code != 401 and not 300 <= response.status_code < 400
