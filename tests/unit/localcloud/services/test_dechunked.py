# -*- coding: utf-8 -*-
# Copyright: stackers.orchestration contributors
# GNU General Public License v3.0+ (see COPYING or https://www.gnu.org/licenses/gpl-3.0.txt)
"""localcloud/services/_base.serve's de-chunking: a chunked request body (what glanceclient
sends for Nova's snapshot upload) reaches the app as a plain one, over a real socket."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import http.client
import io
import socket
import threading

from localcloud.services import _base


def _echo(environ, start_response):
    body = environ['wsgi.input'].read(int(environ.get('CONTENT_LENGTH') or 0))
    seen = ('%s|%s|' % (environ.get('CONTENT_LENGTH'), environ.get('HTTP_TRANSFER_ENCODING'))).encode()
    start_response('200 OK', [('Content-Type', 'text/plain')])
    return [seen + body]


def test_read_chunked_reads_every_chunk_and_the_trailer():
    stream = io.BytesIO(b'5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\nrest')
    assert _base.read_chunked(stream) == b'hello world'
    assert stream.read() == b'rest'


def test_a_chunked_upload_reaches_the_app_whole(monkeypatch):
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    sock.listen(8)
    port = sock.getsockname()[1]
    monkeypatch.setattr(_base, 'inherited', lambda name: sock)
    monkeypatch.setattr(_base, 'ready', lambda name, port: None)
    _base.serve(_echo, port, '/image', 'test', background=True)
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    # a generator body: http.client sends it chunked, as requests does for glanceclient's file
    conn.request('PUT', '/image/v2/x/file', body=(c for c in (b'ab', b'cde', b'')),
                 encode_chunked=True, headers={'Transfer-Encoding': 'chunked'})
    answer = conn.getresponse()
    assert (answer.status, answer.read()) == (200, b'5|None|abcde')
    conn.close()
    threading.Thread(target=sock.close).start()
