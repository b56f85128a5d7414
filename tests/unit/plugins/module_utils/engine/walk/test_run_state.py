# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import UnsupportedResourceType
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourceContext
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat.value import Value

from ..conftest import SEAM_TEMPLATE as TEMPLATE, row_of


def test_save_encrypts_secret_data_and_context_decrypts(make_run):
    run, _graph = make_run(TEMPLATE)
    row = row_of(run, 'r')
    ctx = ResourceContext(physical_id='p-r', data={'value': 'generated!', 'plain': 1})
    saved = run.save(row, ctx)
    stored = run.store.resources(run.stack['id'])[0]
    assert stored.data == {'plain': 1}
    assert stored.secret_data and 'generated!' not in stored.secret_data
    assert run.vault.decrypt(stored.secret_data) == {'value': 'generated!'}
    assert run.rows[saved.uuid].physical_id == 'p-r'
    assert run.context(stored).data == {'value': 'generated!', 'plain': 1}


def test_secret_data_saved_or_read_back_is_noted_for_the_module(make_run):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk

    class Conn(object):
        pass
    run, _graph = make_run(TEMPLATE)
    run.conn = Conn()
    run.save(row_of(run, 'r'), ResourceContext(physical_id='p-r', data={'value': 'made-0001', 'n': 1}))
    assert sdk.secrets_noted(run.conn) == {'made-0001'}
    stored = run.store.resources(run.stack['id'])[0]
    run.conn = Conn()       # another run, reading it back
    run.context(stored)
    assert sdk.secrets_noted(run.conn) == {'made-0001'}


def test_plugin_data_holding_a_hidden_value_is_encrypted(make_run):
    run, _graph = make_run(TEMPLATE)
    row = row_of(run, 't', type_name='OS::Heat::TestResource')
    run.save(row, ResourceContext(physical_id='p', data={'value': 'a hunter2-secret b',
                                                         'n': 2}))
    stored = run.store.resources(run.stack['id'])[0]
    assert stored.data == {'n': 2}
    assert 'hunter2' not in repr(stored)
    assert run.context(stored).data['value'] == 'a hunter2-secret b'


def test_check_mode_writes_nothing(make_run):
    run, _graph = make_run(TEMPLATE, check_mode=True)
    row = run.save(row_of(run, 'r'))
    run.set_roles([(row.uuid, 'old')])
    run.log.resource(row, 'CREATE', 'IN_PROGRESS')
    run.forget(row)
    assert run.store.resources(run.stack['id']) == []
    assert run.store.events(run.stack['id']) == []
    assert len(run.log.events) == 1


def test_rows_roles_and_forget(make_run):
    run, _graph = make_run(TEMPLATE)
    cur = run.save(row_of(run, 'v', 'OS::Heat::Value'))
    new = run.save(row_of(run, 'v', 'OS::Heat::Value', uuid='u-new', role='new'))
    assert run.current('v').uuid == cur.uuid
    assert len(run.rows_of('v')) == 2 and run.rows_of('v', 'new')[0].uuid == 'u-new'
    run.set_roles([(cur.uuid, 'old'), (new.uuid, 'current')])
    assert run.current('v').uuid == 'u-new'
    roles = dict((r.uuid, r.role) for r in run.store.resources(run.stack['id']))
    assert roles == {cur.uuid: 'old', 'u-new': 'current'}
    run.forget(run.rows[cur.uuid])
    assert [r.uuid for r in run.store.resources(run.stack['id'])] == ['u-new']
    assert run.current('nothing') is None


def test_plugin_cached_and_unsupported_type_refused(make_run):
    run, _graph = make_run(TEMPLATE)
    assert run.plugin('OS::Heat::Value') is run.plugin('OS::Heat::Value')
    with pytest.raises(UnsupportedResourceType, match='resource "x"'):
        run.plugin('OS::Heat::SoftwareDeploymentGroup', 'x')


def test_mask_uses_the_stack_salt(make_run):
    run, _graph = make_run(TEMPLATE)
    masked = run.masker.mask({'a': ['hunter2-secret']})
    assert masked['a'][0].startswith('<hidden:')
    assert run.masker.mask('plain') == 'plain'


def test_attributes_cached_row_or_fetched_once(make_run, monkeypatch):
    calls = []

    class Counting(Value):
        def show(self, ctx):
            calls.append(ctx.name)
            return {'value': 'live'}

        def attributes(self, ctx, live, names=None):
            return {'value': live['value']}
    monkeypatch.setitem(resources.PLUGINS, 'OS::Heat::Value', Counting)
    run, _graph = make_run(TEMPLATE)
    cached = run.save(row_of(run, 'v', 'OS::Heat::Value', attrs={'value': 'cached'}))
    assert run.attributes(cached) == {'value': 'cached'} and calls == []
    live = run.save(row_of(run, 'w', 'OS::Heat::Value'))
    assert run.attributes(live) == {'value': 'live'}
    assert run.attributes(live) == {'value': 'live'}
    assert calls == ['w']
    run.seam.publish(live)
    attrs = run.sd.resource_data['w']['attrs']
    assert attrs['value'] == 'live'
    assert attrs['show'] is None                 # a known attribute not given: None
    with pytest.raises(KeyError):
        attrs['no_such_attribute']
    assert list(attrs) == ['value'] and len(attrs) == 1


def test_cacheable_attributes(make_run):
    run, _graph = make_run(TEMPLATE)
    plugin = run.plugin('OS::Heat::Value')
    ctx = ResourceContext(properties={'value': 'hunter2-secret'})
    assert run.cacheable_attributes(plugin, ctx) is None          # no live object
    ctx.live = {}
    # attributes holding a secret are never cached: computed on use
    assert run.cacheable_attributes(plugin, ctx) is None
    assert run.cacheable_attributes(plugin, ResourceContext(properties={"value": "plain"})) is None
    plain = ResourceContext(properties={'value': 'plain'})
    plain.live = {}
    assert run.cacheable_attributes(plugin, plain) == {'value': 'plain', 'show': None}
    secret_plugin = run.plugin('OS::Heat::RandomString')
    assert run.cacheable_attributes(secret_plugin, ctx) is None   # never cached


def test_uncached_attributes_are_left_out_of_the_cache_and_read_live(make_run, monkeypatch):
    run, _graph = make_run(TEMPLATE)
    plugin = run.plugin('OS::Heat::Value')
    reads = []

    class Lazy(object):
        def __repr__(self):
            reads.append('evaluated')
            return 'lazy'

    monkeypatch.setattr(type(plugin), 'uncached_attributes', ('console',), raising=False)
    monkeypatch.setattr(type(plugin), 'attributes', lambda self, ctx, live, names=None: {'value': 'v', 'console': Lazy()})
    monkeypatch.setattr(type(plugin), 'show', lambda self, ctx: reads.append('show') or {})
    ctx = ResourceContext(properties={'value': 'v'})
    ctx.live = {}
    cached = run.cacheable_attributes(plugin, ctx)
    assert cached == {'value': 'v'} and reads == []      # never evaluated, never stored
    row = run.save(row_of(run, 'v', 'OS::Heat::Value', reference_id='rv', attrs=cached))
    run.seam.publish(row)
    attrs = run.sd.resource_data['v']['attrs']
    assert attrs['value'] == 'v' and reads == []          # from the cache
    assert repr(attrs['console']) == 'lazy' and reads[0] == 'show'   # read live when asked


def test_rows_by_name_index_follows_every_change(make_run):
    run, _graph = make_run(TEMPLATE)
    run.save(row_of(run, 'a', 'OS::Heat::Value', uuid='u1'))
    run.save(row_of(run, 'a', 'OS::Heat::Value', uuid='u2', role='new'))
    run.save(row_of(run, 'b', 'OS::Heat::Value', uuid='u3'))
    assert [r.uuid for r in run.rows_of('a')] == ['u1', 'u2']
    run.set_roles([('u1', 'old'), ('u2', 'current')])
    assert run.current('a').uuid == 'u2' and [r.uuid for r in run.rows_of('a', 'old')] == ['u1']
    run.forget(run.rows['u1'])
    assert [r.uuid for r in run.rows_of('a')] == ['u2']
    run.rows['u3'] = run.rows['u3'].replace(name='c')      # a row renamed in place moves in the index
    assert run.rows_of('b') == [] and run.current('c').uuid == 'u3'
    assert run.rows.pop('missing', None) is None


def test_peer_finds_a_row_by_physical_id_with_its_secrets(make_run):
    run, _graph = make_run(TEMPLATE)
    row = row_of(run, 't', type_name='OS::Heat::TestResource')
    run.save(row, ResourceContext(physical_id='phys-1', data={'value': 'a hunter2-secret b',
                                                              'n': 2}))
    peer = run.peer('phys-1')
    assert (peer.name, peer.type_name, peer.physical_id) == ('t', 'OS::Heat::TestResource', 'phys-1')
    assert peer.data == {'value': 'a hunter2-secret b', 'n': 2}
    assert run.peer('nothing') is None and run.peer(None) is None
    assert run.context(run.current('t')).lookup('phys-1').name == 't'
    # a row this run does not hold (another stack's) comes from the store
    run.rows.clear()
    assert run.peer('phys-1').data['n'] == 2
