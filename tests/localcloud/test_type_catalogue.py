# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""heat_resource_type_info and heat_template_version_info against the local cloud's real Heat API
(`openstack orchestration ...` through the cloud's Heat): the list, the show of a few types and
their generated templates key by key (Heat's descriptions and messages there, empty: Heat's prose is
not carried, tests/unit/heat_prose.py), the versions and a version's functions; then the four
playbooks that replace those commands, run once each from the repository root."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import subprocess

from localcloud.harness import ROOT

from ansible_collections.stackers.orchestration.tests.unit import heat_prose
from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.modules import (
    heat_resource_type_info as type_info, heat_template_version_info as version_info)

TYPES = ('OS::Heat::RandomString', 'OS::Nova::Server', 'OS::Neutron::Port', 'OS::Cinder::Volume',
         'OS::Heat::ResourceGroup', 'OS::Swift::Container')


# the types the local cloud's Heat maps to templates in its global environment (environment.d)
GLOBAL_ENVIRONMENT_TYPES = ('AWS::CloudWatch::Alarm', 'AWS::RDS::DBInstance')


def _ours(capsys, args):
    code, out = run_main(type_info, capsys, args)
    assert code == 0, out
    return out


def _without_custom_constraints(template):
    """Our HOT template as Heat writes it (docs/differences.md): a custom constraint as {}."""
    for param in template['parameters'].values():
        if 'constraints' in param:
            param['constraints'] = [{} if 'custom_constraint' in c else c for c in param['constraints']]
    return template


def test_resource_types_equal_heats(cloud, capsys):
    # not --long: Heat's list then loads the templates its global environment maps types to, which
    # the local cloud's Heat does not have (/etc/heat/templates/AWS_CloudWatch_Alarm.yaml)
    heats = set(r['Resource Type'] for r in cloud.osc('orchestration', 'resource', 'type', 'list', as_json=True))
    ours = set(e['resource_type'] for e in _ours(capsys, {})['resource_types'])
    # Heat lists the types whose service the catalog has, and those its global environment maps to a
    # template (docs/differences.md)
    assert len(heats) > 40
    assert sorted(heats - ours) == sorted(GLOBAL_ENVIRONMENT_TYPES)
    neutron = cloud.osc('orchestration', 'resource', 'type', 'list', '--filter', 'name=OS::Neutron::', as_json=True)
    ours = _ours(capsys, {'filters': {'name': 'OS::Neutron::'}})['resource_types']
    assert set(r['Resource Type'] for r in neutron) <= set(e['resource_type'] for e in ours)
    for name in TYPES:
        # Heat 27's API drops --long of show (docs/differences.md): no description comes back
        heat = cloud.osc('orchestration', 'resource', 'type', 'show', name, '--long', as_json=True)
        assert 'description' not in heat
        heat = heat_prose.show(heat)
        out = _ours(capsys, {'name': name})['resource_type']
        assert out.pop('supported_here') is True
        assert sorted(out) == sorted(heat), (name, sorted(out), sorted(heat))
        for key in heat:
            assert out[key] == heat[key], (name, key)
        for kind in ('hot', 'cfn'):
            heat = cloud.osc('orchestration', 'resource', 'type', 'show', name, '--template-type', kind,
                             as_json=True)
            out = _ours(capsys, {'name': name, 'template_type': kind})['template']
            if kind == 'hot':
                out = _without_custom_constraints(out)
            assert json.loads(json.dumps(out)) == heat_prose.template(heat), (name, kind)


def test_template_versions_and_functions_equal_heats(cloud, capsys):
    heats = cloud.osc('orchestration', 'template', 'version', 'list', as_json=True)
    code, out = run_main(version_info, capsys, {})
    assert code == 0
    assert [(v['version'], v['type'], v['aliases']) for v in out['template_versions']] == sorted(
        (v['Version'], v['Type'], v['Aliases']) for v in heats)
    for version in ('heat_template_version.2021-04-16', 'heat_template_version.2013-05-23'):
        heat = cloud.osc('orchestration', 'template', 'function', 'list', version, '--with_conditions',
                         as_json=True)
        code, out = run_main(version_info, capsys, {'version': version, 'with_conditions': True})
        assert code == 0
        assert out['template_functions'] == sorted(
            heat_prose.functions([{'functions': f['Functions'], 'description': f['Description']} for f in heat]),
            key=lambda f: f['functions'])


def _playbook(book, *extra):
    env = dict(os.environ, ANSIBLE_NOCOLOR='1')
    run = subprocess.run([os.path.join(ROOT, '.venv', 'bin', 'ansible-playbook'),
                          os.path.join(ROOT, 'playbooks', book)] + list(extra), cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    return run.stdout


def test_the_catalogue_playbooks():
    out = _playbook('resource_type_list.yml', '-e', 'heat_filter_name=OS::Nova::', '-e', 'heat_long=true')
    # Heat's docs are not carried: Heat's own fallback
    assert '"OS::Nova::Server  supported here  No description available"' in out
    out = _playbook('resource_type_show.yml', '-e', 'heat_resource_type=OS::Heat::RandomString',
                    '-e', 'heat_template_type=hot')
    assert '"description: Initial template of RandomString",' in out
    out = _playbook('template_version_list.yml')
    assert '"heat_template_version.2018-08-31  hot  heat_template_version.rocky  supported here"' in out
    out = _playbook('template_function_list.yml', '-e', 'heat_template_version=heat_template_version.rocky',
                    '-e', 'heat_with_conditions=true')
    assert '"equals"' in out
