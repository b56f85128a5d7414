# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fakes shared by the Neutron plugin tests: a mock connection whose
``network`` proxy records calls, SDK-like objects, contexts built as the
engine builds them."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import (
    ResourceContext, effective_properties)
from ansible_collections.stackers.orchestration.tests.unit import sdk_calls

from .neutron_fakes import Obj, raw_neutron  # noqa: F401  (Obj: the tests' SDK-like object)

STACK_ID = '11111111-2222-3333-4444-555555555555'
UUID1 = 'aaaaaaaa-0000-0000-0000-000000000001'
UUID2 = 'aaaaaaaa-0000-0000-0000-000000000002'
UUID3 = 'aaaaaaaa-0000-0000-0000-000000000003'


@pytest.fixture
def obj():
    return Obj


@pytest.fixture
def conn():
    c = mock.MagicMock(name='conn')
    c.current_project_id = 'proj'
    c.network.extensions.return_value = []
    c.network.set_tags.side_effect = _tagged
    raw_neutron(c)
    yield c
    sdk_calls.check(c)


def _tagged(res, tags):
    if isinstance(res, Obj):
        res.tags = tags
        res._attrs['tags'] = tags
    return res


@pytest.fixture
def make_ctx(conn):
    def make(type_name, props=None, physical_id=None, old=None, changed=None, name='res', data=None):
        new = effective_properties(type_name, props or {})
        old_props = effective_properties(type_name, old) if old is not None else None
        if changed is None and old_props is not None:
            changed = [k for k in new if new.get(k) != old_props.get(k)]
        return ResourceContext(conn=conn, stack_id=STACK_ID, stack_name='st', name=name,
                               type_name=type_name, physical_name='st-%s-abc' % name,
                               physical_id=physical_id, properties=new, old_properties=old_props,
                               changed=changed or (), data=data, action='CREATE')
    return make


@pytest.fixture
def marks():
    return ['stackers-stack-id=%s' % STACK_ID, 'stackers-resource=res']
