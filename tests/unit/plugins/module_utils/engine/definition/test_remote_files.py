# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""engine/definition/remote_files.py: files named by URL, fetched only beneath the allowed prefixes (a
server on 127.0.0.1 stands for the web), with the modules' opener (url_opener.py: Ansible's
open_url)."""
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import http.server
import threading

import pytest

from ansible_collections.stackers.orchestration.plugins.module_utils.url_opener import url_opener
from ansible_collections.stackers.orchestration.plugins.module_utils.engine.definition import (
    remote_files as rf)
from ansible_collections.stackers.orchestration.plugins.module_utils.errors import StackersError, TemplateError
from ansible_collections.stackers.orchestration.plugins.module_utils.hot.limits import Limits

OPENER = url_opener({'validate_certs': True})
PAGES = {
    '/t/boot.sh': '#!/bin/sh\necho booted\n',
    '/t/inner.txt': 'inner content',
    '/other/secret.txt': 'not for templates',
    '/t/nested.yaml': 'heat_template_version: 2021-04-16\nresources:\n'
                      '  v: {type: OS::Heat::Value, properties: {value: {get_file: "%(base)s/t/inner.txt"}}}\n',
}


@pytest.fixture
def web():
    seen = []

    class Pages(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            seen.append(self.path)
            if self.path == '/t/moved':
                self.send_response(302)
                self.send_header('Location', '/other/secret.txt')
                self.end_headers()
                return
            body = PAGES.get(self.path)
            if self.path == '/t/big':
                body = 'x' * 2000
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            body = (body % {'base': base}).encode()
            self.send_response(200)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Pages)
    base = 'http://127.0.0.1:%d' % server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base, seen
    server.shutdown()
    server.server_close()


def test_a_prefix_allows_what_continues_it_at_a_slash():
    prefixes = ['https://example.com/t', 'http://h/x/']
    assert rf.allowed('https://example.com/t/a.yaml', prefixes)
    assert rf.allowed('https://example.com/t', prefixes)
    assert rf.allowed('http://h/x/y', prefixes)
    assert not rf.allowed('https://example.com/tx', prefixes)
    assert not rf.allowed('https://example.com.evil/t/a', prefixes)
    assert not rf.allowed('file:///etc/passwd', ['file:///etc'])
    assert not rf.allowed('https://example.com/t/a', [])


def test_urls_in_finds_get_file_types_and_registry_entries():
    data = {'resources': {'a': {'type': 'https://h/n.yaml', 'properties': {
        'x': {'get_file': 'https://h/f.txt'}, 'y': {'get_file': 'local.txt'}}},
        'b': {'type': 'OS::Heat::None'}},
        'resource_registry': {'My::T': 'http://h/t.yaml', 'resources': {'a': {'My::U': 'http://h/u.yaml'}}}}
    assert sorted(rf.urls_in(data)) == [('http://h/t.yaml', True), ('http://h/u.yaml', True),
                                        ('https://h/f.txt', False), ('https://h/n.yaml', True)]


def test_only_allowed_urls_are_fetched_and_fetched_templates_are_walked(web):
    base, seen = web
    doc = {'resources': {'n': {'type': base + '/t/nested.yaml'},
                         'b': {'properties': {'s': {'get_file': base + '/t/boot.sh'}}},
                         'o': {'properties': {'s': {'get_file': base + '/other/secret.txt'}}}}}
    got = rf.fetch_allowed([doc], [base + '/t'], {}, Limits(), opener=OPENER)
    assert got == {base + '/t/nested.yaml': PAGES['/t/nested.yaml'] % {'base': base},
                   base + '/t/boot.sh': PAGES['/t/boot.sh'], base + '/t/inner.txt': 'inner content'}
    assert '/other/secret.txt' not in seen
    # a name given in files is never fetched; no prefix: nothing is
    seen[:] = []
    assert rf.fetch_allowed([doc], [base + '/t'], dict(got), Limits(), opener=OPENER) == {}
    assert rf.fetch_allowed([doc], [], {}, Limits(), opener=OPENER) == {} and seen == []


def test_a_redirect_out_of_the_prefixes_and_a_file_too_big_are_refused(web):
    base, _seen = web
    moved = {'x': {'get_file': base + '/t/moved'}}
    with pytest.raises(TemplateError, match='redirects to .*/other/secret.txt'):
        rf.fetch_allowed([moved], [base + '/t'], {}, Limits(), opener=OPENER)
    big = {'x': {'get_file': base + '/t/big'}}
    with pytest.raises(TemplateError, match='larger than 1000 bytes'):
        rf.fetch_allowed([big], [base + '/t'], {}, Limits(max_template_size=1000), opener=OPENER)
    gone = {'x': {'get_file': base + '/t/none'}}
    with pytest.raises(TemplateError, match='Could not fetch .*/t/none'):
        rf.fetch_allowed([gone], [base + '/t'], {}, Limits(), opener=OPENER)


def test_a_stack_reads_a_fetched_file_and_its_record_keeps_it(web, stacks):
    base, seen = web
    text = ('resources:\n  v:\n    type: OS::Heat::Value\n'
            '    properties: {value: {get_file: "%s/t/boot.sh"}}\n'
            'outputs:\n  o: {value: {get_attr: [v, value]}}\n' % base)
    with pytest.raises(StackersError, match='cannot fetch'):
        stacks.run(text)              # no allow-list: no URL
    assert seen == []
    made = stacks.run(text, files_allowed_urls=[base + '/t/'], url_opener=OPENER)
    assert made['stack']['stack_status'] == 'CREATE_COMPLETE', made['stack']
    assert made['stack']['outputs'][0]['output_value'] == PAGES['/t/boot.sh']
    store = stacks.store()
    try:
        assert store.get_stack('st')['definition']['files'][base + '/t/boot.sh'] == PAGES['/t/boot.sh']
    finally:
        store.close()


def test_no_opener_no_fetch():
    with pytest.raises(StackersError, match='no way to fetch'):
        rf.fetch_allowed([{'x': {'get_file': 'http://h/t/a'}}], ['http://h/t'], {}, Limits())
