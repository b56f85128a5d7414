# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import time

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    CloudNotFound, ResourceFailure)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron import common

NEUTRON_PLUGINS = dict((cls.type_name, cls) for cls in registry.NEUTRON)

UUID = 'aaaaaaaa-0000-0000-0000-000000000001'


def test_every_type_is_registered():
    assert sorted(NEUTRON_PLUGINS) == sorted([
        'OS::Neutron::Net', 'OS::Neutron::ProviderNet', 'OS::Neutron::Subnet', 'OS::Neutron::Router',
        'OS::Neutron::RouterInterface', 'OS::Neutron::ExtraRouteSet', 'OS::Neutron::Port',
        'OS::Neutron::FloatingIP', 'OS::Neutron::FloatingIPAssociation', 'OS::Neutron::SecurityGroup',
        'OS::Neutron::SecurityGroupRule', 'OS::Neutron::Trunk', 'OS::Neutron::QoSPolicy',
        'OS::Neutron::SubnetPool', 'OS::Neutron::AddressScope', 'OS::Neutron::RBACPolicy',
        'OS::Neutron::QoSBandwidthLimitRule', 'OS::Neutron::QoSDscpMarkingRule',
        'OS::Neutron::QoSMinimumBandwidthRule', 'OS::Neutron::QoSMinimumPacketRateRule', 'OS::Neutron::Quota',
        'OS::Neutron::ExtraRoute', 'OS::Neutron::FloatingIPPortForward', 'OS::Neutron::MeteringLabel',
        'OS::Neutron::MeteringRule', 'OS::Neutron::Segment'])
    for name, cls in NEUTRON_PLUGINS.items():
        assert cls.type_name == name


def test_prepare_body_drops_none_defaults_name_merges_value_specs():
    body = common.prepare_body({'name': None, 'shared': False, 'x': None, 'value_specs': {'mtu': 9}}, 'pn')
    assert body == {'name': 'pn', 'shared': False, 'mtu': 9}


def test_prepare_update_sends_only_changed_value_specs(make_ctx):
    ctx = make_ctx('OS::Neutron::Net', {'value_specs': {'a': 1, 'b': 2}},
                   old={'value_specs': {'a': 1, 'b': 1}})
    diff = common.prepare_update(ctx, {'value_specs': {'a': 1, 'b': 2}, 'name': None})
    assert diff == {'b': 2, 'name': 'st-res-abc'}


def test_lookup_id_uses_a_uuid_as_is_and_lists_a_name_once(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Net')
    assert common.lookup_id(ctx, 'network', UUID) == UUID
    conn.network.networks.assert_not_called()
    conn.network.networks.return_value = [obj(id='n1')]
    assert common.lookup_id(ctx, 'network', 'public') == 'n1'
    conn.network.networks.assert_called_once_with(name='public')
    # the router's gateway and every floating IP on 'public': one lookup a run
    other = make_ctx('OS::Neutron::FloatingIP')
    assert common.lookup_id(other, 'network', 'public') == 'n1'
    conn.network.networks.assert_called_once_with(name='public')
    conn.network.subnets.return_value = [obj(id='s1')]
    assert common.lookup_id(ctx, 'subnet', 'public') == 's1'     # another kind, its own lookup


def test_lookup_id_missing_or_ambiguous_fails_as_heat(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Net')
    conn.network.subnets.return_value = []
    with pytest.raises(ResourceFailure, match=r'The Subnet \(nope\) could not be found'):
        common.lookup_id(ctx, 'subnet', 'nope')
    conn.network.qos_policies.return_value = [obj(id='1'), obj(id='2')]
    with pytest.raises(ResourceFailure, match='Multiple physical resources'):
        common.lookup_id(ctx, 'qos_policy', 'q')


def test_secgroup_ids_look_names_up_in_the_current_project(make_ctx, conn, obj):
    ctx = make_ctx('OS::Neutron::Port', {'network': UUID})
    conn.network.security_groups.return_value = [obj(id='sg-default')]
    assert common.secgroup_ids(ctx, [UUID, 'default']) == [UUID, 'sg-default']
    conn.network.security_groups.assert_called_once_with(name='default', project_id='proj')


def test_status_built_as_heat(make_ctx):
    ctx = make_ctx('OS::Neutron::Net')
    assert common.status_built(ctx, {'status': 'BUILD'}) is False
    assert common.status_built(ctx, {'status': 'DOWN'}) is True
    with pytest.raises(ResourceFailure, match='Went to status ERROR'):
        common.status_built(ctx, {'status': 'ERROR'})
    with pytest.raises(ResourceFailure, match='Unknown status WEIRD'):
        common.status_built(ctx, {'status': 'WEIRD'})


def test_extensions_are_read_once_per_connection(conn, obj):
    conn.network.extensions.return_value = [obj(alias='a'), obj(alias='b')]
    assert common.extensions(conn) == {'a', 'b'}
    assert common.extensions(conn) == {'a', 'b'}
    assert conn.network.extensions.call_count == 1


def test_extensions_asked_together_are_read_once(conn, obj):
    def slow(**_query):
        time.sleep(0.05)
        return [obj(alias='a')]
    conn.network.extensions.side_effect = slow
    threads = [threading.Thread(target=common.extensions, args=(conn,)) for _i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert conn.network.extensions.call_count == 1


def test_show_gone_is_none_and_check_fails(make_ctx, conn):
    plugin = NEUTRON_PLUGINS['OS::Neutron::Net']()
    ctx = make_ctx('OS::Neutron::Net', physical_id=UUID)
    conn.network.get_network.side_effect = CloudNotFound('gone')
    assert plugin.show(ctx) is None
    with pytest.raises(ResourceFailure, match='not found'):
        plugin.check(ctx)
    assert plugin.needs_replace_failed(ctx) is True


def test_find_by_marks_newest_first_then_by_generated_name(make_ctx, conn, obj, marks):
    plugin = NEUTRON_PLUGINS['OS::Neutron::Net']()
    ctx = make_ctx('OS::Neutron::Net')
    conn.network.networks.return_value = [obj(id='old', created_at='2026-01-01T00:00:00Z'),
                                          obj(id='new', created_at='2026-02-01T00:00:00Z')]
    assert plugin.find(ctx) == 'new'
    conn.network.networks.assert_called_once_with(tags=marks, name='st-res-abc')
    conn.network.networks.reset_mock()
    conn.network.networks.side_effect = [[], [obj(id='untagged', created_at='x')]]
    assert plugin.find(ctx) == 'untagged'
    assert conn.network.networks.call_args_list[1][1] == {'name': 'st-res-abc'}


def test_attributes_hide_the_marks_and_compute_costly_ones_only_on_demand(make_ctx, conn, obj, marks):
    plugin = NEUTRON_PLUGINS['OS::Neutron::Net']()
    ctx = make_ctx('OS::Neutron::Net', physical_id=UUID)
    live = {'id': UUID, 'name': 'n', 'status': 'ACTIVE', 'mtu': 1450, 'tags': ['u'] + marks, 'subnets': []}
    conn.network.segments.return_value = [obj(name='b'), obj(name=None)]
    attrs = plugin.attributes(ctx, live, names=['mtu'])
    assert attrs == {'mtu': 1450, 'show': dict(live, tags=['u'])}
    conn.network.segments.assert_not_called()
    attrs = plugin.attributes(ctx, live)
    assert attrs['segments'] == [{'name': None}, {'name': 'b'}]   # unnamed first, as Heat
    assert attrs['status'] == 'ACTIVE' and attrs['subnets'] == [] and attrs['tenant_id'] is None


def test_hot_calls_go_as_raw_json_without_sdk_resources(make_ctx, conn):
    """Create, the marks, show and delete go through the proxy's public
    post/put/get/delete with Neutron's JSON: no SDK Resource is built."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.net import Net
    from unittest import mock

    class Answer(object):
        def __init__(self, status, data=None):
            self.status_code, self.data = status, data
            self.content = b'' if data is None else b'{}'

        def json(self):
            return self.data
    live = {'id': UUID, 'status': 'ACTIVE', 'name': 'st-res-abc', 'tags': []}
    net = mock.MagicMock(name='network')
    net.post.side_effect = None
    net.post.return_value = Answer(201, {'network': live})
    net.put.return_value = Answer(200, {'tags': ['x']})
    net.get.return_value = Answer(200, {'network': dict(live, mtu=1450)})
    net.delete.return_value = Answer(204)
    conn.network = net
    ctx = make_ctx('OS::Neutron::Net', {})
    assert Net().create(ctx) == UUID
    net.post.assert_called_once_with('/networks', json={'network': {
        'name': 'st-res-abc', 'admin_state_up': True, 'shared': False}}, raise_exc=False)
    assert ctx.live == live and Net().check_create_complete(ctx) is True
    Net().create_later(ctx)()
    assert net.put.call_args[0] == ('/networks/%s/tags' % UUID,)
    assert net.put.call_args[1]['json']['tags'] == ctx.tags()
    assert Net().show(ctx) == dict(live, mtu=1450)
    net.get.assert_called_once_with('/networks/%s' % UUID, raise_exc=False)
    Net().delete(ctx)
    net.delete.assert_called_once_with('/networks/%s' % UUID, raise_exc=False)
    for sdk_call in ('create_network', 'set_tags', 'get_network', 'delete_network'):
        getattr(net, sdk_call).assert_not_called()


def test_extensions_are_one_raw_get_a_run():
    from unittest import mock

    class Answer(object):
        status_code, content = 200, b'{}'

        def json(self):
            return {'extensions': [{'alias': 'tag', 'name': 'Tags'}, {'alias': 'dns'}]}
    conn = mock.MagicMock(name='conn')
    conn.network.get.side_effect = None
    conn.network.get.return_value = Answer()
    assert common.extensions(conn) == frozenset(['tag', 'dns'])
    assert common.extensions(conn) == frozenset(['tag', 'dns'])
    conn.network.get.assert_called_once_with('/extensions', raise_exc=False)
    conn.network.extensions.assert_not_called()    # no SDK Extension objects


def test_prepare_update_sends_every_value_spec_when_only_the_cloud_changed_them(make_ctx):
    # a converge putting drifted value_specs back: the record holds the template's values
    ctx = make_ctx('OS::Neutron::Net', {'value_specs': {'a': 1, 'b': 2}},
                   old={'value_specs': {'a': 1, 'b': 2}})
    assert common.prepare_update(ctx, {'value_specs': {'a': 1, 'b': 2}}) == {'a': 1, 'b': 2}
