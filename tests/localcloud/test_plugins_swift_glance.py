# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Swift::Container and OS::Glance::WebImage through the engine
(runner.run, in-process) against the local cloud's real Swift and Glance.

The web image's data comes from the front door's file route on 127.0.0.1
(``/_localcloud/files/``), the one place the local Glance's import filter
lets its web-download fetch from."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_BUILD = os.path.join(ROOT, '.build')
if _BUILD not in sys.path:
    sys.path.insert(0, _BUILD)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner    # noqa: E402
from localcloud.harness import ids  # noqa: E402

CONTAINER = """heat_template_version: 2021-04-16
parameters:
  purge: {type: boolean, default: false}
resources:
  box:
    type: OS::Swift::Container
    properties:
      X-Container-Meta: {Web-Index: index.html, Owner: stackers}
      X-Container-Read: ".r:*,.rlistings"
      X-Account-Meta: {Stackers-Probe: "yes"}
      PurgeOnDelete: {get_param: purge}
outputs:
  name: {value: {get_resource: box}}
  url: {value: {get_attr: [box, WebsiteURL]}}
  root: {value: {get_attr: [box, RootURL]}}
  domain: {value: {get_attr: [box, DomainName]}}
  head: {value: {get_attr: [box, HeadContainer]}}
"""

WEB_IMAGE = """heat_template_version: 2021-04-16
parameters:
  location: {type: string}
  tags: {type: comma_delimited_list, default: [one]}
  active: {type: boolean, default: true}
resources:
  image:
    type: OS::Glance::WebImage
    properties:
      name: {get_param: 'OS::stack_name'}
      location: {get_param: location}
      disk_format: qcow2
      container_format: bare
      min_ram: 64
      active: {get_param: active}
      tags: {get_param: tags}
      extra_properties: {hw_disk_bus: scsi}
  legacy:
    type: OS::Glance::Image
    properties: {location: {get_param: location}, disk_format: qcow2}
outputs:
  id: {value: {get_resource: image}}
  status: {value: {get_attr: [image, show, status]}}
  show: {value: {get_attr: [image, show]}}
  legacy: {value: {get_attr: [legacy, show]}}
"""


def _run(conn, store, name, template=None, state='present', **kw):
    return runner.run(runner.StackRequest(name, state=state, template=template, store_path=store,
                                          timeout=300, **kw), conn)


def _outputs(result):
    return dict((o['output_key'], o['output_value']) for o in result['stack'].get('outputs') or ())


def _status(result):
    return result['stack']['stack_status'], result['stack'].get('stack_status_reason')


def _write(tmp_path, text):
    path = tmp_path / ('%s.yaml' % uuid.uuid4().hex[:8])
    path.write_text(text)
    return str(path)


def container_scenario(cloud, conn, store, tmp_path):
    """A container with metadata; objects put by the test; its delete refused
    without PurgeOnDelete (Heat's message), done with it."""
    template = _write(tmp_path, CONTAINER)
    made = _run(conn, store, 'sg-box', template)
    assert _status(made)[0] == 'CREATE_COMPLETE', _status(made)
    out = _outputs(made)
    name = out['name']
    assert name.startswith('sg-box-box-')
    meta = conn.object_store.get_container_metadata(name)
    assert meta.metadata == {'web-index': 'index.html', 'owner': 'stackers'}
    assert meta.read_ACL == '.r:*,.rlistings'
    # Heat posts X-Account-Meta to the account (and leaves it there, as here)
    assert conn.object_store.get_account_metadata().metadata['stackers-probe'] == 'yes'
    assert out['domain'] == '127.0.0.1'
    assert out['root'] == conn.object_store.get_endpoint().rstrip('/')
    assert out['url'] == out['root'] + '/' + name
    assert out['head']['x-container-meta-web-index'] == 'index.html'
    assert out['head']['x-container-object-count'] == '0'
    # anonymous reads: the read ACL works as Swift's keystoneauth applies it
    conn.object_store.upload_object(container=name, name='index.html', data=b'<h1>hi</h1>')
    conn.object_store.upload_object(container=name, name='dir/b.txt', data=b'bee')
    with urllib.request.urlopen(out['url'] + '/index.html', timeout=60) as resp:
        assert resp.read() == b'<h1>hi</h1>'

    # nothing changed: a rerun writes nothing
    cloud.reset_stats()
    again = _run(conn, store, 'sg-box', template)
    assert again['changed'] is False, again.get('events')
    writes = [r for r in cloud.stats()['by_route'] if r.split(' ')[0] in ('PUT', 'POST', 'DELETE')
              and '/auth/tokens' not in r]
    assert writes == []

    refused = _run(conn, store, 'sg-box', state='absent')
    status, reason = _status(refused)
    assert status == 'DELETE_FAILED'
    assert reason == ('Resource DELETE failed: ResourceActionNotSupported: resources.box: Deleting '
                      'non-empty container (%s) when PurgeOnDelete is False is not supported for '
                      'resource.' % name)
    assert len(list(conn.object_store.objects(name))) == 2
    for obj in list(conn.object_store.objects(name)):
        conn.object_store.delete_object(obj, container=name)
    gone = _run(conn, store, 'sg-box', state='absent')
    assert _status(gone)[0] == 'DELETE_COMPLETE', _status(gone)
    assert name not in [c.name for c in conn.object_store.containers()]

    purged = _run(conn, store, 'sg-purge', template, parameters={'purge': True})
    assert _status(purged)[0] == 'CREATE_COMPLETE', _status(purged)
    name = _outputs(purged)['name']
    for i in range(3):
        conn.object_store.upload_object(container=name, name='o/%d' % i, data=b'x' * i)
    gone = _run(conn, store, 'sg-purge', state='absent')
    assert _status(gone)[0] == 'DELETE_COMPLETE', _status(gone)
    assert name not in [c.name for c in conn.object_store.containers()]
    conn.object_store.delete_account_metadata(['Stackers-Probe'])


def web_image_scenario(cloud, conn, store, tmp_path):
    """A web image imported from the local file server, active, its
    attributes, a tag update in place, delete; OS::Glance::Image a placeholder."""
    source = urllib.request.urlopen(cloud.url + '/_localcloud/files/cirros.qcow2', timeout=60).read()
    req = urllib.request.Request(cloud.url + '/_localcloud/files/sg.qcow2', data=source, method='PUT')
    urllib.request.urlopen(req, timeout=60).read()
    location = 'http://127.0.0.1:%d/_localcloud/files/sg.qcow2' % cloud.port
    template = _write(tmp_path, WEB_IMAGE)
    made = _run(conn, store, 'sg-image', template, parameters={'location': location})
    assert _status(made)[0] == 'CREATE_COMPLETE', _status(made)
    out = _outputs(made)
    image = conn.image.get_image(out['id'])
    assert image.status == 'active' and image.name == 'sg-image'
    assert image.size == len(source) and image.min_ram == 64
    assert image.tags == ['one'] and image.hw_disk_bus == 'scsi'
    assert image.visibility == 'private'
    assert out['status'] == 'active'
    assert out['show']['id'] == out['id'] and out['show']['disk_format'] == 'qcow2'
    assert out['legacy'] is None
    legacy = [r for r in made['resources'] if r['resource_name'] == 'legacy'][0]
    assert legacy['resource_status'] == 'CREATE_COMPLETE'

    updated = _run(conn, store, 'sg-image', template, parameters={'location': location,
                                                                  'tags': 'two,three'})
    assert _status(updated)[0] == 'UPDATE_COMPLETE', _status(updated)
    assert _outputs(updated)['id'] == out['id']
    assert sorted(conn.image.get_image(out['id']).tags) == ['three', 'two']
    # active: false deactivates in place, true reactivates (Heat's update of ``active``)
    for active, status in ((False, 'deactivated'), (True, 'active')):
        moved = _run(conn, store, 'sg-image', template, parameters={
            'location': location, 'tags': 'two,three', 'active': active})
        assert _status(moved)[0] == 'UPDATE_COMPLETE', _status(moved)
        assert _outputs(moved)['id'] == out['id'] and _outputs(moved)['status'] == status
        assert conn.image.get_image(out['id']).status == status

    gone = _run(conn, store, 'sg-image', state='absent')
    assert _status(gone)[0] == 'DELETE_COMPLETE', _status(gone)
    assert conn.image.find_image(out['id']) is None


def bad_location_scenario(cloud, conn, store, tmp_path):
    """Glance's import filter refuses a port it does not allow: the create
    fails with Glance's reason, and rollback leaves nothing."""
    template = _write(tmp_path, WEB_IMAGE)
    failed = _run(conn, store, 'sg-bad', template, rollback=True,
                  parameters={'location': 'http://127.0.0.1:1/x.qcow2'})
    assert _status(failed)[0] == 'ROLLBACK_COMPLETE', _status(failed)
    assert failed['failed_reason'] == (
        'Resource CREATE failed: BadRequest: resources.image: 400 Bad Request: URI for web-download '
        'does not pass filtering: http://127.0.0.1:1/x.qcow2')
    assert [i.name for i in conn.image.images() if i.name == 'sg-bad'] == []


def test_swift_container_life(cloud, tmp_path):
    before = ids(cloud.resources())
    conn = cloud.sdk()
    try:
        container_scenario(cloud, conn, str(tmp_path / 'stacks.sqlite'), tmp_path)
    finally:
        conn.close()
    assert ids(cloud.resources()) == before


def test_glance_web_image_life(cloud, tmp_path):
    before = ids(cloud.resources())
    conn = cloud.sdk()
    try:
        web_image_scenario(cloud, conn, str(tmp_path / 'stacks.sqlite'), tmp_path)
        bad_location_scenario(cloud, conn, str(tmp_path / 'stacks.sqlite'), tmp_path)
    finally:
        conn.close()
    assert ids(cloud.resources()) == before


PEER = """heat_template_version: 2021-04-16
resources:
  box:
    type: OS::Swift::Container
outputs:
  name: {value: {get_resource: box}}
  root: {value: {get_attr: [box, RootURL]}}
  domain: {value: {get_attr: [box, DomainName]}}
  url: {value: {get_attr: [box, WebsiteURL]}}
"""


def test_heat_refuses_a_non_empty_containers_delete_as_the_engine_does(cloud, tmp_path):
    """The reference: real Heat 27 on the same cloud, the same template."""
    template = _write(tmp_path, PEER)
    conn = cloud.sdk()
    heat_name = None
    try:
        cloud.osc('stack', 'create', '-t', template, 'peer-box', '--wait', timeout=400)
        made = cloud.osc('stack', 'show', 'peer-box', as_json=True)
        heat = dict((o['output_key'], o['output_value']) for o in made['outputs'])
        heat_name = cloud.osc('stack', 'resource', 'show', 'peer-box', 'box',
                              as_json=True)['physical_resource_id']
        conn.object_store.upload_object(container=heat_name, name='o', data=b'x')
        cloud.osc('stack', 'delete', 'peer-box', '--yes', '--wait', timeout=400, check=False)
        shown = cloud.osc('stack', 'show', 'peer-box', as_json=True)
        assert shown['stack_status'] == 'DELETE_FAILED'
        heat_reason = shown['stack_status_reason']

        store = str(tmp_path / 'stacks.sqlite')
        ours = _run(conn, store, 'peer-box', template)
        assert _status(ours)[0] == 'CREATE_COMPLETE', _status(ours)
        out = _outputs(ours)
        conn.object_store.upload_object(container=out['name'], name='o', data=b'x')
        refused = _run(conn, store, 'peer-box', state='absent')
        assert _status(refused)[0] == 'DELETE_FAILED'
        assert _status(refused)[1] == heat_reason.replace(heat_name, out['name'])
        # Heat 27's URL attributes read swiftclient's Connection.url, which a session-made
        # Connection only learns at its first request: outputs resolved before one (as here)
        # are urlparse(None)'s bytes, and DomainName is None. The engine gives the endpoint.
        assert (heat['root'], heat['domain']) in ((out['root'], out['domain']), ("b''://b''b''", None))
        assert heat['url'] in (out['url'].replace(out['name'], heat_name), "b''://b''b''/" + heat_name)
        assert out['root'] == conn.object_store.get_endpoint().rstrip('/')
        conn.object_store.delete_object('o', container=out['name'])
        assert _status(_run(conn, store, 'peer-box', state='absent'))[0] == 'DELETE_COMPLETE'
    finally:
        if heat_name is not None:
            conn.object_store.delete_object('o', container=heat_name, ignore_missing=True)
        cloud.osc('stack', 'delete', 'peer-box', '--yes', '--wait', timeout=400, check=False)
        conn.close()
    cloud.wait_no_stacks()


def test_heat_and_the_engine_make_the_same_web_image(cloud, tmp_path):
    """The reference: real Heat 27 makes the image of the same template; the two images
    hold the same fields, and the ``show`` outputs the same keys."""
    template = _write(tmp_path, WEB_IMAGE)
    location = 'http://127.0.0.1:%d/_localcloud/files/cirros.qcow2' % cloud.port
    conn = cloud.sdk()
    store = str(tmp_path / 'stacks.sqlite')
    fields = ('name', 'disk_format', 'container_format', 'min_ram', 'min_disk', 'protected', 'tags',
              'visibility', 'status', 'size', 'checksum')
    try:
        cloud.osc('stack', 'create', '-t', template, '--parameter', 'location=' + location, 'sg-peer',
                  '--wait', timeout=400)
        heat = dict((o['output_key'], o['output_value'])
                    for o in cloud.osc('stack', 'show', 'sg-peer', as_json=True)['outputs'])
        ours = _outputs(_run(conn, store, 'sg-peer', template, parameters={'location': location}))
        theirs, mine = (conn.image.get('/images/%s' % i).json() for i in (heat['id'], ours['id']))
        assert dict((k, theirs.get(k)) for k in fields) == dict((k, mine.get(k)) for k in fields), \
            (theirs, mine)
        # Heat 27 PATCHes extra_properties after starting the import; Glance's import task saves
        # the whole image it read before the download (purge_props), so a PATCH landing during
        # the download is lost (localcloud/README.md). The engine sends them in the POST.
        assert mine.get('hw_disk_bus') == 'scsi' and theirs.get('hw_disk_bus') in ('scsi', None)
        lost = set() if theirs.get('hw_disk_bus') else {'hw_disk_bus'}
        assert heat['status'] == ours['status'] == 'active', (heat, ours)
        # Glance writes its import bookkeeping (os_glance_*) around the switch to active: whether
        # a show read at that moment holds it is a race, in Heat as here
        assert sorted(k for k in heat['show'] if not k.startswith('os_glance_')) == \
            sorted(k for k in ours['show'] if not k.startswith('os_glance_') and k not in lost), \
            (heat, ours)
        assert heat['legacy'] is None and ours['legacy'] is None
    finally:
        cloud.osc('stack', 'delete', 'sg-peer', '--yes', '--wait', timeout=400, check=False)
        _run(conn, store, 'sg-peer', state='absent')
        conn.close()
    assert [i.name for i in conn.image.images() if i.name == 'sg-peer'] == []
