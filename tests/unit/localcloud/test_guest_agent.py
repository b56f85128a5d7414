# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/guest_agent.py: heat-agents installed into a guest's root, the agents' environment
and os-collect-config's command line."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import subprocess

import pytest

from localcloud import guest_agent
from localcloud.harness import ROOT

REAL_SDIST = os.path.join(ROOT, '.venv-cloud', 'share', 'heat-agents')


def _write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)


@pytest.fixture
def sdist(tmp_path):
    """A heat-agents tree shaped as the sdist: elements with install.d, bin, os-refresh-config,
    os-apply-config."""
    src = str(tmp_path / 'heat-agents')
    _write(src + '/heat-config/bin/heat-config-notify', '#!/usr/bin/env python3\n', 0o755)
    _write(src + '/heat-config/os-refresh-config/configure.d/20-os-apply-config',
           '#!/bin/bash\nexec os-apply-config\n', 0o755)
    _write(src + '/heat-config/os-refresh-config/configure.d/55-heat-config', '#!/usr/bin/env python3\n')
    _write(src + '/heat-config/os-apply-config/var/run/heat-config/heat-config', '{{deployments}}')
    _write(src + '/heat-config/os-apply-config/etc/os-collect-config.conf', '[DEFAULT]\n')
    _write(src + '/heat-config-script/install.d/hook-script.py', '#!/usr/bin/env python3\n# script\n')
    _write(src + '/heat-config-script/install.d/50-heat-config-hook-script',
           '#!/bin/bash\nset -x\nSCRIPTDIR=$(dirname $0)\n'
           'install -D -g root -o root -m 0755 ${SCRIPTDIR}/hook-script.py /var/lib/heat-config/hooks/script\n')
    _write(src + '/heat-config-docker-cmd/install.d/50-heat-config-hook-docker-cmd',
           'if [ x ]; then\n    yum -y install docker-io\nfi\n'
           'install -D -g root -o root -m 0755 ${SCRIPTDIR}/hook-docker-cmd.py /var/lib/heat-config/hooks/docker-cmd\n')
    _write(src + '/heat-config-docker-cmd/install.d/hook-docker-cmd.py', '# docker\n')
    _write(src + '/heat-config-docker-cmd/os-refresh-config/configure.d/50-heat-config-docker-cmd', 'x')
    return src


def test_install_puts_each_piece_where_its_image_element_would_under_the_root(tmp_path, sdist):
    root = str(tmp_path / 'root')
    assert guest_agent.install(root, sdist) == ['docker-cmd', 'script']
    hook = os.path.join(root, 'var/lib/heat-config/hooks/script')
    with open(hook) as f:
        assert f.read() == '#!/usr/bin/env python3\n# script\n'     # unmodified
    assert os.stat(hook).st_mode & 0o777 == 0o755
    assert os.path.exists(os.path.join(root, 'usr/local/bin/heat-config-notify'))
    base = os.path.join(root, 'usr/libexec/os-refresh-config/configure.d')
    # heat-config's own configure.d only: other elements' (docker-cmd) would drive docker
    assert sorted(os.listdir(base)) == ['20-os-apply-config', '55-heat-config']
    with open(os.path.join(base, '20-os-apply-config')) as f:
        assert 'os-apply-config --output "$LOCALCLOUD_GUEST_ROOT"' in f.read()
    templates = os.path.join(root, 'usr/libexec/os-apply-config/templates')
    assert os.path.exists(os.path.join(templates, 'var/run/heat-config/heat-config'))
    assert os.path.exists(os.path.join(templates, 'etc/os-collect-config.conf'))


def test_install_without_the_sdist_says_how_to_get_it(tmp_path):
    with pytest.raises(FileNotFoundError, match='make cloud-venv'):
        guest_agent.install(str(tmp_path / 'root'), str(tmp_path / 'nothing'))


ANSIBLE_INSTALL_D = ('#!/bin/bash\nset -x\n\nSCRIPTDIR=$(dirname $0)\n\ninstall-packages ansible\n'
                     'install -D -g root -o root -m 0755 ${SCRIPTDIR}/hook-ansible.py '
                     '/var/lib/heat-config/hooks/ansible\n')


def _tools(tmp_path, names):
    tools = tmp_path / 'venv-bin'
    tools.mkdir()
    for name in names:
        (tools / name).write_text('#!/bin/sh\necho "$LANG $LC_ALL $*"\n')
        (tools / name).chmod(0o755)
    return str(tools)


def test_install_packages_ansible_is_the_venvs_ansible_playbook_in_a_utf8_locale(tmp_path, sdist):
    _write(sdist + '/heat-config-ansible/install.d/hook-ansible.py', '#!/usr/bin/env python3\n# ansible\n')
    _write(sdist + '/heat-config-ansible/install.d/50-heat-config-hook-ansible', ANSIBLE_INSTALL_D, 0o755)
    root = str(tmp_path / 'root')
    tools = _tools(tmp_path, ['ansible-playbook'])
    assert guest_agent.install(root, sdist, tools) == ['ansible', 'docker-cmd', 'script']
    command = os.path.join(root, 'usr/bin/ansible-playbook')
    # on the guest's PATH, running the tool: the hook's `ansible-playbook -i localhost, ...` finds it
    env = guest_agent.environ(root, '/nowhere')
    found = subprocess.run(['ansible-playbook', '-i', 'localhost,'], env=env, capture_output=True,
                           text=True, check=True)
    assert found.stdout == 'C.UTF-8 C.UTF-8 -i localhost,\n'
    assert os.stat(command).st_mode & 0o777 == 0o755
    # the guest's own locale is untouched (os-collect-config needs C)
    assert env['LANG'] == 'C'


def test_a_package_with_no_tool_here_is_not_provided(tmp_path):
    root = str(tmp_path / 'root')
    tools = _tools(tmp_path, [])
    assert guest_agent.provide(root, 'install-packages ansible\n', tools) == []
    assert guest_agent.provide(root, 'install-packages puppet\n', tools) == []
    assert not os.path.exists(os.path.join(root, 'usr/bin'))


def test_the_tools_default_to_the_repositorys_venv(monkeypatch):
    monkeypatch.delenv('LOCALCLOUD_GUEST_TOOLS', raising=False)
    assert guest_agent.tools_dir() == os.path.join(ROOT, '.venv', 'bin')
    monkeypatch.setenv('LOCALCLOUD_GUEST_TOOLS', '/opt/tools')
    assert guest_agent.tools_dir() == '/opt/tools'


@pytest.mark.skipif(not os.path.isdir(REAL_SDIST), reason='heat-agents is unpacked by make cloud-venv')
def test_the_real_sdist_installs_the_script_and_ansible_hooks(tmp_path):
    root = str(tmp_path / 'root')
    hooks = guest_agent.install(root, REAL_SDIST)
    assert 'script' in hooks and 'json-file' in hooks and 'ansible' in hooks
    with open(os.path.join(root, 'var/lib/heat-config/hooks/ansible')) as f:
        assert 'ANSIBLE_CMD' in f.read()      # heat-agents' own hook, unmodified
    if os.path.exists(os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook')):
        assert os.path.exists(os.path.join(root, 'usr/bin/ansible-playbook'))
    assert os.path.exists(os.path.join(root, 'usr/libexec/os-refresh-config/configure.d/55-heat-config'))


def test_environ_points_the_agents_and_home_inside_the_root():
    env = guest_agent.environ('/g/root', '/venv/bin', {'LANG': 'de_DE.UTF-8', 'SECRET': 'x', 'TZ': 'UTC'})
    assert env['HEAT_CONFIG_HOOKS'] == '/g/root/var/lib/heat-config/hooks'
    assert env['HEAT_SHELL_CONFIG'] == '/g/root/var/run/heat-config/heat-config'
    assert env['HEAT_CONFIG_DEPLOYED'] == '/g/root/var/lib/heat-config/deployed'
    assert env['HEAT_SCRIPT_WORKING'] == '/g/root/var/lib/heat-config/heat-config-script'
    assert env['HEAT_SCRIPT_OUTPUTS'] == '/g/root/var/run/heat-config/heat-config-script'
    assert env['OS_REFRESH_CONFIG_BASE_DIR'] == '/g/root/usr/libexec/os-refresh-config'
    assert env['OS_CONFIG_APPLIER_TEMPLATES'] == '/g/root/usr/libexec/os-apply-config/templates'
    assert env['HOME'] == '/g/root/root' and env['TMPDIR'] == '/g/root/tmp'
    assert env['HEAT_ANSIBLE_WORKING'] == '/g/root/var/lib/heat-config/heat-config-ansible'
    assert env['HEAT_ANSIBLE_OUTPUTS'] == '/g/root/var/run/heat-config/heat-config-ansible'
    # every hook's own working directory is in the root, not on this machine
    assert all(v.startswith('/g/root/') for k, v in env.items() if k.startswith('HEAT_'))
    assert env['PATH'].split(':')[:3] == ['/g/root/usr/local/bin', '/g/root/usr/bin', '/venv/bin']
    assert 'SECRET' not in env and env['TZ'] == 'UTC' and env['LANG'] == 'C'


@pytest.mark.parametrize('url, ok', [
    ('http://127.0.0.1:8080/v1/AUTH_x/c/o?temp_url_sig=1', True),
    ('http://localhost/x', True),
    ('http://172.24.4.10/x', False),
    ('http://169.254.169.254/latest', False),
    ('file:///etc/passwd', False),
    (None, False),
])
def test_only_loopback_urls_are_fetched(url, ok):
    assert guest_agent.is_loopback_url(url) is ok


def test_collect_config_uses_heat_local_and_a_loopback_request_url_never_ec2():
    url = 'http://127.0.0.1:9/v1/AUTH_p/c/metadata?temp_url_sig=s&temp_url_expires=1'
    occ = {'collectors': ['ec2', 'request', 'local'], 'request': {'metadata_url': url},
           'polling_interval': 2}
    argv, conf = guest_agent.collect_config_args('/g/root', occ, '/venv/bin')
    assert argv[0] == '/venv/bin/os-collect-config'
    assert conf == '/g/root/etc/os-collect-config.conf'
    assert argv[-3:] == ['heat_local', 'local', 'request']
    opts = dict(zip(argv[1:-3:2], argv[2:-3:2]))
    assert opts['--request-metadata-url'] == url
    assert opts['--heat_local-path'] == '/g/root/var/lib/heat-cfntools/cfn-init-data'
    assert opts['--cachedir'] == '/g/root/var/lib/os-collect-config'
    assert opts['--backup-cachedir'] == '/g/root/var/run/os-collect-config'
    assert opts['--polling-interval'] == '2.0'
    assert opts['--command'] == ('/venv/bin/os-refresh-config --lockfile '
                                 '/g/root/var/run/os-refresh-config.lock')
    assert 'ec2' not in argv


def test_a_request_url_elsewhere_is_not_collected():
    argv, _conf = guest_agent.collect_config_args(
        '/g/root', {'request': {'metadata_url': 'http://10.0.0.5/x'}}, '/venv/bin')
    assert argv[-2:] == ['heat_local', 'local'] and '--request-metadata-url' not in argv
    assert argv[argv.index('--polling-interval') + 1] == str(float(guest_agent.POLLING_INTERVAL))


def test_poll_server_heat_collects_from_a_loopback_keystone_with_credentials_in_the_file():
    heat = {'auth_url': 'http://127.0.0.1:5/identity/v3', 'user_id': 'u', 'password': 'secret',
            'project_id': 'p', 'stack_id': 's/1', 'resource_name': 'server', 'region_name': 'R'}
    argv, _conf = guest_agent.collect_config_args('/g/root', {'heat': heat}, '/venv/bin')
    assert argv[-3:] == ['heat_local', 'local', 'heat']
    assert argv[argv.index('--heat-auth-url') + 1] == heat['auth_url']
    assert argv[argv.index('--keystone-cache_dir') + 1] == '/g/root/var/cache/os-collect-config'
    assert 'secret' not in ' '.join(argv)
    text = guest_agent.initial_config({'heat': heat})
    assert text.startswith('[DEFAULT]\n') and '[heat]\n' in text
    assert 'password = secret\n' in text and 'stack_id = s/1\n' in text
    assert '[heat]' not in guest_agent.initial_config({})


def test_poll_server_heat_elsewhere_is_not_collected():
    argv, _conf = guest_agent.collect_config_args(
        '/g/root', {'heat': {'auth_url': 'http://172.24.4.1:5000/v3'}}, '/venv/bin')
    assert 'heat' not in argv[-3:] and '--heat-auth-url' not in argv
