# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""neutron/raw.py: Neutron's hot calls as raw JSON through the proxy's public methods."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from unittest import mock

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import CloudConflict
from ansible_collections.stackers.orchestration.plugins.module_utils.resources.neutron import raw


class Answer(object):
    def __init__(self, status, data=None):
        self.status_code, self.data = status, data
        self.content = b'' if data is None else b'{}'
        self.headers = {}
        self.text = ''
        self.reason = 'Conflict'
        self.url = 'http://127.0.0.1/v2.0/ports'
        self.request = None

    def json(self):
        if self.data is None:
            raise ValueError('no body')
        return self.data


def _conn(**answers):
    conn = mock.MagicMock(name='conn')
    for method, answer in answers.items():
        getattr(conn.network, method).side_effect = None
        getattr(conn.network, method).return_value = answer
    return conn


def test_create_posts_the_body_under_its_key_and_answers_the_object():
    conn = _conn(post=Answer(201, {'port': {'id': 'p1'}}))
    assert raw.raw_create(conn, 'port', {'name': 'x'}) == {'id': 'p1'}
    conn.network.post.assert_called_once_with('/ports', json={'port': {'name': 'x'}},
                                              raise_exc=False)


def test_a_create_is_never_retried_blindly(monkeypatch):
    conn = _conn(post=Answer(503))
    monkeypatch.setattr(raw.sdk, 'BACKOFF', 0)
    with pytest.raises(Exception):
        raw.raw_create(conn, 'network', {})
    assert conn.network.post.call_count == 1


def test_get_answers_none_when_gone_and_delete_takes_gone_as_done():
    conn = _conn(get=Answer(404), delete=Answer(404))
    assert raw.raw_get(conn, 'security_group', 'g1') is None
    conn.network.get.assert_called_once_with('/security-groups/g1', raise_exc=False)
    raw.raw_delete(conn, 'security_group', 'g1')
    conn.network.delete.assert_called_once_with('/security-groups/g1', raise_exc=False)


def test_a_conflict_is_the_engines_conflict():
    conn = _conn(delete=Answer(409, {'NeutronError': {'message': 'in use'}}))
    with pytest.raises(CloudConflict):
        raw.raw_delete(conn, 'port', 'p1')


def test_tags_replace_the_whole_list_and_a_qos_policy_s_live_at_the_root():
    conn = _conn(put=Answer(200, {'tags': ['a']}))
    raw.raw_set_tags(conn, 'network', 'n1', ('a', 'b'))
    conn.network.put.assert_called_with('/networks/n1/tags', json={'tags': ['a', 'b']},
                                        raise_exc=False)
    raw.raw_set_tags(conn, 'qos_policy', 'q1', ['a'])
    conn.network.put.assert_called_with('/policies/q1/tags', json={'tags': ['a']},
                                        raise_exc=False)
