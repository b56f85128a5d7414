# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The rules of Heat's resource plugins' own validate(), against Heat 27.

Every case of type_rules/*.py goes to Heat's engine with full validation
(each resource's validate(), as stack create runs it) and to our strict
validation (heat_template_validate ``strict``, and what heat_stack runs before
its first write):

- the table says what Heat does: the broken template is refused with the
  message given, the kept one accepted;
- ours gives the same verdict; a refusal holds Heat's message and names the
  file's line and the resource.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import os
import re

import pytest

import oracle_runner
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import registry as resources
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import \
    validation
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = sorted(name[:-3] for name in os.listdir(os.path.join(HERE, 'type_rules'))
                if name.endswith('.py') and not name.startswith('_'))
CASES = [case for table in TABLES
         for case in importlib.import_module('type_rules.' + table).CASES]


def _request(case):
    return {'template_text': case.template, 'params': case.parameters or {},
            'full_validate': True}


@pytest.fixture(scope='module')
def heat():
    try:
        answers = oracle_runner.ask([_request(case) for case in CASES], cache='rules')
    except oracle_runner.OracleUnavailable as exc:
        if os.environ.get('CI') == 'true':
            pytest.fail('Heat oracle unavailable in CI: %s' % exc)
        pytest.skip('Heat oracle unavailable: %s' % exc)
    return dict((case.id, answer) for case, answer in zip(CASES, answers))


def _ours(case, tmp_path):
    path = tmp_path / 'template.yaml'
    path.write_text(case.template)
    try:
        validation.validate_template(str(path), parameters=case.parameters, strict=True)
    except StackersError as exc:
        return str(exc)
    return None


def test_the_tables_cover_types_the_collection_runs():
    assert len(set(case.id for case in CASES)) == len(CASES)
    for case in CASES:
        assert resources.is_supported(case.type_name) or \
            case.type_name in validation.NESTED_TYPES, case.id


@pytest.mark.parametrize('case', CASES, ids=[case.id for case in CASES])
def test_heat_does_what_the_table_says(case, heat):
    answer = heat[case.id]
    error = answer.get('error') or {}
    if case.breaks:
        assert not answer['valid'], 'Heat accepts %s' % case.id
        assert error.get('phase') == 'validate', error
        assert case.message in error.get('message', ''), error
    else:
        assert answer['valid'], error


@pytest.mark.parametrize('case', CASES, ids=[case.id for case in CASES])
def test_ours_does_what_heat_does(case, tmp_path):
    refused = _ours(case, tmp_path)
    if not case.breaks:
        assert refused is None, refused
        return
    assert refused is not None, 'accepted %s' % case.id
    assert case.message in refused
    assert re.match(r'.*template\.yaml:\d+: resources\.%s[.:]' % re.escape(case.resource),
                    refused), refused
