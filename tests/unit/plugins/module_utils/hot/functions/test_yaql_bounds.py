# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions import yaql_bounds
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.functions.yaql_fn import _yaql


def evaluate(expression, budget=10):
    engine = _yaql()
    context = yaql_bounds.bounded_context(engine['context'], budget)
    return engine['parser'](expression).evaluate({}, context.create_child_context())


@pytest.mark.parametrize('expression, expected', [
    ('range(5)', [0, 1, 2, 3, 4]),
    ('range(2, 8, 2)', [2, 4, 6]),
    ('sequence(3).take(3)', [3, 4, 5]),
    ('sequence(0, 5).take(2)', [0, 5]),
    ('1.repeat(3)', [1, 1, 1]),
    ('1.repeat().take(2)', [1, 1]),
    ('[1, 2].cycle().take(5)', [1, 2, 1, 2, 1]),
    ('range(10).sum()', 45),
])
def test_within_the_budget_as_yaql(expression, expected):
    assert list(evaluate(expression)) == expected if isinstance(expected, list) \
        else evaluate(expression) == expected


@pytest.mark.parametrize('expression, name', [
    ('range(11).len()', 'range'),
    ('range(0, 100000000).len()', 'range'),
    ('sequence().len()', 'sequence'),
    ('1.repeat().len()', 'repeat'),
    ('[1].cycle().len()', 'cycle'),
])
def test_past_the_budget(expression, name):
    with pytest.raises(yaql_bounds.Exhausted) as err:
        evaluate(expression)
    assert (err.value.function, err.value.budget) == (name, 10)
