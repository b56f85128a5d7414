# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`stackers-localcloud --guests`: servers run their user data as local processes.

The session's cloud with guests (conftest.py's guests_cloud: --guests, --with-heat, a kept
--state-dir to look into the guests' directories).  Servers made through openstacksdk run (a) a shell script, (b) a cloud-config's
write_files and runcmd, (c) Heat's SOFTWARE_CONFIG multipart user data, whose cfn-init-data points
the real os-collect-config at a Swift GET TempURL holding a script deployment: the real heat-config
hook runs it and heat-config-notify PUTs the result to the deployment's Swift PUT TempURL.
With --with-heat too, a real Heat stack's SoftwareDeployment (POLL_TEMP_URL, TEMP_URL_SIGNAL)
completes through its server's guest.  Our heat_stack's WaitCondition is signalled by its servers'
guests with the handle's curl_cli, as Heat users write it (wc_notify).  Deleting a server stops its guest and removes its
directory; stopping the cloud, the rest.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import base64
import json
import os
import sys
import uuid
from email.mime import multipart, text

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from localcloud.harness import process_gone, wait_for  # noqa: E402
from localcloud.playbook import StackRunner, outputs  # noqa: E402


@pytest.fixture(scope='module')
def gcloud(guests_cloud):
    return guests_cloud


def _server(c, name, user_data):
    conn = c.conn
    image = conn.image.find_image('cirros')
    flavor = conn.compute.find_flavor('m1.tiny')
    server = conn.compute.create_server(
        name=name, image_id=image.id, flavor_id=flavor.id, networks='none',
        user_data=base64.b64encode(user_data.encode()).decode())
    server = conn.compute.wait_for_server(server, wait=180)
    d = os.path.join(c.guests, server.id)
    pid = int(wait_for(lambda: _read(os.path.join(d, 'pid')), timeout=30, what='the guest pid'))
    c.started.append((d, pid))
    return server, d, pid


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def _steps(d):
    return [json.loads(line) for line in (_read(os.path.join(d, 'steps.jsonl')) or '').splitlines()]


def _delete(c, server, d, pid):
    c.conn.compute.delete_server(server)
    c.conn.compute.wait_for_delete(server, wait=180)
    wait_for(lambda: not os.path.exists(d) and process_gone(pid), timeout=30,
             what='the guest to stop and its directory to go')


def test_shell_script_runs_in_its_own_root_and_reaches_the_host(gcloud, sink):
    tag = uuid.uuid4().hex[:8]
    script = ('#!/bin/sh\n'
              'echo "ran in $PWD" > ran.txt\n'
              "/usr/bin/curl -s -i -X PUT '%s/shell-%s' --data-binary \"home=$HOME\"\n" % (sink.url, tag))
    server, d, pid = _server(gcloud, 'guest-shell', script)
    body = wait_for(lambda: sink.got.get('/shell-' + tag), timeout=60, what='the PUT of the script')
    root = os.path.join(d, 'root')
    assert body == [('home=' + os.path.join(root, 'root')).encode()]
    assert _read(os.path.join(root, 'ran.txt')) == 'ran in %s\n' % root
    assert [s['returncode'] for s in _steps(d) if s['step'] == 'script'] == [0]
    _delete(gcloud, server, d, pid)


def test_cloud_config_write_files_then_runcmd(gcloud, sink):
    tag = uuid.uuid4().hex[:8]
    config = '\n'.join([
        '#cloud-config',
        'write_files:',
        '  - path: /etc/app/app.conf',
        '    permissions: "0600"',
        '    content: |',
        '      answer=42',
        '  - path: /etc/app/blob',
        '    encoding: b64',
        '    content: %s' % base64.b64encode(b'binary\x00data').decode(),
        'runcmd:',
        '  - echo first > step1.txt',
        "  - [/usr/bin/curl, -s, -X, PUT, --data-binary, '@etc/app/app.conf', '%s/cc-%s']" % (sink.url, tag),
        'packages: [nginx]',
        '',
    ])
    server, d, pid = _server(gcloud, 'guest-cloud-config', config)
    body = wait_for(lambda: sink.got.get('/cc-' + tag), timeout=60, what='the PUT of runcmd')
    assert body == [b'answer=42\n']
    root = os.path.join(d, 'root')
    assert oct(os.stat(os.path.join(root, 'etc/app/app.conf')).st_mode & 0o777) == '0o600'
    with open(os.path.join(root, 'etc/app/blob'), 'rb') as f:
        assert f.read() == b'binary\x00data'
    assert _read(os.path.join(root, 'step1.txt')) == 'first\n'
    steps = _steps(d)
    assert [s['returncode'] for s in steps if s['step'] == 'runcmd'] == [0, 0]
    assert {'step': 'cloud-config', 'ignored': ['packages']}.items() <= [
        s for s in steps if s['step'] == 'cloud-config'][0].items()
    _delete(gcloud, server, d, pid)


def _heat_userdata(metadata):
    """User data shaped as Heat's build_userdata makes it for SOFTWARE_CONFIG (its parts, in its
    order: cloud-config, boothook, part-handler, then the metadata as x-cfninitdata)."""
    def part(content, filename, subtype):
        msg = text.MIMEText(content, _subtype=subtype, _charset='us-ascii')
        msg.add_header('Content-Disposition', 'attachment', filename=filename)
        return msg
    parts = [part("output: {all: '| tee -a /var/log/cloud-init-output.log'}\n", 'cloud-config',
                  'cloud-config'),
             part('#!/bin/bash\ncfn-create-aws-symlinks\nexit 0\n', 'boothook.sh', 'cloud-boothook'),
             part('# part-handler\ndef list_types():\n    return ["text/x-cfninitdata"]\n',
                  'part-handler.py', 'part-handler'),
             part(json.dumps(metadata), 'cfn-init-data', 'x-cfninitdata')]
    return multipart.MIMEMultipart(_subparts=parts).as_string()


def test_software_config_runs_the_real_heat_config_hook_and_signals_swift(gcloud):
    conn = gcloud.conn
    container = 'guest-' + uuid.uuid4().hex[:8]
    conn.object_store.create_container(name=container)
    conn.object_store.set_account_temp_url_key('guest-secret')
    account = '/v1/AUTH_%s/%s/' % (conn.current_project_id, container)

    def temp_url(obj, method):
        return gcloud.url + '/object-store' + conn.object_store.generate_temp_url(
            account + obj, 3600, method)
    deployment = {
        'id': str(uuid.uuid4()), 'name': 'deploy-1', 'group': 'script',
        'config': ('#!/bin/sh\necho "hello $greeting"\necho warned >&2\n'
                   'printf done > "$heat_outputs_path.result"\n'),
        'inputs': [
            {'name': 'greeting', 'type': 'String', 'value': 'guests'},
            {'name': 'deploy_server_id', 'type': 'String', 'value': 'srv'},
            {'name': 'deploy_action', 'type': 'String', 'value': 'CREATE'},
            {'name': 'deploy_signal_transport', 'type': 'String', 'value': 'TEMP_URL_SIGNAL'},
            {'name': 'deploy_signal_id', 'type': 'String', 'value': temp_url('signal', 'PUT')},
            {'name': 'deploy_signal_verb', 'type': 'String', 'value': 'PUT'}],
        'outputs': [{'name': 'result', 'type': 'String'}], 'options': {},
    }
    occ = {'collectors': ['ec2', 'request', 'local'],
           'request': {'metadata_url': temp_url('metadata', 'GET')}}
    conn.object_store.upload_object(container=container, name='metadata',
                                    data=json.dumps({'deployments': [deployment],
                                                     'os-collect-config': occ}).encode())
    user_data = _heat_userdata({'os-collect-config': occ, 'deployments': []})
    try:
        server, d, pid = _server(gcloud, 'guest-software-config', user_data)

        def signalled():
            names = [o.name for o in conn.object_store.objects(container)]
            return 'signal' in names and conn.object_store.download_object('signal', container=container)
        signal = json.loads(wait_for(signalled, timeout=120, interval=1, what='the deployment signal'))
        assert signal == {'deploy_stdout': 'hello guests\n', 'deploy_stderr': 'warned\n',
                          'deploy_status_code': 0, 'result': 'done'}
        root = os.path.join(d, 'root')
        # Heat's part-handler's job: the x-cfninitdata part in /var/lib/heat-cfntools
        assert json.loads(_read(os.path.join(root, 'var/lib/heat-cfntools/cfn-init-data')))[
            'os-collect-config'] == occ
        # the real hook's traces: the deployment it ran, the notify data it sent
        assert os.path.exists(os.path.join(root, 'var/lib/heat-config/deployed',
                                           deployment['id'] + '.json'))
        skipped = [s['kind'] for s in _steps(d) if s['step'] == 'skipped']
        assert skipped == ['boothook', 'part-handler']
        # the guest keeps polling (os-collect-config runs until the server goes)
        assert not process_gone(pid)
        _delete(gcloud, server, d, pid)
    finally:
        for obj in conn.object_store.objects(container):
            conn.object_store.delete_object(obj, container=container)
        conn.object_store.delete_container(container)
        conn.object_store.delete_account_metadata(['temp_url_key'])


HEAT_TEMPLATE = """
heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.9.0.0/24}
  config:
    type: OS::Heat::SoftwareConfig
    properties:
      group: script
      inputs: [{name: who}]
      outputs: [{name: result}]
      config: |
        #!/bin/sh
        echo "hello $who"
        printf "made by $who" > $heat_outputs_path.result
  server:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG
      software_config_transport: %(poll)s
  deployment:
    type: OS::Heat::SoftwareDeployment
    properties:
      config: {get_resource: config}
      server: {get_resource: server}
      signal_transport: %(signal)s
      input_values: {who: heat}
outputs:
  result: {value: {get_attr: [deployment, result]}}
  stdout: {value: {get_attr: [deployment, deploy_stdout]}}
  server: {value: {get_resource: server}}
"""


@pytest.mark.parametrize('poll, signal', [('POLL_TEMP_URL', 'TEMP_URL_SIGNAL'),
                                          ('POLL_SERVER_HEAT', 'HEAT_SIGNAL')])
def test_with_heat_a_software_deployment_completes_through_the_guest(gcloud, tmp_path, poll, signal):
    template = tmp_path / 'deploy.yaml'
    template.write_text(HEAT_TEMPLATE % {'poll': poll, 'signal': signal})
    name = 'guest-deploy-' + uuid.uuid4().hex[:6]
    gcloud.osc('stack', 'create', '--wait', '--timeout', '5', '-t', str(template), name, timeout=420,
               check=False)
    d = pid = None
    try:
        stack = gcloud.osc('stack', 'show', name, as_json=True)
        assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
        outputs = {o['output_key']: o['output_value'] for o in stack['outputs']}
        assert outputs['result'] == 'made by heat'
        assert outputs['stdout'] == 'hello heat\n'
        d = os.path.join(gcloud.guests, outputs['server'])
        pid = int(_read(os.path.join(d, 'pid')))
        gcloud.started.append((d, pid))
        assert not process_gone(pid)
    finally:
        gcloud.osc('stack', 'delete', '--yes', '--wait', name, timeout=300, check=False)
    wait_for(lambda: not os.path.exists(d) and process_gone(pid), timeout=30,
             what="the stack's guest to stop and its directory to go")


CFNTOOLS_TEMPLATE = """
heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.9.1.0/24}
  server:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data: |
        #!/bin/sh
        echo "provisioned by heat" > provisioned.txt
outputs:
  server: {value: {get_resource: server}}
"""


def test_with_heat_the_default_user_data_format_runs_the_users_script(gcloud, tmp_path):
    """HEAT_CFNTOOLS, Heat's default: the user's text comes as cfn-userdata, run by the guest in
    place of Heat's loguserdata.py."""
    template = tmp_path / 'cfntools.yaml'
    template.write_text(CFNTOOLS_TEMPLATE)
    name = 'guest-cfntools-' + uuid.uuid4().hex[:6]
    gcloud.osc('stack', 'create', '--wait', '-t', str(template), name, timeout=300, check=False)
    try:
        stack = gcloud.osc('stack', 'show', name, as_json=True)
        assert stack['stack_status'] == 'CREATE_COMPLETE', stack['stack_status_reason']
        server = [o['output_value'] for o in stack['outputs'] if o['output_key'] == 'server'][0]
        root = os.path.join(gcloud.guests, server, 'root')
        made = wait_for(lambda: _read(os.path.join(root, 'provisioned.txt')), timeout=60,
                        what='the user data to run')
        assert made == 'provisioned by heat\n'
        assert os.path.exists(os.path.join(root, 'var/lib/heat-cfntools/provision-finished'))
    finally:
        gcloud.osc('stack', 'delete', '--yes', '--wait', name, timeout=300, check=False)


def _wait_template(signals, count):
    """A WaitCondition of ``count`` and one server per (status, reason, data) of ``signals``, whose
    user data signals the handle with its curl_cli, as Heat's examples write it.  The servers are
    made one after the other: on this 2-core cloud, guests spawned at the same instant have lost
    one to Nova's "No valid host was found" (test_software_deployments.py's group)."""
    servers = ''.join("""
  server%(i)d:
    type: OS::Nova::Server%(after)s
    properties:
      image: cirros
      flavor: m1.tiny
      networks: [{allocate_network: none}]
      user_data_format: RAW
      user_data:
        str_replace:
          template: |
            #!/bin/sh
            wc_notify --data-binary '{"status": "STATUS", "reason": "REASON", "data": "DATA"}'
          params:
            wc_notify: {get_attr: [handle, curl_cli]}
            STATUS: %(status)s
            REASON: %(reason)s
            DATA: %(data)s""" % dict(i=i, status=s, reason=r, data=d,
                                     after='\n    depends_on: server%d' % (i - 1) if i > 1 else '')
        for i, (s, r, d) in enumerate(signals, 1))
    return """
heat_template_version: 2018-08-31
resources:
  handle: {type: OS::Heat::WaitConditionHandle}
  wait:
    type: OS::Heat::WaitCondition
    depends_on: [%(names)s]
    properties: {handle: {get_resource: handle}, count: %(count)d, timeout: 90}
%(servers)s
outputs:
  data: {value: {get_attr: [wait, data]}}
  curl_cli: {value: {get_attr: [handle, curl_cli]}}
""" % dict(names=', '.join('server%d' % i for i in range(1, len(signals) + 1)), count=count,
           servers=servers)


def test_heat_stack_waits_for_its_guests_curl_cli_signals(gcloud, tmp_path):
    """Two guests signal SUCCESS with data: the WaitCondition (count 2) completes and its data is
    Heat's (JSON by signal id, ids numbered in arrival order); one guest's FAILURE fails its stack
    with the guest's reason.  The two stacks run side by side."""
    servers_before = len(gcloud.resources().get('servers', ()))
    runner = StackRunner(gcloud, tmp_path, str(tmp_path / 'stacks.sqlite'))
    (tmp_path / 'ok.yaml').write_text(_wait_template(
        [('SUCCESS', 'server one up', 'one ready'), ('SUCCESS', 'server two up', 'two ready')], 2))
    (tmp_path / 'bad.yaml').write_text(_wait_template([('FAILURE', 'disk full on the guest', 'x')], 1))
    failing, failing_result = runner.start(name='guest-wait-bad', template=str(tmp_path / 'bad.yaml'),
                                           timeout=180)
    try:
        ok = runner.run(name='guest-wait-ok', template=str(tmp_path / 'ok.yaml'), timeout=300)
        assert ok['stack']['stack_status'] == 'CREATE_COMPLETE', ok['stack']['stack_status_reason']
        out = outputs(ok)
        # a guest reaches the cloud by its front door only
        assert out['curl_cli'].startswith("curl -i -X PUT 'http://127.0.0.1:%d/" % gcloud.port)
        data = json.loads(out['data'])
        assert sorted(data) == ['1', '2'] and sorted(data.values()) == ['one ready', 'two ready']

        assert failing.wait(timeout=300) == 0, failing.stdout.read()[-4000:]
        with open(failing_result) as f:
            bad = json.load(f)
        assert bad['stack']['stack_status'] == 'CREATE_FAILED'
        assert bad['stack']['stack_status_reason'] == (
            'Resource CREATE failed: WaitConditionFailure: resources.wait: disk full on the guest')
    finally:
        if failing.poll() is None:
            os.killpg(failing.pid, 9)
            failing.wait(30)
        for name in ('guest-wait-ok', 'guest-wait-bad'):
            gone = runner.run(name=name, state='absent')
            assert gone.get('failed') is not True, gone.get('msg')
    assert len(gcloud.resources().get('servers', ())) == servers_before


def test_a_guest_left_running_goes_with_the_cloud(gcloud, sink):
    """The last guest stays: the module's teardown checks that stopping the cloud stops it."""
    server, d, pid = _server(gcloud, 'guest-left', '#!/bin/sh\nexec sleep 600\n')
    wait_for(lambda: any(s['step'] == 'user-data-done' for s in _steps(d)) or
             not process_gone(pid), timeout=30, what='the guest to run')
    assert not process_gone(pid)
