# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every mock connection a cinder test builds through cinder_fakes.ctx() is
checked against the installed openstacksdk's proxies after the test."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.cinder import cinder_fakes  # noqa: E402

from ansible_collections.stackers.orchestration.tests.unit import sdk_calls  # noqa: E402


@pytest.fixture(autouse=True)
def _sdk_calls_checked():
    del cinder_fakes.CONNS[:]
    yield
    for conn in cinder_fakes.CONNS:
        sdk_calls.check(conn)
