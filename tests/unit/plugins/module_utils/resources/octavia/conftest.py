# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every call an octavia test's fake proxy received is held against the
installed openstacksdk's load_balancer proxy (its public Adapter methods),
and the network/identity calls against theirs."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest
from openstack.load_balancer.v2 import _proxy as lb_proxy

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.octavia import octavia_fakes  # noqa: E402

from ansible_collections.stackers.orchestration.tests.unit import sdk_calls  # noqa: E402


@pytest.fixture(autouse=True)
def _sdk_calls_checked():
    del octavia_fakes.CONNS[:]
    yield
    for conn in octavia_fakes.CONNS:
        assert sdk_calls.mismatches(conn.load_balancer, lb_proxy.Proxy) == []
        sdk_calls.check(conn)
