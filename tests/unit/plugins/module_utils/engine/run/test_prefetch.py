# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import threading
from unittest import mock

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import prefetch
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.walk import resource_tasks as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.port import Port
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron.router import Router
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.nova.server import Server

TEMPLATE = '''parameters:
  image: {type: string, default: cirros}
resources:
  net: {type: OS::Neutron::Net}
  port: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
  port2: {type: OS::Neutron::Port, properties: {network: {get_resource: net}}}
  router:
    type: OS::Neutron::Router
    properties: {external_gateway_info: {network: public}}
  web: {type: OS::Nova::Server, properties: {image: {get_param: image}, flavor: m1.tiny}}
  db: {type: OS::Nova::Server, properties: {image: {get_param: image}, flavor: m1.tiny}}
  app:
    type: OS::Nova::Server
    properties: {image: {get_attr: [web, name]}, flavor: m1.small}
  v: {type: OS::Heat::Value, properties: {value: 1}}
'''


def _asked(run):
    return sorted((ctx.name, ctx.type_name, sorted(ctx.properties.items()))
                  for _plugin, ctx in prefetch.lookups(run))


def test_what_the_creates_will_look_up_once_each(make_run):
    run, _graph = make_run(TEMPLATE)
    assert _asked(run) == [
        ('app', 'OS::Nova::Server', [('flavor', 'm1.small')]),    # its image: a resource's
        ('db', 'OS::Nova::Server', [('flavor', 'm1.tiny'), ('image', 'cirros')]),
        ('port', 'OS::Neutron::Port', []),                       # the extensions, once
        ('router', 'OS::Neutron::Router', [('external_gateway_info', {'network': 'public'})]),
    ]   # web asks what db asks; the Value and the Net look nothing up


def test_resources_already_in_the_record_ask_nothing(make_run):
    run, _graph = make_run('resources:\n  v: {type: OS::Heat::Value, properties: {value: 1}}\n'
                           '  web: {type: OS::Nova::Server, properties: {image: cirros, '
                           'flavor: m1.tiny}}\n')
    list(rt.apply_resource(run, 'v'))
    assert [ctx.name for _p, ctx in prefetch.lookups(run)] == ['web']
    row = run.current('v').replace(name='web', uuid='u2', type='OS::Nova::Server')
    run.save(row)
    assert prefetch.lookups(run) == []          # a rerun: no call at all


def test_started_asks_beside_the_body_and_ignores_failures(make_run, monkeypatch):
    run, _graph = make_run(TEMPLATE)
    run.conn = mock.MagicMock(name='conn')
    asked, body_ran = [], threading.Event()

    def fake(name, fail=False):
        def ask(self, ctx):
            asked.append((name, ctx.name))
            if fail:
                raise RuntimeError('lookup failed')
        return ask
    monkeypatch.setattr(Server, 'prefetch', fake('server', fail=True))
    monkeypatch.setattr(Router, 'prefetch', fake('router'))
    monkeypatch.setattr(Port, 'prefetch', fake('port'))
    with prefetch.started(run):
        body_ran.set()
    assert body_ran.is_set()
    assert sorted(asked) == [('port', 'port'), ('router', 'router'), ('server', 'app'),
                             ('server', 'db')]
    # each service's version document read first, through the run's one reader (sdk.warm)
    run.conn.compute.get_endpoint_data.assert_called_once_with()


def test_no_connection_no_lookups(make_run, monkeypatch):
    run, _graph = make_run(TEMPLATE)
    run.conn = None
    asked = []
    monkeypatch.setattr(Server, 'prefetch', lambda self, ctx: asked.append(ctx.name))
    with prefetch.started(run):
        pass
    assert asked == []      # (the failures of a lookup are swallowed: count the asks)


ATTACHED = '''resources:
  att:
    type: OS::Cinder::VolumeAttachment
    properties: {instance_uuid: srv-1, volume_id: vol-1}
'''


def test_an_attachment_to_create_has_cinder_read_beside_the_body(make_run):
    # its first call is Nova's, its polls read Cinder's version document
    run, _graph = make_run(ATTACHED)
    run.conn = mock.MagicMock(name='conn')
    with prefetch.started(run):
        pass
    run.conn.block_storage.get_endpoint_data.assert_called_once_with()


def test_a_delete_reads_what_its_attachments_polls_need_and_only_for_cloud_objects(make_run):
    run, _graph = make_run(ATTACHED)
    conn = mock.MagicMock(name='conn')
    run.conn = conn
    row = mock.Mock(type='OS::Cinder::VolumeAttachment', physical_id=None)
    with prefetch.deleting(run, [row]):
        pass
    conn.block_storage.get_endpoint_data.assert_not_called()     # nothing in the cloud
    row.physical_id = 'vol-1'
    other = mock.Mock(type='OS::Nova::Server', physical_id='srv-1')
    with prefetch.deleting(run, [row, other]):
        pass
    conn.block_storage.get_endpoint_data.assert_called_once_with()
    conn.compute.get_endpoint_data.assert_not_called()   # the server's own first call reads it
