# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fake Swift has one client at a time: a run that sets the account's TempURL key reads it
back at once (the wait for a concurrent run's key is tested in test_swift_signal.py)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.resources.heat import _swift_signal


@pytest.fixture(autouse=True)
def _no_key_settle(monkeypatch):
    monkeypatch.setattr(_swift_signal, 'KEY_SETTLE', 0)
