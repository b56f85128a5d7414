# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
from __future__ import absolute_import, division, print_function

__metaclass__ = type


import pytest

from ansible_collections.stackers.orchestration.tests.unit.plugins.module_utils.resources import http_fakes as fakes  # noqa: E402

from ansible_collections.stackers.orchestration.plugins.module_utils.errors import (  # noqa: E402
    CloudConflict, CloudError, CloudNotFound, CloudTransient)
from ansible_collections.stackers.orchestration.plugins.module_utils.resources import raw_request, sdk  # noqa: E402


@pytest.fixture(autouse=True)
def _no_backoff(monkeypatch):
    monkeypatch.setattr(sdk, 'BACKOFF', 0)


def _proxy(answers):
    seen = []

    def handler(method, url, kw):
        seen.append((method, url, kw))
        return answers.pop(0)
    proxy = fakes.Proxy(handler)
    return proxy, seen


def test_path_quotes_each_name_whole():
    assert raw_request.path('images', 'my box/1', 'a?b é') == '/images/my%20box%2F1/a%3Fb%20%C3%A9'


def test_send_passes_only_what_is_given_and_answers_the_response():
    proxy, seen = _proxy([fakes.Response(204, headers={'X-Thing': '1'})])
    response = raw_request.send(proxy, 'HEAD', '/c', headers={'A': 'b'}, params={'limit': 1})
    assert response.headers['x-thing'] == '1'
    assert seen == [('HEAD', '/c', {'raise_exc': False, 'headers': {'A': 'b'}, 'params': {'limit': 1}})]


def test_send_passes_a_raw_body_and_can_send_no_token():
    proxy, seen = _proxy([fakes.Response(201)])
    raw_request.send(proxy, 'PUT', 'http://127.0.0.1:9/v1/a/c/o?temp_url_sig=s', data=b'{}',
                     authenticated=False)
    assert seen == [('PUT', 'http://127.0.0.1:9/v1/a/c/o?temp_url_sig=s',
                     {'raise_exc': False, 'data': b'{}', 'authenticated': False})]


def test_a_microversion_is_left_to_keystoneauth():
    """Passed as the Adapter's own keyword (it writes the service's
    microversion headers, and overrides the proxy's default), never as a header."""
    proxy, seen = _proxy([fakes.Response(200, {'server': {'id': 's'}})])
    assert raw_request.send_json(proxy, 'GET', '/servers/s', microversion='2.1') == {'server': {'id': 's'}}
    assert seen == [('GET', '/servers/s', {'raise_exc': False, 'microversion': '2.1'})]


def test_send_json_reads_json_and_empty_answers():
    proxy, seen = _proxy([fakes.Response(201, {'id': 'x'}), fakes.Response(202), fakes.Response(204)])
    assert raw_request.send_json(proxy, 'POST', '/images', json={'name': 'n'}) == {'id': 'x'}
    assert seen[0][2]['json'] == {'name': 'n'}
    assert raw_request.send_json(proxy, 'POST', '/images/x/import', json={}) is None
    assert raw_request.send_json(proxy, 'DELETE', '/images/x') is None


@pytest.mark.parametrize('status, error', [(404, CloudNotFound), (409, CloudConflict), (400, CloudError),
                                           (403, CloudError)])
def test_http_errors_become_typed_errors_with_the_services_message(status, error):
    proxy, _seen = _proxy([fakes.Response(status, {'error': {'message': 'the reason'}})])
    with pytest.raises(error) as exc:
        raw_request.send(proxy, 'GET', '/x')
    assert exc.value.status == status and 'the reason' in str(exc.value)


def test_an_html_answer_keeps_its_text():
    proxy, _seen = _proxy([fakes.Response(400, b'<html><h1>400 Bad Request</h1>\nURI does not pass'
                                          b' filtering</html>', {'Content-Type': 'text/html'})])
    with pytest.raises(CloudError, match='URI does not pass filtering'):
        raw_request.send(proxy, 'POST', '/images/x/import', json={})


def test_transient_faults_retry_reads_and_writes_unless_told_not_to():
    proxy, seen = _proxy([fakes.Response(503), fakes.Response(200, {'ok': 1})])
    assert raw_request.send_json(proxy, 'GET', '/x') == {'ok': 1}
    assert len(seen) == 2
    proxy, seen = _proxy([fakes.Response(503)])
    with pytest.raises(CloudTransient):
        raw_request.send(proxy, 'POST', '/images', json={}, retry_writes=False)
    assert len(seen) == 1
