# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Waits on a handle's signals: OS::Heat::SwiftSignal, OS::Heat::WaitCondition
and AWS::CloudFormation::WaitCondition, with Heat's rules and messages.

A wait records when it started; each look first compares the clock with
``timeout`` (Heat looks at the clock first), then reads the handle's
signals (_swift_signal.read_bodies: one HEAD when nothing changed).  The
signals are read from every version of the handle's object, so signals
PUT before the wait started count, and a repeated id replaces the earlier
signal.  How bodies become signals is the handle's (Heat's code is split the
same way):

- SwiftSignal reads every body again each time: ``""`` is ``{}``, the
  defaults are the signal's ordinal as ``id``, ``Signal <id> received``,
  SUCCESS; a repeated id drops the earlier signal.
- WaitCondition's handles merge each body into a map keyed by ``str(id)``
  (the default id: the map's size plus one): the OpenStack handle fills in
  the defaults and requires exactly ``data, reason, status, id``; the AWS
  ones require ``Data, Reason, Status, UniqueId`` as sent.  A body of another
  shape fails the wait as Heat's handle fails it (``ValueError: resources.
  <handle>: Metadata format invalid``); a body that is not JSON fails it with
  ``Failed to parse JSON data: <body>``.

The wait's ``handle`` is the handle's reference id: a TempURL (SwiftSignal,
the AWS handles), the object's name (OS::Heat::WaitConditionHandle), or
``NO_SIGNAL:<name>`` (no object: one signal per look, as Heat's
NO_SIGNAL handle signals itself at each look).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
from urllib.parse import unquote, urlparse

from ...errors import ResourceFailure
from ..base import ResourcePlugin
from . import _swift_signal as swift
from . import _waiting
from .signal_handles import NO_SIGNAL_PREFIX

SUCCESS, FAILURE = 'SUCCESS', 'FAILURE'
OS_KEYS = ('data', 'reason', 'status', 'id')
AWS_KEYS = ('Data', 'Reason', 'Status', 'UniqueId')


def _fail(kind, message, where=None):
    raise ResourceFailure(message, kind=kind, where=where)


def _load(body):
    if body == '':
        return {}
    try:
        return json.loads(body)
    except ValueError:
        _fail('Error', 'Failed to parse JSON data: %s' % body)


def swift_signals(bodies):
    """SwiftSignal's signals (dicts with the four keys) from the bodies."""
    signals = []
    for number, body in enumerate(bodies, 1):
        signal = _load(body)
        if not isinstance(signal, dict):
            _fail('AttributeError', "'%s' object has no attribute 'setdefault'"
                  % _py_type(signal))
        if 'id' in signal:
            signals = [s for s in signals if s.get('id') != signal['id']]
        signal.setdefault('data', None)
        signal.setdefault('id', number)
        signal.setdefault('reason', 'Signal %s received' % signal['id'])
        signal.setdefault('status', SUCCESS)
        signals.append(signal)
    return signals


def _py_type(value):
    return {dict: 'dict', list: 'list', str: 'str', int: 'int', float: 'float',
            bool: 'bool'}.get(type(value), type(value).__name__)


def handle_metadata(bodies, aws, handle=None):
    """A WaitConditionHandle's metadata (``str(id)`` -> entry without the
    id) after the bodies, merged one by one as Heat's handle_signal does."""
    keys = AWS_KEYS if aws else OS_KEYS
    meta = {}
    for body in bodies:
        details = _load(body)
        if aws:
            if details is None:
                continue   # Heat's AWS handle ignores an empty signal
            entry = details
        else:
            entry = _normalised(details, len(meta) + 1, handle)
        if not (isinstance(entry, dict) and set(entry) == set(keys) and
                entry[keys[2]] in (SUCCESS, FAILURE)):
            _fail('ValueError', 'Metadata format invalid', handle)
        entry = dict(entry)
        meta[str(entry.pop(keys[3]))] = entry
    return meta


def _normalised(details, number, handle):
    if not details:
        details = {}
    if not hasattr(details, 'copy'):
        _fail('AttributeError', "'%s' object has no attribute 'copy'" % _py_type(details), handle)
    entry = details.copy()
    if not isinstance(entry, dict):
        _fail('AttributeError', "'%s' object has no attribute 'setdefault'" % _py_type(entry),
              handle)
    entry.setdefault('reason', 'Signal %s received' % number)
    entry.setdefault('data', None)
    entry.setdefault('id', number)
    entry.setdefault('status', SUCCESS)
    return entry


def _received(count, reasons):
    if reasons:
        return '%d of %d received - %s' % (len(reasons), count, ';'.join(reasons))
    return '%d of %d received' % (len(reasons), count)


class _Wait(ResourcePlugin):
    """What the three waits share: the clock, the reads, the attribute."""

    poll_interval = 2.0
    HANDLE, TIMEOUT, COUNT, DATA = 'handle', 'timeout', 'count', 'data'
    FAILURE_KIND = TIMEOUT_KIND = None

    def _start(self, ctx):
        _waiting.start(ctx, float(ctx.properties.get(self.TIMEOUT)))
        self._where(ctx)   # a handle that is not one fails before any wait

    def create(self, ctx):
        self._start(ctx)
        return ctx.physical_name

    def check_create_complete(self, ctx):
        return self._wait(ctx)

    def update(self, ctx):
        self._start(ctx)

    def check_update_complete(self, ctx):
        return self._wait(ctx)

    def _wait(self, ctx):
        state = _waiting.elapsed(ctx)
        count = int(ctx.properties.get(self.COUNT) or 1)
        if state is not None and state[0] > state[1]:
            reasons = [e['reason'] for e in self._entries(ctx, fresh=False) if e['status'] == SUCCESS]
            _fail(self.TIMEOUT_KIND, _received(count, reasons))
        entries = self._entries(ctx)
        statuses = [e['status'] for e in entries]
        self._judge(statuses, entries)
        if len(statuses) >= count:
            _waiting.clear(ctx)
            return True
        return False

    def _judge(self, statuses, entries):
        if any(s != SUCCESS for s in statuses):
            _fail(self.FAILURE_KIND, ';'.join(e['reason'] for e in entries if e['status'] == FAILURE))

    def _bodies(self, ctx, fresh=True):
        # not fresh: what the last look read (attributes make no request)
        seen = ctx.data.setdefault('seen', {})
        if _kind(ctx.properties.get(self.HANDLE)) == 'none':
            if fresh:
                seen['polls'] = seen.get('polls', 0) + 1
            return [''] * seen.get('polls', 0)
        if not fresh:
            return list(seen.get('bodies') or ())
        where = self._where(ctx)
        return swift.read_bodies(ctx.conn, where[1], where[2], seen)

    def show(self, ctx):
        return None if ctx.physical_id is None else {}

    def check(self, ctx):
        return None

    def attributes(self, ctx, live, names=None):
        if ctx.physical_id is None:
            return {self.DATA: None, 'show': None}
        try:
            data = self._data(self._entries(ctx, fresh=False))
        except ResourceFailure:
            data = None
        return {self.DATA: json.dumps(data), 'show': None}


class SwiftSignal(_Wait):
    type_name = 'OS::Heat::SwiftSignal'
    FAILURE_KIND, TIMEOUT_KIND = 'SwiftSignalFailure', 'SwiftSignalTimeout'

    def _where(self, ctx):
        try:
            container, obj = swift.parse_url(ctx.conn, ctx.properties.get(self.HANDLE))
        except ValueError as exc:
            _fail('ValueError', str(exc))
        if container != ctx.stack_id:
            _fail('ValueError', '"%s" is not a valid SwiftSignalHandle.  The container name is '
                  'invalid' % _path(ctx.properties.get(self.HANDLE)))
        return 'swift', container, obj

    def _entries(self, ctx, fresh=True):
        return swift_signals(self._bodies(ctx, fresh))

    def _judge(self, statuses, entries):
        for status in statuses:
            if status == FAILURE:
                super(SwiftSignal, self)._judge(statuses, entries)
            elif status != SUCCESS:
                _fail('Error', 'Unknown status: %s' % status)

    def _data(self, entries):
        if not entries:
            return None
        return dict((_key(e['id']), e['data']) for e in entries)


def _kind(handle):
    """What a wait's ``handle`` names: a TempURL ('aws': the AWS handles'
    keys, or a SwiftSignalHandle), an OpenStack handle's object ('os') or
    a NO_SIGNAL handle ('none')."""
    handle = handle if isinstance(handle, str) else ''
    if handle.startswith(NO_SIGNAL_PREFIX):
        return 'none'
    return 'aws' if '://' in handle else 'os'


def _path(url):
    return urlparse(url or '').path


def _key(value):
    # an id JSON can give but a dict cannot hold (a list) keys by its text
    try:
        hash(value)
    except TypeError:
        return json.dumps(value)
    return value


class WaitCondition(_Wait):
    type_name = 'OS::Heat::WaitCondition'
    FAILURE_KIND, TIMEOUT_KIND = 'WaitConditionFailure', 'WaitConditionTimeout'

    def _where(self, ctx):
        handle = ctx.properties.get(self.HANDLE) or ''
        if handle.startswith(NO_SIGNAL_PREFIX):
            return 'none', None, handle[len(NO_SIGNAL_PREFIX):]
        if '://' in handle:
            try:
                container, obj = swift.parse_url(ctx.conn, handle)
            except ValueError:
                container = obj = None
            if container == ctx.stack_id:
                return 'aws', container, obj
        elif handle.startswith('%s-' % ctx.stack_name):
            return 'os', ctx.stack_id, handle
        _fail('ValueError', '%s is not a valid wait condition handle.' % handle)

    def _handle_name(self, ctx, obj):
        # <stack>-<handle>-<12 random>: Heat names the handle in its errors
        prefix = '%s-' % ctx.stack_name
        if obj and obj.startswith(prefix) and len(obj) > len(prefix) + 13:
            return obj[len(prefix):-13]
        return None

    def _meta(self, ctx, fresh=True):
        handle = ctx.properties.get(self.HANDLE)
        aws = _kind(handle) == 'aws'
        obj = unquote(_path(handle).rsplit('/', 1)[-1]) if aws else str(handle).rsplit(':', maxsplit=1)[-1]
        meta = handle_metadata(self._bodies(ctx, fresh), aws, self._handle_name(ctx, obj))
        return meta, AWS_KEYS if aws else OS_KEYS

    def _entries(self, ctx, fresh=True):
        meta, keys = self._meta(ctx, fresh)
        return [{'status': v[keys[2]], 'reason': v[keys[1]], 'data': v[keys[0]]}
                for v in meta.values()]

    def attributes(self, ctx, live, names=None):
        if ctx.physical_id is None:
            return {self.DATA: None, 'show': None}
        try:
            meta, keys = self._meta(ctx, fresh=False)
        except ResourceFailure:
            meta, keys = {}, OS_KEYS
        return {self.DATA: json.dumps(dict((k, v[keys[0]]) for k, v in meta.items())),
                'show': None}


class AwsWaitCondition(WaitCondition):
    type_name = 'AWS::CloudFormation::WaitCondition'
    HANDLE, TIMEOUT, COUNT, DATA = 'Handle', 'Timeout', 'Count', 'Data'

    def _where(self, ctx):
        where = super(AwsWaitCondition, self)._where(ctx)
        if where[0] != 'aws':
            _fail('ValueError', 'WaitCondition invalid Handle %s' % ctx.properties.get(self.HANDLE))
        return where
