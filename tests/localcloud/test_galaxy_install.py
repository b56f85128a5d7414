# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection installed the way users install it (issue 15, item 5): ``ansible-galaxy
collection build`` makes a tarball holding what a user needs and none of the development
material, ``ansible-galaxy collection install`` puts it into an empty collections path, and the
demo job (tools/demo.sh: validate, create, rerun, check mode, suspend, resume, delete) passes from
there against the local cloud, its playbooks run by FQCN from a directory with no ansible.cfg."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import shutil
import subprocess
import tarfile

import yaml

from localcloud.harness import ROOT

BIN = os.path.join(ROOT, '.venv', 'bin')
# what a user runs or reads
NEEDED = ('MANIFEST.json', 'FILES.json', 'README.md', 'meta/runtime.yml', 'meta/execution-environment.yml',
          'requirements.txt', 'plugins/modules/heat_stack.py', 'plugins/modules/heat_resource_signal.py',
          'plugins/modules/heat_template_validate.py', 'plugins/doc_fragments/openstack.py',
          'plugins/module_utils/engine/run/runner.py', 'plugins/module_utils/hot/template.py',
          'playbooks/stack.yml', 'playbooks/deploy.yml', 'playbooks/templates/server.yaml', 'docs/architecture.md',
          'roles/software_deployment/meta/argument_specs.yml', 'roles/software_deployment/tasks/main.yml',
          'plugins/modules/heat_software_deployment.py')
# what only developers of the collection need
NOT_SHIPPED = ('localcloud/', 'bench/', 'tests/localcloud/', 'tools/', 'mk/', '.ci/', '.venv',
               '.build/', 'Makefile', 'conftest.py', 'pytest.ini', 'ansible.cfg', 'requirements-dev.txt')


def _run(cmd, cwd, env=None, timeout=600):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, '%s\n%s\n%s' % (cmd, proc.stdout[-6000:], proc.stderr[-4000:])
    return proc.stdout


def test_the_galaxy_tarball_installs_into_an_empty_path_and_the_demo_passes_from_it(cloud, tmp_path):
    with open(os.path.join(ROOT, 'galaxy.yml')) as f:
        version = yaml.safe_load(f)['version']
    with open(os.path.join(ROOT, 'docs', 'execution-environment.yml')) as f:
        assert 'stackers-orchestration-%s.tar.gz' % version in f.read(), 'the example EE names another version'
    _run([os.path.join(BIN, 'ansible-galaxy'), 'collection', 'build', '--output-path', str(tmp_path),
          ROOT], cwd=str(tmp_path))
    tarball = tmp_path / ('stackers-orchestration-%s.tar.gz' % version)
    with tarfile.open(str(tarball)) as tar:
        names = set(tar.getnames())
    missing = [n for n in NEEDED if n not in names]
    assert not missing, missing
    shipped = sorted(n for n in names if any(n == p.rstrip('/') or n.startswith(p) for p in NOT_SHIPPED))
    assert not shipped, shipped
    assert all(m in names for m in ('plugins/modules/' + f for f in os.listdir(
        os.path.join(ROOT, 'plugins', 'modules')) if f.endswith('.py') and f != '__init__.py'))

    collections = tmp_path / 'collections'
    collections.mkdir()
    _run([os.path.join(BIN, 'ansible-galaxy'), 'collection', 'install', '--offline', str(tarball),
          '-p', str(collections)], cwd=str(tmp_path))
    installed = collections / 'ansible_collections' / 'stackers' / 'orchestration'
    assert (installed / 'plugins' / 'modules' / 'heat_stack.py').is_file()
    assert not (installed / 'localcloud').exists()

    # what ansible-builder reads from the installed collection (meta/execution-environment.yml)
    needs = _run([os.path.join(BIN, 'ansible-builder'), 'introspect', '--sanitize', str(collections)],
                 cwd=str(tmp_path))
    for package in ('openstacksdk', 'networkx', 'yaql', 'stackers.orchestration'):
        assert package in needs, needs
    # and the example execution environment's build context, made from the tarball
    ee = tmp_path / 'ee'
    ee.mkdir()
    shutil.copy(os.path.join(ROOT, 'docs', 'execution-environment.yml'), str(ee))
    shutil.copy(str(tarball), str(ee))
    _run([os.path.join(BIN, 'ansible-builder'), 'create', '-f', 'execution-environment.yml',
          '--context', 'context', '--output-filename', 'Containerfile'], cwd=str(ee))
    assert (ee / 'context' / '_build' / 'collections' / tarball.name).is_file()
    with open(str(ee / 'context' / 'Containerfile')) as f:
        containerfile = f.read()
    assert 'ansible-galaxy collection install' in containerfile
    assert 'COPY _build/collections /build/collections' in containerfile
    with open(str(ee / 'context' / '_build' / 'requirements.yml')) as f:
        assert tarball.name in f.read()

    env = dict(os.environ, DEMO_COLLECTIONS_PATH=str(collections), DEMO_CLOUDS_YAML=cloud.clouds_yaml)
    for key in ('OS_CLOUD', 'ANSIBLE_CONFIG', 'ANSIBLE_COLLECTIONS_PATH', 'ANSIBLE_COLLECTIONS_PATHS'):
        env.pop(key, None)
    out = _run([os.path.join(ROOT, 'tools', 'demo.sh')], cwd=ROOT, env=env, timeout=1200)
    # every play ran from the installed collection and ended without a failure
    assert out.count('PLAY RECAP') == 7, out[-3000:]
    assert 'failed=0' in out and 'failed=1' not in out
    # the rerun changed nothing
    recaps = [line for line in out.splitlines() if line.startswith('localhost')]
    assert len(recaps) == 7 and ' changed=0 ' in recaps[2], recaps
