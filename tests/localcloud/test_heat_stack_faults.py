# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_stack when things go wrong, in real ansible-playbook runs against the local cloud: a cloud that
refuses a request (fault rules), a second run while one holds the stack's lock, and a run killed with SIGKILL
in the middle of a create; AWX-style jobs (ansible-runner) on the Swift state store: across two execution
nodes, after a SIGKILL, with the inventory plugin as the job's inventory source."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import signal
import sqlite3
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import ROOT, ids, wait_for  # noqa: E402
from localcloud.playbook import StackRunner, write_calls  # noqa: E402

SMALL = """heat_template_version: 2021-04-16
parameters:
  port_name: {type: string, default: first}
  size: {type: number, default: 1}
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.30.0.0/24}
  port:
    type: OS::Neutron::Port
    properties:
      name: {get_param: port_name}
      network: {get_resource: net}
      fixed_ips: [{subnet: {get_resource: subnet}}]
  vol:
    type: OS::Cinder::Volume
    properties: {size: {get_param: size}}
"""

SLOW = """heat_template_version: 2021-04-16
resources:
  early:
    type: OS::Neutron::Net
  wait:
    type: OS::Heat::TestResource
    properties: {value: slow, wait_secs: 15}
    depends_on: early
  net:
    type: OS::Neutron::Net
    depends_on: wait
"""
SERVERS = """heat_template_version: 2021-04-16
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.40.0.0/24}
  server:
    type: OS::Nova::Server
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
    depends_on: subnet
  vol:
    type: OS::Cinder::Volume
    properties: {size: 1}
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_rollback_and_replace_on_failure(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _write(tmp_path, 'small.yaml', SMALL)
    conn = cloud.sdk()

    # A failed create with rollback deletes what it made.
    cloud.admin('POST', '/faults', [{'method': 'POST', 'path': '/volumes$', 'status': 400, 'count': 1}])
    rolled = runner.run(name='fr', template=template, rollback=True)
    assert rolled['failed'] is True
    assert rolled['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    assert 'resources.vol' in rolled['msg']
    assert ids(cloud.resources()) == before

    # Without rollback the stack stays CREATE_FAILED, naming the resource and the cloud's reason; the
    # independent branch finished.
    cloud.admin('POST', '/faults', [{'method': 'POST', 'path': '/volumes$', 'status': 400, 'count': 1}])
    failed = runner.run(name='fr', template=template)
    assert failed['failed'] is True
    status = dict((r['resource_name'], r['resource_status']) for r in failed['resources'])
    assert status['vol'] == 'CREATE_FAILED' and status['port'] == 'CREATE_COMPLETE'
    # The next update replaces the failed resource (Heat's replace-on-failure).
    cloud.admin('POST', '/faults', [])
    fixed = runner.run(name='fr', template=template)
    assert fixed['stack']['stack_status'] == 'UPDATE_COMPLETE', fixed['stack']['stack_status_reason']
    vol = [r for r in fixed['resources'] if r['resource_name'] == 'vol'][0]
    assert vol['resource_status'] == 'CREATE_COMPLETE'
    port_id = [r for r in fixed['resources'] if r['resource_name'] == 'port'][0]['physical_resource_id']

    # A failed update with rollback converges back to the previous template and parameters.
    cloud.admin('POST', '/faults', [{'method': 'PUT', 'path': '/ports/', 'status': 400, 'count': 1}])
    back = runner.run(name='fr', template=template, rollback=True, parameters={'port_name': 'second'})
    assert back['failed'] is True
    assert back['stack']['stack_status'] == 'ROLLBACK_COMPLETE'
    assert conn.network.get_port(port_id).name == 'first'
    cloud.admin('POST', '/faults', [])
    assert runner.run(name='fr', template=template)['changed'] is False

    assert runner.run(name='fr', state='absent')['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert ids(cloud.resources()) == before


ROUTED = SERVERS.replace('    depends_on: subnet\n', """    depends_on: [subnet, iface]
  router:
    type: OS::Neutron::Router
  iface:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
""")


def test_a_lost_answer_and_a_build_gone_to_error_complete_unaided(cloud, tmp_path):
    """The server's POST is done but its answer lost, a router interface's PUT too, and the
    volume's first build goes to ERROR: the create completes with no help.  The server and the
    interface are found and taken (one server made: no duplicate); the volume is deleted and built
    again after Heat's action_retry_limit wait, with Heat's events."""
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _write(tmp_path, 'routed.yaml', ROUTED)
    entries = cloud.admin('GET', '/ledger')['entries']
    mark = entries[-1]['seq'] if entries else 0
    cloud.admin('POST', '/faults', [
        {'method': 'POST', 'path': '/servers$', 'kind': 'lost', 'count': 1},
        {'method': 'PUT', 'path': '/add_router_interface$', 'kind': 'lost', 'count': 1}])
    cloud.configure(fail_builds={'volume': {'pattern': '^fl-vol-', 'times': 1}})
    try:
        (made, _w), (gone, _w2) = runner.run_steps([dict(name='fl', template=template),
                                                     dict(name='fl', state='absent')])
    finally:
        cloud.configure(fail_builds={})
        fired = [r['fired'] for r in cloud.admin('GET', '/faults')]
        cloud.admin('POST', '/faults', [])
    assert fired == [1, 1]
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']['stack_status_reason']
    vol = [tuple(e['resource_status'].split('_', 1)) for e in made['events']
           if e['resource_name'] == 'vol']
    assert vol == [('CREATE', 'IN_PROGRESS'), ('CREATE', 'FAILED'), ('DELETE', 'IN_PROGRESS'),
                   ('DELETE', 'COMPLETE'), ('CREATE', 'IN_PROGRESS'), ('CREATE', 'COMPLETE')]
    reason = [e['resource_status_reason'] for e in made['events']
              if e['resource_name'] == 'vol' and e['resource_status'] == 'CREATE_FAILED'][0]
    assert reason.startswith('ResourceInError: resources.vol: Went to status error due to "')
    creates = [e for e in cloud.admin('GET', '/ledger')['entries']
               if e['seq'] > mark and e['op'] == 'create']
    assert [e['kind'] for e in creates].count('servers') == 1
    assert [e['kind'] for e in creates].count('volumes') == 2
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'
    assert ids(cloud.resources()) == before


def test_a_second_run_is_refused_by_the_lock_and_a_token_expired_mid_run_is_renewed(cloud, tmp_path):
    """The first run holds the lock while its TestResource waits: a second run is refused at once.
    Meanwhile every token the front door has seen expires (a 401 with Keystone's message, as a
    service answers an expired token), the first run's among them (it made its first net): its
    next request, its second net's create, meets it, and the run authenticates again and goes on."""
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _write(tmp_path, 'slow.yaml', SLOW)
    cloud.reset_stats()
    proc, result_file = runner.start(name='locked', template=template)
    try:
        store = str(tmp_path / 'stacks.sqlite')
        wait_for(lambda: os.path.exists(store) and _locked(store, 'locked'), timeout=120, what='the first run to lock')
        second = runner.run(name='locked', template=template)
        assert second['failed'] is True and 'locked by another run' in second['msg']
        # the first run's token has been seen (its first net is made) before it expires
        wait_for(lambda: _recorded(store, 'early'), timeout=60, what='the first net')
        assert cloud.admin('POST', '/tokens/expire')['expired'] >= 1
        proc.wait(300)
    finally:
        if proc.poll() is None:
            proc.kill()
        cloud.admin('DELETE', '/tokens/expire')
    with open(result_file) as f:
        first = json.load(f)
    assert first['stack']['stack_status'] == 'CREATE_COMPLETE', first['stack']['stack_status_reason']
    stats = cloud.stats()
    statuses = stats['status_by_route']
    assert [route for route, seen in statuses.items() if '401' in seen], statuses
    assert statuses['POST network /v2.0/networks'].get('201') == 2, statuses     # each made once
    # the first run's token, the second run's, and the first run's new one
    assert stats['by_route']['POST identity /v3/auth/tokens'] >= 3, stats['by_route']
    (again, _a), (gone, _g) = runner.run_steps([dict(name='locked', template=template),
                                                dict(name='locked', state='absent')])
    assert again['changed'] is False
    assert gone['stack']['stack_status'] == 'DELETE_COMPLETE'


def _locked(store, name):
    db = sqlite3.connect(store)
    try:
        row = db.execute('SELECT lock_owner FROM stacks WHERE name=?', (name,)).fetchone()
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return bool(row and row[0])


def _lock_pid(store, name):
    db = sqlite3.connect(store)
    try:
        owner = db.execute('SELECT lock_owner FROM stacks WHERE name=?', (name,)).fetchone()[0]
    finally:
        db.close()
    return int(owner.rsplit(':', 2)[1])


def _recorded(store, name):
    db = sqlite3.connect(store)
    try:
        return db.execute("SELECT count(*) FROM resources WHERE name=? AND physical_id IS NOT NULL",
                          (name,)).fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        db.close()


def test_a_run_killed_mid_create_converges_on_rerun(cloud, tmp_path):
    before = ids(cloud.resources())
    runner = StackRunner(cloud, tmp_path, tmp_path / 'stacks.sqlite')
    template = _write(tmp_path, 'servers.yaml', SERVERS)
    store = str(tmp_path / 'stacks.sqlite')
    cloud.configure(build_seconds={'server': 6, 'volume': 6})
    try:
        proc, _result = runner.start(name='killed', template=template)
        wait_for(lambda: os.path.exists(store) and _recorded(store, 'server'), timeout=300,
                 what='the server to be created')
        # The module process holds the lock (its pid is in the owner); ansible-playbook may run it in a
        # session of its own, so kill both.
        os.kill(_lock_pid(store, 'killed'), signal.SIGKILL)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(60)
    finally:
        cloud.configure(build_seconds={'server': 0, 'volume': 0})
    time.sleep(1)
    rerun = runner.run(name='killed', template=template, lock_timeout=0)
    assert rerun['stack']['stack_status'].endswith('_COMPLETE'), rerun['stack']['stack_status_reason']
    conn = cloud.sdk()
    servers = [s for s in conn.compute.servers() if s.name.startswith('killed-server-')]
    assert len(servers) == 1, [s.name for s in servers]
    volumes = [v for v in conn.block_storage.volumes() if (v.name or '').startswith('killed-vol-')]
    assert len(volumes) == 1
    assert runner.run(name='killed', template=template)['changed'] is False
    runner.run(name='killed', state='absent')
    assert ids(cloud.resources()) == before


def _swift_lock(conn, container, obj):
    from openstack import exceptions as sdk_exceptions
    try:
        conn.object_store.get_object_metadata(obj, container=container)
    except sdk_exceptions.NotFoundException:
        return False
    return True


AWX_STORED = """heat_template_version: 2021-04-16
parameters:
  secs: {type: number, default: 0}
  tag: {type: string}
resources:
  net:
    type: OS::Neutron::Net
    properties: {name: {list_join: ['-', [awx-net, {get_param: tag}]]}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.50.0.0/24}
  port:
    type: OS::Neutron::Port
    properties:
      name: {list_join: ['-', [awx-port, {get_param: tag}]]}
      network: {get_resource: net}
      fixed_ips: [{subnet: {get_resource: subnet}}]
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, networks: [{port: {get_resource: port}}]}
  wait:
    type: OS::Heat::TestResource
    depends_on: server
    properties:
      # a new value makes the update wait secs (Heat's TestResource waits only on a change)
      value: {str_replace: {template: slow-N, params: {N: {get_param: secs}}}}
      wait_secs: {get_param: secs}
  secret:
    type: OS::Heat::RandomString
outputs:
  secret: {value: {get_attr: [secret, value]}}
"""

# A job's last play over the inventory source: its servers, reached with a local connection.
REACH = """- name: The role's job
  ansible.builtin.import_playbook: %s
- name: Read the inventory source again
  hosts: localhost
  gather_facts: false
  tasks:
    - name: Refresh
      ansible.builtin.meta: refresh_inventory
- name: Reach the stack's servers
  hosts: heat_awx
  gather_facts: false
  tasks:
    - name: Reach
      ansible.builtin.command: echo {{ inventory_hostname }} {{ heat_server_id }}
      changed_when: false
"""


class _Jobs(object):
    """AWX's way of running a job: ansible_runner on a private data dir of its own (an execution node
    sharing nothing but the cloud), the playbook, extravars, an inventory, the job's events."""

    def __init__(self, cloud, tmp_path, url):
        self.cloud, self.tmp_path, self.url = cloud, tmp_path, url
        self.count = 0

    def kwargs(self, node, playbook=None, inventory=None, **extravars):
        self.count += 1
        data_dir = self.tmp_path / node / ('job%d' % self.count)
        data_dir.mkdir(parents=True)
        extravars = dict(dict(stack_name='awx', stack_cloud='localcloud', stack_store_url=self.url,
                              stack_store_key='awx-store-test-key', stack_show_outputs=False), **extravars)
        kw = dict(private_data_dir=str(data_dir), extravars=extravars, quiet=True,
                  playbook=playbook or os.path.join(ROOT, 'playbooks', 'stack_job.yml'),
                  # how often the runner asks cancel_callback (5 s by default)
                  settings={'pexpect_timeout': 0.5},
                  envvars={'ANSIBLE_COLLECTIONS_PATH': os.path.join(ROOT, '.build'),
                           'OS_CLIENT_CONFIG_FILE': self.cloud.clouds_yaml, 'ANSIBLE_NOCOLOR': '1',
                           'ANSIBLE_LOCALHOST_WARNING': 'false', 'STACKERS_LOCK_TTL': '6',
                           'PATH': os.path.join(ROOT, '.venv', 'bin') + os.pathsep + os.environ['PATH']})
        if inventory:
            (data_dir / 'inventory').mkdir()
            source = data_dir / 'inventory' / 'stacks.heat_stacks.yml'
            source.write_text(inventory)
            kw['inventory'] = str(source)
        return kw

    def run(self, node, **kw):
        import ansible_runner
        return ansible_runner.run(**self.kwargs(node, **kw))

    def start(self, node, cancel, **kw):
        import ansible_runner
        return ansible_runner.run_async(cancel_callback=cancel.is_set, **self.kwargs(node, **kw))


def _results(job, task='Create or update the stack', event='runner_on_ok'):
    """The module results a job's events carry for ``task``."""
    return [e['event_data']['res'] for e in job.events
            if e['event'] == event and e['event_data'].get('task') == task]


def _stats(job):
    return [e['event_data'].get('artifact_data') for e in job.events if e['event'] == 'playbook_on_stats'][0]


def _store_view(conn, url, name):
    """(stack, {resource name: row}) from the Swift store, or (None, {})."""
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.swift import SwiftStore
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError
    try:
        store = SwiftStore(url, conn, writable=False)
    except StoreError:
        return None, {}
    try:
        stack = store.get_stack(name)
        return stack, dict((r.name, r) for r in store.resources(stack['id'])) if stack else {}
    finally:
        store.close()


def _waiting_after_its_server(conn, url):
    _stack, rows = _store_view(conn, url, 'awx')
    return 'wait' in rows and rows['wait'].status == 'IN_PROGRESS' and rows['server'].physical_id


def _kill_the_lock_owner(conn, container, obj):
    """The module process of a job holds the lock (its pid is in the owner); ansible may run it in a session
    of its own, beside the job's process group."""
    held = json.loads(conn.object_store.download_object(obj, container=container))
    try:
        os.kill(int(held['owner'].rsplit(':', 2)[1]), signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_awx_jobs_on_the_swift_store_across_nodes_and_a_sigkill(cloud, tmp_path):
    """As AWX runs jobs (ansible-runner, the role's playbook, store_url): a job SIGKILLed mid-create, then on
    another node a job that converges after the lease with no duplicate and reaches the servers from an inventory
    source; two jobs started together on two nodes: one proceeds, the other fails at once naming the holder; a
    job on the first node reruns with no cloud write; the store's key rotated; then delete."""
    import threading
    container = 'stackers-state-%d' % os.getpid()
    url = 'swift://%s/jobs' % container
    tag = str(os.getpid())
    template = _write(tmp_path, 'awx.yaml', AWX_STORED)
    conn = cloud.sdk()
    jobs = _Jobs(cloud, tmp_path, url)
    lock = 'jobs/awx.lock'
    # node A: killed (its process group SIGKILLed, as AWX cancels) once the server is up and `wait` runs
    cancel = threading.Event()
    thread, killed = jobs.start('nodeA', cancel, stack_template=template, stack_parameters={'secs': 30, 'tag': tag})
    try:
        wait_for(lambda: _waiting_after_its_server(conn, url), timeout=120,
                 what='the stack to have its server and `wait` in progress')
        _kill_the_lock_owner(conn, container, lock)
    finally:
        cancel.set()
        thread.join(60)
    assert killed.status == 'canceled' and _swift_lock(conn, container, lock)
    # node B: after the lease the stack converges; no second net, port or server; the inventory source
    # (a *.heat_stacks.yml file in the job's inventory/) gives the servers, reached with a local connection
    inventory = ('plugin: stackers.orchestration.heat_stacks\ncloud: localcloud\nstore_url: %s\nstacks: [awx]\n'
                 'store_key: awx-store-test-key\n'
                 'compose:\n  ansible_connection: "\'local\'"\n  ansible_python_interpreter: "\'%s\'"\n'
                 % (url, os.path.join(ROOT, '.venv', 'bin', 'python')))
    reach = _write(tmp_path, 'reach.yml', REACH % os.path.join(ROOT, 'playbooks', 'stack_job.yml'))
    converged = jobs.run('nodeB', playbook=reach, inventory=inventory, stack_template=template,
                         stack_parameters={'secs': 0, 'tag': tag}, stack_lock_timeout=30)
    assert converged.rc == 0, converged.stdout.read()[-3000:]
    made = _results(converged)[0]
    assert made['stack']['stack_status'].endswith('_COMPLETE'), made['stack']
    _stack, rows = _store_view(conn, url, 'awx')
    for kind, rname, listing in (('port', 'port', conn.network.ports), ('net', 'net', conn.network.networks)):
        found = [o.id for o in listing(name='awx-%s-%s' % (kind, tag))]
        assert found == [rows[rname].physical_id], (kind, found)
    servers = [s.id for s in conn.compute.servers() if s.name.startswith('awx-server-')]
    assert servers == [rows['server'].physical_id], servers
    reached = [e['event_data']['host'] for e in converged.events
               if e['event'] == 'runner_on_ok' and e['event_data'].get('task') == 'Reach']
    assert reached and len(reached) == 1, reached
    assert _stats(converged)['stack_outputs']['secret'] == made['stack']['outputs'][0]['output_value']
    # two jobs started together on the stack (node A and node C): exactly one proceeds (an update whose
    # TestResource waits 8 s), the other fails at once naming the holder
    stop = threading.Event()
    racing = [jobs.start(node, stop, stack_template=template, stack_parameters={'secs': 8, 'tag': tag})
              for node in ('nodeA', 'nodeC')]
    for job_thread, _job in racing:
        job_thread.join(300)
    outcomes = sorted((job.rc, node) for (_t, job), node in zip(racing, ('nodeA', 'nodeC')))
    assert [rc for rc, _node in outcomes] == [0, 2], outcomes
    loser = [job for _t, job in racing if job.rc != 0][0]
    refused = _results(loser, event='runner_on_failed')
    assert refused and 'is locked in %s by another run (' % url in refused[0]['msg'], refused
    assert ' since ' in refused[0]['msg']
    # node A again (its own new private data dir): the same stack, rerun with zero cloud writes
    cloud.reset_stats()
    again = jobs.run('nodeA', stack_template=template, stack_parameters={'secs': 8, 'tag': tag})
    assert again.rc == 0, again.stdout.read()[-3000:]
    rerun = _results(again)[0]
    assert rerun['changed'] is False and rerun['stack']['outputs'] == made['stack']['outputs']
    assert dict((r, n) for r, n in write_calls(cloud.stats()).items() if ' object-store ' not in r) == {}
    assert not _swift_lock(conn, container, lock)
    # the store's key rotated on the real Swift (in-process, as the next two steps): the outputs read
    # with the new key only
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.run import runner
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.read.info import InfoRequest, info
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.rotate_swift import rotate_swift_key
    from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.swift import SwiftStore
    from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StoreError
    store = SwiftStore(url, conn)
    try:
        counts = rotate_swift_key(store, 'awx-store-test-key', 'awx-store-rotated')
    finally:
        store.close()
    assert counts['stacks'] == 1 and counts['secrets'] >= 2, counts
    shown = info(InfoRequest('awx', store_url=url, store_key='awx-store-rotated'), conn)
    assert shown['stack']['outputs'] == made['stack']['outputs']
    with pytest.raises(StoreError, match='cannot be decrypted'):
        info(InfoRequest('awx', store_url=url, store_key='awx-store-test-key'), conn)
    # delete in-process (an ansible-playbook start costs ~10 s on this machine)
    gone = runner.run(runner.StackRequest('awx', state='absent', store_url=url,
                                          store_key='awx-store-rotated'), conn)
    assert gone['changed'] is True
    names = [o.name for o in conn.object_store.objects(container)]
    # the deleted stack's status and events, kept for a day for a follower (deleted/<id>.json)
    assert names and all(n.startswith(('jobs/versions/awx/', 'jobs/awx.lock.claims/', 'jobs/deleted/'))
                         for n in names), names
    for name in names:
        conn.object_store.delete_object(name, container=container)
    conn.object_store.delete_container(container)


# The short form of `make chaos` (bench/chaos.py): a small stack whose update replaces a port (its
# network moves) and changes a volume's metadata in place.
CHAOS_SMALL = """heat_template_version: 2021-04-16
parameters:
  on_b: {type: boolean, default: false}
  label: {type: string, default: v1}
conditions:
  b: {get_param: on_b}
resources:
  net_a:
    type: OS::Neutron::Net
  subnet_a:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net_a}, cidr: 10.50.0.0/24}
  net_b:
    type: OS::Neutron::Net
  subnet_b:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net_b}, cidr: 10.51.0.0/24}
  port:
    type: OS::Neutron::Port
    properties:
      network: {if: [b, {get_resource: net_b}, {get_resource: net_a}]}
      fixed_ips: [{subnet: {if: [b, {get_resource: subnet_b}, {get_resource: subnet_a}]}}]
  vol:
    type: OS::Cinder::Volume
    properties: {size: 1, metadata: {label: {get_param: label}}}
"""
CHAOS_CHANGES = {'inplace': {'label': 'v2'}, 'on': {'on_b': True}, 'off': {'on_b': False},
                 'fail_builds': {'volume': 'vol'}}


def test_chaos_short_form_loses_nothing(cloud, tmp_path):
    """2 lifecycles under random faults (every kind) and a SIGKILL during a replacement, each
    followed by a converging rerun; the ledger finds no orphan, no duplicate, no lost record."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), 'bench'))
    import chaos
    seed = int(os.environ.get('CHAOS_SEED', '16'))
    template = _write(tmp_path, 'chaos_small.yaml', CHAOS_SMALL)
    campaign = chaos.Campaign(cloud, str(tmp_path), seed, template=template, fault_rate=0.08,
                              changes=CHAOS_CHANGES)
    before = ids(cloud.resources())
    campaign.phase_faults(2)
    campaign.phase_kills(1, window=(0.5, 2.0), moments=('replace',))
    figures = campaign.figures
    assert figures['runs'] == 2 and figures['kills'] <= 1
    assert not any(chaos.losses(figures).values()), (
        'seed %d (CHAOS_SEED=%d replays it): %s' % (seed, seed, figures))
    assert ids(cloud.resources()) == before
