# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types, type_checks
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.stack import StackDefinition

PATH = ('resources', 'a', 'properties')

# OS::Heat::Value: `value` must fit `type` (verdicts measured with the Heat oracle).
VALUE_CASES = [
    ({'value': [1], 'type': 'json'}, 'is not a map'),
    ({'value': '{}', 'type': 'json'}, 'is not a map'),
    ({'value': {'a': 1}, 'type': 'json'}, None),
    ({'value': None, 'type': 'json'}, None),
    ({'value': 'a,b', 'type': 'comma_delimited_list'}, 'is not a list'),
    ({'value': ['a', 1], 'type': 'comma_delimited_list'}, None),
    ({'value': 'yes', 'type': 'boolean'}, 'is not a valid boolean'),
    ({'value': 1, 'type': 'boolean'}, 'is not a valid boolean'),
    ({'value': 'False', 'type': 'boolean'}, None),
    ({'value': [1], 'type': 'string'}, 'Value must be a string'),
    ({'value': 1, 'type': 'string'}, None),
    ({'value': 'abc', 'type': 'number'}, 'is not a number'),
    ({'value': {'a': 1}, 'type': 'number'}, 'is not a number'),
    ({'value': '1.5', 'type': 'number'}, None),
    ({'value': True, 'type': 'number'}, None),
    ({'value': None, 'type': 'number'}, None),
    # No type, or a type the schema itself refuses: the value is not checked here.
    ({'value': 'abc'}, None),
    ({'value': 'abc', 'type': 'integer'}, None),
    ({'type': 'number'}, None),
]


@pytest.mark.parametrize('data, message', VALUE_CASES)
def test_value_must_fit_its_type(data, message):
    if message is None:
        type_checks.check_type('OS::Heat::Value', data, PATH)
        return
    with pytest.raises(TemplateError) as err:
        type_checks.check_type('OS::Heat::Value', data, PATH)
    assert message in err.value.message
    assert err.value.path == PATH + ('value',)


def test_types_without_extra_checks_pass():
    type_checks.check_type('OS::Heat::None', {'value': 'abc', 'type': 'number'}, PATH)
    assert 'OS::Heat::Value' in type_checks.CHECKS


HEAD = 'heat_template_version: 2016-10-14\n'


@pytest.mark.parametrize('body, strict, message', [
    # A type known only through a parameter is resolved first.
    ('parameters:\n  t: {type: string, default: number}\nresources:\n'
     '  a: {type: OS::Heat::Value, properties: {value: abc, type: {get_param: t}}}\n',
     True, 'is not a number'),
    # A type or value that waits on another resource is not known yet (None).
    ('resources:\n  b: {type: OS::Heat::Value, properties: {value: number}}\n'
     '  a: {type: OS::Heat::Value, properties: {value: abc, type: {get_attr: [b, value]}}}\n',
     True, None),
    ('resources:\n  b: {type: OS::Heat::Value, properties: {value: x}}\n'
     '  a: {type: OS::Heat::Value, properties: {value: {get_attr: [b, value]}, type: number}}\n',
     True, None),
    # ... but its placeholder is converted: get_resource gives the name here.
    ('resources:\n  b: {type: OS::Heat::Value, properties: {value: x}}\n'
     '  a: {type: OS::Heat::Value, properties: {value: {get_resource: b}, type: number}}\n',
     True, 'is not a number'),
    # Template validate does not look at property values.
    ('resources:\n  a: {type: OS::Heat::Value, properties: {value: abc, type: number}}\n',
     False, None),
    ('resources:\n  a: {type: OS::Heat::Value, properties: {value: abc, type: number}}\n',
     True, 'is not a number'),
])
def test_stack_validation_runs_the_type_checks(body, strict, message):
    sd = StackDefinition(HEAD + body)
    if message is None:
        sd.validate(strict=strict)
        return
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=strict)
    assert message in err.value.message
    assert err.value.path == ('resources', 'a', 'properties', 'value')


@pytest.mark.parametrize('transport', ['HEAT_SIGNAL', 'ZAQAR_SIGNAL', 'CFN_SIGNAL'])
def test_a_signal_transport_needing_a_heat_api_is_refused_naming_temp_url_signal(transport):
    body = 'resources:\n  a: {type: OS::Heat::WaitConditionHandle, properties: {signal_transport: %s}}\n'
    sd = StackDefinition(HEAD + body % transport)
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=True)
    assert transport in err.value.message and 'use TEMP_URL_SIGNAL' in err.value.message
    assert err.value.path == ('resources', 'a', 'properties', 'signal_transport')


@pytest.mark.parametrize('transport', ['TEMP_URL_SIGNAL', 'TOKEN_SIGNAL', 'NO_SIGNAL'])
def test_the_swift_and_default_transports_pass(transport):
    body = 'resources:\n  a: {type: OS::Heat::WaitConditionHandle, properties: {signal_transport: %s}}\n'
    StackDefinition(HEAD + body % transport).validate(strict=True)
    StackDefinition(HEAD + 'resources:\n  a: {type: OS::Heat::WaitConditionHandle}\n').validate(strict=True)


@pytest.mark.parametrize('timeout, ok', [(0, False), (1, True), (43200, True), (43201, False)])
def test_a_wait_timeout_outside_heats_range_is_refused(timeout, ok):
    for wait in ('OS::Heat::WaitCondition', 'OS::Heat::SwiftSignal'):
        body = ('resources:\n  h: {type: OS::Heat::SwiftSignalHandle}\n'
                '  w: {type: %s, properties: {handle: {get_resource: h}, timeout: %d}}\n' % (wait, timeout))
        sd = StackDefinition(HEAD + body)
        if ok:
            sd.validate(strict=True)
            continue
        with pytest.raises(TemplateError) as err:
            sd.validate(strict=True)
        assert 'timeout' in str(err.value) and '43200' in str(err.value)


DEPLOY = ('resources:\n'
          '  config: {type: OS::Heat::SoftwareConfig, properties: {group: %(group)s, config: x}}\n'
          '  server: {type: OS::Nova::Server, properties: {image: i, flavor: f%(server)s}}\n'
          '  other: {type: OS::Heat::None}\n'
          '  deploy:\n'
          '    type: OS::Heat::SoftwareDeployment\n'
          '    properties: {config: {get_resource: config}, server: {get_resource: %(target)s}'
          '%(deploy)s}\n')


def _deploy(group='script', server=', user_data_format: SOFTWARE_CONFIG', target='server', deploy=''):
    return StackDefinition(HEAD + DEPLOY % dict(group=group, server=server, target=target,
                                                deploy=deploy))


@pytest.mark.parametrize('group', ['script', 'Heat::Ungrouped', 'ansible', 'puppet', 'salt', 'os-apply-config'])
def test_a_deployment_of_a_config_with_a_hook_on_a_software_config_server_passes(group):
    _deploy(group=group).validate(strict=True)
    # a config only a server's user data uses may have any group
    StackDefinition(HEAD + 'resources:\n  c: {type: OS::Heat::SoftwareConfig, '
                    'properties: {group: ungrouped}}\n').validate(strict=True)


@pytest.mark.parametrize('kw, where, message', [
    (dict(group='atomic'), 'config', 'The group "atomic" of config "config" has no hook here'),
    (dict(target='other'), 'server', 'must be a server: "other" is a OS::Heat::None'),
    (dict(server=''), 'server', "Resource server's property user_data_format should be set to "
                                'SOFTWARE_CONFIG since there are software deployments on it.'),
    (dict(server=', user_data_format: RAW'), 'server', 'should be set to SOFTWARE_CONFIG'),
    (dict(deploy=', signal_transport: HEAT_SIGNAL'), 'signal_transport', 'use TEMP_URL_SIGNAL'),
    (dict(server=', user_data_format: SOFTWARE_CONFIG, software_config_transport: POLL_SERVER_CFN'),
     'software_config_transport', 'use POLL_TEMP_URL'),
])
def test_bad_deployments_are_refused_before_any_cloud_call(kw, where, message):
    with pytest.raises(TemplateError) as err:
        _deploy(**kw).validate(strict=True)
    assert message in err.value.message
    assert err.value.path[-1] == where


@pytest.mark.parametrize('transport', ['POLL_SERVER_HEAT', 'ZAQAR_MESSAGE'])
def test_server_transports_needing_a_heat_api_are_refused(transport):
    body = ('resources:\n  s: {type: OS::Nova::Server, properties: {image: i, flavor: f, '
            'software_config_transport: %s}}\n' % transport)
    with pytest.raises(TemplateError, match='%s needs a Heat API' % transport):
        StackDefinition(HEAD + body).validate(strict=True)
    StackDefinition(HEAD + body.replace(transport, 'POLL_TEMP_URL')).validate(strict=True)


STRUCTURED = ('resources:\n'
              '  config:\n'
              '    type: OS::Heat::StructuredConfig\n'
              '    properties: {inputs: [{name: declared}], config: {a: {get_input: %s}, '
              'b: [{get_input: deploy_action}]}}\n'
              '  server: {type: OS::Nova::Server, properties: {image: i, flavor: f, '
              'user_data_format: SOFTWARE_CONFIG}}\n'
              '  deploy:\n'
              '    type: OS::Heat::StructuredDeployment\n'
              '    properties: {config: {get_resource: config}, server: {get_resource: server}, '
              'input_values_validate: %s, input_values: {given: 1}}\n')


@pytest.mark.parametrize('wanted, mode, ok', [
    ('given', 'STRICT', True), ('declared', 'STRICT', True), ('missing', 'LAX', True),
    ('missing', 'STRICT', False)])
def test_structured_deployment_strict_inputs_are_checked_before_any_cloud_call(wanted, mode, ok):
    sd = StackDefinition(HEAD + STRUCTURED % (wanted, mode))
    if ok:
        sd.validate(strict=True)
        return
    with pytest.raises(TemplateError) as err:
        sd.validate(strict=True)
    assert err.value.message == 'The Parameter (missing) was not provided.'
    assert err.value.path == ('resources', 'deploy', 'properties', 'input_values')


def _group(gtype='OS::Heat::SoftwareDeploymentGroup', **kw):
    body = DEPLOY % dict(dict(group='script', server=', user_data_format: SOFTWARE_CONFIG',
                              target='server', deploy=''), **kw)
    body = body.replace('type: OS::Heat::SoftwareDeployment', 'type: %s' % gtype).replace(
        'server: {get_resource: %s}' % kw.get('target', 'server'),
        'servers: {one: {get_resource: %s}, two: id-2}' % kw.get('target', 'server'))
    return StackDefinition(HEAD + body)


@pytest.mark.parametrize('gtype', ['OS::Heat::SoftwareDeploymentGroup', 'OS::Heat::SoftwareDeployments',
                                   'OS::Heat::StructuredDeploymentGroup', 'OS::Heat::StructuredDeployments'])
@pytest.mark.parametrize('kw, where, message', [
    (dict(group='atomic'), ('config',), 'The group "atomic" of config "config" has no hook here'),
    (dict(target='other'), ('servers', 'one'), 'must be a server: "other" is a OS::Heat::None'),
    (dict(server=''), ('servers', 'one'), "Resource server's property user_data_format should be "
                                          'set to SOFTWARE_CONFIG since there are software deployments on it.'),
    (dict(deploy=', signal_transport: CFN_SIGNAL'), ('signal_transport',), 'use TEMP_URL_SIGNAL'),
])
def test_a_deployment_group_is_refused_as_its_members_would_be_naming_the_group(gtype, kw, where, message):
    _group(gtype).validate(strict=True)
    with pytest.raises(TemplateError) as err:
        _group(gtype, **kw).validate(strict=True)
    assert message in err.value.message
    assert err.value.path == ('resources', 'deploy', 'properties') + where


@pytest.mark.parametrize('gtype', ['OS::Heat::StructuredDeploymentGroup', 'OS::Heat::StructuredDeployments'])
def test_a_structured_deployment_groups_strict_inputs_are_checked_before_any_cloud_call(gtype):
    text = (STRUCTURED % ('missing', 'STRICT')).replace(
        'type: OS::Heat::StructuredDeployment\n', 'type: %s\n' % gtype).replace(
        'server: {get_resource: server}', 'servers: {a: {get_resource: server}}')
    with pytest.raises(TemplateError) as err:
        StackDefinition(HEAD + text).validate(strict=True)
    assert err.value.message == 'The Parameter (missing) was not provided.'
    assert err.value.path == ('resources', 'deploy', 'properties', 'input_values')
    StackDefinition(HEAD + text.replace('STRICT', 'LAX')).validate(strict=True)


# -- the type rules the resource plugins give (Heat's own validate()) ----------

RULED = '''heat_template_version: 2018-08-31
resources:
  net:
    type: OS::Neutron::Net
  vol:
    type: OS::Cinder::Volume
    properties: {size: {get_attr: [net, mtu]}, name: data, metadata: {a: b}}
'''


def _rules(seen):
    def rule(given):
        seen.append(given)
        if given.props['name'] == 'refused':
            given.fail('refused here', 'name')
    return lambda type_name: rule if type_name == 'OS::Cinder::Volume' else None


def test_a_type_rule_runs_in_strict_validation_only_with_heats_view_of_the_values():
    seen = []
    StackDefinition(RULED, type_rules=_rules(seen)).validate(strict=False)
    assert seen == []
    StackDefinition(RULED, type_rules=_rules(seen)).validate(strict=True)
    given, = seen
    assert given.resource_name == 'vol' and given.type_name == 'OS::Cinder::Volume'
    assert given.waiting == frozenset(['size'])
    assert given.data['size'] is None          # get_attr of a resource not made yet
    assert given.props['size'] == 0            # as Heat's Integer property reads None
    assert given.props['description'] is None  # not given, no default
    assert given.props['read_only'] is None
    assert given.props['metadata'] == {'a': 'b'}


def test_a_type_rule_refuses_at_the_resource_path_and_line():
    with pytest.raises(TemplateError) as err:
        StackDefinition(RULED.replace('name: data', 'name: refused'),
                        type_rules=_rules([])).validate(strict=True)
    assert err.value.path == ('resources', 'vol', 'properties', 'name')
    assert str(err.value) == 'line 7: resources.vol.properties.name: refused here'


def test_nested_stacks_inherit_the_type_rules():
    parent = StackDefinition(RULED, type_rules=_rules([]))
    nested = StackDefinition(RULED, type_rules=parent.type_rules)
    assert nested.type_rules is parent.type_rules


@pytest.mark.parametrize('schema,data,expected', [
    ({'n': 'i'}, {'n': None}, {'n': 0}),
    ({'n': 'i'}, {'n': '5'}, {'n': 5}),
    ({'s': 's'}, {'s': 3}, {'s': '3'}),
    ({'s': ('s', '', 'x')}, {}, {'s': 'x'}),
    ({'s': ('s', '', 'x')}, {'s': None}, {'s': 'x'}),
    ({'b': 'b'}, {'b': 'True'}, {'b': True}),
    ({'l': ('l', 'c')}, {'l': 'a, b'}, {'l': ['a', 'b']}),
    ({'l': 'l'}, {'l': None}, {'l': []}),
    ({'m': ('m', '', None, None, {'k': ('s', '', 'd'), 'j': 'i'})}, {'m': {'j': '2'}},
     {'m': {'k': 'd', 'j': 2}}),
    ({'m': 'm'}, {}, {'m': None}),
])
def test_heat_view_reads_values_as_heats_properties(schema, data, expected):
    from_raw = dict((key, resource_types.PropertySchema(raw)) for key, raw in schema.items())
    assert type_checks.heat_view(from_raw, data) == expected


def test_a_nested_stack_validated_without_values_runs_the_rules_on_values_read_as_they_come():
    # Heat's validate of a nested stack at a stack create (strict_validate
    # off): names in Heat's words, then each type's own rule
    seen = []
    StackDefinition(RULED, type_rules=_rules(seen)).validate(strict=False, rules=True)
    given, = seen
    assert given.unchecked
    assert given.props['size'] == 0 and given.props['name'] == 'data'
    with pytest.raises(TemplateError) as err:
        StackDefinition(RULED.replace('name: data', 'nope: 1'),
                        type_rules=_rules([])).validate(strict=False, rules=True)
    assert str(err.value) == 'line 7: resources.vol.properties.nope: Unknown Property nope'


def _read_view(schema, data):
    from_raw = dict((key, resource_types.PropertySchema(raw)) for key, raw in schema.items())
    return type_checks.ReadView(from_raw, data, PATH)


def test_an_unchecked_value_is_refused_only_when_read():
    view = _read_view({'n': 'i', 's': 's', 'r': ('i', 'r')}, {'n': 'abc', 's': 3})
    assert view['s'] == '3'
    assert 'n' in view and 'r' in view and sorted(view) == ['n', 'r', 's']
    with pytest.raises(TemplateError) as err:
        view.get('n')
    assert err.value.message == "Value 'abc' is not an integer"
    assert err.value.path == PATH + ('n',)
    with pytest.raises(TemplateError) as err:
        view['r']
    assert err.value.message == 'Property r not assigned'


@pytest.mark.parametrize('schema,data,expected', [
    ({'n': 'i'}, {'n': None}, {'n': 0}),
    ({'n': 'i'}, {'n': '5'}, {'n': 5}),
    ({'s': ('s', '', 'x')}, {}, {'s': 'x'}),
    ({'m': 'm'}, {}, {'m': None}),
])
def test_a_read_value_is_heats_view_of_it(schema, data, expected):
    assert dict(_read_view(schema, data)) == expected
