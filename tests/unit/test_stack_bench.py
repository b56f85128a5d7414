# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""bench/stack/: the generated stacks load as the engine loads a template (no cloud)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import os
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'bench'))
sys.path.insert(1, os.path.join(ROOT, 'tests', 'localcloud'))

from stack import big, costs, scale  # noqa: E402


@pytest.mark.parametrize('mix,count', [('big', 10000), ('blocks', 1000)])
def test_a_generated_stack_fits_heats_template_limit_and_loads(tmp_path, mix, count):
    data = scale.templates()[mix](count)
    assert abs(len(data['resources']) - count) <= 2
    path = tmp_path / 't.yaml'
    with open(str(path), 'w') as f:
        yaml.safe_dump(data, f, default_flow_style=None, width=1 << 16)
    assert path.stat().st_size <= 524288       # Heat's max_template_size, which the loader keeps
    sd, graph = costs.stack_definition(str(path))
    assert len(sd.resources) == len(data['resources'])
    assert sum(costs.minimum_calls(sd, 'create').values()) > 0


def test_rerun_list_calls_are_the_gets_of_collections():
    run = {'resources': 10, 'rerun': {'by_route': {
        'GET network /v2.0/ports': 2, 'GET network /v2.0/ports/{id}': 5,
        'POST identity /v3/auth/tokens': 1}}}
    calls = big.rerun_calls(run)
    assert calls['list_calls'] == {'GET network /v2.0/ports': 2}
    assert calls['per_resource'] == 0.8
