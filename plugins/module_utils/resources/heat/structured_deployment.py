# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OS::Heat::StructuredDeployment: a SoftwareDeployment whose derived config
is its (structured) config with every ``{<input_key>: name}`` replaced by
the value of the derived input ``name``, as Heat's StructuredDeployment.parse
does: a one-key map whose key is ``input_key`` (``get_input`` by default) and
whose value is a string.  With ``input_values_validate: STRICT`` a name no
input gives fails ("The Parameter (name) was not provided."; validation
refuses it first when the config is the template's own, hot/type_checks.py);
LAX gives None.  An empty config is ``{}``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ...errors import ResourceFailure
from .software_deployment import SoftwareDeployment


def input_key_arg(snippet, input_key):
    if len(snippet) != 1:
        return None
    name, arg = next(iter(snippet.items()))
    return arg if name == input_key and isinstance(arg, str) else None


def parse(inputs, input_key, snippet, strict=False):
    """``snippet`` with the inputs substituted (Heat's parse)."""
    if isinstance(snippet, dict):
        arg = input_key_arg(snippet, input_key)
        if arg is not None:
            if strict and arg not in inputs:
                raise ResourceFailure('The Parameter (%s) was not provided.' % arg,
                                      kind='UserParameterMissing')
            return inputs.get(arg)
        return dict((k, parse(inputs, input_key, v, strict)) for k, v in snippet.items())
    if isinstance(snippet, (list, tuple)):
        return [parse(inputs, input_key, v, strict) for v in snippet]
    return snippet


class StructuredDeployment(SoftwareDeployment):
    type_name = 'OS::Heat::StructuredDeployment'

    def derived_config(self, ctx, source, inputs):
        entry = super(StructuredDeployment, self).derived_config(ctx, source, inputs)
        values = dict((i['name'], i.get('value')) for i in inputs)
        props = ctx.properties
        entry['config'] = parse(values, props.get('input_key') or 'get_input', source.get('config'),
                                props.get('input_values_validate') == 'STRICT') or {}
        return entry
