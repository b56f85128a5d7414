# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The transport's own retries: what a request that never reached the
service, or an idempotent one that met a 5xx or lost its answer, gets before
anyone above (``sdk.call``, the engine) sees a failure.  Set once per
connection by ``steady(conn)`` (runner.run and base.py's connection), through
the public ``max_retries`` of the requests adapters keystoneauth mounted on
that connection's own session: nothing of those libraries is changed."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ..errors import CloudError, CloudTransient
from .sdk import KSA_ERRORS, call, remembered

try:
    from keystoneauth1 import session as _ks_session
except ImportError:  # pragma: no cover - keystoneauth1 comes with openstacksdk
    _ks_session = None
try:
    from requests.adapters import HTTPAdapter
except ImportError:  # pragma: no cover - requests comes with openstacksdk
    HTTPAdapter = None
try:
    from urllib3.util.retry import Retry
except ImportError:  # pragma: no cover - urllib3 comes with requests
    Retry = None

# The transport's own retries (``steady``): what a request that never reached
# the service, or an idempotent one that met a 5xx or lost its answer, gets
# before anyone above sees a failure.  Methods whose repetition changes
# nothing; POST and PATCH are never sent twice by the transport.
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


if Retry is not None:
    class StackRetry(Retry):
        """urllib3's Retry, with an action PUT's lost answer treated as a
        POST's (never sent again).  Subclassed through its public
        ``increment``; urllib3 builds each next state with ``new``, which
        keeps the class."""

        def increment(self, method=None, url=None, *args, **kwargs):
            if _action_put(method, url):
                method = 'POST'
            return super(StackRetry, self).increment(method, url, *args, **kwargs)
else:  # pragma: no cover - urllib3 comes with requests
    StackRetry = None


def transport_retry():
    """The urllib3 ``Retry`` ``steady`` mounts: bounded, with exponential
    backoff (0.25 s, 0.5 s, 1 s: well under a second for one fault) and the
    service's ``Retry-After`` respected.  A request that could not connect is
    sent again whatever its method (nothing reached the service); a lost
    answer or a 429/5xx status only for the idempotent methods.  After the
    last try the last answer is handed up as it came (``raise_on_status``
    off), so the SDK turns it into its usual exception and ``call`` decides."""
    return StackRetry(total=TRANSPORT_RETRIES, connect=TRANSPORT_RETRIES, read=TRANSPORT_RETRIES,
                      status=TRANSPORT_RETRIES, other=0, redirect=False,
                      allowed_methods=IDEMPOTENT, status_forcelist=RETRIED_STATUSES,
                      backoff_factor=TRANSPORT_BACKOFF, backoff_max=4.0,
                      respect_retry_after_header=True, raise_on_status=False,
                      raise_on_redirect=False)


def steady_session(conn):
    """Give the connection's own transport adapters the transport retries.

    keystoneauth's ``connect_retries`` and ``status_code_retries`` (the
    options openstacksdk exposes) retry every method alike: a POST whose
    answer was lost would be sent again and make a second server.  urllib3's
    ``Retry`` (``transport_retry``), set as the public ``max_retries`` of the
    requests adapters keystoneauth mounted on this connection's own session
    (its TCP keep-alive adapter, one per session: never a class), retries by
    method instead, and it sits under keystoneauth, so Keystone's version
    discovery and the token request (the first requests of a run, before any
    engine code could retry them), the SDK's calls and the direct Neutron
    path (direct.py) all get it.  An adapter someone already gave retries is
    left alone.  True when one was changed."""
    keystone = getattr(conn, 'session', None)
    session = getattr(keystone, 'session', None)
    adapters = getattr(session, 'adapters', None)
    if HTTPAdapter is None or Retry is None or not adapters:
        return False
    changed = False
    for adapter in list(adapters.values()):
        current = getattr(adapter, 'max_retries', None)
        if isinstance(adapter, HTTPAdapter) and isinstance(current, Retry) and not current.total:
            adapter.max_retries = transport_retry()
            changed = True
    return changed


def steady(conn):
    """``steady_session`` once per connection (a run may call it again),
    then the token, asked as a read is (``call``: a 503 or a dropped
    connection asked again with backoff): the transport never sends a POST
    twice, and the token's is the one POST that makes nothing in the cloud.
    Only a keystoneauth session with an auth plugin is asked (a test's fake
    connection is left alone)."""
    if conn is None:
        return False
    mounted = remembered(conn, ('steady_session',), lambda: steady_session(conn))
    keystone = getattr(conn, 'session', None)
    if _ks_session is not None and isinstance(keystone, _ks_session.Session) and keystone.auth:
        remembered(conn, ('token',), lambda: _first_token(keystone))
    return mounted


def _first_token(keystone):
    """True when the token came; a failure that is not transient (wrong
    credentials, an unknown domain) is left for the run's first request to
    meet and report, as it did before; a transient one retried to the end
    is raised here, naming the cloud's connection."""
    try:
        call(keystone.get_token)
    except CloudTransient:
        raise
    except CloudError:
        return False
    except KSA_ERRORS:
        return False
    return True
