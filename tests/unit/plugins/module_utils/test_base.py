# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_utils/base.py: connection options, limits and the error mapping of
StackersModule (the connection itself: test_connection.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest
import yaml

from ansible_collections.stackers.orchestration.tests.unit.module_args import patch_module_args
from ansible_collections.stackers.orchestration.plugins.doc_fragments.openstack import ModuleDocFragment
from ansible_collections.stackers.orchestration.plugins.module_utils import base, connection
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (
    DependencyCycle,
    StackersError,
    TemplateError,
)


def test_argument_spec_matches_the_doc_fragment():
    documented = dict(yaml.safe_load(ModuleDocFragment.DOCUMENTATION)['options'],
                      **yaml.safe_load(ModuleDocFragment.WAIT)['options'])
    spec = base.openstack_argument_spec()
    assert sorted(spec) == sorted(documented)
    for name, doc in documented.items():
        option = spec[name]
        assert option['type'] == doc['type'], name
        assert option.get('default') == doc.get('default'), name
        assert option.get('choices') == doc.get('choices'), name
        assert option.get('aliases', []) == doc.get('aliases', []), name


@pytest.mark.parametrize('err, expected', [
    (StackersError('plain'), {'type': 'StackersError'}),
    (TemplateError('bad', path=('resources', 'a', 'properties', 'x', 0), filename='t.yaml', line=4),
     {'type': 'TemplateError', 'file': 't.yaml', 'line': 4, 'path': 'resources.a.properties.x[0]'}),
    (DependencyCycle('cycle', cycle=['a', 'b'], path=('resources',)),
     {'type': 'DependencyCycle', 'file': None, 'line': None, 'path': 'resources'}),
])
def test_error_details(err, expected):
    assert base.error_details(err) == expected


class Boom(Exception):
    pass


def _module_class(outcome):
    class Module(base.StackersModule):
        argument_spec = dict(name=dict(type='str', required=True))
        module_kwargs = dict(supports_check_mode=True)

        def run(self):
            if isinstance(outcome, BaseException):
                raise outcome
            return dict(outcome, seen_name=self.params['name'], seen_check=self.check_mode)
    return Module


def _run(capsys, outcome, args):
    with patch_module_args(args):
        with pytest.raises(SystemExit) as exc:
            _module_class(outcome)()()
    return exc.value.code, json.loads(capsys.readouterr().out)


def test_module_exits_with_the_run_result(capsys):
    rc, result = _run(capsys, {'changed': True}, {'name': 'n', '_ansible_check_mode': True})
    assert rc == 0
    assert (result['changed'], result['seen_name'], result['seen_check']) == (True, 'n', True)
    assert result['invocation']['module_args']['interface'] == 'public'


def test_module_maps_stackers_errors_to_fail_json(capsys):
    err = TemplateError('Unknown function "get_parm"', path=('outputs', 'o', 'value'), filename='t.yaml', line=9)
    rc, result = _run(capsys, err, {'name': 'n'})
    assert rc == 1
    assert result['msg'] == 't.yaml:9: outputs.o.value: Unknown function "get_parm"'
    assert result['error']['line'] == 9


def test_module_reports_cloud_errors_readably(capsys):
    from openstack import exceptions
    rc, result = _run(capsys, exceptions.ConfigException('Cloud devstack was not found.'), {'name': 'n'})
    assert rc == 1
    assert result['msg'] == 'OpenStack error: Cloud devstack was not found.'


def test_module_lets_bugs_propagate(capsys):
    with pytest.raises(Boom):
        _run(capsys, Boom('bug'), {'name': 'n'})


def test_auth_is_never_echoed(capsys):
    rc, result = _run(capsys, {}, {'name': 'n', 'auth': {'username': 'u', 'password': 'pa55w0rd-xyz'}})
    assert rc == 0
    assert 'pa55w0rd-xyz' not in json.dumps(result)


def test_missing_sdk_fails_when_a_connection_is_needed(capsys, monkeypatch):
    class NeedsConn(base.StackersModule):
        def run(self):
            return {'conn': str(self.conn)}

    monkeypatch.setattr(connection, 'openstack_sdk', lambda: None)
    with patch_module_args({}):
        with pytest.raises(SystemExit) as exc:
            NeedsConn()()
    result = json.loads(capsys.readouterr().out)
    assert exc.value.code == 1
    assert 'openstacksdk' in result['msg']


def test_limits_spec_matches_its_doc_fragment_and_heats_defaults():
    from ansible_collections.stackers.orchestration.plugins.doc_fragments.limits import (
        ModuleDocFragment as LimitsFragment)
    documented = yaml.safe_load(LimitsFragment.DOCUMENTATION)['options']
    spec = base.limits_argument_spec()
    assert sorted(spec) == sorted(documented)
    for name, doc in documented.items():
        assert spec[name]['type'] == doc['type'], name
        assert spec[name].get('default') == doc.get('default'), name
        assert spec[name].get('aliases', []) == doc.get('aliases', []), name
    params = dict((name, option['default']) for name, option in spec.items())
    assert base.limits_from(params) == base.Limits()
    params['max_resources'] = 7
    assert base.limits_from(params).max_resources_per_stack == 7


class _Noted(object):
    """A connection the engine noted secrets on."""


def test_learned_secrets_are_hidden_unless_an_output_shows_them(capsys):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
    conn = _Noted()
    sdk.note_secret(conn, 'made-secret-0001')
    sdk.note_secret(conn, 'shown-secret-0002')

    class Learns(base.StackersModule):
        argument_spec = dict(name=dict(type='str'))

        def run(self):
            self.learned_conn = conn
            return {'changed': True, 'events': ['made made-secret-0001'],
                    'stack': {'outputs': [{'output_key': 'o', 'output_value': 'x shown-secret-0002'}]}}

    with patch_module_args({'name': 'n'}):
        with pytest.raises(SystemExit):
            Learns()()
    text = capsys.readouterr().out
    assert 'made-secret-0001' not in text and 'shown-secret-0002' in text


def test_learned_secrets_are_hidden_in_a_failure(capsys):
    from ansible_collections.stackers.orchestration.plugins.module_utils.resources import sdk
    conn = _Noted()
    sdk.note_secret(conn, 'made-secret-0003')

    class Fails(base.StackersModule):
        argument_spec = dict(name=dict(type='str'))

        def run(self):
            self.learned_conn = conn
            raise StackersError('it failed near made-secret-0003')

    with patch_module_args({'name': 'n'}):
        with pytest.raises(SystemExit):
            Fails()()
    assert 'made-secret-0003' not in capsys.readouterr().out
