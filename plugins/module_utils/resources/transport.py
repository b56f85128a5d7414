# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The transport's own retries: what a request that never reached the
service, or an idempotent one that met a 5xx or lost its answer, gets before
anyone above (``sdk.call``, the engine) sees a failure; and the run's first
token, asked for as a read is.

Every request of a run goes through the connection's keystoneauth Session
(openstacksdk's proxies are keystoneauth Adapters).  keystoneauth ends each
one in ``Session.session.request(...)``, its public requests Session, whose
mounted ``HTTPAdapter`` objects take a urllib3 ``Retry`` as their public
``max_retries``.  ``set_transport_retries(conn)`` gives that connection's own
adapters the retries below; nothing of those libraries is changed, no class
is touched, and every request keeps what keystoneauth gives it (request ids
in its log, the session's hooks, token refresh, its own retry options).

Why not keystoneauth's own ``connect_retries`` / ``status_code_retries``
(openstacksdk's ``connect_retries`` and ``<service>_status_code_retries``):
they retry every method alike.  keystoneauth turns a lost answer into a
``ConnectFailure`` and sends the request again, a POST too, and a POST sent
twice makes a second server or port.  urllib3's ``Retry`` decides by method,
so it is the one place where "POST and PATCH are never sent twice" can be
said, and it sits under keystoneauth, so Keystone's version discovery and the
token request (the first requests of a run, before any engine code could
retry them) get it as well.  Those keystoneauth options stay at what the
user's cloud configuration says.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ..errors import CloudError, CloudTransient
from .sdk import call, ksa_errors, libraries, remembered

# The transport's own retries (``set_transport_retries``): what a request
# that never reached the service, or an idempotent one that met a 5xx or lost
# its answer, gets before anyone above sees a failure.  Methods whose
# repetition changes nothing; POST and PATCH are never sent twice by the
# transport.
TRANSPORT_RETRIES = 3
TRANSPORT_BACKOFF = 0.25
IDEMPOTENT = frozenset(('GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'))
# 409 too: for these methods a conflict is a moment's state (a port being
# bound, a volume still attaching) the next try usually no longer meets.
RETRIED_STATUSES = frozenset((409, 429, 500, 502, 503, 504))
# PUTs that are actions, not states: Neutron's router interface calls.  One
# whose answer was lost is not sent again (the second add is refused, "Router
# already has a port on subnet"): like a POST it goes up, and the engine's
# find sees the interface it made (engine/walk/create_attempts.py).
ACTION_PUT = re.compile(r'/(add|remove)_router_interface/?(\?|$)')


def _action_put(method, url):
    return method == 'PUT' and bool(url) and ACTION_PUT.search(url) is not None


_RETRY_CLASSES = []


def stack_retry_class():
    """urllib3's Retry, with an action PUT's lost answer treated as a POST's
    (never sent again); made on first use, as urllib3 is loaded then
    (``sdk.libraries``).  Subclassed through its public ``increment``;
    urllib3 builds each next state with ``new``, which keeps the class.
    None without urllib3."""
    if not _RETRY_CLASSES:
        retry = libraries().retry
        if retry is None:  # pragma: no cover - urllib3 comes with requests
            return None

        class StackRetry(retry):
            """urllib3's Retry that never sends an action PUT twice."""

            def increment(self, method=None, url=None, *args, **kwargs):
                if _action_put(method, url):
                    method = 'POST'
                return super(StackRetry, self).increment(method, url, *args, **kwargs)
        _RETRY_CLASSES.append(StackRetry)
    return _RETRY_CLASSES[0]


def transport_retry():
    """The urllib3 ``Retry`` ``set_transport_retries`` gives: bounded, with
    exponential backoff (0.25 s, 0.5 s, 1 s: well under a second for one
    fault) and the service's ``Retry-After`` respected.  A request that could not connect is
    sent again whatever its method (nothing reached the service); a lost
    answer or a 429/5xx status only for the idempotent methods.  After the
    last try the last answer is handed up as it came (``raise_on_status``
    off), so the SDK turns it into its usual exception and ``call`` decides."""
    retry = stack_retry_class()
    return retry(total=TRANSPORT_RETRIES, connect=TRANSPORT_RETRIES, read=TRANSPORT_RETRIES,
                 status=TRANSPORT_RETRIES, other=0, redirect=False,
                 allowed_methods=IDEMPOTENT, status_forcelist=RETRIED_STATUSES,
                 backoff_factor=TRANSPORT_BACKOFF, backoff_max=4.0,
                 respect_retry_after_header=True, raise_on_status=False,
                 raise_on_redirect=False)


def set_transport_retries(conn):
    """Give the requests adapters of ``conn``'s keystoneauth session the
    transport retries (``transport_retry``).  Only that session's own adapter
    objects are changed, never a class; an adapter that already retries (set
    here before, or by someone else) is left alone, so a run may call this
    again.  True when one was changed."""
    keystone = getattr(conn, 'session', None)
    session = getattr(keystone, 'session', None)
    adapters = getattr(session, 'adapters', None)
    if not adapters:
        return False
    libs = libraries()
    if libs.http_adapter is None or libs.retry is None:
        return False
    changed = False
    for adapter in list(adapters.values()):
        current = getattr(adapter, 'max_retries', None)
        if isinstance(adapter, libs.http_adapter) and isinstance(current, libs.retry) and not current.total:
            adapter.max_retries = transport_retry()
            changed = True
    return changed


def fetch_first_token(conn):
    """Ask for ``conn``'s token before the run's first request, as a read is
    asked (``sdk.call``: a 503 or a dropped connection asked again with
    backoff), once per connection.  The transport never sends a POST twice,
    and the token's is the one POST that makes nothing in the cloud: asked
    here, a Keystone that hiccups at the run's start fails no resource's
    request (a create's is not asked again).  Only a keystoneauth
    session with an auth plugin is asked (a test's fake connection is left
    alone).  True when the token came; a failure that is not transient
    (wrong credentials, an unknown domain) is left for the run's first
    request to meet and report; a transient one retried to the end is
    raised here."""
    keystone = getattr(conn, 'session', None)
    if keystone is None:
        return False
    ks_session = libraries().ksa_session
    if ks_session is None or not isinstance(keystone, ks_session.Session) or not keystone.auth:
        return False
    return remembered(conn, ('token',), lambda: _token(keystone))


def _token(keystone):
    try:
        call(keystone.get_token)
    except CloudTransient:
        raise
    except CloudError:
        return False
    except ksa_errors():
        return False
    return True
