# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::SoftwareConfig: a config kept in the stack record.

Heat keeps software configs in its database under a uuid; here the config
lives in the resource's row (``ctx.data['config']``, encrypted by the
engine when it holds a hidden value), its physical id a uuid as Heat's.  A
deployment finds it by that id through ``ctx.lookup`` (the record), so a
config made by a parent stack serves a nested stack's deployment too.

The stored shape is Heat's software config record as its API shows it:
``{id, name, group, config, inputs, outputs, options}``, inputs and outputs
as Heat's I/O schema keeps them (``type`` String by default, an input's
``replace_on_change`` only when true, an output's ``error_output`` always).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

from ._record_only import RecordOnly

CONFIG = 'config'
UNGROUPED = 'Heat::Ungrouped'
CONFIG_TYPES = ('OS::Heat::SoftwareConfig',)


def io_input(item):
    """An input as Heat's InputConfig.as_dict keeps it (None dropped)."""
    out = {'name': item.get('name'), 'type': item.get('type') or 'String'}
    if item.get('description') is not None:
        out['description'] = item['description']
    if item.get('default') is not None:
        out['default'] = item['default']
    if item.get('replace_on_change'):
        out['replace_on_change'] = True
    if 'value' in item:
        out['value'] = item['value']
    return out


def io_output(item):
    out = {'name': item.get('name'), 'type': item.get('type') or 'String',
           'error_output': bool(item.get('error_output'))}
    if item.get('description') is not None:
        out['description'] = item['description']
    return out


def record(config_id, name, props, config=None):
    """The config record of ``props`` (a config type's properties)."""
    return {'id': config_id, 'name': name,
            'group': props.get('group') or UNGROUPED,
            'config': props.get(CONFIG) if config is None else config,
            'inputs': [io_input(i) for i in props.get('inputs') or () if isinstance(i, dict)],
            'outputs': [io_output(o) for o in props.get('outputs') or () if isinstance(o, dict)],
            'options': props.get('options') or {}}


class SoftwareConfig(RecordOnly):
    type_name = 'OS::Heat::SoftwareConfig'

    def config_text(self, ctx):
        """The config as the record keeps it (Structured/Cloud/Multipart
        types build it from their properties)."""
        return ctx.properties.get(CONFIG)

    def create(self, ctx):
        config_id = str(uuid.uuid4())
        ctx.data[CONFIG] = record(config_id, ctx.physical_name, ctx.properties,
                                  self.config_text(ctx))
        return config_id

    def attributes(self, ctx, live, names=None):
        stored = ctx.data.get(CONFIG) if ctx.physical_id is not None else None
        if not stored:
            return {CONFIG: None, 'show': None}
        return {CONFIG: stored.get(CONFIG), 'show': dict(stored)}
