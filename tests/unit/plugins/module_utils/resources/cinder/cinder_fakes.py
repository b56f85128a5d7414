# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Small fakes of openstacksdk objects for the cinder plugin tests."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

from openstack import exceptions as sdk_exc

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext, effective_properties


class Obj(object):
    """An SDK resource: attributes, and to_dict in the API's names."""

    def __init__(self, **attrs):
        self.__dict__.update(attrs)

    def to_dict(self, **kwargs):
        assert kwargs.get('original_names') is True
        return dict(self.__dict__)


def volume(**attrs):
    base = dict(id='vol-1', name='s-vol-x', status='available', size=1, availability_zone='nova',
                snapshot_id=None, source_volid=None, volume_type='__DEFAULT__', description=None,
                created_at='2026-01-01T00:00:00', bootable=False, encrypted=False, multiattach=False,
                attachments=[], metadata={'stackers-stack-id': 'sid', 'stackers-resource': 'vol'})
    base.update(attrs)
    return Obj(**base)


def http(status, message='boom'):
    if status == 404:
        return sdk_exc.NotFoundException(message)
    if status == 409:
        return sdk_exc.ConflictException(message)
    exc = sdk_exc.HttpException(message)
    exc.status_code = status
    return exc


# The mock connections ctx() made during the current test: conftest.py holds
# their calls against the installed openstacksdk (tests/unit/sdk_calls.py).
CONNS = []


def ctx(type_name, props, **kw):
    if 'conn' not in kw:
        kw['conn'] = mock.MagicMock()
        CONNS.append(kw['conn'])
    kw.setdefault('stack_id', 'sid')
    kw.setdefault('stack_name', 's')
    kw.setdefault('physical_name', 's-%s-x' % kw.get('name', 'r'))
    return ResourceContext(type_name=type_name, properties=effective_properties(type_name, props),
                           **kw)
