# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Who holds a stack's lock: an owner string whose process may be gone."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import socket

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.engine.store.owner import lock_ttl, new_owner, owner_alive


def test_owner_alive_only_false_for_a_gone_process_of_this_host():
    assert owner_alive('otherhost:1:x') is True
    assert owner_alive('not an owner') is True
    assert owner_alive(new_owner()) is True
    assert owner_alive('%s:%d:x' % (socket.gethostname(), 2 ** 22 + 12345)) is False


@pytest.mark.parametrize('value, ttl', [(None, 60.0), ('5', 5.0), ('0.5', 0.5), ('0', 60.0), ('-3', 60.0),
                                        ('soon', 60.0)])
def test_the_lock_lease_comes_from_the_environment_when_it_is_a_positive_number(monkeypatch, value, ttl):
    if value is None:
        monkeypatch.delenv('STACKERS_LOCK_TTL', raising=False)
    else:
        monkeypatch.setenv('STACKERS_LOCK_TTL', value)
    assert lock_ttl() == ttl
