# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat's in-guest agents inside a guest's root: os-collect-config, os-refresh-config,
os-apply-config (their PyPI wheels, in the cloud's venv) and heat-agents' heat-config hooks
(its sdist, unpacked by `make cloud-venv`), all unmodified.

What an image build (diskimage-builder's elements) puts under / goes under the guest's root
instead (P -> <root>/P): the hooks where their install.d scripts install them, the element's
bin/ in /usr/local/bin, its os-refresh-config/ in /usr/libexec/os-refresh-config and its
os-apply-config/ templates in /usr/libexec/os-apply-config/templates.  The tools find those paths
through their own environment variables and options (below).  One script is ours: the element's
configure.d/20-os-apply-config runs `os-apply-config` with the default output `/`; ours adds
`--output <root>`, so the rendered files land in the guest's root.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import glob
import os
import re
import shlex
import shutil
import sys
import urllib.parse

from localcloud.guest_data import host_path

VERSION = '13.0.0'
CFN_INIT_DATA = '/var/lib/heat-cfntools/cfn-init-data'
LOCAL_DATA = '/var/lib/os-collect-config/local-data'
# an install.d line: install [options] ${SCRIPTDIR}/<file> <absolute destination>
INSTALL_LINE = re.compile(r'^\s*install\s.*\$\{?SCRIPTDIR\}?/(\S+)\s+(/\S+)\s*$', re.M)
# an install.d line asking the image for distribution packages
PACKAGES_LINE = re.compile(r'^\s*install-packages\s+(.+?)\s*$', re.M)
# The packages a guest gets, as their commands in <root>/usr/bin: each runs this repository's
# .venv tool (ansible-core, the collection's own runtime).  Ansible refuses the guest's C locale
# (it needs a UTF-8 one), so the command sets C.UTF-8 for itself only.  Other packages (puppet,
# chef, salt-minion, hiera, docker) are not provided: their hooks are installed, and fail or wait.
PROVIDED = {'ansible': ('ansible-playbook',)}
PACKAGE_COMMAND = '#!/bin/sh\n' \
    '# localcloud: "install-packages %(package)s" of heat-agents\' install.d, from the .venv\n' \
    'LANG=C.UTF-8 LC_ALL=C.UTF-8 exec %(tool)s "$@"\n'
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUR_APPLY_CONFIG = '#!/bin/bash\n' \
    '# localcloud: heat-agents\' 20-os-apply-config, with the output in the guest\'s root\n' \
    'set -ue\n' \
    'exec os-apply-config --output "$LOCALCLOUD_GUEST_ROOT"\n'
# os-collect-config polls at most this often unless the server's metadata says otherwise (its
# own default is 30 s; a shorter one keeps deployments made after boot quick to show)
POLLING_INTERVAL = 5


def agents_dir():
    """The unpacked heat-agents sdist: $LOCALCLOUD_HEAT_AGENTS, else <cloud venv>/share/heat-agents."""
    return os.environ.get('LOCALCLOUD_HEAT_AGENTS') or os.path.join(sys.prefix, 'share', 'heat-agents')


def paths(root):
    """Every path the agents use, on this machine (their environment variables' values)."""
    def p(path):
        return host_path(root, path)
    return {
        'HEAT_CONFIG_HOOKS': p('/var/lib/heat-config/hooks'),
        'HEAT_SHELL_CONFIG': p('/var/run/heat-config/heat-config'),
        'HEAT_CONFIG_DEPLOYED': p('/var/lib/heat-config/deployed'),
        'HEAT_CONFIG_DEPLOYED_OLD': p('/var/run/heat-config/deployed'),
        'HEAT_SCRIPT_WORKING': p('/var/lib/heat-config/heat-config-script'),
        'HEAT_SCRIPT_OUTPUTS': p('/var/run/heat-config/heat-config-script'),
        'HEAT_ANSIBLE_WORKING': p('/var/lib/heat-config/heat-config-ansible'),
        'HEAT_ANSIBLE_OUTPUTS': p('/var/run/heat-config/heat-config-ansible'),
        # the hooks whose tools are not provided still keep their files in the root
        'HEAT_PUPPET_WORKING': p('/var/lib/heat-config/heat-config-puppet'),
        'HEAT_PUPPET_OUTPUTS': p('/var/run/heat-config/heat-config-puppet'),
        'HEAT_PUPPET_LOGDIR': p('/var/run/heat-config/deployed'),
        'HEAT_CHEF_WORKING': p('/var/lib/heat-config/heat-config-chef'),
        'HEAT_CHEF_OUTPUTS': p('/var/run/heat-config/heat-config-chef'),
        'HEAT_SALT_WORKING': p('/var/lib/heat-config/heat-config-salt'),
        'HEAT_DOCKER_COMPOSE_WORKING': p('/var/lib/heat-config/heat-config-docker-compose'),
        'OS_REFRESH_CONFIG_BASE_DIR': p('/usr/libexec/os-refresh-config'),
        'OS_CONFIG_APPLIER_TEMPLATES': p('/usr/libexec/os-apply-config/templates'),
    }


def environ(root, tools_bin, base=None):
    """The guest's environment: HOME, TMPDIR and the agents' paths inside its root; PATH with its
    /usr/local/bin (heat-config-notify) and /usr/bin (the provided packages' commands), then the
    cloud venv's bin (the agents, their python3)."""
    env = {k: v for k, v in (base or {}).items() if k in ('TZ', 'TERM')}
    env.update(paths(root))
    env.update({
        'LOCALCLOUD_GUEST_ROOT': root,
        'HOME': host_path(root, '/root'),
        'TMPDIR': host_path(root, '/tmp'),
        'PATH': os.pathsep.join([host_path(root, '/usr/local/bin'), host_path(root, '/usr/bin'),
                                 tools_bin, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin',
                                 '/usr/bin', '/sbin', '/bin']),
        # a guest reaches the cloud by its front door, 127.0.0.1, never through a proxy
        'no_proxy': '*', 'NO_PROXY': '*',
    })
    # The C locale, uncoerced, with Python in UTF-8 mode: os-collect-config's local collector
    # restores locale.getlocale(), which Python 3.11 reports as en_US.UTF-8 under C.UTF-8, a
    # locale this machine may not have (setlocale then fails and os-collect-config dies).
    env.update({'LANG': 'C', 'PYTHONCOERCECLOCALE': '0', 'PYTHONUTF8': '1'})
    return env


def _copy(src, dest, mode=0o755):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(src, dest)
    os.chmod(dest, mode)


def tools_dir():
    """Where the provided packages' commands come from: $LOCALCLOUD_GUEST_TOOLS, else the
    repository's .venv/bin."""
    return os.environ.get('LOCALCLOUD_GUEST_TOOLS') or os.path.join(REPO, '.venv', 'bin')


def provide(root, script_text, tools=None):
    """What an install.d script's ``install-packages`` asks, where PROVIDED has it: a command in
    <root>/usr/bin running the tool of ``tools`` (tools_dir()); returns the packages provided."""
    tools = tools or tools_dir()
    done = []
    for line in PACKAGES_LINE.findall(script_text):
        for package in line.split():
            commands = PROVIDED.get(package, ())
            if not commands or not all(os.access(os.path.join(tools, c), os.X_OK) for c in commands):
                continue
            for command in commands:
                dest = host_path(root, '/usr/bin/' + command)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, 'w') as f:
                    f.write(PACKAGE_COMMAND % {'package': package,
                                               'tool': shlex.quote(os.path.join(tools, command))})
                os.chmod(dest, 0o755)
            done.append(package)
    return done


def install(root, src=None, tools=None):
    """Install heat-agents into the guest's root, each hook where its install.d script puts it
    (and its packages where PROVIDED has them); returns the hook names installed.

    Raises FileNotFoundError when the sdist is not unpacked (run `make cloud-venv`)."""
    src = src or agents_dir()
    element = os.path.join(src, 'heat-config')
    if not os.path.isdir(element):
        raise FileNotFoundError('heat-agents %s is not unpacked at %s (make cloud-venv)' % (VERSION, src))
    hooks = []
    for script in sorted(glob.glob(os.path.join(src, 'heat-config-*', 'install.d', '*'))):
        if not os.path.isfile(script) or script.endswith('.py'):
            continue
        with open(script) as f:
            text = f.read()
        for name, dest in INSTALL_LINE.findall(text):
            _copy(os.path.join(os.path.dirname(script), name), host_path(root, dest))
            hooks.append(os.path.basename(dest))
        provide(root, text, tools)
    for tool in glob.glob(os.path.join(element, 'bin', '*')):
        _copy(tool, host_path(root, '/usr/local/bin/' + os.path.basename(tool)))
    refresh = paths(root)['OS_REFRESH_CONFIG_BASE_DIR']
    for phase_script in glob.glob(os.path.join(element, 'os-refresh-config', '*', '*')):
        phase = os.path.basename(os.path.dirname(phase_script))
        _copy(phase_script, os.path.join(refresh, phase, os.path.basename(phase_script)))
    with open(os.path.join(refresh, 'configure.d', '20-os-apply-config'), 'w') as f:
        f.write(OUR_APPLY_CONFIG)
    templates = paths(root)['OS_CONFIG_APPLIER_TEMPLATES']
    base = os.path.join(element, 'os-apply-config')
    for dirpath, _dirs, files in os.walk(base):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), base)
            _copy(os.path.join(dirpath, name), os.path.join(templates, rel), mode=0o644)
    for d in ('/tmp', '/root', '/var/run', '/var/lib/os-collect-config/local-data'):
        os.makedirs(host_path(root, d), exist_ok=True)
    return sorted(hooks)


def is_loopback_url(url):
    """True for an http(s) URL on 127.0.0.1/localhost: the only place a guest may connect to."""
    try:
        parsed = urllib.parse.urlsplit(str(url or ''))
        host = parsed.hostname
    except ValueError:
        return False
    return parsed.scheme in ('http', 'https') and host in ('127.0.0.1', 'localhost', '::1')


def collect_config_args(root, occ, tools_bin):
    """os-collect-config's argv for a guest whose metadata's os-collect-config section is ``occ``.

    Collectors: heat_local (the cfn-init-data the user data brought), local, request only for a
    loopback metadata_url (Heat's POLL_TEMP_URL: a Swift GET TempURL), heat only for a loopback
    auth_url (POLL_SERVER_HEAT); ec2, cfn and zaqar are never used (no metadata service on
    169.254.169.254, no heat-api-cfn, no Zaqar; a guest connects to 127.0.0.1 only).
    The options on the command line win over the config file that os-apply-config renders from
    the metadata (os-collect-config re-executes itself, with the same argv, when that changes)."""
    occ = occ if isinstance(occ, dict) else {}
    config_file = host_path(root, '/etc/os-collect-config.conf')
    lock = host_path(root, '/var/run/os-refresh-config.lock')
    refresh = os.path.join(tools_bin, 'os-refresh-config')
    try:
        interval = float(occ.get('polling_interval') or POLLING_INTERVAL)
    except (TypeError, ValueError):
        interval = POLLING_INTERVAL
    argv = [os.path.join(tools_bin, 'os-collect-config'),
            '--config-file', config_file,
            '--command', '%s --lockfile %s' % (shlex.quote(refresh), shlex.quote(lock)),
            '--cachedir', host_path(root, '/var/lib/os-collect-config'),
            '--backup-cachedir', host_path(root, '/var/run/os-collect-config'),
            '--heat_local-path', host_path(root, CFN_INIT_DATA),
            '--local-path', host_path(root, LOCAL_DATA),
            '--polling-interval', str(interval),
            '--min-polling-interval', '1', '--splay', '0']
    collectors = ['heat_local', 'local']
    url = _section(occ, 'request').get('metadata_url')
    if url and is_loopback_url(url):
        argv += ['--request-metadata-url', url]
        collectors.append('request')
    url = _section(occ, 'heat').get('auth_url')
    if url and is_loopback_url(url):
        # POLL_SERVER_HEAT: Keystone, then Heat's API from its catalog (the front door's URLs)
        argv += ['--heat-auth-url', url,
                 '--keystone-cache_dir', host_path(root, '/var/cache/os-collect-config')]
        collectors.append('heat')
    return argv + collectors, config_file


def _section(occ, name):
    value = occ.get(name) if isinstance(occ, dict) else None
    return value if isinstance(value, dict) else {}


def initial_config(occ):
    """The os-collect-config.conf a guest starts with, before os-apply-config renders its own
    from the metadata: the heat collector's credentials (kept off the command line, where any
    process list would show the password)."""
    lines = ['[DEFAULT]', '']
    heat = _section(occ, 'heat')
    if heat:
        lines.append('[heat]')
        for key in ('user_id', 'password', 'project_id', 'stack_id', 'resource_name', 'region_name'):
            if heat.get(key) is not None:
                lines.append('%s = %s' % (key, heat[key]))
    return '\n'.join(lines) + '\n'
