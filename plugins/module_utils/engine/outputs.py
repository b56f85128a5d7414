# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stack's outputs as Heat lists them: ``output_key``,
``output_value``, ``description`` (and ``output_error`` for an output
that cannot be resolved, e.g. its resource failed)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ..errors import StackersError
from .seam import attribute_functions


def output_attributes(sd):
    """What the enabled outputs read of each resource: name -> attribute
    names, or None for all of them (get_attr without a name, or with a name
    a function computes)."""
    uses = {}
    for defn in sd.outputs.values():
        if defn.enabled:
            try:
                _attribute_uses(defn.value, uses)
            except StackersError:
                continue
    return uses


def _attribute_uses(snippet, uses):
    for function in attribute_functions(snippet):
        attr = function.attribute_name()
        for name in function.own_dependencies():
            if attr is None:
                uses[name] = None
            elif uses.get(name, ()) is not None:
                uses.setdefault(name, set()).add(attr)


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
