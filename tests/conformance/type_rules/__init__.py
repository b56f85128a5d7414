# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rules of Heat's resource plugins' own validate(), one table per
service (``cinder.py``, ``neutron.py``...), each a ``CASES`` list made with
``rule``: for each rule, a template that breaks it and one that keeps it.
test_type_rules.py puts both to Heat 27 with full validation and to our
strict validation."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import collections
import textwrap

RuleCase = collections.namedtuple(
    'RuleCase', 'id type_name resource breaks template message parameters')

HEADER = 'heat_template_version: 2018-08-31\n'


def rule(type_name, name, broken, kept, message, *, resource='res', parameters=None,
         kept_parameters=None):
    """The two cases of one rule of ``type_name``: ``broken`` and ``kept``
    are the templates' ``resources:`` sections (dedented text, the version
    line added), ``resource`` the name of the resource the rule refuses and
    ``message`` a part of Heat's message that ours must hold too."""
    base = '%s/%s' % (type_name.replace('OS::', '').replace('::', '-').lower(), name)
    return [
        RuleCase(base + '/breaks', type_name, resource, True, _template(broken), message,
                 parameters),
        RuleCase(base + '/keeps', type_name, resource, False, _template(kept), None,
                 kept_parameters if kept_parameters is not None else parameters),
    ]


def _template(resources):
    return HEADER + 'resources:\n' + textwrap.indent(textwrap.dedent(resources).strip('\n'),
                                                     '  ') + '\n'
