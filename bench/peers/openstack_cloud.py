# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Peer: the multi_tier template built by a playbook of openstack.cloud modules (issue 5, part 3).

What Ansible users do today without Heat: multi_tier_openstack_cloud.yml (one task per resource,
linear) and multi_tier_openstack_cloud_delete.yml, run by ansible-playbook from .venv with the
openstack.cloud collection 2.6.0.  That collection comes from the ``ansible`` 14.5.0 wheel (it
needs Python 3.12 to install, but the collection runs on ansible-core 2.19 / Python 3.11):
downloaded once into .bench-cache/ and only ansible_collections/openstack/cloud extracted from
it.  ansible-playbook runs with a config of its own (ANSIBLE_CONFIG) that sees that tree alone:
neither the repository's ansible.cfg nor our collection, nor any collection on sys.path.

The wall time is the whole ansible-playbook process, its start included, as a user waits for it.
Each task is a module process of its own (AnsiballZ, the openstacksdk import, a token and version
discovery of its own): the simplest tasks take 1-2 s each on this machine.

The floating IPs are made with openstack.cloud.resource, not openstack.cloud.floating_ip (why: in
the playbook); everything else with the module named after the resource.

    .venv/bin/python bench/peers/openstack_cloud.py     # self-test on a local cloud of its own
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV_BIN = os.path.join(ROOT, '.venv', 'bin')
CACHE = os.path.join(ROOT, '.bench-cache')
ANSIBLE = '14.5.0'                      # the ``ansible`` release holding openstack.cloud 2.6.0
WANT = '2.6.0'                          # 2.5.0 (ansible 12) fails with openstacksdk 4.22
MEMBERS = 'ansible_collections/openstack/cloud/'
CREATE = os.path.join(HERE, 'multi_tier_openstack_cloud.yml')
DELETE = os.path.join(HERE, 'multi_tier_openstack_cloud_delete.yml')
CLOUD_NAME = 'localcloud'
TIMEOUT = 1800


def collection_tree():
    """The directory whose ansible_collections/openstack/cloud is the 2.6.0 collection: the wheel
    downloaded and the collection extracted on the first call only."""
    tree = os.path.join(CACHE, 'ansible-%s' % ANSIBLE)
    manifest = os.path.join(tree, MEMBERS, 'MANIFEST.json')
    if not os.path.exists(manifest):
        wheels = glob.glob(os.path.join(CACHE, 'ansible-%s-*.whl' % ANSIBLE))
        if not wheels:
            os.makedirs(CACHE, exist_ok=True)
            subprocess.run([os.path.join(VENV_BIN, 'python'), '-m', 'pip', 'download', '--no-deps',
                            '--python-version', '3.12', '--only-binary=:all:', '-d', CACHE,
                            'ansible==%s' % ANSIBLE], check=True, stdin=subprocess.DEVNULL,
                           timeout=900)
            wheels = glob.glob(os.path.join(CACHE, 'ansible-%s-*.whl' % ANSIBLE))
        # extracted beside, then renamed: an interrupted extraction is never taken for a done one
        tmp = tempfile.mkdtemp(prefix='.extract-', dir=CACHE)
        with zipfile.ZipFile(wheels[0]) as whl:
            whl.extractall(tmp, [m for m in whl.namelist() if m.startswith(MEMBERS)])
        try:
            os.rename(tmp, tree)
        except OSError:                 # another process extracted it first
            shutil.rmtree(tmp, ignore_errors=True)
    with open(manifest) as f:
        version = json.load(f)['collection_info']['version']
    if version != WANT:
        raise RuntimeError('%s holds openstack.cloud %s, not %s' % (tree, version, WANT))
    return tree


class Peer(object):
    """The openstack.cloud playbook peer (interface: bench/peers/__init__.py)."""

    def __init__(self, cloud, workdir):
        self.cloud = cloud
        self.dir = os.path.join(workdir, 'openstack_cloud_peer')
        os.makedirs(self.dir, exist_ok=True)
        tree = collection_tree()
        # ANSIBLE_CONFIG wins over ./ansible.cfg and ~/.ansible.cfg; the scan of sys.path off, so
        # the extracted tree is the only place collections come from.
        cfg = os.path.join(self.dir, 'ansible.cfg')
        with open(cfg, 'w') as f:
            f.write('[defaults]\ncollections_path = %s\ncollections_scan_sys_path = False\n'
                    'localhost_warning = False\nretry_files_enabled = False\nnocows = True\n'
                    '[inventory]\ninventory_unparsed_warning = False\n' % tree)
        # nothing of the caller's Ansible or OpenStack settings leaks in
        self.env = dict((k, v) for k, v in os.environ.items()
                        if not k.startswith(('ANSIBLE_', 'OS_')))
        self.env.update(ANSIBLE_CONFIG=cfg, ANSIBLE_NOCOLOR='1',
                        OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml)
        # which collection ansible itself resolves: exactly one openstack.cloud, ours, 2.6.0
        found = json.loads(self._run([os.path.join(VENV_BIN, 'ansible-galaxy'), 'collection',
                                      'list', 'openstack.cloud', '--format', 'json']))
        seen = [(path, c['openstack.cloud']['version']) for path, c in found.items()
                if 'openstack.cloud' in c]
        if seen != [(os.path.join(tree, 'ansible_collections'), WANT)]:
            raise RuntimeError('ansible resolves openstack.cloud as %s, not %s in %s'
                               % (seen, WANT, tree))
        core = re.search(r'core ([0-9][^\]\s]*)',
                         self._run([os.path.join(VENV_BIN, 'ansible-playbook'), '--version']))
        self.core = core.group(1) if core else '?'
        self.name = ('openstack.cloud %s playbook (ansible-core %s, one task per resource, '
                     'linear)' % (WANT, self.core))

    def _run(self, cmd):
        return subprocess.run(cmd, env=self.env, cwd=self.dir, capture_output=True, text=True,
                              check=True, stdin=subprocess.DEVNULL, timeout=120).stdout

    def _play(self, playbook, stack_name, what, **extra):
        """One ansible-playbook run, measured: {'wall_s', 'ok', 'detail', 'recap', 'log'}."""
        if not re.match(r'^[A-Za-z][A-Za-z0-9_-]*$', stack_name):
            raise ValueError('stack name %r: letters, digits, - and _ only' % stack_name)
        log = os.path.join(self.dir, '%s-%s.log' % (stack_name, what))
        extra.update(stack=stack_name, cloud_name=CLOUD_NAME)
        cmd = [os.path.join(VENV_BIN, 'ansible-playbook'), playbook, '-e', json.dumps(extra)]
        start = time.monotonic()
        with open(log, 'w') as out:
            # a session of its own: on a timeout its forked workers go with it
            proc = subprocess.Popen(cmd, env=self.env, cwd=self.dir, stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
            try:
                rc = proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc = proc.wait()
            except BaseException:       # the bench interrupted (SIGTERM, ^C): nothing left running
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                raise
        wall = time.monotonic() - start
        with open(log) as f:
            text = f.read()
        m = re.search(r'^localhost\s*:\s*(.*)$', text, re.M)
        recap = dict((k, int(v)) for k, v in re.findall(r'(\w+)=(\d+)', m.group(1))) if m else {}
        if rc == 0:
            detail = 'ok=%s changed=%s' % (recap.get('ok'), recap.get('changed'))
        else:
            fatal = [ln for ln in text.splitlines()
                     if ln.startswith(('fatal:', 'ERROR!', '[ERROR]'))]
            detail = 'rc %s: %s' % (rc, ('\n'.join(fatal) or text[-2000:])[-2000:])
        return {'wall_s': wall, 'ok': rc == 0, 'detail': detail, 'recap': recap, 'log': log}

    def create(self, stack_name):
        return self._play(CREATE, stack_name, 'create')

    def delete(self, stack_name):
        return self._play(DELETE, stack_name, 'delete')

    def cleanup(self, stack_name):
        """The delete playbook going on past failures, twice (a second pass takes what the first
        could not reach, e.g. a volume still detaching)."""
        for i in range(2):
            self._play(DELETE, stack_name, 'cleanup%d' % i, best_effort=True)


# -- self-test ---------------------------------------------------------------------------------

def check_infrastructure(cloud, stack):
    """The cloud holds what multi_tier.yaml describes (default parameters), read with the SDK."""
    conn = cloud.sdk()
    try:
        net, cn = conn.network, conn.compute

        def one(kind, finder, name):
            found = finder(name, ignore_missing=True)
            assert found is not None, '%s %s missing' % (kind, name)
            return found

        public = one('network', net.find_network, 'public')
        assert cn.find_keypair('%s-key' % stack) is not None, 'key pair missing'
        nets, subnets = {}, {}
        for suffix, cidr in (('', '10.10.0.0/24'), ('2', '10.20.0.0/24')):
            nets[suffix] = one('network', net.find_network, '%s-net%s' % (stack, suffix))
            subnets[suffix] = one('subnet', net.find_subnet, '%s-subnet%s' % (stack, suffix))
            assert subnets[suffix].network_id == nets[suffix].id
            assert subnets[suffix].cidr == cidr, subnets[suffix].cidr
        router = one('router', net.find_router, '%s-router' % stack)
        assert router.external_gateway_info['network_id'] == public.id, router.external_gateway_info
        ifaces = set(ip['subnet_id'] for p in net.ports(device_id=router.id,
                                                        device_owner='network:router_interface')
                     for ip in p.fixed_ips)
        assert ifaces == set(s.id for s in subnets.values()), ifaces
        sg = one('security group', net.find_security_group, '%s-sg' % stack)
        ingress = sorted((r.protocol, r.port_range_min, r.port_range_max, r.remote_ip_prefix,
                          r.ether_type) for r in net.security_group_rules(security_group_id=sg.id)
                         if r.direction == 'ingress')
        assert ingress == [('icmp', None, None, None, 'IPv4'),
                           ('tcp', 22, 22, None, 'IPv4')], ingress
        image = conn.image.find_image('cirros', ignore_missing=False)
        for i in ('1', '2'):
            port = one('port', net.find_port, '%s-port%s' % (stack, i))
            assert port.network_id == nets[''].id
            assert [ip['subnet_id'] for ip in port.fixed_ips] == [subnets[''].id], port.fixed_ips
            assert port.security_group_ids == [sg.id], port.security_group_ids
            fips = list(net.ips(port_id=port.id))     # one: none added by the server's auto_ip
            assert len(fips) == 1 and fips[0].floating_network_id == public.id, fips
            server = cn.get_server(one('server', cn.find_server, '%s-server%s' % (stack, i)).id)
            assert server.status == 'ACTIVE', server.status
            assert port.device_id == server.id, (port.device_id, server.id)
            assert [a.port_id for a in cn.server_interfaces(server)] == [port.id]
            assert server.image['id'] == image.id, server.image
            assert server.flavor['original_name'] == 'm1.tiny', server.flavor
            assert server.key_name == '%s-key' % stack, server.key_name
            assert server.metadata == {'tier': 'web', 'version': 'v1'}, server.metadata
            volume = one('volume', conn.block_storage.find_volume, '%s-vol%s' % (stack, i))
            assert volume.size == 1 and volume.status == 'in-use', (volume.size, volume.status)
            assert [a['server_id'] for a in volume.attachments] == [server.id], volume.attachments
    finally:
        conn.close()


def _calls(cloud, stack):
    """(total, route -> count); the modules look names up by GET .../<name> before listing: those
    routes are counted as .../{name}, so two stacks' runs compare route by route."""
    stats = cloud.stats()
    routes = {}
    for route, count in (stats.get('by_route') or {}).items():
        route = re.sub(r'/%s-[\w-]+' % re.escape(stack), '/{name}', route)
        routes[route] = routes.get(route, 0) + count
    return stats.get('requests', sum(routes.values())), routes


def main():
    sys.path.insert(0, ROOT)
    from localcloud.harness import ids, start_cloud, stop_cloud

    workdir = tempfile.mkdtemp(prefix='peer_openstack_cloud-')
    log = os.path.join(workdir, 'localcloud.log')
    started = time.monotonic()
    cloud, proc = start_cloud(workdir, ['--latency-ms', '0', '--build-seconds', 'server=3',
                                        '--build-seconds', 'volume=1'], log)
    if cloud is None:
        with open(log) as f:
            sys.stderr.write('the local cloud did not start:\n' + f.read()[-4000:])
        return 1
    print('local cloud up in %.1fs at %s (workdir %s)' % (time.monotonic() - started, cloud.url,
                                                          workdir))
    rc, made, peer = 1, [], None
    try:
        cloud.configure(latency_ms=20, build_seconds={'server': 3.0, 'volume': 1.0})
        baseline = ids(cloud.resources())
        peer = Peer(cloud, workdir)
        print(peer.name)
        routes_seen = {}
        for run in range(2):
            stack = 'occ%d' % run
            made.append(stack)
            # rerun: the create again on what exists (state: present), which should change nothing
            for phase, call in (('create', peer.create), ('rerun', peer.create),
                                ('delete', peer.delete)):
                cloud.reset_stats()
                res = call(stack)
                total, routes = _calls(cloud, stack)
                routes_seen[(run, phase)] = routes
                print('run %d %-6s wall %7.2fs  calls %4d  ok %s  %s'
                      % (run, phase, res['wall_s'], total, res['ok'], res['detail']))
                assert res['ok'], res['detail']
                if phase == 'create':
                    check_infrastructure(cloud, stack)
                    now = ids(cloud.resources())
                    print('  new in the cloud: %s' % ', '.join(
                        '%s %d' % (k, len(v - baseline.get(k, set())))
                        for k, v in sorted(now.items()) if v - baseline.get(k, set())))
                elif phase == 'rerun':
                    assert res['recap'].get('changed') == 0, res['recap']
            made.remove(stack)
            left = dict((k, len(v - baseline.get(k, set())))
                        for k, v in ids(cloud.resources()).items())
            left = dict((k, v) for k, v in left.items() if v)
            assert not left, 'left in the cloud after the delete of %s: %s' % (stack, left)
            print('  cloud back to its baseline')
        for phase in ('create', 'rerun', 'delete'):
            print('\n%s: API calls per route (run 0 / run 1)' % phase)
            r0, r1 = routes_seen[(0, phase)], routes_seen[(1, phase)]
            for route in sorted(set(r0) | set(r1)):
                print('  %-66s %4d %4d' % (route, r0.get(route, 0), r1.get(route, 0)))
            print('  %-66s %4d %4d' % ('total', sum(r0.values()), sum(r1.values())))
        rc = 0
    finally:
        for stack in made if peer else ():    # a failed run: best effort, the cloud goes anyway
            try:
                peer.cleanup(stack)
            except Exception as exc:  # noqa: B902 - reported; the cloud is stopped below
                sys.stderr.write('cleanup of %s failed: %s\n' % (stack, exc))
        stop_cloud(proc)
        if rc == 0:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print('kept %s (playbook logs in openstack_cloud_peer/, the cloud log)' % workdir)
    return rc


if __name__ == '__main__':
    sys.exit(main())
