# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""When a create is tried again, and when what a failed create made is taken.

Two different things fail a create, and each has its own rule:

- *the request* (a 5xx, a dropped connection, a lost answer, a 409): the
  create call is sent again only when the plugin's ``find`` proves the first
  one made nothing; when it finds the object and the plugin says an object
  found there is the whole of what its create makes (``found_is_whole``: one
  request made it, matched by the name or marks that request carried), that
  object is the resource's, as if the answer had come (``create_proven``);
- *the object* (it went to an error status while building: Heat's
  ResourceInError): Heat's ``action_retry_limit`` (heat.conf, default 5)
  deletes it and creates it again, after 2**n seconds plus up to 2 s
  (``retry_delay``); resource_tasks walks that loop, and this module says
  which failures it covers (``in_error``).

A create resumed from a run that died (SIGKILL, a lost host) has a third
hazard: that run's last request may still be in the cloud's hands, so an
object it asked for can appear after the rerun has looked for it.  The rerun
waits until ``RESUME_SETTLE`` seconds have passed since the dead run wrote the
row (``settle``) before it looks, and looks again before each new object the
action_retry_limit loop makes, so such an object is taken rather than made a
second time (a server's second build would meet the first holding its port).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import calendar
import random
import time

from ...errors import CloudConflict, CloudError, CloudTransient, ResourceFailure
from ...resources.base import ResourcePlugin

# A create that met a transient fault or a conflict (409: a moment's state,
# or a name taken) is sent again only when find proves the first one made
# nothing; at most this many times, with backoff.
CREATE_RETRIES = 2
CREATE_BACKOFF = 1.0
# heat.conf's action_retry_limit: how many times an object that went to an
# error status is deleted and created again (0: never).
ACTION_RETRY_LIMIT = 5
# How long after a dead run's last record of a create the rerun waits before
# it looks for what that create made: a request the dead run sent is handled
# by then (an API answers a create in well under this; the build itself may
# go on, but the object is listed once the request is handled).
RESUME_SETTLE = 10.0


def create_proven(plugin, ctx, sleep=time.sleep):
    """``plugin.create(ctx)``, sent again after a transient failure only when
    nothing was made (docs/reliability.md, Retries).  A plugin with no find of its
    own cannot prove that: its failure stands.  When find sees something
    after a transient failure and the plugin's ``found_is_whole`` says so,
    it is the resource's object (its id returned).  Otherwise the failure
    stands and nothing is taken as done: a create of several requests (a
    security group, then its rules) may have stopped half-way, and a
    conflict's find may see someone else's object (a key pair's name).  The
    row keeps the physical name written before the call, so the next run's
    replacement finds the half-made object by it and deletes it (as after a
    run killed during a create)."""
    attempt = 0
    while True:
        try:
            return plugin.create(ctx)
        except (CloudTransient, CloudConflict) as failure:
            if not _finds(plugin) or attempt >= CREATE_RETRIES:
                raise
            try:
                found = plugin.find(ctx)
            except CloudError:
                raise failure from None   # unproven: the create's own failure stands
            if found is not None:
                if isinstance(failure, CloudTransient) and plugin.found_is_whole(ctx):
                    return found          # its answer was lost: the object is whole
                raise                     # half-made, or someone else's name
            attempt += 1
            sleep(CREATE_BACKOFF * attempt)


def settle(row, now=time.time):
    """Seconds to wait before looking for what the create recorded in ``row``
    made: a row IN_PROGRESS was written by a run that died in the middle of
    its create (a live run holds the lock), whose request may still be in
    flight; 0 once RESUME_SETTLE has passed since (or for a create that
    failed: its run saw the request end)."""
    if row is None or row.status != 'IN_PROGRESS' or not row.updated_time:
        return 0.0
    try:
        written = calendar.timegm(time.strptime(row.updated_time, '%Y-%m-%dT%H:%M:%SZ'))
    except ValueError:
        return 0.0
    # +1: the record's time has whole seconds
    return max(0.0, min(RESUME_SETTLE, written + 1 + RESUME_SETTLE - now()))


def _finds(plugin):
    """True when the plugin has a find of its own (the base one finds nothing)."""
    find = getattr(plugin, 'find', None)
    return find is not None and getattr(find, '__func__', find) is not ResourcePlugin.find


def in_error(exc):
    """True for the failure Heat's action_retry_limit covers: the object went
    to an error status (ResourceInError), which deleting and creating it
    again may cure.  A refused request, a wrong property or a status the
    type does not know (ResourceUnknownStatus) is not retried."""
    return isinstance(exc, ResourceFailure) and bool(exc.details.get('in_error'))


def retry_delay(count, rng=random):
    """Heat's retry_backoff_delay(count, jitter_max=2.0): 2**count seconds
    and up to 2 more, so retries of several resources do not meet."""
    return float(2 ** count) + rng.random() * 2.0
