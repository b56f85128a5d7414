# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fake Swift answers one request at a time, so no PUT can race a lock's: a run reads its
Swift lock back at once (the read-back after a racing PUT is tested in engine/store/test_swift.py
and resources/test_swift_lease.py)."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store import swift as store_swift


@pytest.fixture(autouse=True)
def _no_lock_settle(monkeypatch):
    monkeypatch.setattr(store_swift, 'SETTLE', 0)
