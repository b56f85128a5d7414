# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every network call a keystone test's fake connection received (a
project's default security group) is held against the installed
openstacksdk's network proxy."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources.keystone import keystone_fakes  # noqa: E402

from ansible_collections.stackers.orchestration.tests.unit import sdk_calls  # noqa: E402


@pytest.fixture(autouse=True)
def _sdk_calls_checked():
    del keystone_fakes.CONNS[:]
    yield
    for conn in keystone_fakes.CONNS:
        sdk_calls.check(conn)
