# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The loader of users' resource plugins: each fault refused naming the file, and a loaded type
known to the catalogue, the registry, validation, the planner's rules and the implicit dependencies."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import grp
import os
import pwd

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils import errors
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import validation
from ansible_collections.stackers.orchestration.plugins.module_utils.hot import resource_types as rt
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import (
    base, plugin_loader, registry)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *(['..'] * 5)))
EXAMPLES = os.path.join(ROOT, 'examples', 'plugins')

PLUGIN = '''
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import ResourcePlugin

CONTRACT_VERSION = %(version)s


class Thing(ResourcePlugin):
    properties_schema = %(props)s
    attributes_schema = {'colour': {'type': 'string', 'description': 'Its colour.'}}

    def create(self, ctx):
        return 'thing-1'


def resource_mapping():
    return {%(name)r: Thing}
'''

PROPS = ("{'size': {'type': 'integer', 'required': True, 'update_allowed': True,"
         " 'constraints': [{'range': {'min': 1, 'max': 10}}]},"
         " 'zone': {'type': 'string', 'default': 'a', 'constraints': [{'allowed_values': ['a', 'b']}]},"
         " 'subnet': {'type': 'string'},"
         " 'tags': {'type': 'list', 'schema': {'*': {'type': 'string'}}}}")


@pytest.fixture(autouse=True)
def _nothing_left_loaded():
    yield
    plugin_loader.unload()


def write_plugin(directory, filename='thing.py', version='1', props=PROPS, name='Test::Thing', text=None):
    directory.mkdir(exist_ok=True)
    os.chmod(str(directory), 0o755)
    path = directory / filename
    path.write_text(text if text is not None else PLUGIN % dict(version=version, props=props, name=name))
    os.chmod(str(path), 0o644)
    return str(path)


def refused(tmp_path, kind, **kwargs):
    path = write_plugin(tmp_path / 'plugins', **kwargs)
    with pytest.raises(kind) as exc:
        plugin_loader.load([str(tmp_path / 'plugins')])
    assert not rt.is_known('Test::Thing') and 'Test::Thing' not in registry.PLUGINS
    return path, exc.value


# -- a loaded type -------------------------------------------------------------------

def test_a_loaded_type_is_known_as_a_built_in_type_is(tmp_path):
    path = write_plugin(tmp_path / 'plugins')
    loaded = plugin_loader.load([str(tmp_path / 'plugins')])
    assert list(loaded) == ['Test::Thing'] and loaded['Test::Thing'].path == path
    assert plugin_loader.loaded() == loaded
    cls = registry.PLUGINS['Test::Thing']
    assert issubclass(cls, base.ResourcePlugin) and cls.type_name == 'Test::Thing'
    assert registry.is_supported('Test::Thing') and rt.is_known('Test::Thing')
    assert not rt.is_builtin('Test::Thing') and 'Test::Thing' in rt.type_names(['SUPPORTED'])
    heat_type = rt.heat_type('Test::Thing')
    assert heat_type.properties['size'].type == 'Integer' and heat_type.properties['size'].required
    assert heat_type.properties['size'].constraint('range').max == 10
    assert heat_type.properties['tags'].schema.type == 'String'
    assert set(heat_type.attributes) == {'colour', 'show'}
    # the planner's rule: size changes in place, zone by replacement
    assert cls.update_allowed('size') and not cls.update_allowed('zone')
    assert base.effective_properties('Test::Thing', {'size': '3'}) == {
        'size': 3, 'zone': 'a', 'subnet': None, 'tags': None}
    assert loaded['Test::Thing'].properties_schema['size']['type'] == 'integer'


def test_loading_again_replaces_what_was_loaded(tmp_path):
    write_plugin(tmp_path / 'one')
    plugin_loader.load([str(tmp_path / 'one')])
    write_plugin(tmp_path / 'two', name='Test::Other')
    plugin_loader.load([str(tmp_path / 'two')])
    assert not rt.is_known('Test::Thing') and 'Test::Thing' not in registry.PLUGINS
    assert rt.is_known('Test::Other')
    plugin_loader.load([])
    assert not rt.is_known('Test::Other') and 'Test::Other' not in registry.PLUGINS


def test_the_directories_come_from_the_option_else_the_environment():
    assert plugin_loader.configured_dirs(['/a'], {'STACKERS_PLUGIN_DIRS': '/b'}) == ['/a']
    assert plugin_loader.configured_dirs([], {'STACKERS_PLUGIN_DIRS': '/b'}) == []
    assert plugin_loader.configured_dirs(None, {'STACKERS_PLUGIN_DIRS': '/b%s/c%s' % (os.pathsep, os.pathsep)}) \
        == ['/b', '/c']
    assert plugin_loader.configured_dirs(None, {}) == []


def test_helpers_import_relatively_and_are_not_plugins(tmp_path):
    directory = tmp_path / 'plugins'
    write_plugin(directory, filename='_shapes.py', text='COLOURS = ("red",)\n')
    write_plugin(directory, text=(PLUGIN % dict(version='1', props=PROPS, name='Test::Thing'))
                 + 'from ._shapes import COLOURS\n')
    assert list(plugin_loader.load([str(directory)])) == ['Test::Thing']


def test_heats_available_resource_mapping_wins_as_in_heat(tmp_path):
    text = (PLUGIN % dict(version='1', props='{}', name='Test::Thing')
            + '\n\ndef available_resource_mapping():\n    return {"Test::Other": Thing}\n')
    write_plugin(tmp_path / 'plugins', text=text)
    assert list(plugin_loader.load([str(tmp_path / 'plugins')])) == ['Test::Other']


# -- the faults, each naming the file ---------------------------------------------------

def test_an_import_error_names_the_file_line_and_the_last_line_of_the_traceback(tmp_path):
    text = PLUGIN % dict(version='1', props=PROPS, name='Test::Thing') + 'import no_such_module_here\n'
    path, err = refused(tmp_path, errors.PluginImportError, text=text)
    assert err.filename == path and err.line == text.count('\n')
    assert str(err) == "%s:%d: cannot import the resource plugin: ModuleNotFoundError: No module named " \
        "'no_such_module_here'" % (path, err.line)


def test_a_syntax_error_names_its_line(tmp_path):
    path, err = refused(tmp_path, errors.PluginImportError, text='CONTRACT_VERSION = 1\ndef broken(:\n')
    assert (err.filename, err.line) == (path, 2) and 'SyntaxError' in str(err)


def test_a_built_in_type_name_is_refused(tmp_path):
    path, err = refused(tmp_path, errors.PluginTypeClash, name='OS::Nova::Server')
    assert err.filename == path and 'OS::Nova::Server is a built-in resource type' in str(err)


def test_a_type_heat_knows_without_a_plugin_here_is_refused_too(tmp_path):
    _path, err = refused(tmp_path, errors.PluginTypeClash, name='OS::Zun::Container')
    assert 'built-in' in str(err)


def test_two_files_mapping_one_type_are_refused(tmp_path):
    write_plugin(tmp_path / 'plugins', filename='a.py')
    second = write_plugin(tmp_path / 'plugins', filename='b.py')
    with pytest.raises(errors.PluginTypeClash) as exc:
        plugin_loader.load([str(tmp_path / 'plugins')])
    assert exc.value.filename == second and 'a.py' in str(exc.value)


@pytest.mark.parametrize('props, where, words', [
    ("{'size': {'type': 'int'}}", 'Test::Thing.properties_schema.size.type', 'Invalid type'),
    ("{'size': {'type': 'string', 'required': 'yes'}}", 'properties_schema.size.required', 'true or false'),
    ("{'size': {'type': 'string', 'constraints': [{'range': {'min': 1}}]}}",
     'properties_schema.size.constraints[0].range', 'range constraint invalid for string'),
    ("{'size': {'type': 'string', 'constraints': [{'custom_constraint': 'nova.nothing'}]}}",
     'constraints[0].custom_constraint', 'not a custom constraint'),
    ("{'size': {'type': 'string', 'schema': {}}}", 'properties_schema.size.schema', 'only for list or map'),
    ("{'size': {'type': 'list', 'schema': {'type': 'string'}}}", 'size.schema', "{'*':"),
    ("{'size': {'type': 'integer', 'default': 'ten'}}", 'size.default', 'Invalid default'),
    ("{'size': {'type': 'string', 'colour': 'red'}}", 'size.colour', 'unknown key'),
    ("[]", 'properties_schema', 'must be a dict'),
])
def test_a_schema_that_is_not_valid_is_refused_with_its_path(tmp_path, props, where, words):
    path, err = refused(tmp_path, errors.PluginSchemaError, props=props)
    assert err.filename == path and err.line == 7   # the class's line
    assert where in str(err) and words in str(err)


def test_an_attribute_named_show_is_refused(tmp_path):
    text = (PLUGIN % dict(version='1', props='{}', name='Test::Thing')).replace("'colour':", "'show':")
    _path, err = refused(tmp_path, errors.PluginSchemaError, text=text)
    assert 'attributes_schema.show' in str(err)


@pytest.mark.parametrize('version', ['2', "'1'"])
def test_another_contract_version_is_refused(tmp_path, version):
    path, err = refused(tmp_path, errors.PluginContractMismatch, version=version)
    assert err.filename == path and "this collection's is version 1" in str(err)


def test_no_contract_version_is_refused(tmp_path):
    text = (PLUGIN % dict(version='1', props='{}', name='Test::Thing')).replace('CONTRACT_VERSION = 1', '')
    _path, err = refused(tmp_path, errors.PluginContractMismatch, text=text)
    assert 'declares no CONTRACT_VERSION' in str(err)


@pytest.mark.parametrize('tail, words', [
    ('', 'has no resource_mapping()'),
    ('def resource_mapping():\n    return [Thing]\n', 'must return a dict'),
    ('def resource_mapping():\n    raise KeyError("x")\n', "resource_mapping() raised KeyError: 'x'"),
    ('def resource_mapping():\n    return {"Test::Thing": dict}\n', 'not a subclass of ResourcePlugin'),
    ('def resource_mapping():\n    return {"thing": Thing}\n', 'is not a resource type name'),
])
def test_a_missing_or_bad_mapping_is_refused(tmp_path, tail, words):
    head = (PLUGIN % dict(version='1', props='{}', name='Test::Thing')).split('def resource_mapping', maxsplit=1)[0]
    text = head + tail
    path, err = refused(tmp_path, errors.PluginMappingError, text=text)
    assert err.filename == path and words in str(err)


@pytest.mark.parametrize('target', ['dir', 'file'])
@pytest.mark.parametrize('mode', [0o020, 0o002])
def test_a_directory_or_file_others_can_write_is_refused(tmp_path, monkeypatch, target, mode):
    monkeypatch.setattr(plugin_loader, '_shared_group', lambda st: True)
    path = write_plugin(tmp_path / 'plugins')
    victim = str(tmp_path / 'plugins') if target == 'dir' else path
    os.chmod(victim, os.stat(victim).st_mode | mode)
    with pytest.raises(errors.PluginUnsafe) as exc:
        plugin_loader.load([str(tmp_path / 'plugins')])
    assert exc.value.filename == victim and 'chmod go-w' in str(exc.value)
    assert not rt.is_known('Test::Thing')


def test_the_group_write_bit_of_a_private_group_is_no_other_users(tmp_path, monkeypatch):
    """A checkout made under umask 002 (a user's private group): loaded; the same bit on a shared group is not."""
    path = write_plugin(tmp_path / 'plugins')
    for victim in (str(tmp_path / 'plugins'), path):
        os.chmod(victim, os.stat(victim).st_mode | 0o020)
    monkeypatch.setattr(plugin_loader, '_shared_group', lambda st: False)
    assert 'Test::Thing' in plugin_loader.load([str(tmp_path / 'plugins')])
    plugin_loader.unload()


@pytest.mark.parametrize('members, primary_of_another, shared', [
    ([], False, False), (['owner'], False, False), (['owner', 'other'], False, True), ([], True, True)])
def test_a_group_is_shared_when_another_user_is_in_it(monkeypatch, members, primary_of_another, shared):
    users = [pwd.struct_passwd(('owner', 'x', 1000, 1000, '', '/', '/bin/sh'))]
    if primary_of_another:
        users.append(pwd.struct_passwd(('other', 'x', 1001, 1000, '', '/', '/bin/sh')))
    monkeypatch.setattr(plugin_loader.grp, 'getgrgid', lambda gid: grp.struct_group(('owner', 'x', gid, members)))
    monkeypatch.setattr(plugin_loader.pwd, 'getpwuid', lambda uid: users[0])
    monkeypatch.setattr(plugin_loader.pwd, 'getpwall', lambda: users)
    st = os.stat_result((0o100664, 0, 0, 1, 1000, 1000, 0, 0, 0, 0))
    assert plugin_loader._shared_group(st) is shared


def test_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(errors.ResourcePluginError) as exc:
        plugin_loader.load([str(tmp_path / 'nowhere')])
    assert str(exc.value).startswith(str(tmp_path / 'nowhere'))


def test_a_fault_in_a_later_directory_registers_nothing(tmp_path):
    write_plugin(tmp_path / 'good')
    write_plugin(tmp_path / 'bad', version='7', name='Test::Other')
    with pytest.raises(errors.PluginContractMismatch):
        plugin_loader.load([str(tmp_path / 'good'), str(tmp_path / 'bad')])
    assert not rt.is_known('Test::Thing') and not rt.is_known('Test::Other')


# -- templates using a plugin type -----------------------------------------------------

TEMPLATE = '''heat_template_version: 2021-04-16
resources:
  net:
    type: OS::Neutron::Net
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.0.0.0/24, name: inner}
  thing:
    type: %s
    properties: {size: %s, subnet: inner}
'''


def _template(tmp_path, type_name='Test::Thing', size=3):
    path = tmp_path / 'stack.yaml'
    path.write_text(TEMPLATE % (type_name, size))
    return str(path)


def test_a_template_using_a_plugin_type_validates_strictly(tmp_path):
    write_plugin(tmp_path / 'plugins')
    plugin_loader.load([str(tmp_path / 'plugins')])
    answer = validation.validate_template(_template(tmp_path), strict=True)
    assert answer['UnsupportedTypes'] == []


def test_a_plugin_types_property_values_are_checked_against_its_schema(tmp_path):
    write_plugin(tmp_path / 'plugins')
    plugin_loader.load([str(tmp_path / 'plugins')])
    with pytest.raises(errors.StackersError) as exc:
        validation.validate_template(_template(tmp_path, size=11), strict=True)
    assert 'resources.thing.properties.size' in str(exc.value) and '10' in str(exc.value)


def test_without_its_plugin_the_type_is_unknown(tmp_path):
    with pytest.raises(errors.UnknownResourceType):
        validation.validate_template(_template(tmp_path))


def test_an_environment_maps_a_name_to_a_plugin_type(tmp_path):
    write_plugin(tmp_path / 'plugins')
    plugin_loader.load([str(tmp_path / 'plugins')])
    env = tmp_path / 'env.yaml'
    env.write_text('resource_registry:\n  My::Alias: Test::Thing\n')
    answer = validation.validate_template(_template(tmp_path, type_name='My::Alias'), environment=[str(env)],
                                          strict=True)
    assert answer['UnsupportedTypes'] == []


def test_implicit_dependencies_a_plugin_declares_are_edges(tmp_path):
    text = (PLUGIN % dict(version='1', props=PROPS, name='Test::Thing')).replace(
        '    def create', "    implicit_dependencies = (('subnet', 'OS::Neutron::Subnet', 'name'),)\n\n    def create")
    write_plugin(tmp_path / 'plugins', text=text)
    plugin_loader.load([str(tmp_path / 'plugins')])
    found = validation.inspect(_template(tmp_path))
    assert found['resources']['thing']['requires'] == ['subnet']
    plugin_loader.load([])
    write_plugin(tmp_path / 'plugins')
    plugin_loader.load([str(tmp_path / 'plugins')])
    assert validation.inspect(_template(tmp_path))['resources']['thing']['requires'] == []


def test_a_declared_dependency_on_a_property_the_type_lacks_is_refused(tmp_path):
    text = (PLUGIN % dict(version='1', props=PROPS, name='Test::Thing')).replace(
        '    def create', "    implicit_dependencies = (('nope', 'OS::Neutron::Subnet', 'name'),)\n\n    def create")
    _path, err = refused(tmp_path, errors.PluginSchemaError, text=text)
    assert 'implicit_dependencies[0]' in str(err)


@pytest.mark.parametrize('name', sorted(os.listdir(EXAMPLES)))
def test_each_example_loads_and_its_template_validates(name):
    loaded = plugin_loader.load([os.path.join(EXAMPLES, name)])
    assert loaded
    answer = validation.validate_template(os.path.join(EXAMPLES, name, 'template.yaml'), strict=True)
    assert answer['Parameters'] == {} and answer['UnsupportedTypes'] == []
