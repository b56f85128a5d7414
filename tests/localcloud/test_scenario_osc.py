# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The issue's scripted python-openstackclient scenario against the local cloud.

Build a small application (network to object storage), look at it, try to delete it in an order
the services refuse, then delete it properly; the cloud must end as seeded.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import re

from localcloud.harness import ids, wait_for

SEEDED = {
    'networks': ['public'],
    'subnets': ['public-subnet'],
    'images': ['cirros'],
    'flavors': ['m1.large', 'm1.medium', 'm1.small', 'm1.tiny'],
}


def _refused(res, codes):
    """The command failed, and the service said one of ``codes``."""
    assert res.returncode != 0, 'expected a refusal, got success: %s' % res.stdout
    found = re.findall(r'\b(4\d\d)\b', res.stderr)
    assert set(found) & {str(c) for c in codes}, res.stderr[-1500:]


def test_seeded_like_a_fresh_cloud(cloud):
    base = cloud.baseline
    for kind, names in SEEDED.items():
        assert sorted(i['name'] for i in base[kind]) == names, kind
    public = base['networks'][0]
    assert public['router:external'] is True
    assert base['subnets'][0]['cidr'] == '172.24.4.0/24'
    assert base['images'][0]['status'] == 'active'
    for kind in ('servers', 'volumes', 'ports', 'routers', 'floating_ips', 'load_balancers',
                 'containers', 'objects', 'keypairs'):
        assert base[kind] == [], kind
    # the demo project's default security group was made by the seed, so it is in the baseline
    projects = cloud.osc('project', 'list', cloud='localcloud-admin', as_json=True)
    demo = [p['ID'] for p in projects if p['Name'] == 'demo']
    assert demo and demo[0] in {g['project_id'] for g in base['security_groups']}


def test_osc_scenario(cloud, tmp_path):
    try:
        _scenario(cloud, tmp_path)
    except BaseException:
        _best_effort_cleanup(cloud)
        raise


def _best_effort_cleanup(cloud):
    """After a failure: remove what the scenario may have left, ignoring errors (all bounded)."""
    osc = cloud.osc
    steps = [
        ('object', 'delete', 'app-container', 'hello.txt'), ('container', 'delete', 'app-container'),
        ('loadbalancer', 'delete', '--cascade', '--wait', 'app-lb'),
        ('server', 'delete', '--wait', 'app-server'), ('volume', 'delete', 'app-vol'),
        ('port', 'delete', 'app-port'), ('security', 'group', 'delete', 'app-sg'),
        ('keypair', 'delete', 'app-key'), ('router', 'remove', 'subnet', 'app-router', 'app-subnet'),
        ('router', 'delete', 'app-router'), ('subnet', 'delete', 'app-subnet'),
        ('network', 'delete', 'app-net'),
    ]
    for fip in osc('floating', 'ip', 'list', as_json=True, check=False) or []:
        osc('floating', 'ip', 'delete', fip['ID'], check=False)
    for step in steps:
        try:
            osc(*step, check=False, timeout=300)
        except Exception:   # a timeout here must not hide the test's own failure
            pass


def _scenario(cloud, tmp_path):
    osc = cloud.osc
    net = osc('network', 'create', 'app-net', as_json=True)
    subnet = osc('subnet', 'create', 'app-subnet', '--network', 'app-net',
                 '--subnet-range', '10.10.0.0/24', as_json=True)
    router = osc('router', 'create', 'app-router', '--external-gateway', 'public', as_json=True)
    osc('router', 'add', 'subnet', 'app-router', 'app-subnet')
    sg = osc('security', 'group', 'create', 'app-sg', as_json=True)
    osc('security', 'group', 'rule', 'create', 'app-sg', '--protocol', 'tcp', '--dst-port', '22',
        '--remote-ip', '0.0.0.0/0')
    key = osc('keypair', 'create', 'app-key', as_json=False).stdout
    assert 'PRIVATE KEY' in key
    port = osc('port', 'create', 'app-port', '--network', 'app-net', '--security-group', 'app-sg',
               as_json=True)
    server = osc('server', 'create', 'app-server', '--flavor', 'm1.tiny', '--image', 'cirros',
                 '--port', 'app-port', '--key-name', 'app-key', '--wait', as_json=True, timeout=300)
    assert server['status'] == 'ACTIVE'
    volume = osc('volume', 'create', 'app-vol', '--size', '1', as_json=True)
    wait_for(lambda: osc('volume', 'show', volume['id'], as_json=True)['status'] == 'available',
             what='volume available')
    osc('server', 'add', 'volume', 'app-server', volume['id'])
    wait_for(lambda: osc('volume', 'show', volume['id'], as_json=True)['status'] == 'in-use',
             what='volume in-use')
    fip = osc('floating', 'ip', 'create', 'public', '--port', 'app-port', as_json=True)
    assert fip['floating_ip_address'].startswith('172.24.4.')
    lb = osc('loadbalancer', 'create', '--name', 'app-lb', '--vip-subnet-id', 'app-subnet',
             '--wait', as_json=True, timeout=300)
    listener = osc('loadbalancer', 'listener', 'create', '--name', 'app-listener', '--protocol',
                   'HTTP', '--protocol-port', '80', '--wait', 'app-lb', as_json=True)
    pool = osc('loadbalancer', 'pool', 'create', '--name', 'app-pool', '--listener', 'app-listener',
               '--protocol', 'HTTP', '--lb-algorithm', 'ROUND_ROBIN', '--wait', as_json=True)
    member = osc('loadbalancer', 'member', 'create', '--address', port['fixed_ips'][0]['ip_address']
                 if isinstance(port['fixed_ips'], list) else _ip(port['fixed_ips']),
                 '--protocol-port', '80', '--subnet-id', 'app-subnet', '--wait', 'app-pool',
                 as_json=True)
    hm = osc('loadbalancer', 'healthmonitor', 'create', '--delay', '5', '--timeout', '3',
             '--max-retries', '2', '--type', 'HTTP', '--name', 'app-hm', '--wait', 'app-pool',
             as_json=True)
    osc('container', 'create', 'app-container')
    blob = tmp_path / 'hello.txt'
    blob.write_text('hello from the local cloud\n')
    osc('object', 'create', 'app-container', str(blob), '--name', 'hello.txt')

    # ---- show and list ----------------------------------------------------------------------
    shown = osc('server', 'show', 'app-server', as_json=True)
    assert shown['status'] == 'ACTIVE'
    assert 'app-net' in str(shown['addresses'])
    assert fip['floating_ip_address'] in str(osc('floating', 'ip', 'list', as_json=True))
    assert osc('port', 'show', 'app-port', as_json=True)['device_id'] == server['id']
    assert osc('router', 'show', 'app-router', as_json=True)['external_gateway_info']
    assert osc('loadbalancer', 'show', 'app-lb', as_json=True)['provisioning_status'] == 'ACTIVE'
    assert osc('loadbalancer', 'member', 'show', 'app-pool', member['id'],
               as_json=True)['operating_status'] == 'ONLINE'    # the pool has a monitor
    assert [o['Name'] for o in osc('object', 'list', 'app-container', as_json=True)] == ['hello.txt']
    assert osc('volume', 'show', 'app-vol', as_json=True)['attachments'][0]['server_id'] == server['id']
    names = {s['Name'] for s in osc('server', 'list', as_json=True)}
    assert 'app-server' in names
    live = cloud.resources()
    assert lb['id'] in {x['id'] for x in live['load_balancers']}
    assert {'app-container'} <= {c['name'] for c in live['containers']}

    # ---- deletes the services refuse -----------------------------------------------------------
    _refused(osc('network', 'delete', 'app-net', check=False), [409])
    _refused(osc('subnet', 'delete', 'app-subnet', check=False), [409])
    _refused(osc('router', 'delete', 'app-router', check=False), [409])
    _refused(osc('security', 'group', 'delete', 'app-sg', check=False), [409])
    _refused(osc('volume', 'delete', 'app-vol', check=False), [400])   # Cinder says 400 for in-use
    _refused(osc('container', 'delete', 'app-container', check=False), [409])
    _refused(osc('loadbalancer', 'delete', 'app-lb', check=False), [400, 409])
    _refused(osc('network', 'delete', 'public', check=False), [403, 409])

    # ---- the right order -----------------------------------------------------------------------
    osc('object', 'delete', 'app-container', 'hello.txt')
    osc('container', 'delete', 'app-container')
    osc('loadbalancer', 'healthmonitor', 'delete', hm['id'], '--wait')
    osc('loadbalancer', 'member', 'delete', 'app-pool', member['id'], '--wait')
    osc('loadbalancer', 'pool', 'delete', pool['id'], '--wait')
    osc('loadbalancer', 'listener', 'delete', listener['id'], '--wait')
    osc('loadbalancer', 'delete', 'app-lb', '--wait', timeout=300)
    osc('floating', 'ip', 'delete', fip['id'])
    osc('server', 'remove', 'volume', 'app-server', volume['id'])
    wait_for(lambda: osc('volume', 'show', volume['id'], as_json=True)['status'] == 'available',
             what='volume detached')
    osc('volume', 'delete', volume['id'])
    osc('server', 'delete', 'app-server', '--wait', timeout=300)
    osc('port', 'delete', 'app-port')
    osc('security', 'group', 'delete', sg['id'])
    osc('keypair', 'delete', 'app-key')
    osc('router', 'remove', 'subnet', 'app-router', 'app-subnet')
    osc('router', 'unset', '--external-gateway', 'app-router')
    osc('router', 'delete', router['id'])
    osc('subnet', 'delete', subnet['id'])
    osc('network', 'delete', net['id'])
    wait_for(lambda: not osc('volume', 'list', '--all-projects', cloud='localcloud-admin',
                             as_json=True), what='volume gone')

    after = ids(cloud.resources())
    before = ids(cloud.baseline)
    assert after == before


def _ip(fixed_ips):
    # older clients print fixed_ips as "ip_address='10.0.0.5', subnet_id='…'"
    return re.search(r"ip_address='([^']+)'", str(fixed_ips)).group(1)


def test_clouds_yaml_names_the_cloud(cloud):
    with open(cloud.clouds_yaml) as f:
        text = f.read()
    assert '"localcloud"' in text
    assert cloud.url + '/identity/v3' in text
    assert os.path.isabs(cloud.clouds_yaml)
