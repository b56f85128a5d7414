# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One entry of a server's deployments document applied on the host, as
the heat-config hooks apply it (the software_deployment role's engine; it
runs on the host, inside the heat_software_deployment module).

The contract is the agents' (heat-agents 13.0.0), re-implemented here:

- ``script`` (and ``Heat::Ungrouped``, which the agent has no hook for and
  the role treats as a script): the config is written as an executable and
  run with each input as an environment variable (a map or list JSON, a
  String input as text) plus ``heat_outputs_path``; each declared output is
  the file ``<heat_outputs_path>.<name>`` when the script wrote it.
- ``ansible``: the config is a playbook, run by ``ansible-playbook -i
  localhost,`` on the host with the inputs (plus ``heat_config_id`` and
  ``heat_outputs_path``) as extra variables, and the ``tags``,
  ``skip_tags``, ``modulepath`` options; outputs as for scripts.
- ``puppet``: ``puppet apply --detailed-exitcodes`` with the inputs as
  ``FACTER_<name>``; exit code 2 (changes made) is a success.
- ``component``: the part of the config whose ``actions`` hold the
  deployment's ``deploy_action``, run by its ``tool``'s hook.

The result is the body the agent signals: the declared outputs found, and
``deploy_stdout``, ``deploy_stderr``, ``deploy_status_code``.

What was applied is recorded as heat-config records it, in
``<root>/var/lib/heat-config/deployed/<id>.json`` (so an agent on the same
host skips it too), but holding no input value: the id, name, group, a
digest of the inputs and the status code.  A deployment is applied again
only when it failed, its inputs changed, or ``force`` asks.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os
import subprocess

from .errors import StackersError

SCRIPT_GROUPS = ('script', 'Heat::Ungrouped')
DEPLOYED = '/var/lib/heat-config/deployed'
WORKING = '/var/lib/heat-config/heat-config-%s'
OUTPUTS = '/var/run/heat-config/heat-config-%s'


class DeploymentError(StackersError):
    """A deployment that cannot be applied on this host (no hook for its
    group, its tool missing): named, before anything runs."""


def host_path(root, path):
    """``path`` of the host, under ``root`` when one is given (tests)."""
    return os.path.join(root, path.lstrip('/')) if root else path


def input_values(config):
    """{name: value} of the entry's inputs, String inputs as text (as
    55-heat-config sanitises them)."""
    values = {}
    for item in config.get('inputs') or ():
        value = item.get('value')
        if item.get('type') == 'String' and value is not None and not isinstance(value, str):
            value = str(value)
        values[item['name']] = value
    return values


def digest(config):
    """A digest of the entry's config and inputs: what makes it the same
    deployment again."""
    text = json.dumps([config.get('config'), input_values(config)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def record_path(root, config):
    return os.path.join(host_path(root, DEPLOYED), '%s.json' % config['id'])


def applied(root, config):
    """True when the host's record says this entry was applied with these
    inputs and succeeded."""
    try:
        with open(record_path(root, config)) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return False
    return (isinstance(record, dict) and record.get('input_digest') == digest(config)
            and str(record.get('deploy_status_code')) == '0')


def record(root, config, status_code):
    path = record_path(root, config)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with os.fdopen(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600), 'w') as f:
        json.dump({'id': config['id'], 'name': config.get('name'), 'group': config.get('group'),
                   'input_digest': digest(config), 'deploy_status_code': status_code}, f)


def signal_target(config):
    """(deploy_signal_id, deploy_signal_verb) of the entry, (None, None)
    when it takes no signal (NO_SIGNAL)."""
    values = input_values(config)
    url = values.get('deploy_signal_id')
    return (url, values.get('deploy_signal_verb') or 'PUT') if url else (None, None)


def resolve_component(config):
    """The config as its hook sees it: a component's part for the action,
    or None when no part is for it (the agent skips it)."""
    if config.get('group') != 'component':
        return config
    action = input_values(config).get('deploy_action')
    for part in (config.get('config') or {}).get('configs') or ():
        if action in (part.get('actions') or ()):
            return dict(config, config=part.get('config'), group=part.get('tool'))
    return None


def _env_value(value):
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return '' if value is None else str(value)


def _write(path, text, mode):
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with os.fdopen(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, mode), 'w') as f:
        f.write(text or '')


def _outputs(config, outputs_path):
    found = {}
    for output in config.get('outputs') or ():
        try:
            with open('%s.%s' % (outputs_path, output['name'])) as f:
                found[output['name']] = f.read()
        except OSError:
            pass
    return found


def _run(argv, env, cwd):
    proc = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    return (proc.returncode, proc.stdout.decode('utf-8', 'replace'),
            proc.stderr.decode('utf-8', 'replace'))


def _dirs(root, tool, config):
    working = host_path(root, WORKING % tool)
    outputs_dir = host_path(root, OUTPUTS % tool)
    for d in (working, outputs_dir):
        os.makedirs(d, mode=0o700, exist_ok=True)
    return working, os.path.join(outputs_dir, config['id'])


def run_script(config, root, tools):
    working, outputs_path = _dirs(root, 'script', config)
    env = dict(os.environ)
    env.update((k, _env_value(v)) for k, v in input_values(config).items())
    env['heat_outputs_path'] = outputs_path
    path = os.path.join(working, config['id'])
    _write(path, config.get('config'), 0o700)
    return _run([path], env, working), outputs_path


def run_ansible(config, root, tools):
    working, outputs_path = _dirs(root, 'ansible', config)
    variables = dict(input_values(config), heat_config_id=config['id'],
                     heat_outputs_path=outputs_path)
    playbook = os.path.join(working, '%s_playbook.yaml' % config['id'])
    var_file = os.path.join(working, '%s_variables.json' % config['id'])
    _write(var_file, json.dumps(variables), 0o600)
    _write(playbook, config.get('config'), 0o600)
    options = config.get('options') or {}
    argv = [tools['ansible-playbook'], '-i', options.get('inventory') or 'localhost,', playbook,
            '--extra-vars', '@%s' % var_file]
    for option, flag in (('tags', '--tags'), ('skip_tags', '--skip-tags'),
                         ('modulepath', '--module-path')):
        if options.get(option):
            argv[3:3] = [flag, options[option]]
    env = dict(os.environ)
    if options.get('callback_plugins'):
        env['ANSIBLE_CALLBACK_PLUGINS'] = options['callback_plugins']
    return _run(argv, env, working), outputs_path


def run_puppet(config, root, tools):
    working, outputs_path = _dirs(root, 'puppet', config)
    env = dict(os.environ)
    env.update(('FACTER_%s' % k, _env_value(v)) for k, v in input_values(config).items())
    env['FACTER_heat_outputs_path'] = outputs_path
    manifest = os.path.join(working, '%s.pp' % config['id'])
    _write(manifest, config.get('config'), 0o600)
    (code, out, err) = _run([tools['puppet'], 'apply', '--detailed-exitcodes', manifest], env, working)
    return (0 if code == 2 else code, out, err), outputs_path


RUNNERS = {'script': (run_script, None), 'ansible': (run_ansible, 'ansible-playbook'),
           'puppet': (run_puppet, 'puppet')}


def runner(config, tools):
    """The runner for the entry's group, refusing a group with no hook or a
    tool the host lacks, naming the deployment."""
    group = config.get('group') or 'Heat::Ungrouped'
    key = 'script' if group in SCRIPT_GROUPS else group
    if key not in RUNNERS:
        raise DeploymentError('Deployment %s: group %s has no hook in the software_deployment role '
                              '(script, Heat::Ungrouped, ansible, puppet, component)'
                              % (config.get('name'), group))
    run, tool = RUNNERS[key]
    if tool is not None and not tools.get(tool):
        raise DeploymentError('Deployment %s: group %s needs %s on the host, which has none'
                              % (config.get('name'), group, tool))
    return run


def apply(config, root='', tools=None, force=False):
    """Apply one entry of the document.  Returns None when it was applied
    already (or a component has nothing for the action), else the signal
    body."""
    tools = tools or {}
    resolved = resolve_component(config)
    if resolved is None:
        return None
    run = runner(resolved, tools)
    if not force and applied(root, config):
        return None
    (code, stdout, stderr), outputs_path = run(resolved, root, tools)
    body = _outputs(resolved, outputs_path)
    body.update(deploy_stdout=stdout, deploy_stderr=stderr, deploy_status_code=code)
    record(root, config, code)
    return body
