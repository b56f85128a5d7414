# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one layer that knows openstacksdk's exceptions, and the one place
that loads the cloud's libraries.

Plugins call the cloud through ``call(fn, *args, **kwargs)`` (or wrap a
block in ``translated()``): SDK and keystoneauth exceptions become the
engine's typed CloudError family, and transient faults (5xx, 429, a dropped
connection) are retried with backoff, since a stack of a hundred resources
meets the odd 503 on any real cloud and Heat retries too.  Nothing else in
the engine catches SDK exceptions.

openstacksdk, keystoneauth1 and requests are loaded by ``libraries()`` when
first needed (a connection is made, an answer is checked, an exception
translated), not when this module is imported.  heat_stack_info and the
inventory plugin must ship this module (AnsiballZ ships only what a module
imports at its top, and a Swift store's requests go through ``call``), but on
an SQLite store they never connect: importing openstacksdk there would be
most of their run.  No structure can avoid it: whatever a module ships, it
imports when it starts.  So this function is the one place under plugins/
that imports a library on demand; every other file that needs these
libraries (transport.py, raw_request.py, connection.py) asks it.  An
exception of theirs can only exist once they are loaded, so loading them on
the first error costs nothing that was not already paid.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import importlib
import os
import random
import threading
import time
import traceback
import weakref

from ..errors import CloudConflict, CloudError, CloudNotFound, CloudTransient


class Libraries(object):
    """The cloud's libraries as this collection uses them; an attribute is
    None when its distribution is missing (openstacksdk brings the others),
    and ``errors`` then holds the import's traceback under its name."""

    def __init__(self):
        self.errors = {}
        self.openstack = self._load('openstack', 'openstack')
        self.sdk = self._load('sdk', 'openstack.exceptions')
        self.ksa = self._load('ksa', 'keystoneauth1.exceptions')
        self.ksa_adapter = self._load('ksa_adapter', 'keystoneauth1.adapter')
        self.ksa_session = self._load('ksa_session', 'keystoneauth1.session')
        self.requests = self._load('requests', 'requests.exceptions')
        self.http_adapter = self._load('http_adapter', 'requests.adapters', 'HTTPAdapter')
        self.retry = self._load('retry', 'urllib3.util.retry', 'Retry')

    def _load(self, attr, module, name=None):
        try:
            found = importlib.import_module(module)
        except ImportError:
            self.errors[attr] = traceback.format_exc()
            return None
        return getattr(found, name) if name else found


_LIBRARIES = []
_LIBRARIES_LOCK = threading.Lock()


def libraries():
    """The cloud's libraries (``Libraries``), imported on the first call."""
    if not _LIBRARIES:
        with _LIBRARIES_LOCK:
            if not _LIBRARIES:
                _LIBRARIES.append(Libraries())
    return _LIBRARIES[0]


# A write the cloud may have done before the fault is only retried when the
# caller says it is safe (idempotent) — see call(retry_writes=...).
RETRIES = 4
BACKOFF = 0.5


def _status(exc):
    for attr in ('status_code', 'http_status'):
        value = getattr(exc, attr, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, 'response', None)
    value = getattr(response, 'status_code', None)
    return value if isinstance(value, int) else None


def _message(exc):
    for attr in ('details', 'message'):
        value = getattr(exc, attr, None)
        if isinstance(value, str) and value:
            return value
    return str(exc) or type(exc).__name__


def translate(exc):
    """The engine error for an SDK/keystoneauth exception, or None when the
    exception is not one of theirs."""
    libs = libraries()
    sdk_exc, ksa, req = libs.sdk, libs.ksa, libs.requests
    if ksa is not None and isinstance(exc, ksa.ConnectionError):
        return CloudTransient('Connection to the cloud failed: %s' % exc)
    if ksa is not None and isinstance(exc, ksa.HttpError) and not (
            sdk_exc is not None and isinstance(exc, sdk_exc.SDKException)):
        return _by_status(_status(exc), _message(exc))
    if sdk_exc is None or not isinstance(exc, sdk_exc.SDKException):
        # (the SDK's HttpException is a requests HTTPError too: theirs first);
        # keystoneauth wraps requests' transport errors in its own, so what
        # is left here is an answer read as JSON that is not (requests'
        # JSONDecodeError)
        if req is not None and isinstance(exc, req.RequestException):
            return CloudError('Request to the cloud failed: %s' % exc)
        return None
    if isinstance(exc, (sdk_exc.NotFoundException, sdk_exc.ResourceNotFound)):
        return CloudNotFound(_message(exc), status=404)
    if isinstance(exc, sdk_exc.ConflictException):
        return CloudConflict(_message(exc), status=409)
    if isinstance(exc, sdk_exc.HttpException):
        return _by_status(_status(exc), _message(exc))
    return CloudError(_message(exc))


def _by_status(status, message):
    if status == 404:
        return CloudNotFound(message, status=status)
    if status == 409:
        return CloudConflict(message, status=status)
    if status is not None and (status >= 500 or status == 429):
        return CloudTransient(message, status=status)
    return CloudError(message, status=status)


def cloud_exceptions():
    """The exception types ``translated`` catches: openstacksdk's,
    keystoneauth's and requests' (the last for an answer that is not the
    JSON it claims)."""
    libs = libraries()
    return (((libs.sdk.SDKException,) if libs.sdk is not None else ())
            + ((libs.ksa.ClientException,) if libs.ksa is not None else ())
            + ((libs.requests.RequestException,) if libs.requests is not None else ()))


def ksa_errors():
    """keystoneauth's own errors (discovery, auth), caught where a call may
    raise them unwrapped."""
    ksa = libraries().ksa
    return (ksa.ClientException,) if ksa is not None else ()


def raise_from_response(response):
    """The SDK's public ``raise_from_response``: an HTTP error answer raised
    as the SDK's exception (``call`` translates it)."""
    libraries().sdk.raise_from_response(response)


@contextlib.contextmanager
def translated():
    """Run a block, turning SDK exceptions into engine errors."""
    try:
        yield
    except cloud_exceptions() as exc:
        mapped = translate(exc)
        if mapped is None:
            raise
        raise mapped from exc


def call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with SDK errors translated and transient
    faults retried.  Reads and idempotent writes (PUT, DELETE) retry;
    pass ``retry_writes=False`` for a create whose retry could duplicate the
    resource (the engine then finds it by name on the next attempt)."""
    retry = kwargs.pop('retry_writes', True)
    attempt = 0
    while True:
        try:
            with translated():
                return fn(*args, **kwargs)
        except CloudTransient:
            attempt += 1
            if not retry or attempt > RETRIES:
                raise
            time.sleep(BACKOFF * (2 ** (attempt - 1)) * (0.5 + random.random()))


def request_json(proxy, method, path, body=None, retry_writes=True):
    """One request through a keystoneauth Adapter's public methods
    (``adapter.post(path, json=...)``), answering Neutron's (or Nova's) own
    JSON (None when the answer has no body): the service's JSON Adapter when
    ``warm`` made one (``json_adapter``), else the proxy, itself a keystoneauth
    Adapter.  A hot path that needs no SDK Resource saves building one from
    the request and one from the answer.

    The answer's HTTP status is turned into the SDK's exception by the SDK's
    public ``raise_from_response``, so a failure becomes the same CloudError
    as through the SDK's own calls, with the same message; transient faults
    are retried as ``call`` does."""
    send = getattr(_json_adapter_of(proxy), method.lower())
    kwargs = {'raise_exc': False}
    if body is not None:
        kwargs['json'] = body

    def once():
        response = send(path, **kwargs)
        if response.status_code >= 400:
            raise_from_response(response)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()
    return call(once, retry_writes=retry_writes)


def get_or_none(fn, *args, **kwargs):
    """A read that answers None for a missing thing instead of raising."""
    try:
        return call(fn, *args, **kwargs)
    except CloudNotFound:
        return None


def delete_quietly(fn, *args, **kwargs):
    """A delete where "already gone" is success (Heat's delete semantics)."""
    try:
        call(fn, *args, **kwargs)
    except CloudNotFound:
        pass


# The SDK service a Heat type's handlers talk to first (its name prefix).
# A volume attachment is made and removed through Nova (and watched through
# Cinder, whose document the volume polls read first: poll_batch).
_FIRST = {'OS::Cinder::VolumeAttachment': 'compute'}
# Services a type's polls read after its first call went to another one.
_LATER = {'OS::Cinder::VolumeAttachment': ('block_storage',)}
_SERVICES = (('OS::Nova::', 'compute'), ('OS::Neutron::', 'network'),
             ('OS::Cinder::', 'block_storage'), ('OS::Glance::', 'image'),
             ('OS::Octavia::', 'load_balancer'), ('OS::Swift::', 'object_store'))
# Services whose requests negotiate a microversion (the version document is read on first use).
_NEGOTIATED = ('compute', 'block_storage')
# Services whose raw JSON requests go through a keystoneauth Adapter of their
# own (``json_adapter``): their APIs have no microversions, so the proxy's
# session and the endpoint it resolved are all such a request needs.
_JSON_SERVICES = ('network', 'load_balancer')
# The public settings of a keystoneauth Adapter that a proxy carries (those of
# the installed keystoneauth), given to its service's JSON Adapter.
_ADAPTER_SETTINGS = ('service_type', 'service_name', 'interface', 'region_name', 'auth',
                     'user_agent', 'client_name', 'client_version', 'logger', 'allow',
                     'additional_headers', 'global_request_id', 'connect_retries',
                     'connect_retry_delay', 'status_code_retries', 'status_code_retry_delay',
                     'retriable_status_codes')
_JSON_ADAPTERS = weakref.WeakKeyDictionary()   # proxy -> its service's JSON Adapter
_REMEMBERED = weakref.WeakKeyDictionary()   # connection -> {key: value}
_REMEMBER_LOCKS = weakref.WeakKeyDictionary()
_REMEMBER_LOCK = threading.Lock()


def remembered(conn, key, compute, forget=False):
    """``compute()``'s answer for ``key``, asked once per run (connection):
    name lookups that many resources make (an image, a flavor, an external
    network by name) cost one request, not one each; resources asking at
    the same moment wait for the first one's answer.  Only answers are kept
    (a failure raises and is asked again next time); ``forget=True`` asks
    again (a lookup that missed in a list kept from earlier in the run)."""
    try:
        with _REMEMBER_LOCK:
            found = _REMEMBERED.setdefault(conn, {})
            lock = _REMEMBER_LOCKS.setdefault(conn, {}).setdefault(key, threading.Lock())
    except TypeError:   # an object without weak references (a test fake)
        return compute()
    with lock:
        if forget or key not in found:
            found[key] = compute()
        return found[key]


_NOTED = weakref.WeakKeyDictionary()   # connection -> {secret strings}
_NOTED_PLAIN = {}   # id(fake connection) -> {secret strings} (objects without weak references)


def note_secret(conn, value):
    """Remember ``value`` (a password made, a private key, a TempURL key)
    as a secret the run learned on ``conn``: the module that opened the
    connection hides it from everything Ansible prints (base.py)."""
    if not isinstance(value, str) or not value:
        return
    with _REMEMBER_LOCK:
        try:
            _NOTED.setdefault(conn, set()).add(value)
        except TypeError:
            _NOTED_PLAIN.setdefault(id(conn), set()).add(value)


def secrets_noted(conn):
    """The secrets noted on ``conn`` so far."""
    with _REMEMBER_LOCK:
        try:
            return set(_NOTED.get(conn, ()))
        except TypeError:
            return set(_NOTED_PLAIN.get(id(conn), ()))


def max_microversion(conn, service):
    """The highest microversion ``service`` ('compute', 'block_storage')
    speaks, as a (major, minor) tuple, or None when it has none; read from
    its version document once per run (the same read ``warm`` makes)."""
    def read():
        with translated():
            data = getattr(conn, service).get_endpoint_data()
        found = getattr(data, 'max_microversion', None)
        return tuple(found) if found else None
    try:
        return remembered(conn, ('max-microversion', service), read)
    except ksa_errors() as exc:   # discovery failures keystoneauth raises as its own
        mapped = translate(exc)
        raise mapped if mapped is not None else CloudError(str(exc)) from exc


def environment_is_silent():
    """True when the environment gives requests nothing to read but a CA
    bundle: no proxy (variables, or the system's settings where the platform
    has them), no netrc file."""
    # here, not at the top: urllib.request brings http.client and ssl, which
    # a module reading a local store (that never connects) would pay for
    from urllib.request import getproxies
    if getproxies() or 'NETRC' in os.environ:
        return False
    home = os.path.expanduser('~')
    return not any(os.path.exists(os.path.join(home, name)) for name in ('.netrc', '_netrc'))


def environment_ca_bundle():
    """The CA bundle requests takes from the environment when told to verify
    (its own order: REQUESTS_CA_BUNDLE, then CURL_CA_BUNDLE), or None."""
    return os.environ.get('REQUESTS_CA_BUNDLE') or os.environ.get('CURL_CA_BUNDLE') or None


def quiet_session(conn):
    """Stop the run's own requests session from reading the environment on
    every request, when there is nothing to read.

    A requests Session that trusts the environment looks up the proxy
    variables, the proxy bypass list and the netrc file for each request
    (a stat and a scan of os.environ each time: measurable at a thousand
    requests); ``trust_env`` is its public switch.  It is set on this
    connection's own session object (keystoneauth makes one per session),
    never on the class, and only when the environment is silent, so what
    requests sends is unchanged: a CA bundle the environment names becomes
    keystoneauth's ``verify`` of this session, which it passes with every
    request, as requests would have taken it (only where ``verify`` is True,
    the one case requests reads it).  True when it was switched off."""
    keystone = getattr(conn, 'session', None)
    session = getattr(keystone, 'session', None)
    if session is None or getattr(session, 'trust_env', None) is not True:
        return False
    if not environment_is_silent():
        return False
    bundle = environment_ca_bundle()
    if bundle and getattr(keystone, 'verify', True) in (True, None):
        keystone.verify = bundle
    session.trust_env = False
    return True


def warm(conn, type_name):
    """Read the version document of the service ``type_name`` calls first, once.

    openstacksdk negotiates a microversion on every compute and
    block-storage request and reads the service's version document on the
    first one, with no lock: resources starting together each read it
    (Cinder's costs two GETs each time).  The first resource of a service reads it
    here and the others of that service wait (``remembered``); other
    services are not held.  Neutron and Glance requests read no version
    document per request: their proxies are only made (no request).  A
    volume attachment's first call is Nova's (attachments deleted side by
    side would each read Nova's document, and reading Cinder's first would
    hold back their calls); Cinder's is read by the polls
    (poll_batch), off the way to that call."""
    if conn is None:
        return
    remembered(conn, ('quiet_session',), lambda: quiet_session(conn))
    service = _FIRST.get(type_name) or next(
        (svc for prefix, svc in _SERVICES if type_name.startswith(prefix)), None)
    if service is not None:
        warm_service(conn, service)


def later_services(type_name):
    """The services ``type_name``'s polls read after its first call went to
    another service (``warm`` reads that first one's document)."""
    return _LATER.get(type_name, ())


def warm_service(conn, service):
    """``warm`` for one SDK service by its name ('compute', 'block_storage' ...)."""
    def make():
        try:
            with translated():
                proxy = getattr(conn, service)
                if service in _NEGOTIATED:
                    proxy.get_endpoint_data()
                if service in _JSON_SERVICES:
                    adapter = json_adapter(conn, proxy)
                    if adapter is not None:
                        _JSON_ADAPTERS[proxy] = adapter
        except CloudError:
            pass   # the handler's own call meets it again and fails with it
        except ksa_errors():
            pass   # a discovery failure: the same, the handler's call reports it
        return True
    remembered(conn, ('service', service), make)


def json_adapter(conn, proxy):
    """A keystoneauth Adapter for the raw JSON requests of ``proxy``'s service
    (``request_json``), or None when they must go through the proxy.

    It is made from public parts only: the proxy's keystoneauth session (its
    token and the token's refresh, its hooks, the transport's retries), the
    endpoint the proxy resolved (``get_endpoint()``, asked once here instead
    of at every request), and the proxy's own Adapter settings
    (``_ADAPTER_SETTINGS``: retries, user agent, logger, headers).
    keystoneauth logs each request and its request id as it does the proxy's.
    What the proxy adds at each request is openstacksdk's own: its request
    metrics and its response cache, which these requests skip, as the SDK's
    raw ``get``/``post`` skip the cache already.  A rate limit or a
    concurrency the cloud's configuration sets for the service is the
    proxy's (a semaphore of its own): then there is no JSON Adapter and the
    requests go through the proxy."""
    ksa_adapter = libraries().ksa_adapter
    if ksa_adapter is None or not isinstance(proxy, ksa_adapter.Adapter):
        return None
    config = getattr(conn, 'config', None)
    for limit in ('get_rate_limit', 'get_concurrency'):
        ask = getattr(config, limit, None)
        if ask is not None and ask(proxy.service_type) is not None:
            return None
    settings = dict((name, getattr(proxy, name)) for name in _ADAPTER_SETTINGS
                    if getattr(proxy, name, None) is not None)
    return ksa_adapter.Adapter(proxy.session, endpoint_override=proxy.get_endpoint(), **settings)


def _json_adapter_of(proxy):
    try:
        return _JSON_ADAPTERS.get(proxy, proxy)
    except TypeError:   # an object without weak references (a test fake)
        return proxy
