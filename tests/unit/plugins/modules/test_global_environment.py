# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""global_environment_dir (heat.conf's environment_dir) through heat_template_validate's and
heat_stack's real main() and the real engine: a global resource_registry and parameter_defaults
apply to every stack, the stack's own environment wins, $STACKERS_GLOBAL_ENVIRONMENT_DIR stands
in for the option."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.stackers.orchestration.tests.unit.module_args import run_main
from ansible_collections.stackers.orchestration.plugins.modules import heat_stack, heat_template_validate

TEMPLATE = """heat_template_version: 2021-04-16
parameters:
  greeting: {type: string}
resources:
  greeter:
    type: My::Greeter
    properties: {text: {get_param: greeting}}
outputs:
  said: {value: {get_attr: [greeter, said]}}
"""

GREETER = """heat_template_version: 2021-04-16
parameters:
  text: {type: string}
resources:
  echo: {type: OS::Heat::TestResource, properties: {value: {get_param: text}}}
outputs:
  said: {value: {get_attr: [echo, output]}}
"""


class _Conn(object):
    current_project_id = 'p1'


def _files(tmp_path):
    gdir = tmp_path / 'environment.d'
    (gdir / 'providers').mkdir(parents=True)
    (gdir / 'providers' / 'greeter.yaml').write_text(GREETER)
    (gdir / '10-registry.yaml').write_text('resource_registry: {"My::Greeter": providers/greeter.yaml}\n')
    (gdir / '20-defaults.yaml').write_text('parameter_defaults: {greeting: hello}\n')
    own = tmp_path / 'own.yaml'
    own.write_text('parameter_defaults: {greeting: bonjour}\n')
    template = tmp_path / 'stack.yaml'
    template.write_text(TEMPLATE)
    return str(gdir), str(own), str(template)


def test_validate_reads_the_global_environment_first(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_GLOBAL_ENVIRONMENT_DIR', raising=False)
    gdir, own, template = _files(tmp_path)
    code, out = run_main(heat_template_validate, capsys, {'template': template})
    assert code == 1 and 'My::Greeter' in out['msg']
    code, out = run_main(heat_template_validate, capsys, {'template': template, 'global_environment_dir': gdir})
    assert code == 0, out
    assert out['Parameters']['greeting']['Default'] == 'hello'
    code, out = run_main(heat_template_validate, capsys, {'template': template, 'environment': [own],
                                                          'global_environment_dir': gdir})
    assert code == 0 and out['Parameters']['greeting']['Default'] == 'bonjour'
    monkeypatch.setenv('STACKERS_GLOBAL_ENVIRONMENT_DIR', gdir)
    code, out = run_main(heat_template_validate, capsys, {'template': template})
    assert code == 0 and out['Parameters']['greeting']['Default'] == 'hello'
    code, out = run_main(heat_template_validate, capsys, {'template': template,
                                                          'global_environment_dir': str(tmp_path / 'gone')})
    assert code == 1 and out['msg'].startswith('The global environment directory %s does not exist'
                                               % (tmp_path / 'gone'))


def test_a_stack_gets_the_global_registry_and_defaults(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv('STACKERS_GLOBAL_ENVIRONMENT_DIR', raising=False)
    monkeypatch.setattr(heat_stack.HeatStack, 'conn', _Conn())
    gdir, own, template = _files(tmp_path)
    store = str(tmp_path / 's.sqlite')
    args = {'name': 'web', 'template': template, 'store_path': store, 'global_environment_dir': gdir}
    code, out = run_main(heat_stack, capsys, args)
    assert code == 0, out['msg']
    assert out['stack']['stack_status'] == 'CREATE_COMPLETE'
    assert {o['output_key']: o['output_value'] for o in out['stack']['outputs']} == {'said': 'hello'}
    code, out = run_main(heat_stack, capsys, dict(args, environment=[own]))
    assert code == 0 and out['changed'] is True
    assert {o['output_key']: o['output_value'] for o in out['stack']['outputs']} == {'said': 'bonjour'}
    monkeypatch.setenv('STACKERS_GLOBAL_ENVIRONMENT_DIR', gdir)
    del args['global_environment_dir']
    code, out = run_main(heat_stack, capsys, dict(args, environment=[own]))
    assert code == 0 and out['changed'] is False
