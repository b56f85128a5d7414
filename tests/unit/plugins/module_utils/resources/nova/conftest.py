# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fakes shared by the nova plugin tests: a mock connection and contexts."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import base
from ansible_collections.stackers.orchestration.tests.unit import sdk_calls

NET = '11111111-1111-1111-1111-111111111111'
IMG = '22222222-2222-2222-2222-222222222222'
SRV = '33333333-3333-3333-3333-333333333333'


class Obj(dict):
    """An SDK-like object: attributes, and to_dict as the API's dict."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)

    def to_dict(self, **kw):
        return dict(self)


@pytest.fixture
def conn():
    c = mock.MagicMock()
    c.current_project_id = 'proj'
    # A Nova that still generates key pairs (below 2.92): KeyPair.create checks it.
    c.compute.get_endpoint_data.return_value = mock.Mock(max_microversion=(2, 91))
    yield c
    sdk_calls.check(c)


def make_ctx(conn, type_name, props, name='res', **kw):
    return base.ResourceContext(conn=conn, stack_id='sid', stack_name='st', name=name,
                                type_name=type_name, physical_name='st-%s-abc' % name,
                                properties=base.effective_properties(type_name, props),
                                action='CREATE', **kw)
