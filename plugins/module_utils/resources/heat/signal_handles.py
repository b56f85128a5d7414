# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The handles waits listen to, over Swift TempURLs (_swift_signal.py).

- OS::Heat::SwiftSignalHandle: reference id and ``endpoint`` are the
  TempURL, ``curl_cli`` is ``curl -i -X PUT '<url>'``, ``token`` is ''.
- OS::Heat::WaitConditionHandle: ``signal_transport`` TEMP_URL_SIGNAL
  gives Heat's attributes for it (``signal`` = ``{"alarm_url": url}``, the
  others None).  Heat's default, TOKEN_SIGNAL, needs a Heat API; here the
  default stands for a TempURL too, with the attributes the token
  transport's users read (``endpoint`` the URL, ``curl_cli`` a PUT to it,
  ``token`` '': a TempURL needs none).  NO_SIGNAL makes nothing: its wait
  counts one signal per look, as Heat's does.  HEAT_SIGNAL, ZAQAR_SIGNAL and
  CFN_SIGNAL are refused before any cloud call (hot/type_checks.py).  Its
  reference id is the object's name (Heat's is a stack user's id).
- AWS::CloudFormation::WaitConditionHandle: the reference id is the TempURL
  (Heat's is a CFN-signed URL; cfn-signal PUTs to either).
- OS::Heat::UpdateWaitConditionHandle: the AWS handle, replaced by every
  update of its stack, so its URL changes and signals are sent again.

The container is the stack's id, the object the handle's physical name;
delete removes every version and then the container if that emptied it.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ...errors import CloudNotFound
from .. import raw_request as raw
from ..base import ResourcePlugin
from . import _swift_signal as swift

URL = 'url'
NO_SIGNAL_PREFIX = 'NO_SIGNAL:'
REFUSED_TRANSPORTS = ('CFN_SIGNAL', 'HEAT_SIGNAL', 'ZAQAR_SIGNAL')


class _SwiftHandle(ResourcePlugin):
    """A handle owning one object of the stack's container."""

    poll_interval = 1.0

    def _swift(self, ctx):
        return True

    def create(self, ctx):
        if self._swift(ctx):
            ctx.data[URL] = swift.make_handle(ctx.conn, ctx.stack_id, ctx.physical_name)
        return ctx.physical_name

    def check_create_complete(self, ctx):
        if self._swift(ctx) and not ctx.data.get(URL):
            # found after an interrupted create: the calls are idempotent
            ctx.data[URL] = swift.make_handle(ctx.conn, ctx.stack_id, ctx.physical_id)
        return True

    def find(self, ctx):
        if not self._swift(ctx):
            return None
        try:
            raw.send(ctx.conn.object_store, 'HEAD', raw.path(ctx.stack_id, ctx.physical_name))
        except CloudNotFound:
            return None
        return ctx.physical_name

    def delete(self, ctx):
        if ctx.physical_id is not None and self._swift(ctx):
            swift.delete_handle(ctx.conn, ctx.stack_id, ctx.physical_id)
        ctx.data.pop(URL, None)

    def show(self, ctx):
        return None if ctx.physical_id is None else {}

    def check(self, ctx):
        return None


class SwiftSignalHandle(_SwiftHandle):
    type_name = 'OS::Heat::SwiftSignalHandle'

    def heat_resource_data(self, ctx):
        # Heat's SwiftSignalHandle keeps its TempURL as data 'endpoint'
        url = ctx.data.get(URL)
        return {'endpoint': url} if url else {}

    def attributes(self, ctx, live, names=None):
        url = ctx.data.get(URL) if ctx.physical_id is not None else None
        return {'token': '' if url else None, 'endpoint': url,
                'curl_cli': "curl -i -X PUT '%s'" % url if url else None, 'show': None}

    def reference_id(self, ctx):
        return ctx.data.get(URL) if ctx.physical_id is not None else ctx.name

    def from_heat_resource_data(self, ctx, resource_data):
        # Heat's swiftsignal.py keeps its TempURL as ``endpoint``: a Swift
        # object, which the waits read as they read ours (_swift_signal.py)
        if resource_data.get('endpoint'):
            ctx.data[URL] = resource_data['endpoint']


class WaitConditionHandle(_SwiftHandle):
    type_name = 'OS::Heat::WaitConditionHandle'

    def _transport(self, ctx):
        return (ctx.properties or {}).get('signal_transport') or 'TOKEN_SIGNAL'

    def _swift(self, ctx):
        return self._transport(ctx) != 'NO_SIGNAL'

    def create(self, ctx):
        transport = self._transport(ctx)
        if transport in REFUSED_TRANSPORTS:
            # validation refuses it first; a value known only now lands here
            ctx.fail('signal_transport %s needs a Heat API or Zaqar, which stackers.orchestration '
                     'does not use: use TEMP_URL_SIGNAL (a Swift TempURL)' % transport)
        return super(WaitConditionHandle, self).create(ctx)

    def attributes(self, ctx, live, names=None):
        url = ctx.data.get(URL) if ctx.physical_id is not None else None
        transport = self._transport(ctx)
        attrs = {'token': None, 'endpoint': None, 'curl_cli': None, 'show': None,
                 'signal': json.dumps({'alarm_url': url} if url else {})}
        if transport == 'TOKEN_SIGNAL' and url:
            attrs.update(token='', endpoint=url, curl_cli="curl -i -X PUT '%s'" % url)
        return attrs

    def heat_resource_data(self, ctx):
        # Heat's handle with TEMP_URL_SIGNAL keeps its TempURL as a signal
        # responder does (swift_signal_url, swift_signal_object_name); its
        # TOKEN_SIGNAL data (a Keystone user's token) has no counterpart here
        url = ctx.data.get(URL)
        if not url or self._transport(ctx) != 'TEMP_URL_SIGNAL':
            return {}
        return {'swift_signal_url': url, 'swift_signal_object_name': ctx.physical_id}

    def reference_id(self, ctx):
        if ctx.physical_id is None:
            return ctx.name
        if not self._swift(ctx):
            return NO_SIGNAL_PREFIX + ctx.physical_id
        return ctx.physical_id


class AwsWaitConditionHandle(_SwiftHandle):
    type_name = 'AWS::CloudFormation::WaitConditionHandle'

    def attributes(self, ctx, live, names=None):
        return {'show': None}

    def reference_id(self, ctx):
        return ctx.data.get(URL) if ctx.physical_id is not None else ctx.name


class UpdateWaitConditionHandle(AwsWaitConditionHandle):
    type_name = 'OS::Heat::UpdateWaitConditionHandle'
    # Heat's _needs_update always answers UpdateReplace (engine/walk/planner.py).
    replace_on_stack_update = True
