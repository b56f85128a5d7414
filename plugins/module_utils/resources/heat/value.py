# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::Value: a value kept in the stack record, exposed as an attribute.

No cloud call.  As in Heat the physical id is the physical name, updates are
in place (the new properties are the new value), and ``type`` re-types
``value`` the way Heat's ``reparse`` re-declares the property.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ._record_only import RecordOnly


def _string(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int)):
        return str(value)   # Heat's str(): True -> 'True'
    raise ValueError(value)


def _number(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    try:
        return int(value)
    except ValueError:
        return float(value)


def _boolean(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ('true', 'false'):
        return value.lower() == 'true'
    raise ValueError(value)


def _list(value):
    if isinstance(value, (list, tuple)):
        return list(value)
    raise ValueError(value)


def _map(value):
    if isinstance(value, dict):
        return dict(value)
    raise ValueError(value)


# HOT parameter type -> Heat's conversion of a property of the mapped type
# (json is a Map; comma_delimited_list a List without string splitting, as
# the re-declared property does not allow conversion).
_CONVERT = {
    'string': _string,
    'number': _number,
    'boolean': _boolean,
    'comma_delimited_list': _list,
    'json': _map,
}


def typed_value(value, value_type):
    """``value`` as Heat's Value resource gives it for ``value_type``."""
    convert = _CONVERT.get(value_type)
    if convert is None or value is None:
        return value
    try:
        return convert(value)
    except (TypeError, ValueError):
        # Template validation refused it already; keep what was given.
        return value


class Value(RecordOnly):
    type_name = 'OS::Heat::Value'

    def create(self, ctx):
        self.update(ctx)
        return ctx.physical_name

    def update(self, ctx):
        # The value as given, in the plugin's data: where it holds a secret (a
        # hidden parameter, a generated string it copies) the record keeps a
        # digest in the properties and this data encrypted (run_state.save),
        # so get_attr still gives the value, as Heat's does.
        ctx.data['value'] = (ctx.properties or {}).get('value')

    def from_heat_resource_data(self, ctx, resource_data):
        # Heat keeps no data for the type (its attribute is its property):
        # ours is what create would have kept
        self.update(ctx)

    def attributes(self, ctx, live, names=None):
        props = ctx.properties or {}
        data = ctx.data or {}
        value = data['value'] if 'value' in data else props.get('value')
        # Heat's show is None for a type without a cloud entity.
        return {'value': typed_value(value, props.get('type')), 'show': None}
