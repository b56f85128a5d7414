# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""hot/registry_entries.py: one resource_registry mapping, the checks of
hooks and restricted_actions, and a lookup's answer."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot.registry_entries import (
    HOOK_TYPES, Entry, ResourceInfo, as_list, check_hooks, check_restricted, is_template_name)


@pytest.mark.parametrize('path, value, kind, target', [
    (('My::Server',), 'OS::Nova::Server', 'map', 'OS::Nova::Server'),
    (('My::Box',), 'box.yaml', 'template', 'box.yaml'),
    (('box.template',), 'ignored', 'template', 'box.template'),
    (('OS::Quantum*',), 'OS::Neutron*', 'glob', 'OS::Neutron*'),
    (('resources', 'srv', 'My::Server'), 'x.yaml', 'template', 'x.yaml'),
])
def test_an_entry_knows_its_kind_from_its_name_and_value(path, value, kind, target):
    entry = Entry(path, value, 'env.yaml', 3)
    assert (entry.name, entry.kind, entry.value) == (path[-1], kind, target)


def test_user_entries_then_deeper_paths_come_first():
    glob = Entry(('OS::*',), 'OS::Heat::None', user=False)
    top = Entry(('My::S',), 'OS::Heat::None')
    specific = Entry(('resources', 'r', 'My::S'), 'OS::Heat::Value')
    assert sorted([glob, top, specific], key=Entry.sort_key) == [specific, top, glob]


def test_a_moved_entry_keeps_its_origin_and_compares_by_path_and_value():
    entry = Entry(('My::S',), 'OS::Heat::None', 'env.yaml', 4)
    moved = entry.moved(('resources', 'r', 'My::S'))
    assert (moved.filename, moved.line, moved.value) == ('env.yaml', 4, 'OS::Heat::None')
    assert not entry.same(moved) and entry.same(Entry(('My::S',), 'OS::Heat::None'))
    assert not entry.same(None) and not entry.same(Entry(('My::S',), 'OS::Heat::None', user=False))


@pytest.mark.parametrize('value, ok', [
    ('pre-create', True), (list(HOOK_TYPES), True), ('pre-boot', False), (['pre-create', 1], False),
    (3, False),
])
def test_hooks_are_heats_hook_types(value, ok):
    problem = check_hooks(value)
    assert (problem is None) == ok
    if not ok:
        assert problem.startswith('Invalid hook type "%s" for resource breakpoint' % (value,))


@pytest.mark.parametrize('value, ok', [
    ('update', True), (['update', 'replace'], True), ('delete', False), ({'update': 1}, False),
])
def test_restricted_actions_are_update_or_replace(value, ok):
    problem = check_restricted(value)
    assert (problem is None) == ok
    if not ok:
        assert 'acceptable restricted_action types are' in problem


def test_template_names_and_lists():
    assert is_template_name('a.yaml') and is_template_name('b.template')
    assert not is_template_name('OS::Heat::None') and not is_template_name(None)
    assert as_list('update') == ['update'] and as_list(('a', 'b')) == ['a', 'b']


def test_resource_info_reads_the_plugins_schema_only():
    plugin = ResourceInfo('OS::Heat::None', 'My::S', plugin='OS::Heat::None', is_none=True)
    assert plugin.heat_type.name == 'OS::Heat::None' and plugin.path == ()
    template = ResourceInfo('My::T', 'My::T', template='t.yaml', chain=['My::T'])
    assert template.heat_type is None and template.chain == ('My::T',)
    assert repr(template) == 'ResourceInfo(My::T -> t.yaml)'
