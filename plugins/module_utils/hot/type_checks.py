# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks of a resource's property values that its type makes beyond the
property schema (what Heat's resource class adds in its own code).

One function per type name in ``CHECKS``; stack validation calls
``check_type`` with the values Heat's check would see (resolved; those
still waiting for a resource hold placeholders).  The resource plugins will take these checks over.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import TemplateError
from . import properties as _properties
from . import resource_types as _rt

# OS::Heat::Value: the HOT parameter type named by ``type`` -> the property
# type ``value`` then has (Heat re-declares the property with it; note that
# ``json`` means a map, so a list is refused).
_VALUE_KINDS = {'string': 's', 'number': 'n', 'comma_delimited_list': 'l', 'json': 'm',
                'boolean': 'b'}


def _value(data, path, waiting):
    kind = _VALUE_KINDS.get(data.get('type')) if isinstance(data.get('type'), str) else None
    # No type, or one the property schema refuses itself: anything goes.
    if kind is None or 'value' not in data:
        return
    schema = _rt.PropertySchema((kind, 'ru'))
    _properties.check_value(schema, data['value'], tuple(path) + ('value',),
                            constrained='value' not in waiting)


# Signal transports that need a Heat API or Zaqar: with no Heat service
# here, a handle is a Swift TempURL (resources/heat/signal_handles.py).
NEEDS_HEAT_API = ('CFN_SIGNAL', 'HEAT_SIGNAL', 'ZAQAR_SIGNAL')


def _signal_transport(data, path, waiting):
    transport = data.get('signal_transport')
    if 'signal_transport' in waiting or transport not in NEEDS_HEAT_API:
        return
    raise TemplateError(
        'signal_transport %s needs a Heat API or Zaqar, which stackers.orchestration does not '
        'use: use TEMP_URL_SIGNAL (a Swift TempURL)' % transport,
        path=tuple(path) + ('signal_transport',))


CHECKS = {
    'OS::Heat::Value': _value,
    'OS::Heat::WaitConditionHandle': _signal_transport,
}


def check_type(type_name, data, path, waiting=()):
    """Run the extra checks of ``type_name`` on ``data`` (the resource's
    property values); ``path`` is the resource's ``properties`` path and
    ``waiting`` names the properties whose values wait on resources (only
    placeholders for now: converted, not constrained)."""
    check = CHECKS.get(type_name)
    if check is not None:
        check(data, path, waiting)
