# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""resources/heat/config_types.py: each config type's ``config`` as Heat's
handle_create builds it, kept in the record."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import email

import yaml

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.http_fakes import ctx as make_ctx  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.registry import PLUGINS  # noqa: E402
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.base import Peer  # noqa: E402

REF = '6f1c2b1e-7d9a-4c1b-9a37-2d6e0b7c5a10'


def _made(type_name, props, lookup=None):
    plugin = PLUGINS[type_name]()
    ctx = make_ctx(type_name, props, name='c', lookup=lookup)
    ctx.physical_id = plugin.create(ctx)
    return plugin, ctx


def test_structured_config_keeps_its_map():
    plugin, ctx = _made('OS::Heat::StructuredConfig', {'config': {'a': {'get_input': 'x'}}})
    assert ctx.data['config']['config'] == {'a': {'get_input': 'x'}}
    assert plugin.attributes(ctx, None)['config'] == {'a': {'get_input': 'x'}}


def test_cloud_config_is_a_cloud_config_document():
    plugin, ctx = _made('OS::Heat::CloudConfig', {'cloud_config': {'runcmd': ['ls'], 'a': 1}})
    text = ctx.data['config']['config']
    assert text.startswith('#cloud-config\n')
    assert yaml.safe_load(text) == {'runcmd': ['ls'], 'a': 1}
    assert ctx.data['config']['group'] == 'Heat::Ungrouped'


def test_multipart_mime_renders_config_ids_and_nested_multiparts():
    other = {'config': {'config': '#!/bin/sh\necho from config\n'}}

    def lookup(pid):
        return Peer('x', 'OS::Heat::SoftwareConfig', pid, 'pn', other) if pid == REF else None
    inner_parts = [{'config': 'one', 'filename': 'a.sh'}, {'config': 'two', 'subtype': 'x-shellscript'}]
    _p, inner = _made('OS::Heat::MultipartMime', {'parts': inner_parts})
    plugin, ctx = _made('OS::Heat::MultipartMime', {'parts': [
        {'config': REF}, {'config': inner.data['config']['config'], 'type': 'multipart'}]},
        lookup=lookup)
    msg = email.message_from_string(ctx.data['config']['config'])
    parts = [(p.get_content_type(), p.get_filename(), p.get_payload()) for p in msg.get_payload()]
    assert parts == [('text/plain', None, '#!/bin/sh\necho from config\n'),
                     ('text/a', 'a.sh', 'one'), ('text/x-shellscript', None, 'two')]


def test_software_component_is_group_component_with_its_configs():
    configs = [{'actions': ['CREATE'], 'config': 'echo hi', 'tool': 'script'}]
    plugin, ctx = _made('OS::Heat::SoftwareComponent', {'configs': configs})
    assert ctx.data['config']['group'] == 'component'
    assert ctx.data['config']['config'] == {'configs': configs}
    assert plugin.attributes(ctx, None)['configs'] == configs
