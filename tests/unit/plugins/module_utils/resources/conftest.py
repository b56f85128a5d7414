# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Plugin handler tests see one object at a time: its polls are its own GETs.

The SDK fakes answer get_* calls; batching several objects' polls into one
list call is tested where it is made (test_poll_batch.py) and with two
servers or volumes polled together (the nova and cinder plugin tests that
turn it back on)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources import poll_batch


@pytest.fixture(autouse=True)
def _polls_one_at_a_time(monkeypatch):
    monkeypatch.setattr(poll_batch, 'MIN_BATCH', 10 ** 9)
