# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack's outputs as Heat lists them: ``output_key``,
``output_value``, ``description`` (and ``output_error`` for an output
that cannot be resolved, e.g. its resource failed)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import StackersError


def output_attribute_resources(sd):
    """Names of the resources whose attributes the enabled outputs read."""
    from .run_state import attribute_references
    names = set()
    for defn in sd.outputs.values():
        if defn.enabled:
            try:
                attribute_references(defn.value, names)
            except StackersError:
                continue
    return names


def resolve_outputs(run):
    out = []
    sd = run.sd
    for name in sorted(sd.outputs):
        defn = sd.outputs[name]
        item = {'output_key': name, 'description': defn.description or 'No description given'}
        if not defn.enabled:
            item['output_value'] = None
            out.append(item)
            continue
        missing = [r for r in defn.required_resources() if r not in sd.resource_data]
        if missing:
            item['output_value'] = None
            item['output_error'] = 'Resource %s is not created' % ', '.join(missing)
            out.append(item)
            continue
        try:
            with sd._located():
                item['output_value'] = defn.resolve()
        except StackersError as exc:
            item['output_value'] = None
            item['output_error'] = str(exc)
        out.append(item)
    return out
