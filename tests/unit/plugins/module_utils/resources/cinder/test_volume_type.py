# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder import cinder_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import ResourceFailure  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402

T = 'OS::Cinder::VolumeType'
VolumeType = PLUGINS[T]
DEMO = '3724523d3d1e449f80c51eb5c89af615'


def _ctx(props, **kw):
    kw.setdefault('name', 'vt')
    return fakes.ctx(T, props, **kw)


def test_create_in_one_request_then_grants_access():
    ctx = _ctx({'name': 'gold', 'metadata': {'a': 1}, 'is_public': False, 'description': 'd',
                'projects': ['demo', DEMO]})
    bs = ctx.conn.block_storage
    bs.create_type.return_value = fakes.Obj(id='vt-1', name='gold')
    ctx.physical_id = VolumeType().create(ctx)
    assert ctx.physical_id == 'vt-1'
    bs.create_type.assert_called_once_with(name='gold', is_public=False, description='d',
                                           extra_specs={'a': '1'})
    bs.add_type_access.assert_not_called()
    ctx.conn.identity.find_project.return_value = fakes.Obj(id='p-demo')
    assert VolumeType().check_create_complete(ctx) is True
    assert [c.args for c in bs.add_type_access.call_args_list] == [('vt-1', 'p-demo'), ('vt-1', DEMO)]
    ctx.conn.identity.find_project.assert_called_once_with('demo', ignore_missing=True)


def test_unknown_project_fails():
    ctx = _ctx({'name': 'gold', 'is_public': False, 'projects': ['nope']}, physical_id='vt-1')
    ctx.data['grant'] = ['nope']
    ctx.conn.identity.find_project.return_value = None
    with pytest.raises(ResourceFailure, match=r'The KeystoneProject \(nope\) could not be found'):
        VolumeType().check_create_complete(ctx)


def test_update_in_place():
    ctx = _ctx({'name': 'silver', 'metadata': {'b': '2', 'c': '3'}, 'is_public': False,
                'projects': [DEMO]}, physical_id='vt-1')
    ctx.changed = frozenset(['name', 'metadata', 'projects'])
    bs = ctx.conn.block_storage
    bs.get_type.return_value = fakes.Obj(extra_specs={'a': '1', 'b': '1'})
    bs.get_type_access.return_value = [{'project_id': 'p-old'}]
    VolumeType().update(ctx)
    bs.update_type.assert_called_once_with('vt-1', name='silver')
    bs.delete_type_extra_specs.assert_called_once_with('vt-1', ['a'])
    bs.update_type_extra_specs.assert_called_once_with('vt-1', b='2', c='3')
    bs.remove_type_access.assert_called_once_with('vt-1', 'p-old')
    bs.add_type_access.assert_called_once_with('vt-1', DEMO)
    assert VolumeType().check_update_complete(ctx) is True


def test_public_type_leaves_access_alone():
    ctx = _ctx({'name': 'gold', 'is_public': True}, physical_id='vt-1')
    ctx.changed = frozenset(['is_public', 'projects'])
    VolumeType().update(ctx)
    ctx.conn.block_storage.update_type.assert_called_once_with('vt-1', is_public=True)
    ctx.conn.block_storage.get_type_access.assert_not_called()


def test_show_drift_find_delete():
    ctx = _ctx({'name': 'gold', 'metadata': {'a': 'b'}}, physical_id='vt-1')
    bs = ctx.conn.block_storage
    bs.get_type.return_value = fakes.Obj(id='vt-1', name='gold', description=None,
                                         extra_specs={'a': 'b'}, is_public=True)
    live = VolumeType().show(ctx)
    assert VolumeType().attributes(ctx, live) == {'show': live}
    assert VolumeType().drift(ctx, live) == []
    live.update(name='x', extra_specs={}, is_public=False)
    assert VolumeType().drift(ctx, live) == ['name', 'metadata', 'is_public']
    bs.find_type.return_value = fakes.Obj(id='vt-1')
    assert VolumeType().find(ctx) == 'vt-1'
    bs.find_type.assert_called_once_with('gold', ignore_missing=True)
    bs.delete_type.side_effect = fakes.http(404)
    VolumeType().delete(ctx)
    assert VolumeType().check_delete_complete(ctx) is True
