# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Generated differential cases: small templates that real Heat and our engine
must judge alike.

Every case is built from tables, not written one by one: each intrinsic function
in each template version (aliases included) used well and badly, where it is
removed or is plain data (cases_functions); conditions (cases_conditions);
parameters and constraints (cases_parameters); environments: parameter_defaults,
registry, merge strategies (cases_environment); dependencies and the template's
own structure (cases_structure).  Only resource types whose validation needs no
cloud are used (OS::Heat::None, Value, RandomString, TestResource).

``Case.intent`` is what the table author expects Heat to say (True valid, False
invalid, None not stated); test_heat_differential checks it against Heat so the
tables themselves stay honest.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import cases_conditions
import cases_environment
import cases_functions
import cases_parameters
import cases_structure

_FAMILIES = (
    cases_functions.function_cases,
    cases_functions.plain_data_cases,
    cases_conditions.condition_cases,
    cases_parameters.parameter_cases,
    cases_environment.environment_cases,
    cases_structure.dependency_cases,
    cases_structure.structure_cases,
)


def all_cases():
    out = []
    seen = set()
    for family in _FAMILIES:
        for case in family():
            if case.id in seen:
                raise ValueError('duplicate case id %s' % case.id)
            seen.add(case.id)
            out.append(case)
    return out
