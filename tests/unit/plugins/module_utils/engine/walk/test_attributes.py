# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The attributes of a run's rows (engine/walk/attributes.py): what a settling
resource caches, what a template's get_attr computes and keeps, what the
outputs read again; with fake SDK objects to count the requests."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
import time
from unittest import mock

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import resource_tasks
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk.planner import UNFINISHED
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.records import ResourceRow
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.common import NeutronPlugin

from ...resources.http_fakes import Response
from ...resources.neutron.neutron_fakes import raw_neutron
from ...resources.nova.conftest import Obj   # an SDK resource as far as the plugins use one

TEMPLATE = '''
parameters:
  pw: {type: string, hidden: true, default: hunter2-secret}
resources:
  net: {type: OS::Neutron::Net}
  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
  server: {type: OS::Nova::Server, properties: {flavor: m1, image: img, networks: [{port: {get_resource: port}}]}}
  rnd: {type: OS::Heat::RandomString}
'''

NET = 'aaaaaaaa-0000-0000-0000-00000000000a'
SUB = 'aaaaaaaa-0000-0000-0000-00000000000b'
PORT = 'aaaaaaaa-0000-0000-0000-00000000000c'
SRV = 'aaaaaaaa-0000-0000-0000-00000000000d'


NET_LIVE = {'id': NET, 'name': 'private', 'status': 'ACTIVE', 'mtu': 1450, 'subnets': [SUB], 'tags': []}
PORT_LIVE = {'id': PORT, 'name': 'p', 'status': 'ACTIVE', 'network_id': NET, 'mac_address': 'fa:16',
             'fixed_ips': [{'subnet_id': SUB, 'ip_address': '10.0.0.5'}], 'tags': []}
SERVER_LIVE = {'id': SRV, 'name': 'web', 'status': 'ACTIVE', 'metadata': {},
               'addresses': {'private': [{'addr': '10.0.0.5', 'version': 4}]}}


def cloud(subnet_name='sub'):
    """A connection whose reads answer the objects above."""
    conn = mock.MagicMock(name='conn')
    conn.network.get_network.return_value = Obj(NET_LIVE)
    conn.network.get_port.return_value = Obj(PORT_LIVE)
    conn.network.get_subnet.return_value = Obj(id=SUB, name=subnet_name, cidr='10.0.0.0/24')
    conn.network.segments.return_value = [Obj(id='seg', name=None)]
    conn.network.ports.return_value = [Obj(PORT_LIVE)]
    conn.network.ips.return_value = []
    conn.compute.get_server.return_value = Obj(SERVER_LIVE)
    return raw_neutron(conn)   # the plugins' raw JSON reads answered by the mocks above


def network_gets(conn):
    """The Neutron requests made (beyond the resource's own GET)."""
    return [c for c in conn.network.mock_calls
            if c[0].split('.')[0] in ('get_subnet', 'segments', 'ports', 'ips', 'networks')
            or (c[0] == 'get_network' and c[1] != (NET,))]


def settle(run, name, type_name, physical_id, live, data=None):
    """A resource completing as resource_tasks does it, with its handler's
    live object in ctx.live."""
    row = ResourceRow(uuid='u-' + name, stack_id=run.stack['id'], name=name, role='current',
                      type=type_name, action='CREATE', status='IN_PROGRESS',
                      physical_id=physical_id, physical_name='st-%s-x' % name, properties={})
    row = run.save(row)
    ctx = run.context(row, action='CREATE')
    ctx.live = None if live is None else dict(live)
    ctx.data.update(data or {})
    row = resource_tasks._complete(run, row, ctx, 'CREATE')
    run.seam.publish(row)
    return row


def stored(run, name):
    return [r for r in run.store.resources(run.stack['id']) if r.name == name][0]


def test_settling_caches_only_what_costs_no_request(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    net = settle(run, 'net', 'OS::Neutron::Net', NET, NET_LIVE)
    port = settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    server = settle(run, 'server', 'OS::Nova::Server', SRV, SERVER_LIVE)
    assert conn.mock_calls == []                      # no GET at all: not a subnet, segment, port
    assert 'segments' not in net.attrs and net.attrs['mtu'] == 1450
    assert 'subnets' not in port.attrs and 'network' not in port.attrs
    assert port.attrs['fixed_ips'] == PORT_LIVE['fixed_ips']
    assert 'addresses' not in server.attrs and 'networks' not in server.attrs
    assert 'console_urls' not in server.attrs and server.attrs['first_address'] == '10.0.0.5'
    assert 'show' not in server.attrs                 # Nova's own body: a GET of its own
    assert stored(run, 'port').attrs == port.attrs


def test_a_servers_show_is_one_get_at_its_first_read(make_run):
    """show is Nova's own body (server_attrs.show): a create asks nothing
    for it; the first get_attr makes one GET, kept for the next."""
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    body = dict(SERVER_LIVE, metadata={'stackers-stack-id': 'sid'}, key_name=None)
    conn.compute.get.return_value = Response(200, {'server': body})
    conn.compute.get_endpoint_data.return_value = mock.Mock(max_microversion=(2, 100))
    settle(run, 'server', 'OS::Nova::Server', SRV, SERVER_LIVE)
    assert conn.mock_calls == []
    attrs = run.sd.resource_data['server']['attrs']
    want = dict(body, metadata={}, os_collect_config={})
    assert attrs['show'] == want and attrs['show'] == want
    assert conn.compute.get.call_args_list == [mock.call('/servers/' + SRV, raise_exc=False, microversion='2.96')]
    assert conn.compute.get_server.call_count == 1        # the row's one live read of the run
    assert stored(run, 'server').attrs['show'] == want
    rerun, _graph = make_run(TEMPLATE, store=run.store)
    rerun.conn = fresh = cloud()
    assert rerun.sd.resource_data['server']['attrs']['show'] == want
    assert fresh.mock_calls == []


def test_a_costly_attribute_is_computed_once_on_first_use_and_kept(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    settled = run.save(run.current('port').replace(updated_time='2020-01-01T00:00:00Z'), touch=False)
    attrs = run.sd.resource_data['port']['attrs']
    assert attrs['mac_address'] == 'fa:16' and conn.mock_calls == []     # cached
    subnets = [{'id': SUB, 'name': 'sub', 'cidr': '10.0.0.0/24'}]
    assert attrs['subnets'] == subnets
    assert attrs['subnets'] == subnets
    assert conn.network.get_port.call_count == 1 and conn.network.get_subnet.call_count == 1
    assert conn.network.get_network.call_count == 0                       # not asked
    assert stored(run, 'port').attrs['subnets'] == subnets
    assert 'network' not in stored(run, 'port').attrs
    assert stored(run, 'port').updated_time == settled.updated_time   # a cache, not a change
    assert attrs['network'] == dict(NET_LIVE)             # same live read, one more GET
    assert conn.network.get_port.call_count == 1 and conn.network.get_network.call_count == 1
    # the next run reads both from the record
    rerun, _graph = make_run(TEMPLATE, store=run.store)
    rerun.conn = fresh = cloud()
    again = rerun.sd.resource_data['port']['attrs']
    assert again['subnets'] == subnets and again['network'] == dict(NET_LIVE)
    assert fresh.mock_calls == []


def test_concurrent_readers_make_one_read(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'net', 'OS::Neutron::Net', NET, NET_LIVE)
    conn.network.segments.side_effect = lambda **kw: time.sleep(0.05) or [Obj(id='seg', name=None)]
    attrs = run.sd.resource_data['net']['attrs']
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(attrs['segments'])) for _i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [[{'id': 'seg', 'name': None}]] * 8
    assert conn.network.get_network.call_count == 1 and conn.network.segments.call_count == 1


def test_get_attr_without_a_name_gives_every_attribute(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    every = run.sd.all_attributes('port')
    assert sorted(every) == sorted(n for n in run.plugin('OS::Neutron::Port').heat_type().attributes
                                   if n != 'show')
    assert every['subnets'][0]['id'] == SUB and every['network']['id'] == NET
    assert len(run.sd.resource_data['port']['attrs']) == len(every) + 1      # and show
    assert conn.network.get_port.call_count == 1
    assert sorted(stored(run, 'port').attrs) == sorted(list(every) + ['show'])


def test_get_attr_without_a_name_asks_nothing_for_a_servers_show(make_run):
    """Heat's FnGetAtts leaves show out: its GET is not made for that form,
    nor for an output using it when the outputs are read again."""
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'server', 'OS::Nova::Server', SRV, SERVER_LIVE)
    every = run.sd.all_attributes('server')
    assert 'show' not in every and every['first_address'] == '10.0.0.5' and 'addresses' in every
    run.refresh_attributes({'server': None})
    assert conn.compute.get.call_count == 0 and 'show' not in stored(run, 'server').attrs
    # one the record keeps (an output may read it beside the all form) is read again
    conn.compute.get.return_value = Response(200, {'server': SERVER_LIVE})
    assert run.sd.resource_data['server']['attrs']['show']['id'] == SRV
    conn.compute.get.return_value = Response(200, {'server': dict(SERVER_LIVE, name='moved')})
    run.refresh_attributes({'server': None})
    assert conn.compute.get.call_count == 2 and stored(run, 'server').attrs['show']['name'] == 'moved'


def test_computed_values_are_masked_as_the_cache_is(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = cloud(subnet_name='hunter2-secret')
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    value = run.sd.resource_data['port']['attrs']['subnets']
    assert value[0]['name'].startswith('<hidden:')
    assert 'hunter2' not in repr(run.store.resources(run.stack['id']))


def test_secret_data_is_never_cached(make_run):
    run, _graph = make_run(TEMPLATE)
    row = settle(run, 'rnd', 'OS::Heat::RandomString', 'rnd-id', {},
                 data={'value': 'generated-secret'})
    assert row.attrs is None
    assert run.sd.resource_data['rnd']['attrs']['value'] == 'generated-secret'
    assert stored(run, 'rnd').attrs is None and stored(run, 'rnd').data == {}


def test_check_mode_computes_but_never_writes(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = cloud()
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    before = stored(run, 'port')
    check, _graph = make_run(TEMPLATE, store=run.store, check_mode=True)
    check.conn = cloud()
    assert check.sd.resource_data['port']['attrs']['subnets'][0]['id'] == SUB
    assert stored(run, 'port') == before


def test_a_row_taking_an_action_forgets_what_was_read(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    row = settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    assert run.sd.resource_data['port']['attrs']['subnets'][0]['name'] == 'sub'
    conn.network.get_subnet.return_value = Obj(id=SUB, name='renamed', cidr='10.0.0.0/24')
    row = run.save(row.replace(action='UPDATE', status='IN_PROGRESS'))
    ctx = run.context(row)
    ctx.live = dict(PORT_LIVE)
    row = resource_tasks._complete(run, row, ctx, 'UPDATE')
    run.seam.publish(row)
    assert run.sd.resource_data['port']['attrs']['subnets'][0]['name'] == 'renamed'
    assert conn.network.get_port.call_count == 2


def test_a_row_no_longer_settled_is_not_written(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = cloud()
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    attrs = run.sd.resource_data['port']['attrs']
    run.forget(run.current('port'))
    assert attrs['subnets'][0]['id'] == SUB
    assert run.store.resources(run.stack['id']) == []


def test_refresh_reads_only_the_names_used_side_by_side(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'net', 'OS::Neutron::Net', NET, NET_LIVE)
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    settle(run, 'server', 'OS::Nova::Server', SRV, SERVER_LIVE)
    threads = set()
    real_show = NeutronPlugin.show

    def show(plugin, ctx):
        threads.add(threading.current_thread().name)
        time.sleep(0.05)
        return real_show(plugin, ctx)
    conn.compute.get_server.side_effect = lambda *a: threads.add(threading.current_thread().name) or \
        time.sleep(0.05) or Obj(SERVER_LIVE)
    with mock.patch.object(NeutronPlugin, 'show', show):
        run.refresh_attributes({'server': {'addresses'}, 'port': {'mac_address'}, 'net': None})
    assert len(threads) == 3                             # the three reads side by side
    assert conn.compute.get_server.call_count == 1
    # the server: its addresses (ports, their network and subnet), not networks' name lookup
    assert conn.network.ports.call_count == 1 and conn.network.networks.call_count == 0
    assert stored(run, 'server').attrs['addresses']['private'][0]['port'] == PORT
    assert 'networks' not in stored(run, 'server').attrs
    # the port: no subnets nor network; the net: everything (segments too)
    assert 'subnets' not in stored(run, 'port').attrs
    assert stored(run, 'net').attrs['segments'] == [{'id': 'seg', 'name': None}]
    calls = len(conn.mock_calls)
    assert run.sd.resource_data['server']['attrs']['addresses'] == stored(run, 'server').attrs['addresses']
    assert len(conn.mock_calls) == calls                 # the outputs then read the record


def test_a_refresh_keeps_what_the_row_learnt_during_its_read(make_run):
    """The outputs' read of a port runs beside the end of its create (its stack
    marks, after its dependents were let start): that end clears the row's
    unfinished mark while the read waits on the cloud.  The refresh must add
    its attributes to the newest row, not write back the one it started from
    (the next run would update a resource nothing changed)."""
    run, _graph = make_run(TEMPLATE)
    run.conn = cloud()
    settle(run, 'net', 'OS::Neutron::Net', NET, NET_LIVE)
    port = settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE, data={UNFINISHED: True})
    real_show = NeutronPlugin.show

    def show(plugin, ctx):
        done = run.context(run.rows[port.uuid])
        done.data.pop(UNFINISHED)
        run.save_data(port, done)             # the create's end, meanwhile
        return real_show(plugin, ctx)
    with mock.patch.object(NeutronPlugin, 'show', show):
        run.refresh_attributes({'port': {'subnets'}})
    assert UNFINISHED not in stored(run, 'port').data
    assert stored(run, 'port').attrs['subnets'][0]['id'] == SUB


def test_refresh_of_an_uncached_attribute_reads_nothing(make_run):
    run, _graph = make_run(TEMPLATE)
    run.conn = conn = cloud()
    settle(run, 'server', 'OS::Nova::Server', SRV, SERVER_LIVE)
    run.refresh_attributes({'server': {'console_urls'}})
    assert conn.mock_calls == []


def test_a_row_without_cache_starts_one_at_its_first_read_unless_it_holds_a_secret(make_run):
    run, _graph = make_run(TEMPLATE + '''
  plain: {type: OS::Heat::TestResource, properties: {value: open}}
  hiding: {type: OS::Heat::TestResource, properties: {value: {get_param: pw}}}
''')
    settle(run, 'plain', 'OS::Heat::TestResource', 'p1', None, data={'value': 'open'})
    settle(run, 'hiding', 'OS::Heat::TestResource', 'p2', None, data={'value': 'x hunter2-secret'})
    assert stored(run, 'plain').attrs is None and stored(run, 'hiding').attrs is None
    assert run.sd.resource_data['plain']['attrs']['output'] == 'open'
    assert stored(run, 'plain').attrs == {'output': 'open', 'show': None}   # the next run reads it
    # a hidden value reaches the run's dependents as it is, never the record
    assert run.sd.resource_data['hiding']['attrs']['output'] == 'x hunter2-secret'
    assert stored(run, 'hiding').attrs is None
    assert 'hunter2' not in repr(run.store.resources(run.stack['id']))


def test_a_template_reading_a_cheap_attribute_makes_no_request(make_run):
    # The template layer's get_attr, as a dependent's properties resolve it: reading a
    # port's fixed_ips once computed every attribute (subnets, network: 3 GETs a read)
    # because the seam was asked its truth (``attrs or {}``), i.e. its length.
    template = TEMPLATE + '''
  ip:
    type: OS::Heat::Value
    properties: {value: {get_attr: [port, fixed_ips, 0, ip_address]}}
'''
    run, _graph = make_run(template)
    run.conn = conn = cloud()
    settle(run, 'port', 'OS::Neutron::Port', PORT, PORT_LIVE)
    props, _unknown = run.seam.resolve_properties('ip')
    assert props['value'] == '10.0.0.5'
    assert conn.mock_calls == []
